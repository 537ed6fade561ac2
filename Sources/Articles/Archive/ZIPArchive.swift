/// The files of a ZIP archive (an ePub is one), read from its central directory: names, and
/// each file's bytes on demand, stored or deflated (by zlib), every size and offset checked
/// against the archive and every file against its CRC-32, so that a damaged one is a clear
/// error, not a crash or a zip bomb.
///
/// Why not ZIPFoundation's reading, which is in the package mirror: on Linux its inflate loop
/// asks for more input until the stream ends, and at the end of the archive it gets none, so a
/// deflated entry cut short (or a stored block that claims more than is left) spins forever
/// (measured: 0.9.20's extract of such an entry was still running when killed after 20 s;
/// `HostileInputTests.aDeflatedEntryThatNeverEndsIsDamaged` is refused here at once).
/// The directory is 70 lines; the decompression is zlib's either way.
struct ZIPArchive {
    struct Entry {
        let name: String
        let method: Int
        let crc: UInt32
        let compressedSize: Int
        let size: Int
        let localHeader: Int
    }

    let bytes: [UInt8]
    let entries: [String: Entry]
    /// The largest file taken out of an archive.
    static let fileLimit = 64 * 1024 * 1024
    /// The most bytes taken out of one archive in all, counting a file taken out twice twice
    /// (a book whose spine lists one large chapter many times is refused, not read 20 times).
    static let totalLimit = 128 * 1024 * 1024
    /// The most files an archive may list (a long book has a few hundred).
    static let entryLimit = 20_000
    /// Bytes taken out so far.
    private(set) var taken = 0

    init(_ bytes: [UInt8]) throws(ArticleError) {
        self.bytes = bytes
        // The end-of-central-directory record: within the last 64 kB (and its comment).
        guard bytes.count >= 22 else { throw .unreadable("not a ZIP archive (too short)") }
        var end = -1
        var i = bytes.count - 22
        let stop = max(0, bytes.count - 22 - 65_535)
        while i >= stop {
            if bytes[i] == 0x50, bytes[i + 1] == 0x4B, bytes[i + 2] == 0x05, bytes[i + 3] == 0x06 {
                end = i
                break
            }
            i -= 1
        }
        guard end >= 0 else { throw .unreadable("not a ZIP archive (no central directory)") }
        let count = Self.u16(bytes, end + 10)
        guard count <= Self.entryLimit else { throw .tooBig("the archive lists more than \(Self.entryLimit) files") }
        let directory = Self.u32(bytes, end + 16)
        guard directory < bytes.count else { throw .unreadable("a damaged ZIP archive (its directory is past its end)") }
        var entries: [String: Entry] = [:]
        var at = directory
        for _ in 0..<count {
            guard at + 46 <= bytes.count, Self.u32(bytes, at) == 0x0201_4B50 else { throw .unreadable("a damaged ZIP archive (a directory entry)") }
            let method = Self.u16(bytes, at + 10)
            let crc = UInt32(Self.u32(bytes, at + 16))
            let compressed = Self.u32(bytes, at + 20)
            let size = Self.u32(bytes, at + 24)
            let nameLength = Self.u16(bytes, at + 28)
            let extraLength = Self.u16(bytes, at + 30)
            let commentLength = Self.u16(bytes, at + 32)
            let local = Self.u32(bytes, at + 42)
            guard at + 46 + nameLength <= bytes.count else { throw .unreadable("a damaged ZIP archive (a name past its end)") }
            let name = String(decoding: bytes[(at + 46)..<(at + 46 + nameLength)], as: UTF8.self)
            entries[name] = Entry(name: name, method: method, crc: crc, compressedSize: compressed, size: size, localHeader: local)
            at += 46 + nameLength + extraLength + commentLength
        }
        self.entries = entries
    }

    /// A file's bytes, or nil when the archive has no such file.
    mutating func file(_ name: String) throws(ArticleError) -> [UInt8]? {
        guard let entry = entries[name] else { return nil }
        let header = entry.localHeader
        guard header + 30 <= bytes.count, Self.u32(bytes, header) == 0x0403_4B50 else { throw .unreadable("a damaged ZIP archive (\(name)'s header)") }
        let start = header + 30 + Self.u16(bytes, header + 26) + Self.u16(bytes, header + 28)
        guard start <= bytes.count, entry.compressedSize <= bytes.count - start else { throw .unreadable("a damaged ZIP archive (\(name) is cut short)") }
        guard entry.size <= Self.fileLimit else { throw .tooBig("\(name) is larger than \(Self.fileLimit / 1_000_000) MB") }
        guard taken + entry.size <= Self.totalLimit else {
            throw .tooBig("its files come to more than \(Self.totalLimit / 1_000_000) MB when read")
        }
        let data = Array(bytes[start..<(start + entry.compressedSize)])
        let file: [UInt8]
        switch entry.method {
        case 0: file = data
        // The size the directory states is the limit: a file that inflates past it is damaged.
        case 8:
            do {
                file = try Inflate.inflate(data, limit: entry.size)
            } catch .tooBig {
                throw .unreadable("a damaged ZIP archive (\(name) is larger than the archive says)")
            }
        default: throw .unreadable("\(name) is compressed in a way Juke does not read (method \(entry.method))")
        }
        guard file.count == entry.size, CRC32.checksum(file) == entry.crc else {
            throw .unreadable("a damaged ZIP archive (\(name) does not match its checksum)")
        }
        taken += file.count
        return file
    }

    static func u16(_ b: [UInt8], _ at: Int) -> Int { at + 2 <= b.count ? Int(b[at]) | Int(b[at + 1]) << 8 : 0 }
    static func u32(_ b: [UInt8], _ at: Int) -> Int { at + 4 <= b.count ? u16(b, at) | u16(b, at + 2) << 16 : 0 }
}
