/// Right-to-left text back into reading order. A PDF draws glyphs where they stand on the page,
/// so Arabic and Hebrew arrive in visual order, left to right: each run of right-to-left letters
/// (with the spaces and marks between them) is read backwards, and left-to-right runs (Latin,
/// digits) stay as they are. The full Unicode bidi algorithm is more; this is what reading
/// aloud needs of a line.
enum PDFBidi {
    static func isRightToLeft(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF: true
        default: false
        }
    }

    static func logical(_ line: String) -> String {
        guard line.unicodeScalars.contains(where: isRightToLeft) else { return line }
        var out = ""
        var run: [Character] = []
        var neutral: [Character] = []  // spaces and punctuation after a right-to-left run, not yet placed
        func flush() {
            out += String(run.reversed())
            out += String(neutral)
            run = []
            neutral = []
        }
        for character in line {
            let scalar = character.unicodeScalars.first ?? " "
            if isRightToLeft(scalar) {
                run += neutral
                neutral = []
                run.append(character)
            } else if !run.isEmpty, !character.isLetter, !character.isNumber {
                neutral.append(character)
            } else {
                flush()
                out.append(character)
            }
        }
        flush()
        return out
    }
}
