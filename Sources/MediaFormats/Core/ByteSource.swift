#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Random access to the bytes of a file or a buffer.
///
/// Tag readers ask only for the ranges they need (a header, a tag, the last page) so that
/// reading the tags of a 300 MB audiobook costs a few kilobytes, as with TagLib.
public protocol ByteSource {
    var size: Int { get }
    /// Up to `count` bytes starting at `offset`; fewer only at the end of the source.
    func read(at offset: Int, count: Int) throws(MediaFormatError) -> [UInt8]
}

extension ByteSource {
    /// Exactly `count` bytes at `offset`, or a `truncated` error naming where.
    func readExactly(at offset: Int, count: Int, what: String) throws(MediaFormatError) -> [UInt8] {
        guard offset >= 0, count >= 0, offset <= size, count <= size - offset else {
            throw MediaFormatError(.truncated, at: offset, "\(what) needs \(count) bytes, file ends at \(size)")
        }
        let bytes = try read(at: offset, count: count)
        guard bytes.count == count else {
            throw MediaFormatError(.truncated, at: offset, "\(what) needs \(count) bytes, got \(bytes.count)")
        }
        return bytes
    }
}

/// Bytes already in memory (tests, fuzzing, uploads).
public struct MemorySource: ByteSource, Sendable {
    public let bytes: [UInt8]
    public init(_ bytes: [UInt8]) { self.bytes = bytes }
    public var size: Int { bytes.count }
    public func read(at offset: Int, count: Int) throws(MediaFormatError) -> [UInt8] {
        guard offset >= 0, count >= 0, offset <= bytes.count else {
            throw MediaFormatError(.truncated, at: offset, "read past the end")
        }
        let end = offset + min(count, bytes.count - offset)
        return Array(bytes[offset..<end])
    }
}

/// A file read with `pread`, so nothing but the requested ranges is touched.
public final class FileSource: ByteSource {
    private let fd: Int32
    public let size: Int

    public init(path: String) throws(MediaFormatError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw MediaFormatError(.unreadable, at: 0, "cannot open: \(String(cString: strerror(errno)))")
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            close(fd)
            throw MediaFormatError(.unreadable, at: 0, "cannot stat: \(String(cString: strerror(errno)))")
        }
        self.fd = fd
        self.size = Int(info.st_size)
    }

    deinit { close(fd) }

    public func read(at offset: Int, count: Int) throws(MediaFormatError) -> [UInt8] {
        guard offset >= 0, count >= 0 else { throw MediaFormatError(.truncated, at: offset, "negative read") }
        let wanted = max(0, min(count, size - offset))
        if wanted == 0 { return [] }
        var buffer = [UInt8](repeating: 0, count: wanted)
        var done = 0
        while done < wanted {
            let n = buffer.withUnsafeMutableBytes { raw in
                pread(fd, raw.baseAddress.map { $0 + done }, wanted - done, off_t(offset + done))
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw MediaFormatError(.unreadable, at: offset + done, "read failed: \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            done += n
        }
        if done < wanted { buffer.removeSubrange(done...) }
        return buffer
    }
}
