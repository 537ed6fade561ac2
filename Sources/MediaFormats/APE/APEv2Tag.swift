/// APEv2 tags, as Monkey's Audio, WavPack and Musepack files carry them (and some MP3s): a
/// footer "APETAGEX" at the end of the file (before an ID3v1 tag if there is one), items of
/// value size, flags, a NUL-ended key and a UTF-8 value. Keys are matched without case.
enum APEv2Tag {
    typealias Items = [(key: String, value: ArraySlice<UInt8>, binary: Bool)]

    /// The tag's items (key upper-cased, value bytes, whether the value is binary) and where
    /// the tag starts (its header too, when flagged), or nil when the file has no APEv2
    /// footer. A footer whose items run wrong yields what came before.
    static func read(_ source: some ByteSource) -> (items: Items, warnings: [String], start: Int)? {
        for end in [source.size, source.size - 128] where end >= 32 {
            guard let footer = try? source.readExactly(at: end - 32, count: 32, what: "APEv2 footer"),
                footer[0..<8].elementsEqual("APETAGEX".utf8)
            else { continue }
            let size = Int(Bytes.u32le(footer[...], 12))
            let count = Int(Bytes.u32le(footer[...], 16))
            guard size >= 32, size <= end, size <= 16 << 20,
                let body = try? source.readExactly(at: end - size, count: size - 32, what: "APEv2 items")
            else { return ([], ["APEv2 tag declares \(size) bytes, more than the file holds"], end - 32) }
            let hasHeader = Bytes.u32le(footer[...], 20) & 0x8000_0000 != 0
            let start = max(0, end - size - (hasHeader ? 32 : 0))
            var items: [(String, ArraySlice<UInt8>, Bool)] = []
            var p = 0
            for _ in 0..<min(count, 4096) {
                guard p + 8 < body.count else { break }
                let length = Int(Bytes.u32le(body[...], p))
                let flags = Bytes.u32le(body[...], p + 4)
                p += 8
                guard let nul = body[p...].firstIndex(of: 0), nul - p <= 255 else {
                    return (items, ["APEv2 item at byte \(end - size + p) has no key; the rest were skipped"], start)
                }
                let key = latin1String(body[p..<nul]).uppercased()
                p = nul + 1
                guard length <= body.count - p else {
                    return (items, ["APEv2 item '\(key)' runs past the tag; the rest were skipped"], start)
                }
                items.append((key, body[p..<(p + length)], (flags >> 1) & 3 == 1))
                p += length
            }
            return (items, [], start)
        }
        return nil
    }

    static func apply(_ items: Items, to meta: inout AudioMetadata) {
        for item in items {
            if item.binary {
                // "Cover Art (Front)": a file name, NUL, then the picture.
                if item.key.hasPrefix("COVER ART"), let nul = item.value.firstIndex(of: 0) {
                    let data = item.value[(nul + 1)...]
                    guard !data.isEmpty else { continue }
                    meta.artwork.append(
                        Artwork(
                            mimeType: Artwork.sniffedMimeType(data, declared: ""), kind: item.key.contains("FRONT") ? .frontCover : .other,
                            data: Array(data)))
                }
                continue
            }
            // Several values of one item are NUL-separated: the first stands.
            let text = String(decoding: item.value.prefix { $0 != 0 }, as: UTF8.self)
            guard let value = text.nonBlank else { continue }
            switch item.key {
            case "TITLE": meta.title = meta.title ?? value
            case "ARTIST": meta.artist = meta.artist ?? value
            case "ALBUM": meta.album = meta.album ?? value
            case "ALBUM ARTIST", "ALBUMARTIST": meta.albumArtist = meta.albumArtist ?? value
            case "COMPOSER": meta.composer = meta.composer ?? value
            case "GENRE": meta.genre = meta.genre ?? value
            case "YEAR", "DATE": meta.year = meta.year ?? parseYear(value)
            case "TRACK", "TRACKNUMBER":
                let (n, t) = parseNumberPair(value)
                meta.trackNumber = meta.trackNumber ?? n
                meta.trackTotal = meta.trackTotal ?? t
            case "DISC", "DISCNUMBER":
                let (n, t) = parseNumberPair(value)
                meta.discNumber = meta.discNumber ?? n
                meta.discTotal = meta.discTotal ?? t
            case "ISRC": meta.isrc = meta.isrc ?? value
            case "BPM": meta.bpm = meta.bpm ?? parseBPM(value)
            case "LYRICS", "UNSYNCEDLYRICS": meta.offer(TaggedLyrics.make(value))
            case "MUSICBRAINZ_TRACKID": meta.musicBrainzRecordingID = meta.musicBrainzRecordingID ?? value
            default: break
            }
        }
    }

    /// The APEv2 tag (or failing that an ID3v1 tag) applied under what `meta` has.
    static func applyTrailingTags(from source: some ByteSource, to meta: inout AudioMetadata) {
        if let tag = read(source) {
            apply(tag.items, to: &meta)
            meta.warnings += tag.warnings
        }
        if source.size >= ID3v1Tag.size, let tail = try? source.readExactly(at: source.size - ID3v1Tag.size, count: ID3v1Tag.size, what: "ID3v1 tag"),
            let old = ID3v1Tag.parse(tail)
        {
            meta.fillGaps(from: old)
        }
    }
}
