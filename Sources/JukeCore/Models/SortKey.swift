public import Foundation

/// A case- and accent-insensitive key for grouping and sorting names ("Beyoncé" and
/// "beyonce" are one artist; "The Beatles" sorts under B).
public enum SortKey {
    public static func make(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    public static func sortName(_ text: String) -> String {
        let key = make(text)
        for article in ["the ", "a ", "an "] where key.hasPrefix(article) && key.count > article.count {
            return String(key.dropFirst(article.count))
        }
        return key
    }
}
