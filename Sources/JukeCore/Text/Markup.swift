/// Text made safe inside HTML or XML, in element content and in quoted attributes alike.
public enum Markup {
    /// The five markup characters escaped (the apostrophe as `&#39;`, which both HTML and
    /// XML read), and the characters XML 1.0 cannot carry at all (most control characters,
    /// lone surrogates, U+FFFE and U+FFFF) dropped: no tag, library or user can break a page
    /// or an exported playlist.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default:
                let v = scalar.value
                let allowed = v == 0x9 || v == 0xA || v == 0xD || (0x20...0xD7FF).contains(v) || (0xE000...0xFFFD).contains(v) || v >= 0x10000
                if allowed { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }
}
