/// One iTunes metadata item (©nam, trkn, covr, ----, …) and its data boxes.
enum ILSTItem {
    /// Data box type indicators (the "well-known types").
    enum DataType: UInt32 {
        case implicit = 0, utf8 = 1, utf16 = 2, jpeg = 13, png = 14, signedInt = 21, unsignedInt = 22, bmp = 27
    }

    static func apply(type: String, payload: ArraySlice<UInt8>, offset: Int, to meta: inout AudioMetadata) throws(MediaFormatError) {
        let children = try MP4Box.children(of: payload, base: offset + 8)
        let values = children.filter { $0.type == "data" }.compactMap { data -> (UInt32, ArraySlice<UInt8>)? in
            // data: type indicator (4, top byte reserved), locale (4), value.
            guard data.payload.count >= 8 else { return nil }
            let indicator = Bytes.u32be(data.payload, data.payload.startIndex) & 0x00FF_FFFF
            return (indicator, data.payload.dropFirst(8))
        }
        func text() -> String? {
            guard let (kind, value) = values.first else { return nil }
            return (kind == DataType.utf16.rawValue ? TextEncoding.utf16BE : .utf8).decode(value).nonBlank
        }
        switch type {
        case "\u{A9}nam": meta.title = text()
        case "\u{A9}lyr": meta.offer(TaggedLyrics.make(text()))
        case "\u{A9}ART": meta.artist = text()
        case "aART": meta.albumArtist = text()
        case "\u{A9}alb": meta.album = text()
        case "\u{A9}wrt": meta.composer = text()
        case "\u{A9}gen": meta.genre = text()
        case "gnre":
            if let (_, v) = values.first, v.count >= 2 {
                let index = Int(UInt16(v[v.startIndex]) << 8 | UInt16(v[v.startIndex + 1]))
                meta.genre = meta.genre ?? Genres.id3v1Name(index - 1)
            }
        case "\u{A9}day": meta.year = parseYear(text())
        case "trkn", "disk":
            // Binary: 2 reserved, number (2), total (2), [2 reserved].
            guard let (_, v) = values.first, v.count >= 4 else { return }
            let s = v.startIndex
            let number = Int(UInt16(v[s + 2]) << 8 | UInt16(v[s + 3]))
            let total = v.count >= 6 ? Int(UInt16(v[s + 4]) << 8 | UInt16(v[s + 5])) : 0
            if type == "trkn" {
                meta.trackNumber = number > 0 ? number : nil
                meta.trackTotal = total > 0 ? total : nil
            } else {
                meta.discNumber = number > 0 ? number : nil
                meta.discTotal = total > 0 ? total : nil
            }
        case "tmpo":
            // A big-endian integer, usually 16 bits; some writers use 8 or 32.
            guard let (_, v) = values.first, (1...4).contains(v.count) else { return }
            let value = v.reduce(0) { $0 << 8 | Int($1) }
            meta.bpm = parseBPM(String(value))
        case "covr":
            for (kind, data) in values where !data.isEmpty {
                let declared = kind == DataType.png.rawValue ? "image/png" : kind == DataType.bmp.rawValue ? "image/bmp" : "image/jpeg"
                meta.artwork.append(Artwork(mimeType: Artwork.sniffedMimeType(data, declared: declared), kind: .frontCover, data: Array(data)))
            }
        case "----":
            // Freeform: mean (reverse DNS), name, data.
            let name = children.first { $0.type == "name" }.map { TextEncoding.utf8.decode($0.payload.dropFirst(4)) }
            guard let name, let value = text() else { return }
            switch name.uppercased() {
            case "ISRC": meta.isrc = value
            case "MUSICBRAINZ TRACK ID": meta.musicBrainzRecordingID = value
            default: break
            }
        default: break
        }
    }
}
