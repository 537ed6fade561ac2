/// Nero's chapter list, `moov/udta/chpl`: a version, flags, four more bytes in version 1,
/// a one-byte count, then per chapter a start in 100-nanosecond units and a title of at
/// most 255 UTF-8 bytes (read as FFmpeg reads it).
enum NeroChapters {
    static func parse(_ payload: [UInt8], offset: Int) throws(MediaFormatError) -> [ChapterTimeline.Mark] {
        var r = ByteReader(payload, base: offset)
        let version = try r.u8()
        try r.skip(3, "chpl flags")
        if version > 0 { try r.skip(4, "chpl reserved") }
        let count = Int(try r.u8())
        var marks: [ChapterTimeline.Mark] = []
        marks.reserveCapacity(count)
        for _ in 0..<count {
            let start = try r.u64be()
            let length = Int(try r.u8())
            let title = try r.bytes(length, "chpl title")
            marks.append(.init(title: TextEncoding.utf8.decode(title), start: Double(start) / 10_000_000))
        }
        return marks
    }
}
