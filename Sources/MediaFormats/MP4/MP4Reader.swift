/// Reads MP4 / M4A / M4B files: iTunes-style metadata in moov/udta/meta/ilst, the duration
/// from mvhd, and sample rate and channels from the first audio sample description.
enum MP4Reader {
    /// The moov box is read into memory whole; anything larger than this is not a music file's.
    static let maxMoovSize = 64 * 1024 * 1024

    static func read(_ source: some ByteSource) throws(MediaFormatError) -> AudioMetadata {
        let (top, clipped) = try MP4Box.topLevel(of: source)
        guard let ftypOrMoov = top.first, ["ftyp", "moov", "free", "skip", "wide", "mdat"].contains(ftypOrMoov.type) else {
            throw MediaFormatError(.unsupported, at: 0, "not an MP4 file")
        }
        guard let moov = top.first(where: { $0.type == "moov" }) else {
            if let clipped { throw MediaFormatError(.truncated, at: clipped.offset, "MP4 file ends inside its mdat, before any moov box") }
            throw MediaFormatError(.malformed, at: 0, "MP4 file has no moov box")
        }
        guard moov.payloadSize <= maxMoovSize else {
            throw MediaFormatError(.malformed, at: moov.offset, "moov box of \(moov.payloadSize) bytes is too large")
        }
        let payload = try source.readExactly(at: moov.payloadOffset, count: moov.payloadSize, what: "moov box")
        var meta = AudioMetadata(format: .mp4)
        try readMoov(payload[...], base: moov.payloadOffset, into: &meta)
        if let clipped { meta.warnings.append("MP4 mdat box at byte \(clipped.offset) runs past the end of the file (cut short)") }
        if let duration = meta.duration, duration > 0,
            let mdat = top.first(where: { $0.type == "mdat" })
        {
            meta.bitrate = Int(Double(mdat.payloadSize * 8) / duration)
        }
        return meta
    }

    static func readMoov(_ moov: ArraySlice<UInt8>, base: Int, into meta: inout AudioMetadata) throws(MediaFormatError) {
        var sawAudioTrack = false
        for child in try MP4Box.children(of: moov, base: base) {
            switch child.type {
            case "mvhd": meta.duration = try movieDuration(child.payload, offset: child.offset)
            case "udta":
                for u in try MP4Box.children(of: child.payload, base: child.offset + 8) where u.type == "meta" {
                    try readMeta(u.payload, base: u.offset + 8, into: &meta)
                }
            case "meta": try readMeta(child.payload, base: child.offset + 8, into: &meta)
            case "trak" where !sawAudioTrack:
                sawAudioTrack = try readAudioTrack(child.payload, base: child.offset + 8, into: &meta)
            default: break
            }
        }
    }

    /// mvhd's timescale (units per second), or nil when the box is too short to say.
    static func movieTimescale(_ p: ArraySlice<UInt8>) -> UInt32? {
        guard let version = p.first else { return nil }
        let at = p.startIndex + (version == 1 ? 20 : 12)
        guard p.endIndex >= at + 4 else { return nil }
        return Bytes.u32be(p, at)
    }

    static func movieDuration(_ p: ArraySlice<UInt8>, offset: Int) throws(MediaFormatError) -> Double? {
        var r = ByteReader(Array(p), base: offset + 8)
        let version = try r.u8()
        try r.skip(3, "mvhd flags")
        let timescale: UInt32
        let duration: UInt64
        if version == 1 {
            try r.skip(16, "mvhd dates")
            timescale = try r.u32be()
            duration = try r.u64be()
        } else {
            try r.skip(8, "mvhd dates")
            timescale = try r.u32be()
            duration = UInt64(try r.u32be())
        }
        guard timescale > 0, duration != UInt64.max, duration != UInt64(UInt32.max) else { return nil }
        return Double(duration) / Double(timescale)
    }

    /// meta is a full box in MP4 (version and flags first) but a plain box in QuickTime files.
    static func readMeta(_ p: ArraySlice<UInt8>, base: Int, into meta: inout AudioMetadata) throws(MediaFormatError) {
        var body = p
        var bodyBase = base
        if p.count >= 8, latin1String(p[p.startIndex + 4..<p.startIndex + 8]) != "hdlr" {
            body = p.dropFirst(4)
            bodyBase += 4
        }
        for child in try MP4Box.children(of: body, base: bodyBase) where child.type == "ilst" {
            for item in try MP4Box.children(of: child.payload, base: child.offset + 8) {
                try ILSTItem.apply(type: item.type, payload: item.payload, offset: item.offset, to: &meta)
            }
        }
    }

    /// The sample entry's type as a codec name: AAC and ALAC look alike from outside.
    static func codecName(_ type: String) -> String {
        switch type {
        case "mp4a": "aac"
        case "alac": "alac"
        case "ac-3": "ac3"
        case "ec-3": "eac3"
        case "Opus": "opus"
        case "fLaC": "flac"
        case ".mp3": "mp3"
        default: String(type.filter { $0.isLetter || $0.isNumber }).lowercased()
        }
    }

    /// trak/mdia/(hdlr 'soun')/minf/stbl/stsd: channels and sample rate. Returns whether
    /// this track was an audio track.
    static func readAudioTrack(_ trak: ArraySlice<UInt8>, base: Int, into meta: inout AudioMetadata) throws(MediaFormatError) -> Bool {
        guard let mdia = try MP4Box.children(of: trak, base: base).first(where: { $0.type == "mdia" }) else { return false }
        let mdiaChildren = try MP4Box.children(of: mdia.payload, base: mdia.offset + 8)
        guard let hdlr = mdiaChildren.first(where: { $0.type == "hdlr" }), hdlr.payload.count >= 12,
            hdlr.payload.dropFirst(8).prefix(4).elementsEqual("soun".utf8),
            let minf = mdiaChildren.first(where: { $0.type == "minf" }),
            let stbl = try MP4Box.children(of: minf.payload, base: minf.offset + 8).first(where: { $0.type == "stbl" }),
            let stsd = try MP4Box.children(of: stbl.payload, base: stbl.offset + 8).first(where: { $0.type == "stsd" })
        else { return false }
        // stsd: version/flags (4), entry count (4), then sample entries.
        let entries = stsd.payload.dropFirst(8)
        guard let entry = try MP4Box.children(of: entries, base: stsd.offset + 16).first else { return true }
        // AudioSampleEntry: 6 reserved + 2 data ref index + 8 reserved, channels (2),
        // sample size (2), 4 reserved, sample rate as 16.16 fixed point.
        meta.codec = codecName(entry.type)
        let e = entry.payload
        if e.count >= 28 {
            let s = e.startIndex
            meta.channels = Int(UInt16(e[s + 16]) << 8 | UInt16(e[s + 17]))
            meta.sampleRate = Int(Bytes.u32be(e, s + 24) >> 16)
        }
        return true
    }
}
