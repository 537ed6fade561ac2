/// The one entry point for chapters: which container a file is, and the chapters it declares.
public enum ChapterReader {
    /// Reads `source`, choosing the reader from the content's first bytes. Formats without a
    /// chapter list Juke reads (FLAC, Ogg, WAV) give one chapter spanning the file.
    public static func read(_ source: some ByteSource) throws(MediaFormatError) -> ChapterList {
        let head = try source.read(at: 0, count: 12)
        guard head.count >= 8 else { throw MediaFormatError(.truncated, at: 0, "file is \(head.count) bytes") }
        if ["ftyp", "moov", "free", "wide", "mdat", "skip"].contains(latin1String(head[4..<8])) {
            return try MP4ChapterReader.read(source)
        }
        let meta = try TagReader.read(source)
        if meta.format == .mp3 { return try ID3Chapters.read(source, duration: meta.duration) }
        return ChapterList(
            duration: meta.duration ?? 0, source: .none, chapters: ChapterTimeline.wholeFile(title: nil, duration: meta.duration))
    }

    /// Reads the file at `path`.
    public static func read(path: String) throws(MediaFormatError) -> ChapterList {
        try read(FileSource(path: path))
    }
}
