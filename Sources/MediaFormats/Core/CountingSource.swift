/// A source that counts what its reads cost, to hold readers to their budget ("the chapters
/// of a 10-hour book in under 64 KB") in tests and benchmarks. One reader at a time.
public final class CountingSource<Base: ByteSource>: ByteSource {
    private let base: Base
    /// Bytes returned so far.
    public private(set) var bytesRead = 0
    /// Calls to `read` so far.
    public private(set) var reads = 0

    public init(_ base: Base) { self.base = base }

    public var size: Int { base.size }

    public func read(at offset: Int, count: Int) throws(MediaFormatError) -> [UInt8] {
        let bytes = try base.read(at: offset, count: count)
        reads += 1
        bytesRead += bytes.count
        return bytes
    }
}
