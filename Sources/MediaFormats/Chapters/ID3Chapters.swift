/// MP3 chapters from ID3v2 CHAP frames (the ID3v2 Chapter Frame Addendum): each has an
/// element ID, start and end in milliseconds, and embedded frames (TIT2 is its title).
/// When a top-level CTOC lists chapters, those are the book's chapters (a CHAP that no
/// table names is not part of it); a player of one file plays them in time order.
enum ID3Chapters {
    struct ChapterFrame {
        var elementID: String
        var mark: ChapterTimeline.Mark
    }

    struct TableOfContents {
        var elementID: String
        var isTopLevel: Bool
        var children: [String]
    }

    /// `duration` is the MP3's, as MP3Reader measured it from its headers.
    static func read(_ source: some ByteSource, duration: Double?) throws(MediaFormatError) -> ChapterList {
        var chapters: [ChapterFrame] = []
        var tables: [TableOfContents] = []
        var offset = 0
        // As MP3Reader does: several ID3v2 tags can stand before the audio.
        while let header = try? source.readExactly(at: offset, count: 10, what: "ID3v2 header"),
            let size = ID3v2Tag.declaredSize(header: header)
        {
            let tag = try ID3v2Tag(bytes: try source.readExactly(at: offset, count: size, what: "ID3v2 tag"), fileOffset: offset)
            for frame in tag.frames {
                switch frame.id {
                case "CHAP": if let chapter = chapterFrame(frame, version: tag.majorVersion) { chapters.append(chapter) }
                case "CTOC": if let table = tableOfContents(frame) { tables.append(table) }
                default: break
                }
            }
            offset += size
        }
        let list = ChapterTimeline.chapters(from: ordered(chapters, by: tables), duration: duration)
        if list.isEmpty {
            return ChapterList(duration: duration ?? 0, source: .none, chapters: ChapterTimeline.wholeFile(title: nil, duration: duration))
        }
        return ChapterList(duration: duration ?? list.last?.end ?? 0, source: .id3, chapters: list)
    }

    /// CHAP: element ID (Latin-1, NUL-terminated), start ms, end ms, start and end byte
    /// offsets, then embedded frames. A damaged embedded frame costs the title, not the chapter.
    static func chapterFrame(_ frame: ID3v2Tag.Frame, version: UInt8) -> ChapterFrame? {
        let (id, rest) = TextEncoding.latin1.splitTerminated(frame.body)
        guard rest.count >= 16 else { return nil }
        let start = Bytes.u32be(rest, rest.startIndex)
        let end = Bytes.u32be(rest, rest.startIndex + 4)
        let embedded = rest.dropFirst(16)
        let subframes = try? ID3v2Tag(
            embeddedIn: embedded, majorVersion: version, fileOffset: frame.offset + 10 + (embedded.startIndex - frame.body.startIndex))
        let title = subframes?.frames.first { $0.id == "TIT2" }.flatMap { ID3v2Metadata.text($0.body) } ?? ""
        return ChapterFrame(
            elementID: TextEncoding.latin1.decode(id),
            mark: .init(title: title, start: Double(start) / 1000, end: end == UInt32.max ? nil : Double(end) / 1000)
        )
    }

    /// CTOC: element ID, flags (0x02 top level, 0x01 ordered), entry count, child element IDs.
    static func tableOfContents(_ frame: ID3v2Tag.Frame) -> TableOfContents? {
        let (id, rest) = TextEncoding.latin1.splitTerminated(frame.body)
        guard rest.count >= 2 else { return nil }
        let flags = rest[rest.startIndex]
        var remaining = rest.dropFirst(2)
        var children: [String] = []
        for _ in 0..<Int(rest[rest.startIndex + 1]) where !remaining.isEmpty {
            let (child, after) = TextEncoding.latin1.splitTerminated(remaining)
            children.append(TextEncoding.latin1.decode(child))
            remaining = after
        }
        return TableOfContents(elementID: TextEncoding.latin1.decode(id), isTopLevel: flags & 0x02 != 0, children: children)
    }

    /// The chapters the top-level table lists (nested tables flattened, each element once);
    /// every chapter when there is no table or it names none of them.
    static func ordered(_ chapters: [ChapterFrame], by tables: [TableOfContents]) -> [ChapterTimeline.Mark] {
        guard let top = tables.first(where: \.isTopLevel) ?? tables.first else { return chapters.map(\.mark) }
        var byID: [String: ChapterFrame] = [:]
        for chapter in chapters where byID[chapter.elementID] == nil { byID[chapter.elementID] = chapter }
        var tablesByID: [String: TableOfContents] = [:]
        for table in tables where tablesByID[table.elementID] == nil { tablesByID[table.elementID] = table }
        var visited: Set<String> = []
        var result: [ChapterTimeline.Mark] = []
        var pending = top.children.reversed().map { $0 }
        visited.insert(top.elementID)
        while let next = pending.popLast() {
            guard visited.insert(next).inserted else { continue }
            if let chapter = byID[next] {
                result.append(chapter.mark)
            } else if let table = tablesByID[next] {
                pending.append(contentsOf: table.children.reversed())
            }
        }
        return result.isEmpty ? chapters.map(\.mark) : result
    }
}
