/// The 128-byte ID3v1 / v1.1 tag at the end of an MP3.
enum ID3v1Tag {
    static let size = 128

    /// Reads a tag from the last 128 bytes of a file, or nil if there is none.
    static func parse(_ bytes: [UInt8]) -> AudioMetadata? {
        guard bytes.count == size, bytes[0] == 0x54, bytes[1] == 0x41, bytes[2] == 0x47 else { return nil }
        func field(_ range: Range<Int>) -> String? {
            let raw = bytes[range]
            let cut = raw.firstIndex(of: 0).map { raw[raw.startIndex..<$0] } ?? raw
            return TextEncoding.latin1.decode(cut).nonBlank
        }
        var meta = AudioMetadata(format: .mp3)
        meta.title = field(3..<33)
        meta.artist = field(33..<63)
        meta.album = field(63..<93)
        meta.year = parseYear(field(93..<97))
        // v1.1: a zero byte before the last comment byte makes that byte the track number.
        if bytes[125] == 0 && bytes[126] != 0 { meta.trackNumber = Int(bytes[126]) }
        meta.genre = Genres.id3v1Name(Int(bytes[127]))
        return meta
    }
}
