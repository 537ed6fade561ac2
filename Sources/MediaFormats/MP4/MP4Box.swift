/// One box (atom) of an ISO base media / QuickTime file: its type and where its payload is.
struct MP4Box {
    let type: String
    /// File offset of the box header.
    let offset: Int
    let headerSize: Int
    let size: Int
    var payloadOffset: Int { offset + headerSize }
    var payloadSize: Int { size - headerSize }

    /// Reads the box header at `offset`, bounded by `limit` (the parent's end).
    static func read(from source: some ByteSource, at offset: Int, limit: Int) throws(MediaFormatError) -> MP4Box {
        let header = try source.readExactly(at: offset, count: 8, what: "MP4 box header")
        var r = ByteReader(header, base: offset)
        let size32 = Int(try r.u32be())
        let type = try r.fourCC()
        var size = size32
        var headerSize = 8
        if size32 == 1 {
            let large = try source.readExactly(at: offset + 8, count: 8, what: "MP4 64-bit box size")
            var lr = ByteReader(large, base: offset + 8)
            let value = try lr.u64be()
            guard value <= UInt64(Int.max) else {
                throw MediaFormatError(.malformed, at: offset, "box '\(type)' size overflows")
            }
            size = Int(value)
            headerSize = 16
        } else if size32 == 0 {
            size = limit - offset  // extends to the end of its parent
        }
        guard size >= headerSize else {
            throw MediaFormatError(.malformed, at: offset, "box '\(type)' declares \(size) bytes, less than its header")
        }
        let (end, overflow) = offset.addingReportingOverflow(size)
        guard !overflow, end <= limit else {
            throw MediaFormatError(.truncated, at: offset, "box '\(type)' declares \(size) bytes, parent ends at \(limit)")
        }
        return MP4Box(type: type, offset: offset, headerSize: headerSize, size: size)
    }

    /// The boxes directly inside `range` of the file.
    static func children(of source: some ByteSource, from start: Int, to end: Int) throws(MediaFormatError) -> [MP4Box] {
        try walk(source, from: start, to: end, clipMdat: false).boxes
    }

    /// The file's top-level boxes; an `mdat` cut short (a download that stopped, a file
    /// truncated after its moov) ends the list at the file's end, and is returned as
    /// `clipped`, as mutagen and players read such files.
    static func topLevel(of source: some ByteSource) throws(MediaFormatError) -> (boxes: [MP4Box], clipped: MP4Box?) {
        try walk(source, from: 0, to: source.size, clipMdat: true)
    }

    private static func walk(_ source: some ByteSource, from start: Int, to end: Int, clipMdat: Bool) throws(MediaFormatError) -> (
        boxes: [MP4Box], clipped: MP4Box?
    ) {
        var boxes: [MP4Box] = []
        var offset = start
        while offset + 8 <= end {
            do {
                let box = try read(from: source, at: offset, limit: end)
                boxes.append(box)
                offset += box.size
            } catch {
                guard clipMdat, error.kind == .truncated,
                    let header = try? source.readExactly(at: offset, count: 8, what: "MP4 box header"), latin1String(header[4..<8]) == "mdat"
                else { throw error }
                let box = MP4Box(type: "mdat", offset: offset, headerSize: 8, size: end - offset)
                boxes.append(box)
                return (boxes, box)
            }
        }
        return (boxes, nil)
    }

    /// Boxes inside an in-memory payload (the ilst of an already-read moov).
    static func children(of bytes: ArraySlice<UInt8>, base: Int) throws(MediaFormatError) -> [(type: String, payload: ArraySlice<UInt8>, offset: Int)] {
        var out: [(String, ArraySlice<UInt8>, Int)] = []
        var i = bytes.startIndex
        while i + 8 <= bytes.endIndex {
            let size = Int(Bytes.u32be(bytes, i))
            let type = latin1String(bytes[i + 4..<i + 8])
            let offset = base + (i - bytes.startIndex)
            let actual = size == 0 ? bytes.endIndex - i : size
            guard actual >= 8, actual <= bytes.endIndex - i else {
                throw MediaFormatError(.malformed, at: offset, "box '\(type)' declares \(size) bytes, parent has \(bytes.endIndex - i)")
            }
            out.append((type, bytes[i + 8..<i + actual], offset))
            i += actual
        }
        return out
    }
}
