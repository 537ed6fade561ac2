import Matching

/// What makes two songs the same for song memory: the normalized artist and title (so
/// "The Beatles – Let It Be (Remastered 2009)" is "Beatles - Let It Be"), or the ISRC.
public struct SongKey: Sendable, Codable, Hashable {
    public let text: String
    public let isrc: String?

    public init(artist: String, title: String, isrc: String? = nil) {
        let a = MusicTextNormalizer.artist(artist).key
        let t = MusicTextNormalizer.title(title)
        // A part number keeps "Pt. 1" and "Pt. 2" apart; version tags (live, remaster) do not.
        let part = t.part.map { " part \($0)" } ?? ""
        text = "\(a)\u{1F}\(t.key)\(part)"
        let code = isrc?.uppercased().filter { $0.isLetter || $0.isNumber } ?? ""
        self.isrc = code.count == 12 ? code : nil
    }

    public init(_ song: Song) { self.init(artist: song.artist, title: song.title, isrc: song.isrc) }

    /// A key as it was stored (its text already normalized).
    public init(storedText: String, isrc: String?) {
        text = storedText
        self.isrc = isrc
    }

    /// The same recording (ISRC) or the same song by name.
    public func matches(_ other: SongKey) -> Bool {
        if let a = isrc, let b = other.isrc, a == b { return true }
        return text == other.text
    }
}
