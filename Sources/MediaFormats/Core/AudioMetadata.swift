/// Everything Juke reads from one audio file.
public struct AudioMetadata: Sendable, Equatable {
    public var format: AudioFormat
    public var title: String?
    public var artist: String?
    public var album: String?
    public var albumArtist: String?
    public var composer: String?
    public var genre: String?
    public var year: Int?
    public var trackNumber: Int?
    public var trackTotal: Int?
    public var discNumber: Int?
    public var discTotal: Int?
    public var isrc: String?
    /// MusicBrainz recording ID ("MusicBrainz Track Id" in Picard's naming).
    public var musicBrainzRecordingID: String?
    /// Beats per minute (ID3 TBPM, Vorbis BPM, MP4 tmpo), as DJ software and taggers write it.
    public var bpm: Double?
    /// Seconds of audio; nil when the container does not say and it cannot be estimated.
    public var duration: Double?
    public var sampleRate: Int?
    public var channels: Int?
    public var bitrate: Int?
    public var artwork: [Artwork]
    /// The song's words (ID3 USLT/SYLT, Vorbis LYRICS/UNSYNCEDLYRICS, MP4 ©lyr, APE Lyrics);
    /// synced ones are kept in preference to plain ones.
    public var lyrics: TaggedLyrics?
    /// The codec inside a container that holds several ("aac" or "alac" in MP4, say), where
    /// it decides whether a browser can play the file; nil where the format says it.
    public var codec: String?
    /// What was damaged and skipped (a metadata block whose size lies, an invalid frame):
    /// the rest of the file was still read.
    public var warnings: [String] = []

    public init(format: AudioFormat) {
        self.format = format
        self.artwork = []
    }

    /// The picture to show for this file: the front cover if tagged as one, else the first.
    public var frontCover: Artwork? {
        artwork.first { $0.kind == .frontCover } ?? artwork.first
    }

    /// Fills every field this value lacks from `other` (ID3v1 under ID3v2, say).
    mutating func fillGaps(from other: AudioMetadata) {
        title = title ?? other.title
        artist = artist ?? other.artist
        album = album ?? other.album
        albumArtist = albumArtist ?? other.albumArtist
        composer = composer ?? other.composer
        genre = genre ?? other.genre
        year = year ?? other.year
        trackNumber = trackNumber ?? other.trackNumber
        trackTotal = trackTotal ?? other.trackTotal
        discNumber = discNumber ?? other.discNumber
        discTotal = discTotal ?? other.discTotal
        isrc = isrc ?? other.isrc
        musicBrainzRecordingID = musicBrainzRecordingID ?? other.musicBrainzRecordingID
        bpm = bpm ?? other.bpm
        if artwork.isEmpty { artwork = other.artwork }
        lyrics = lyrics ?? other.lyrics
    }

    /// Keeps these lyrics unless synced ones are kept already (a file with both keeps the
    /// synced, whichever its tags list first).
    mutating func offer(_ found: TaggedLyrics?) {
        guard let found else { return }
        if lyrics == nil || (lyrics?.isSynced == false && found.isSynced) { lyrics = found }
    }
}

public enum AudioFormat: String, Sendable, CaseIterable, Codable {
    case mp3, mp4, flac, oggVorbis = "ogg_vorbis", opus, wav, aiff, dsf, asf, wavpack, monkeysAudio = "monkeys_audio", musepack

    /// The Content-Type a browser needs to play the file.
    public var mimeType: String {
        switch self {
        case .mp3: "audio/mpeg"
        case .mp4: "audio/mp4"
        case .flac: "audio/flac"
        case .oggVorbis: "audio/ogg"
        case .opus: "audio/ogg; codecs=opus"
        case .wav: "audio/wav"
        case .aiff: "audio/aiff"
        case .dsf: "audio/dsf"
        case .asf: "audio/x-ms-wma"
        case .wavpack: "audio/x-wavpack"
        case .monkeysAudio: "audio/x-ape"
        case .musepack: "audio/x-musepack"
        }
    }
}

public struct Artwork: Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case frontCover, other }
    public var mimeType: String
    public var kind: Kind
    public var data: [UInt8]

    public init(mimeType: String, kind: Kind, data: [UInt8]) {
        self.mimeType = mimeType
        self.kind = kind
        self.data = data
    }

    /// The MIME type from the picture's own first bytes; tags often lie or say "image/jpg".
    static func sniffedMimeType(_ data: ArraySlice<UInt8>, declared: String) -> String {
        let head = Array(data.prefix(8))
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        if head.starts(with: Array("GIF8".utf8)) { return "image/gif" }
        if head.count >= 4, head[0..<4].elementsEqual("RIFF".utf8) { return "image/webp" }
        let lower = declared.lowercased()
        switch lower {
        case "jpg", "image/jpg": return "image/jpeg"
        case "png": return "image/png"
        default: return lower.contains("/") ? lower : "application/octet-stream"
        }
    }
}

/// "3/12" or "3" into (3, 12) or (3, nil), as track and disc fields are written.
func parseNumberPair(_ text: String?) -> (Int?, Int?) {
    guard let text else { return (nil, nil) }
    let parts = text.split(separator: "/", maxSplits: 1).map { String($0).trimmingCharacters(in: " \0") }
    let first = parts.first.flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
    let second = parts.count > 1 ? Int(parts[1]).flatMap { $0 > 0 ? $0 : nil } : nil
    return (first, second)
}

/// Beats per minute from "128", "127.98" or "128 BPM"; nil outside 20...400, where a value is
/// a typo or a different unit, so a DJ engine never matches on it.
func parseBPM(_ text: String?) -> Double? {
    guard let text else { return nil }
    let digits = text.drop { $0 == " " }.prefix { ($0.isASCII && $0.isNumber) || $0 == "." || $0 == "," }
    let number = String(digits.map { $0 == "," ? "." : $0 })
    guard let value = Double(number), value.isFinite, (20...400).contains(value) else { return nil }
    return value
}

/// The year from "1999", "1999-05-02", "1999-05-02T10:00", "c. 1824" or "May 1999".
func parseYear(_ text: String?) -> Int? {
    guard let text else { return nil }
    var digits = 0
    var value = 0
    for scalar in text.unicodeScalars {
        if let d = Int(String(scalar)), scalar.isASCII {
            value = value * 10 + d
            digits += 1
            if digits == 4 { return (1000...2999).contains(value) ? value : nil }
        } else {
            digits = 0
            value = 0
        }
    }
    return nil
}

extension String {
    /// Trims spaces and the NUL padding that tag writers leave behind.
    /// This string without leading and trailing characters from `set`, which holds ASCII
    /// characters only (so cutting at their UTF-8 bytes always lands on a character
    /// boundary). Byte-wise: chapter lists and tag scans call this for every value.
    func trimmingCharacters(in set: StaticString) -> String {
        let trim = UnsafeBufferPointer(start: set.utf8Start, count: set.utf8CodeUnitCount)
        let bytes = utf8
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, trim.contains(bytes[start]) { start = bytes.index(after: start) }
        while end > start, trim.contains(bytes[bytes.index(before: end)]) { end = bytes.index(before: end) }
        if start == bytes.startIndex && end == bytes.endIndex { return self }
        return String(self[start..<end])
    }

    /// nil for an empty or blank string, so empty tags do not shadow real ones.
    var nonBlank: String? {
        let t = trimmingCharacters(in: " \0\t\r\n")
        return t.isEmpty ? nil : t
    }
}
