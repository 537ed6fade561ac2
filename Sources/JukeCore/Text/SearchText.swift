import Foundation

/// Text as search sees it: lower case, accents folded, split into words of letters and digits.
/// Shared by the in-memory search index and the stored words the database searches while
/// that index is being built, so both find the same tracks.
public enum SearchText {
    public static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// Words of letters and digits. A word with an apostrophe counts whole and as its part
    /// before the apostrophe, so "don't" is found by "dont" and "Beethoven's" by "beethoven".
    public static func tokens(_ text: String) -> [String] {
        var out: [String] = []
        var current = ""
        var beforeApostrophe: String?
        func flush() {
            if !current.isEmpty { out.append(current) }
            if let stem = beforeApostrophe, !stem.isEmpty, stem != current { out.append(stem) }
            current = ""
            beforeApostrophe = nil
        }
        for scalar in fold(text).unicodeScalars {
            if CharacterSet.alphanumerics.contains(scalar) {
                current.unicodeScalars.append(scalar)
            } else if scalar == "'" || scalar == "\u{2019}" {
                if beforeApostrophe == nil { beforeApostrophe = current }
            } else {
                flush()
            }
        }
        flush()
        return out
    }
}

extension SearchText {
    /// A track's words as stored for the database's search: every word once, each with a
    /// space before and after, so that a word starting with a prefix is `LIKE '% prefix%'`.
    public static func storedWords(of texts: [String?]) -> String {
        var seen = Set<String>()
        var out = " "
        for text in texts {
            guard let text else { continue }
            for word in tokens(text) where seen.insert(word).inserted { out += word + " " }
        }
        return out
    }
}
