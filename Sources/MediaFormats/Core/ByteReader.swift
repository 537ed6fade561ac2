/// A cursor over a bounded slice of bytes.
///
/// Each box, frame or block is parsed inside a reader limited to its declared length, so a
/// lying length can never make a parser read its neighbour. `base` is the slice's offset in
/// the file and is carried into every error.
struct ByteReader {
    let bytes: [UInt8]
    private(set) var position: Int
    let end: Int
    let base: Int

    init(_ bytes: [UInt8], base: Int = 0) {
        self.bytes = bytes
        self.position = 0
        self.end = bytes.count
        self.base = base
    }

    private init(bytes: [UInt8], position: Int, end: Int, base: Int) {
        self.bytes = bytes
        self.position = position
        self.end = end
        self.base = base
    }

    var remaining: Int { end - position }
    var isAtEnd: Bool { position >= end }
    var fileOffset: Int { base + position }

    func error(_ kind: MediaFormatError.Kind = .truncated, _ message: String) -> MediaFormatError {
        MediaFormatError(kind, at: fileOffset, message)
    }

    mutating func require(_ count: Int, _ what: @autoclosure () -> String) throws(MediaFormatError) {
        guard count >= 0, count <= remaining else {
            throw error(.truncated, "\(what()) needs \(count) bytes, \(remaining) left")
        }
    }

    mutating func skip(_ count: Int, _ what: @autoclosure () -> String = "skip") throws(MediaFormatError) {
        try require(count, what())
        position += count
    }

    mutating func u8() throws(MediaFormatError) -> UInt8 {
        try require(1, "byte")
        defer { position += 1 }
        return bytes[position]
    }

    mutating func bytes(_ count: Int, _ what: @autoclosure () -> String = "bytes") throws(MediaFormatError) -> ArraySlice<UInt8> {
        try require(count, what())
        defer { position += count }
        return bytes[position..<position + count]
    }

    /// The next `count` bytes without moving past them (nil when fewer remain).
    func peek(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, count <= remaining else { return nil }
        return bytes[position..<(position + count)]
    }

    mutating func rest() -> ArraySlice<UInt8> {
        defer { position = end }
        return bytes[position..<end]
    }

    /// A reader over the next `count` bytes; this reader moves past them.
    mutating func sub(_ count: Int, _ what: @autoclosure () -> String) throws(MediaFormatError) -> ByteReader {
        try require(count, what())
        defer { position += count }
        return ByteReader(bytes: bytes, position: position, end: position + count, base: base)
    }

    mutating func u16be() throws(MediaFormatError) -> UInt16 {
        let b = try bytes(2, "16-bit value")
        return UInt16(b[b.startIndex]) << 8 | UInt16(b[b.startIndex + 1])
    }

    mutating func u16le() throws(MediaFormatError) -> UInt16 {
        let b = try bytes(2, "16-bit value")
        return UInt16(b[b.startIndex + 1]) << 8 | UInt16(b[b.startIndex])
    }

    mutating func u24be() throws(MediaFormatError) -> UInt32 {
        let b = try bytes(3, "24-bit value")
        return UInt32(b[b.startIndex]) << 16 | UInt32(b[b.startIndex + 1]) << 8 | UInt32(b[b.startIndex + 2])
    }

    mutating func u32be() throws(MediaFormatError) -> UInt32 {
        let b = try bytes(4, "32-bit value")
        return Bytes.u32be(b, b.startIndex)
    }

    mutating func u32le() throws(MediaFormatError) -> UInt32 {
        let b = try bytes(4, "32-bit value")
        return Bytes.u32le(b, b.startIndex)
    }

    mutating func u64be() throws(MediaFormatError) -> UInt64 {
        UInt64(try u32be()) << 32 | UInt64(try u32be())
    }

    mutating func u64le() throws(MediaFormatError) -> UInt64 {
        let low = UInt64(try u32le())
        return UInt64(try u32le()) << 32 | low
    }

    mutating func fourCC() throws(MediaFormatError) -> String {
        latin1String(try bytes(4, "four-character code"))
    }
}

/// Stateless helpers on byte collections.
enum Bytes {
    /// Big-endian 32-bit value at absolute index `i`; the caller has checked the bounds.
    static func u32be(_ b: ArraySlice<UInt8>, _ i: Int) -> UInt32 {
        UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
    }

    /// Little-endian 64-bit value at absolute index `i`; the caller has checked the bounds.
    static func u64le(_ b: ArraySlice<UInt8>, _ i: Int) -> UInt64 {
        (0..<8).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64(b[i + $1]) }
    }

    /// Little-endian 32-bit value at absolute index `i`; the caller has checked the bounds.
    static func u32le(_ b: ArraySlice<UInt8>, _ i: Int) -> UInt32 {
        UInt32(b[i + 3]) << 24 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 1]) << 8 | UInt32(b[i])
    }

    /// Four bytes of 7 significant bits each (ID3v2 sizes); nil if a high bit is set.
    static func syncsafe(_ b: ArraySlice<UInt8>) -> UInt32? {
        var v: UInt32 = 0
        for byte in b {
            guard byte & 0x80 == 0 else { return nil }
            v = v << 7 | UInt32(byte)
        }
        return v
    }

    static func startsWith(_ bytes: [UInt8], _ prefix: String) -> Bool {
        let p = Array(prefix.utf8)
        return bytes.count >= p.count && bytes[0..<p.count].elementsEqual(p)
    }
}
