/// Serves small reads from one block read ahead of them.
///
/// Walking an MP4's boxes asks for many 8-byte headers that sit close together (a track's
/// tkhd, mdia, mdhd and hdlr); one read of a block serves them all, where a read per
/// header would cost a system call each. Reads of a block or more go straight through.
final class ReadAheadSource<Base: ByteSource>: ByteSource {
    private let base: Base
    private let block: Int
    private var cacheOffset = 0
    private var cache: [UInt8] = []

    init(_ base: Base, block: Int = 4096) {
        self.base = base
        self.block = block
    }

    var size: Int { base.size }

    func read(at offset: Int, count: Int) throws(MediaFormatError) -> [UInt8] {
        guard offset >= 0, count >= 0 else { return try base.read(at: offset, count: count) }
        if offset >= cacheOffset, count <= cache.count, offset - cacheOffset <= cache.count - count {
            let start = offset - cacheOffset
            return Array(cache[start..<start + count])
        }
        if count >= block { return try base.read(at: offset, count: count) }
        cache = try base.read(at: offset, count: block)
        cacheOffset = offset
        return Array(cache.prefix(count))
    }
}
