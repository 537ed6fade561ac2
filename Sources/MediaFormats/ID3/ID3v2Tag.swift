/// An ID3v2 tag (versions 2.2, 2.3 and 2.4) as a list of frames.
///
/// Handles whole-tag unsynchronisation (2.2/2.3), per-frame unsynchronisation and data
/// length indicators (2.4), extended headers, padding, and the non-syncsafe frame sizes
/// that iTunes wrote into 2.4 tags.
struct ID3v2Tag {
    struct Frame {
        let id: String
        let body: ArraySlice<UInt8>
        /// Offset in the file of the frame header, for error messages.
        let offset: Int
    }

    let majorVersion: UInt8
    /// Header, body and footer: the number of bytes the tag occupies at its offset.
    let totalSize: Int
    private(set) var frames: [Frame] = []

    /// Size of the tag that starts at `header` (10 bytes), or nil if it is not an ID3v2 header.
    static func declaredSize(header: [UInt8]) -> Int? {
        guard header.count >= 10, header[0] == 0x49, header[1] == 0x44, header[2] == 0x33,
            (2...4).contains(header[3]), header[4] != 0xFF,
            let size = Bytes.syncsafe(header[6..<10])
        else { return nil }
        let footer = header[3] == 4 && header[5] & 0x10 != 0 ? 10 : 0
        return 10 + Int(size) + footer
    }

    /// Parses a complete tag; `bytes` starts with the "ID3" header.
    init(bytes: [UInt8], fileOffset: Int = 0) throws(MediaFormatError) {
        guard let total = Self.declaredSize(header: bytes) else {
            throw MediaFormatError(.malformed, at: fileOffset, "not an ID3v2 header")
        }
        guard bytes.count >= total else {
            throw MediaFormatError(.truncated, at: fileOffset, "ID3v2 tag declares \(total) bytes, \(bytes.count) available")
        }
        majorVersion = bytes[3]
        totalSize = total
        let flags = bytes[5]
        let footerSize = majorVersion == 4 && flags & 0x10 != 0 ? 10 : 0
        var body = Array(bytes[10..<(total - footerSize)])
        let wholeTagUnsync = flags & 0x80 != 0
        if wholeTagUnsync && majorVersion < 4 { body = Self.removeUnsynchronisation(body[...]) }
        var reader = ByteReader(body, base: fileOffset + 10)

        if flags & 0x40 != 0 && majorVersion >= 3 {
            try Self.skipExtendedHeader(&reader, version: majorVersion)
        }

        switch majorVersion {
        case 2: try parseFrames22(&reader)
        default: try parseFrames(&reader, perFrameUnsyncDefault: wholeTagUnsync && majorVersion == 4)
        }
    }

    /// The frames embedded in a CHAP or CTOC frame (the ID3v2 Chapter Frame Addendum),
    /// which follow the rules of the tag that holds them.
    init(embeddedIn body: ArraySlice<UInt8>, majorVersion: UInt8, fileOffset: Int) throws(MediaFormatError) {
        self.majorVersion = majorVersion
        self.totalSize = body.count
        var reader = ByteReader(Array(body), base: fileOffset)
        if majorVersion == 2 { try parseFrames22(&reader) } else { try parseFrames(&reader, perFrameUnsyncDefault: false) }
    }

    private static func skipExtendedHeader(_ reader: inout ByteReader, version: UInt8) throws(MediaFormatError) {
        let start = reader.fileOffset
        // Some taggers set the extended-header flag and write none: the frames start at once
        // (mutagen and TagLib read on in that case too). No extended header's size reads as a
        // frame ID.
        if let next = reader.peek(4), Self.looksLikeFrameID(next) { return }
        let raw = try reader.bytes(4, "extended header size")
        if version == 4 {
            // 2.4: syncsafe size that includes the size field itself.
            guard let size = Bytes.syncsafe(raw), size >= 6 else {
                throw MediaFormatError(.malformed, at: start, "bad ID3v2.4 extended header size")
            }
            try reader.skip(Int(size) - 4, "ID3v2.4 extended header")
        } else {
            // 2.3: plain size that excludes the size field (6 or 10).
            let size = Int(Bytes.u32be(raw, raw.startIndex))
            try reader.skip(size, "ID3v2.3 extended header")
        }
    }

    static func looksLikeFrameID(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard bytes.count == 4, let first = bytes.first, (0x41...0x5A).contains(first) else { return false }
        return bytes.allSatisfy { (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) }
    }

    /// 2.2: three-character IDs and three-byte sizes, no flags.
    private mutating func parseFrames22(_ reader: inout ByteReader) throws(MediaFormatError) {
        while reader.remaining >= 6 {
            let offset = reader.fileOffset
            let idBytes = try reader.bytes(3, "frame id")
            if idBytes.first == 0 { return }  // padding
            guard idBytes.allSatisfy(Self.isFrameIDByte) else {
                throw MediaFormatError(.malformed, at: offset, "invalid ID3v2.2 frame id")
            }
            let size = Int(try reader.u24be())
            let id = String(decoding: idBytes, as: Unicode.ASCII.self)
            let body = try reader.sub(size, "ID3v2.2 frame \(id)")
            frames.append(Frame(id: id, body: body.bytes[body.position..<body.end], offset: offset))
        }
    }

    /// 2.3 and 2.4: four-character IDs, four-byte sizes, two flag bytes.
    private mutating func parseFrames(_ reader: inout ByteReader, perFrameUnsyncDefault: Bool) throws(MediaFormatError) {
        while reader.remaining >= 10 {
            let offset = reader.fileOffset
            let idBytes = try reader.bytes(4, "frame id")
            if idBytes.first == 0 { return }  // padding
            guard idBytes.allSatisfy(Self.isFrameIDByte) else {
                throw MediaFormatError(.malformed, at: offset, "invalid frame id")
            }
            let id = String(decoding: idBytes, as: Unicode.ASCII.self)
            let sizeBytes = try reader.bytes(4, "frame size")
            let flags = try reader.u16be()
            let size = frameSize(sizeBytes, in: reader)
            var frameReader = try reader.sub(size, "frame \(id)")
            guard let body = try frameBody(&frameReader, flags: flags, id: id, perFrameUnsyncDefault: perFrameUnsyncDefault)
            else { continue }
            frames.append(Frame(id: id, body: body, offset: offset))
        }
    }

    /// 2.3 sizes are plain; 2.4 sizes are syncsafe, except in tags written by old iTunes.
    /// When the syncsafe reading does not land on a frame (or padding) and the plain one
    /// does, the plain one is right.
    private func frameSize(_ raw: ArraySlice<UInt8>, in reader: ByteReader) -> Int {
        let plain = Int(Bytes.u32be(raw, raw.startIndex))
        guard majorVersion == 4 else { return plain }
        guard let safe = Bytes.syncsafe(raw).map(Int.init) else { return plain }
        if safe == plain { return safe }
        func landsOnFrame(_ size: Int) -> Bool {
            let next = reader.position + size
            if next == reader.end { return true }
            guard next + 4 <= reader.end else { return false }
            let id = reader.bytes[next..<next + 4]
            return id.allSatisfy { $0 == 0 } || id.allSatisfy(Self.isFrameIDByte)
        }
        if !landsOnFrame(safe) && landsOnFrame(plain) { return plain }
        return safe
    }

    /// The frame's payload after its flags are applied, or nil for frames Juke cannot
    /// read (compressed or encrypted), which are skipped without losing the others.
    private func frameBody(
        _ reader: inout ByteReader, flags: UInt16, id: String, perFrameUnsyncDefault: Bool
    ) throws(MediaFormatError) -> ArraySlice<UInt8>? {
        if majorVersion == 3 {
            if flags & 0x0080 != 0 || flags & 0x0040 != 0 { return nil }  // compressed, encrypted
            if flags & 0x0020 != 0 { try reader.skip(1, "group id of \(id)") }
            return reader.rest()
        }
        if flags & 0x0040 != 0 { try reader.skip(1, "group id of \(id)") }
        if flags & 0x0008 != 0 || flags & 0x0004 != 0 { return nil }
        if flags & 0x0001 != 0 { try reader.skip(4, "data length of \(id)") }
        let body = reader.rest()
        if flags & 0x0002 != 0 || perFrameUnsyncDefault { return Self.removeUnsynchronisation(body)[...] }
        return body
    }

    /// Reverses unsynchronisation: every 0xFF 0x00 pair becomes 0xFF.
    static func removeUnsynchronisation(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var previousWasFF = false
        for b in bytes {
            if previousWasFF && b == 0 {
                previousWasFF = false
                continue
            }
            out.append(b)
            previousWasFF = b == 0xFF
        }
        return out
    }

    static func isFrameIDByte(_ b: UInt8) -> Bool {
        (0x41...0x5A).contains(b) || (0x30...0x39).contains(b)
    }
}
