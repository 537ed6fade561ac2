/// Turns ID3v2 frames into `AudioMetadata` fields.
enum ID3v2Metadata {
    static func apply(_ tag: ID3v2Tag, to meta: inout AudioMetadata) {
        let v22 = tag.majorVersion == 2
        var recordingDate: String?
        var tyer: String?
        for frame in tag.frames {
            let id = v22 ? (v22Names[frame.id] ?? frame.id) : frame.id
            switch id {
            case "TIT2": meta.title = meta.title ?? text(frame.body)
            case "TPE1": meta.artist = meta.artist ?? text(frame.body)
            case "TALB": meta.album = meta.album ?? text(frame.body)
            case "TPE2": meta.albumArtist = meta.albumArtist ?? text(frame.body)
            case "TCOM": meta.composer = meta.composer ?? text(frame.body)
            case "TCON": meta.genre = meta.genre ?? text(frame.body).flatMap(Genres.resolveID3)
            case "TRCK":
                let (n, t) = parseNumberPair(text(frame.body))
                meta.trackNumber = meta.trackNumber ?? n
                meta.trackTotal = meta.trackTotal ?? t
            case "TPOS":
                let (n, t) = parseNumberPair(text(frame.body))
                meta.discNumber = meta.discNumber ?? n
                meta.discTotal = meta.discTotal ?? t
            case "TDRC", "TDOR": recordingDate = recordingDate ?? text(frame.body)
            case "TYER", "TORY": tyer = tyer ?? text(frame.body)
            case "TSRC": meta.isrc = meta.isrc ?? text(frame.body)
            case "TBPM": meta.bpm = meta.bpm ?? parseBPM(text(frame.body))
            case "TLEN":
                if meta.duration == nil, let ms = text(frame.body).flatMap({ Double($0) }), ms > 0 {
                    meta.duration = ms / 1000
                }
            case "TXXX":
                if let (key, value) = userText(frame.body),
                    ["musicbrainz track id", "musicbrainz recording id"].contains(key.lowercased())
                {
                    meta.musicBrainzRecordingID = meta.musicBrainzRecordingID ?? value
                } else if let (key, value) = userText(frame.body), key.uppercased() == "ISRC" {
                    meta.isrc = meta.isrc ?? value
                }
            case "UFID":
                let (owner, rest) = TextEncoding.latin1.splitTerminated(frame.body)
                if TextEncoding.latin1.decode(owner) == "http://musicbrainz.org" {
                    meta.musicBrainzRecordingID =
                        meta.musicBrainzRecordingID
                        ?? TextEncoding.latin1.decode(rest).nonBlank
                }
            case "APIC":
                if let art = picture(frame.body, v22: v22) { meta.artwork.append(art) }
            case "USLT": meta.offer(unsyncedLyrics(frame.body))
            case "SYLT": meta.offer(syncedLyrics(frame.body))
            default: break
            }
        }
        meta.year = meta.year ?? parseYear(recordingDate) ?? parseYear(tyer)
    }

    /// First value of a text frame: encoding byte, then text.
    static func text(_ body: ArraySlice<UInt8>) -> String? {
        guard let first = body.first, let encoding = TextEncoding(id3Byte: first) else { return nil }
        return encoding.decodeList(body.dropFirst()).lazy.compactMap(\.nonBlank).first
    }

    /// TXXX: encoding, description, value.
    static func userText(_ body: ArraySlice<UInt8>) -> (String, String)? {
        guard let first = body.first, let encoding = TextEncoding(id3Byte: first) else { return nil }
        let (key, rest) = encoding.splitTerminated(body.dropFirst())
        guard let value = encoding.decodeList(rest).lazy.compactMap(\.nonBlank).first else { return nil }
        return (encoding.decode(key), value)
    }

    /// APIC (2.3/2.4): encoding, MIME type, picture type, description, data.
    /// PIC (2.2): encoding, three-letter format, picture type, description, data.
    static func picture(_ body: ArraySlice<UInt8>, v22: Bool) -> Artwork? {
        guard let first = body.first, let encoding = TextEncoding(id3Byte: first) else { return nil }
        var rest = body.dropFirst()
        let declared: String
        if v22 {
            guard rest.count >= 3 else { return nil }
            declared = TextEncoding.latin1.decode(rest.prefix(3))
            rest = rest.dropFirst(3)
        } else {
            let (mime, after) = TextEncoding.latin1.splitTerminated(rest)
            declared = TextEncoding.latin1.decode(mime)
            rest = after
        }
        guard let pictureType = rest.first else { return nil }
        let (_, data) = encoding.splitTerminated(rest.dropFirst())
        guard !data.isEmpty else { return nil }
        return Artwork(
            mimeType: Artwork.sniffedMimeType(data, declared: declared),
            kind: pictureType == 3 ? .frontCover : .other,
            data: Array(data)
        )
    }

    /// USLT: encoding, language (3 letters), content descriptor, the text.
    static func unsyncedLyrics(_ body: ArraySlice<UInt8>) -> TaggedLyrics? {
        guard body.count > 4, let encoding = TextEncoding(id3Byte: body[body.startIndex]) else { return nil }
        let language = TextEncoding.latin1.decode(body.dropFirst().prefix(3))
        let (_, text) = encoding.splitTerminated(body.dropFirst(4))
        return TaggedLyrics.make(encoding.decode(text), language: language)
    }

    /// SYLT: encoding, language, time stamp format (2: milliseconds; 1: MPEG frames, which
    /// cannot be placed without the stream and are passed over), content type, descriptor,
    /// then each line's text (terminated) and its 4-byte time. Made into LRC text.
    static func syncedLyrics(_ body: ArraySlice<UInt8>) -> TaggedLyrics? {
        guard body.count > 6, let encoding = TextEncoding(id3Byte: body[body.startIndex]) else { return nil }
        let language = TextEncoding.latin1.decode(body.dropFirst().prefix(3))
        guard body[body.startIndex + 4] == 2 else { return nil }
        var (_, rest) = encoding.splitTerminated(body.dropFirst(6))
        var lines: [(millis: Int, text: String)] = []
        while !rest.isEmpty {
            let (text, after) = encoding.splitTerminated(rest)
            guard after.count >= 4 else { break }
            let millis = after.prefix(4).reduce(0) { $0 << 8 | Int($1) }
            // A line's text may start with a newline (SYLT's way to begin a new line).
            let line = encoding.decode(text).drop { $0.isNewline }
            lines.append((millis, String(line)))
            rest = after.dropFirst(4)
        }
        guard !lines.isEmpty else { return nil }
        return TaggedLyrics.make(TaggedLyrics.lrc(lines), language: language)
    }

    /// ID3v2.2 frame IDs by their 2.3 names, so one switch reads all versions.
    static let v22Names: [String: String] = [
        "TT2": "TIT2", "TP1": "TPE1", "TAL": "TALB", "TP2": "TPE2", "TCM": "TCOM", "TCO": "TCON",
        "TRK": "TRCK", "TPA": "TPOS", "TYE": "TYER", "TOR": "TORY", "TRC": "TSRC", "TLE": "TLEN",
        "TXX": "TXXX", "UFI": "UFID", "PIC": "APIC", "ULT": "USLT", "SLT": "SYLT",
    ]
}
