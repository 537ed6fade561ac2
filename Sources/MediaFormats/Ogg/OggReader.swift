/// Reads Ogg Vorbis and Ogg Opus: the identification and comment packets of the first
/// logical stream, and the duration from the granule position of its last page.
enum OggReader {
    /// Comment packets carry base64 artwork and can span pages; this caps what is assembled.
    static let maxHeaderPacketBytes = 16 * 1024 * 1024
    /// How much of the file's tail to search for the last page.
    static let tailWindow = 128 * 1024

    struct Page {
        let offset: Int
        let headerType: UInt8
        let granule: UInt64
        let serial: UInt32
        let segments: [UInt8]
        var headerSize: Int { 27 + segments.count }
        var bodySize: Int { segments.reduce(0) { $0 + Int($1) } }
    }

    static func readPage(_ source: some ByteSource, at offset: Int) throws(MediaFormatError) -> Page {
        let fixed = try source.readExactly(at: offset, count: 27, what: "Ogg page header")
        guard fixed[0..<4].elementsEqual("OggS".utf8) else { throw MediaFormatError(.malformed, at: offset, "expected an Ogg page") }
        guard fixed[4] == 0 else { throw MediaFormatError(.malformed, at: offset + 4, "unknown Ogg version \(fixed[4])") }
        var r = ByteReader(fixed, base: offset)
        try r.skip(5)
        let type = try r.u8()
        let granule = try r.u64le()
        let serial = try r.u32le()
        let count = Int(fixed[26])
        let segments = try source.readExactly(at: offset + 27, count: count, what: "Ogg lacing values")
        return Page(offset: offset, headerType: type, granule: granule, serial: serial, segments: segments)
    }

    static func read(_ source: some ByteSource) throws(MediaFormatError) -> AudioMetadata {
        let first = try readPage(source, at: 0)
        let serial = first.serial
        // Assemble the first two packets of the first stream.
        var packets: [[UInt8]] = []
        var current: [UInt8] = []
        var page = first
        while packets.count < 2 {
            let body = try source.readExactly(at: page.offset + page.headerSize, count: page.bodySize, what: "Ogg page body")
            var position = 0
            for lace in page.segments {
                current.append(contentsOf: body[position..<position + Int(lace)])
                position += Int(lace)
                guard current.count <= maxHeaderPacketBytes else {
                    throw MediaFormatError(.malformed, at: page.offset, "Ogg header packet larger than \(maxHeaderPacketBytes) bytes")
                }
                if lace < 255 {
                    packets.append(current)
                    current = []
                    if packets.count == 2 { break }
                }
            }
            if packets.count == 2 { break }
            var next = page.offset + page.headerSize + page.bodySize
            // Skip pages of other multiplexed streams.
            repeat {
                guard next < source.size else {
                    throw MediaFormatError(.truncated, at: next, "Ogg stream ends inside its header packets")
                }
                page = try readPage(source, at: next)
                next = page.offset + page.headerSize + page.bodySize
            } while page.serial != serial
        }

        let id = packets[0]
        var meta: AudioMetadata
        var rate = 0
        var preSkip = 0
        let commentBase = 0  // comment packets are assembled across pages; offsets are approximate
        if Bytes.startsWith(id, "\u{01}vorbis") {
            guard id.count >= 16 else { throw MediaFormatError(.truncated, at: 0, "Vorbis identification header too short") }
            meta = AudioMetadata(format: .oggVorbis)
            meta.channels = Int(id[11])
            rate = Int(Bytes.u32le(id[...], 12))
            let nominal = Int(Int32(bitPattern: Bytes.u32le(id[...], 20)))
            if nominal > 0 { meta.bitrate = nominal }
            let comments = packets[1]
            guard Bytes.startsWith(comments, "\u{03}vorbis") else {
                throw MediaFormatError(.malformed, at: 0, "second Vorbis packet is not the comment header")
            }
            VorbisComments.apply(try VorbisComments.parse(comments[7...], base: commentBase), to: &meta)
        } else if Bytes.startsWith(id, "OpusHead") {
            guard id.count >= 19 else { throw MediaFormatError(.truncated, at: 0, "OpusHead too short") }
            meta = AudioMetadata(format: .opus)
            meta.channels = Int(id[9])
            preSkip = Int(UInt16(id[11]) << 8 | UInt16(id[10]))
            rate = 48000  // Opus granule positions always count 48 kHz samples.
            let inputRate = Int(Bytes.u32le(id[...], 12))
            meta.sampleRate = inputRate > 0 ? inputRate : 48000
            let comments = packets[1]
            guard Bytes.startsWith(comments, "OpusTags") else {
                throw MediaFormatError(.malformed, at: 0, "second Opus packet is not OpusTags")
            }
            VorbisComments.apply(try VorbisComments.parse(comments[8...], base: commentBase), to: &meta)
        } else {
            throw MediaFormatError(.unsupported, at: 0, "Ogg stream is neither Vorbis nor Opus")
        }
        if meta.format == .oggVorbis { meta.sampleRate = rate }
        if rate > 0, let granule = try lastGranule(source, serial: serial), granule > UInt64(preSkip) {
            meta.duration = Double(granule - UInt64(preSkip)) / Double(rate)
            if meta.bitrate == nil, let d = meta.duration, d > 0 { meta.bitrate = Int(Double(source.size * 8) / d) }
        }
        return meta
    }

    /// The granule position of the last complete page of the stream, searching the tail.
    static func lastGranule(_ source: some ByteSource, serial: UInt32) throws(MediaFormatError) -> UInt64? {
        let start = max(0, source.size - tailWindow)
        let tail = try source.read(at: start, count: source.size - start)
        var i = tail.count - 27
        while i >= 0 {
            if tail[i] == 0x4F, tail[i + 1] == 0x67, tail[i + 2] == 0x67, tail[i + 3] == 0x53, tail[i + 4] == 0 {
                let pageSerial = Bytes.u32le(tail[...], i + 14)
                var granule: UInt64 = 0
                for k in 0..<8 { granule |= UInt64(tail[i + 6 + k]) << (8 * UInt64(k)) }
                if pageSerial == serial, granule != UInt64.max { return granule }
            }
            i -= 1
        }
        return nil
    }
}
