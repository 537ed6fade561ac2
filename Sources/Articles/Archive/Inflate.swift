import CompressNIO
import NIOCore

/// DEFLATE (RFC 1951) decompression for the files inside ePubs (ZIP) and for PDF streams
/// (FlateDecode), by zlib through compress-nio, a window at a time, so that a bomb stops at
/// `limit` without ever holding more than that.
///
/// Damaged data is a clear error (`ArticleError.unreadable`); data cut short gives what was
/// decoded (PDF writers leave streams a few bytes short, and readers show what they can), so a
/// ZIP entry is judged by its CRC-32 and size instead (`ZIPArchive`).
enum Inflate {
    /// Decompresses raw DEFLATE data, producing at most `limit` bytes.
    static func inflate(_ input: [UInt8], limit: Int) throws(ArticleError) -> [UInt8] {
        try run(input, algorithm: .deflate(), limit: limit)
    }

    /// zlib's wrapping (RFC 1950): a two-byte header, the DEFLATE data, an Adler-32.
    static func zlib(_ input: [UInt8], limit: Int) throws(ArticleError) -> [UInt8] {
        guard input.count >= 2, input[0] & 0x0F == 8, (UInt16(input[0]) << 8 | UInt16(input[1])) % 31 == 0 else {
            // Some PDF writers leave the header out: read it as raw DEFLATE.
            return try inflate(input, limit: limit)
        }
        return try inflate(Array(input.dropFirst(2)), limit: limit)
    }

    /// The window decoded into at each step: zlib fills it, its bytes are kept, and it is
    /// filled again while zlib says there is more.
    static let windowSize = 64 * 1024

    private static func run(_ input: [UInt8], algorithm: CompressionAlgorithm, limit: Int) throws(ArticleError) -> [UInt8] {
        guard !input.isEmpty else { return [] }
        let decompressor = algorithm.decompressor
        var source = ByteBuffer(bytes: input)
        var window = ByteBuffer()
        window.reserveCapacity(windowSize)
        var output: [UInt8] = []
        do {
            try decompressor.startStream()
            defer { try? decompressor.finishStream() }
            while true {
                window.clear()
                var more = false
                do {
                    try source.decompressStream(to: &window, with: decompressor)
                } catch let error as CompressNIOError where error == .bufferOverflow {
                    more = true
                }
                guard output.count + window.readableBytes <= limit else {
                    throw ArticleError.tooBig("a compressed part decompresses to more than \(limit / 1_000_000) MB")
                }
                output += window.readableBytesView
                // No more output and none pending: the stream ended, or its input ran out.
                if !more { return output }
            }
        } catch let error as ArticleError {
            throw error
        } catch let error as CompressNIOError where error == .corruptData {
            throw .unreadable("damaged compressed data")
        } catch {
            throw .unreadable("compressed data that cannot be read (\(error))")
        }
    }
}
