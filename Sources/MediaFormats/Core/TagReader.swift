/// The one entry point: which format a file is, and its metadata.
public enum TagReader {
    /// File name extensions Juke scans, by format.
    public static let extensions: Set<String> = [
        "mp3", "m4a", "m4b", "mp4", "aac", "flac", "ogg", "oga", "opus", "wav", "wave", "aif", "aiff", "aifc", "dsf", "wma", "asf", "wv", "ape", "mpc",
    ]

    /// Reads `source`, choosing the parser from the content's first bytes (extensions lie).
    public static func read(_ source: some ByteSource) throws(MediaFormatError) -> AudioMetadata {
        let head = try source.read(at: 0, count: 16)
        guard head.count >= 4 else { throw MediaFormatError(.truncated, at: 0, "file is \(head.count) bytes") }
        if Bytes.startsWith(head, "fLaC") { return try FLACReader.read(source) }
        if Bytes.startsWith(head, "OggS") { return try OggReader.read(source) }
        if Bytes.startsWith(head, "RIFF") { return try WAVReader.read(source) }
        if Bytes.startsWith(head, "FORM"), head.count >= 12, ["AIFF", "AIFC"].contains(latin1String(head[8..<12])) {
            return try AIFFReader.read(source)
        }
        if Bytes.startsWith(head, "DSD ") { return try DSFReader.read(source) }
        if ASFReader.isASF(head) { return try ASFReader.read(source) }
        if Bytes.startsWith(head, "wvpk") { return try WavPackReader.read(source) }
        if Bytes.startsWith(head, "MAC ") { return try MonkeysAudioReader.read(source) }
        if Bytes.startsWith(head, "MPCK") || Bytes.startsWith(head, "MP+") { return try MusepackReader.read(source) }
        if head.count >= 8, head[4..<8].elementsEqual("ftyp".utf8) { return try MP4Reader.read(source) }
        if Bytes.startsWith(head, "ID3") {
            // An ID3v2 tag can also stand before FLAC data.
            if let size = ID3v2Tag.declaredSize(header: head.count >= 10 ? Array(head[0..<10]) : head),
                let after = try? source.read(at: size, count: 4), Bytes.startsWith(after, "fLaC")
            {
                return try FLACReader.read(source)
            }
            return try MP3Reader.read(source)
        }
        if head[0] == 0xFF && head[1] & 0xE0 == 0xE0 { return try MP3Reader.read(source) }
        if head.count >= 8, ["moov", "free", "wide", "mdat", "skip"].contains(latin1String(head[4..<8])) {
            return try MP4Reader.read(source)
        }
        return try MP3Reader.read(source)
    }

    /// Reads the file at `path`.
    public static func read(path: String) throws(MediaFormatError) -> AudioMetadata {
        try read(FileSource(path: path))
    }
}
