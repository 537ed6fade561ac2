import Feeds

/// A plain text file as an article: decoded (a BOM, else UTF-8, else Windows-1252), paragraphs
/// at blank lines (hard-wrapped lines joined), chapters at lines that read as headings
/// ("CHAPTER IV", "Chapter 4: The Storm", "# Heading", an all-capitals short line).
public enum TextArticle {
    public static func read(_ bytes: [UInt8], name: String) throws(ArticleError) -> Article {
        guard bytes.count <= Article.maxTextBytes else { throw .tooBig("the text is larger than \(Article.maxTextBytes >> 20) MB") }
        let decoder = FeedTextDecoder()
        var utf8 = decoder.decode(bytes)
        utf8 += decoder.decode([UInt8](), final: true)
        let text = String(decoding: utf8, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        var chapters: [Article.Chapter] = []
        var current = Article.Chapter(title: "", paragraphs: [])
        var paragraph: [String] = []
        func endParagraph() {
            let joined = Whitespace.collapse(paragraph.joined(separator: " "))
            if !joined.isEmpty { current.paragraphs.append(joined) }
            paragraph = []
        }
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = Whitespace.collapse(String(raw))
            if line.isEmpty {
                endParagraph()
            } else if paragraph.isEmpty, let heading = heading(line) {
                endParagraph()
                if !current.paragraphs.isEmpty { chapters.append(current) }
                current = Article.Chapter(title: heading, paragraphs: [])
            } else {
                paragraph.append(line)
            }
        }
        endParagraph()
        if !current.paragraphs.isEmpty { chapters.append(current) }
        guard !chapters.isEmpty else { throw .noText }
        // The first line of a text is usually its title.
        var title = stripExtension(name)
        if chapters[0].title.isEmpty, let first = chapters[0].paragraphs.first, first.count <= 120,
            chapters[0].paragraphs.count > 1 || chapters.count > 1
        {
            title = first
            chapters[0].paragraphs.removeFirst()
            if chapters[0].paragraphs.isEmpty { chapters.removeFirst() }
        }
        for index in chapters.indices where chapters[index].title.isEmpty {
            chapters[index].title = index == 0 ? title : "Part \(index + 1)"
        }
        return Article(title: title, chapters: chapters.filter { !$0.paragraphs.isEmpty })
    }

    static func heading(_ line: String) -> String? {
        if line.hasPrefix("#") {
            let text = Whitespace.collapse(String(line.drop { $0 == "#" }))
            return text.isEmpty ? nil : text
        }
        let lower = line.lowercased()
        for word in ["chapter ", "part ", "book ", "section "] where lower.hasPrefix(word) && line.count <= 80 {
            return line
        }
        let letters = line.filter(\.isLetter)
        if line.count <= 60, letters.count >= 3, letters.allSatisfy(\.isUppercase), !line.hasSuffix(".") { return line }
        return nil
    }

    static func stripExtension(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }
}
