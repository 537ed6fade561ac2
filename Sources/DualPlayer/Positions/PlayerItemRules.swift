import JukeCore

/// What a player may hold, as a device saves it: an id of plain characters, titles of
/// reasonable length, a chapter index a book can have, and media addresses on this server
/// (`MediaAddress`). Saved states load into every device's players, so anything else is
/// refused rather than stored.
public enum PlayerItemRules {
    /// The highest chapter index a saved state may name (the chapter reader's limit).
    public static let maxChapter = 100_000
    public static let maxTitle = 500
    public static let maxID = 100

    public static func validate(
        id: String, title: String, subtitle: String?, audioURL: String, artworkURL: String?, chapter: Int?
    ) throws(RuleRefusal) {
        _ = try MediaAddress.validated(audioURL, field: "audio_url")
        if let artworkURL { _ = try MediaAddress.validated(artworkURL, field: "artwork_url") }
        guard !id.isEmpty, id.count <= maxID, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._:-".contains($0)) }) else {
            throw .invalid("id", "an item id is letters, digits and . _ : -")
        }
        // Lengths in code points, as the contract's JSON Schema counts them.
        guard title.unicodeScalars.count <= maxTitle, (subtitle ?? "").unicodeScalars.count <= maxTitle else {
            throw .invalid("title", "titles are at most \(maxTitle) characters")
        }
        guard (0...maxChapter).contains(chapter ?? 0) else { throw .invalid("chapter", "a chapter is a number from 0 to \(maxChapter)") }
    }
}
