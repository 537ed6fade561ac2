/// pdftotext's output (its default mode, not -layout) as pages of paragraphs. Its default
/// mode writes each block of text in reading order, a column after a column, with a blank line
/// between blocks, and a form feed after each page: a block is a paragraph, and its lines,
/// broken where the page broke them, are joined again. (-layout keeps columns side by side on
/// the same lines, which reads across them: not prose.)
enum PDFTextOutput {
    static func pages(_ output: String) -> [[String]] {
        var pages = output.split(separator: "\u{0C}", omittingEmptySubsequences: false).map { Self.paragraphs(String($0)) }
        // The form feed that ends the last page leaves nothing after it.
        if pages.count > 1, pages.last?.isEmpty == true { pages.removeLast() }
        return pages
    }

    /// A page's blocks, each split again where a line ends a sentence well short of the
    /// block's usual width (pdftotext keeps paragraphs set without extra space in one block;
    /// Juke's own reader splits them by the same rule, `TextLayout`).
    static func paragraphs(_ page: String) -> [String] {
        var blocks: [[String]] = [[]]
        for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
            let text = Whitespace.collapse(String(line))
            if !text.isEmpty {
                blocks[blocks.count - 1].append(text)
            } else if blocks[blocks.count - 1].count > 0 {
                blocks.append([])
            }
        }
        var out: [String] = []
        for lines in blocks where !lines.isEmpty {
            let lengths = lines.map(\.count).sorted()
            let usual = lengths[lengths.count * 3 / 4]
            var start = 0
            for (index, line) in lines.enumerated() where index + 1 == lines.count || (line.count < usual * 7 / 10 && ".!?:\"”’".contains(line.last ?? " ")) {
                out += joined(lines[start...index])
                start = index + 1
            }
        }
        return out
    }

    /// Lines of one paragraph as its text.
    static func joined(_ lines: ArraySlice<String>) -> [String] {
        var current = ""
        for text in lines {
            if current.hasSuffix("-"), let last = current.dropLast().last, last.isLetter, text.first?.isLowercase == true {
                // A word hyphenated at the line's end (the next line goes on in lower case).
                current = String(current.dropLast()) + text
            } else {
                current += current.isEmpty ? text : " " + text
            }
        }
        let text = Whitespace.collapse(current)
        return text.isEmpty ? [] : [text]
    }
}
