import Foundation

/// What text a person may type into Juke: no character that is invisible yet changes what
/// a reader sees, or how a log line or another screen shows it.
///
/// Refused everywhere: control characters (C0, DEL, C1) and the bidirectional embedding,
/// override and isolate controls (U+202A–U+202E, U+2066–U+2069), which can make a name read
/// backwards ("gpj.exe" shown as "exe.jpg"). The marks U+200E/U+200F stay allowed: right-to-left
/// writing needs them. A one-line field (a name, a title) also refuses tab, line breaks and
/// the Unicode line and paragraph separators; free text (a description) keeps them.
public enum TextRules {
    public enum Kind: Sendable {
        case line
        case multiline
    }

    public static func isAllowed(_ text: some StringProtocol, as kind: Kind = .line) -> Bool {
        text.unicodeScalars.allSatisfy { isAllowed($0, as: kind) }
    }

    public static func isAllowed(_ scalar: Unicode.Scalar, as kind: Kind) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: return kind == .multiline
        case 0x00...0x1F, 0x7F...0x9F: return false
        case 0x2028, 0x2029: return kind == .multiline
        case 0x202A...0x202E, 0x2066...0x2069: return false
        default: return true
        }
    }

    /// Text from outside (a file's tags, a directory's station, a catalogue's title, a feed's
    /// or a page's title) made fit for a one-line field: tabs and line breaks become spaces,
    /// other refused characters are dropped, runs of white space become one space (a title
    /// wrapped over lines in its source reads as one line), the ends trimmed, at most `limit`
    /// characters kept. The one helper for every place outside text becomes a stored title.
    public static func cleaned(_ text: some StringProtocol, limit: Int = Int.max) -> String {
        var scalars = String.UnicodeScalarView()
        var afterSpace = true  // drops leading white space too
        for scalar in text.unicodeScalars {
            let kept: Unicode.Scalar
            if isAllowed(scalar, as: .line) {
                kept = scalar
            } else if isAllowed(scalar, as: .multiline) {
                kept = " "
            } else {
                continue
            }
            if kept.properties.isWhitespace {
                if !afterSpace { scalars.append(" ") }
                afterSpace = true
            } else {
                scalars.append(kept)
                afterSpace = false
            }
        }
        let trimmed = String(scalars).trimmingCharacters(in: .whitespaces)
        return trimmed.unicodeScalars.count <= limit ? trimmed : String(String.UnicodeScalarView(trimmed.unicodeScalars.prefix(limit)))
    }

    /// `cleaned`, or nil when nothing is left.
    public static func cleanedOrNil(_ text: (some StringProtocol)?, limit: Int = Int.max) -> String? {
        guard let text else { return nil }
        let clean = cleaned(text, limit: limit)
        return clean.isEmpty ? nil : clean
    }
}
