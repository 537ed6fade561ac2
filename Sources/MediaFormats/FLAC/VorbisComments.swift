/// Vorbis comments (FLAC's VORBIS_COMMENT block, Ogg Vorbis and Opus tags): a vendor
/// string and KEY=value pairs, all little-endian lengths.
enum VorbisComments {
    static func parse(_ bytes: ArraySlice<UInt8>, base: Int) throws(MediaFormatError) -> [(key: String, value: String)] {
        var r = ByteReader(Array(bytes), base: base)
        let vendorLength = Int(try r.u32le())
        try r.skip(vendorLength, "vendor string")
        let count = Int(try r.u32le())
        // Each comment needs at least its 4-byte length: a count larger than that is a lie.
        guard count <= r.remaining / 4 else {
            throw r.error(.malformed, "\(count) comments cannot fit in \(r.remaining) bytes")
        }
        var out: [(String, String)] = []
        out.reserveCapacity(count)
        for _ in 0..<count {
            let length = Int(try r.u32le())
            let raw = try r.bytes(length, "comment")
            guard let eq = raw.firstIndex(of: 0x3D) else { continue }
            let key = String(decoding: raw[raw.startIndex..<eq], as: UTF8.self).uppercased()
            out.append((key, String(decoding: raw[(eq + 1)...], as: UTF8.self)))
        }
        return out
    }

    static func apply(_ comments: [(key: String, value: String)], to meta: inout AudioMetadata) {
        var date: String?
        for (key, rawValue) in comments {
            guard let value = rawValue.nonBlank else { continue }
            switch key {
            case "TITLE": meta.title = meta.title ?? value
            case "ARTIST": meta.artist = meta.artist ?? value
            case "ALBUM": meta.album = meta.album ?? value
            case "ALBUMARTIST", "ALBUM ARTIST", "ALBUM_ARTIST": meta.albumArtist = meta.albumArtist ?? value
            case "COMPOSER": meta.composer = meta.composer ?? value
            case "GENRE": meta.genre = meta.genre ?? value
            case "DATE", "YEAR", "ORIGINALDATE": date = date ?? value
            case "TRACKNUMBER":
                let (n, t) = parseNumberPair(value)
                meta.trackNumber = meta.trackNumber ?? n
                meta.trackTotal = meta.trackTotal ?? t
            case "TRACKTOTAL", "TOTALTRACKS": meta.trackTotal = meta.trackTotal ?? parseNumberPair(value).0
            case "DISCNUMBER":
                let (n, t) = parseNumberPair(value)
                meta.discNumber = meta.discNumber ?? n
                meta.discTotal = meta.discTotal ?? t
            case "DISCTOTAL", "TOTALDISCS": meta.discTotal = meta.discTotal ?? parseNumberPair(value).0
            case "ISRC": meta.isrc = meta.isrc ?? value
            case "BPM", "TEMPO": meta.bpm = meta.bpm ?? parseBPM(value)
            case "LYRICS", "UNSYNCEDLYRICS", "SYNCEDLYRICS": meta.offer(TaggedLyrics.make(value))
            case "MUSICBRAINZ_TRACKID": meta.musicBrainzRecordingID = meta.musicBrainzRecordingID ?? value
            case "METADATA_BLOCK_PICTURE":
                if let decoded = Base64.decode(value), let art = try? FLACPicture.parse(decoded[...], base: 0) {
                    meta.artwork.append(art)
                }
            default: break
            }
        }
        meta.year = meta.year ?? parseYear(date)
    }
}

/// The FLAC PICTURE block, also base64-encoded inside Ogg comments.
enum FLACPicture {
    static func parse(_ bytes: ArraySlice<UInt8>, base: Int) throws(MediaFormatError) -> Artwork {
        var r = ByteReader(Array(bytes), base: base)
        let type = try r.u32be()
        let mimeLength = Int(try r.u32be())
        let mime = TextEncoding.latin1.decode(try r.bytes(mimeLength, "picture MIME type"))
        let descriptionLength = Int(try r.u32be())
        try r.skip(descriptionLength, "picture description")
        try r.skip(16, "picture dimensions")
        let dataLength = Int(try r.u32be())
        let data = try r.bytes(dataLength, "picture data")
        return Artwork(mimeType: Artwork.sniffedMimeType(data, declared: mime), kind: type == 3 ? .frontCover : .other, data: Array(data))
    }
}

/// Standard base64 (RFC 4648) decoding, tolerant of missing padding; nil on bad characters.
enum Base64 {
    static func decode(_ text: String) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        for c in text.utf8 {
            let v: UInt8
            switch c {
            case 0x41...0x5A: v = c - 0x41
            case 0x61...0x7A: v = c - 0x61 + 26
            case 0x30...0x39: v = c - 0x30 + 52
            case 0x2B: v = 62
            case 0x2F: v = 63
            case 0x3D, 0x0A, 0x0D: continue
            default: return nil
            }
            buffer = buffer << 6 | UInt32(v)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8((buffer >> UInt32(bits)) & 0xFF))
            }
        }
        return out
    }
}
