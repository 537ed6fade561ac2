/// HTTP/1.1 chunked transfer coding, undone as bytes arrive: a stream behind a proxy or a CDN
/// often comes this way. Chunk extensions and trailers are read and dropped.
public struct ChunkedBodyDecoder: Sendable {
    enum State: Sendable {
        case size(line: [UInt8])
        case data(remaining: Int)
        case dataEnd(seenCR: Bool)
        case trailer(line: [UInt8])
        case finished
    }

    private var state = State.size(line: [])
    private var offset = 0
    /// A size line longer than this is not HTTP.
    static let maximumLine = 4096

    public init() {}

    /// True once the last (zero-sized) chunk and its trailer have arrived.
    public var isFinished: Bool {
        if case .finished = state { return true }
        return false
    }

    /// The body bytes in `bytes`, in order (a slice of the input where the chunk allows).
    public mutating func feed(_ bytes: ArraySlice<UInt8>) throws(MediaFormatError) -> [ArraySlice<UInt8>] {
        var out: [ArraySlice<UInt8>] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            switch state {
            case .finished:
                return out
            case .size(var line):
                let byte = bytes[index]
                index += 1
                offset += 1
                if byte == UInt8(ascii: "\n") {
                    state = try Self.afterSizeLine(line, at: offset)
                } else {
                    guard line.count < Self.maximumLine else { throw MediaFormatError(.malformed, at: offset, "a chunk size line is too long") }
                    if byte != UInt8(ascii: "\r") { line.append(byte) }
                    state = .size(line: line)
                }
            case .data(let remaining):
                let take = min(remaining, bytes.endIndex - index)
                out.append(bytes[index..<(index + take)])
                index += take
                offset += take
                state = remaining - take == 0 ? .dataEnd(seenCR: false) : .data(remaining: remaining - take)
            case .dataEnd(let seenCR):
                let byte = bytes[index]
                index += 1
                offset += 1
                if byte == UInt8(ascii: "\r"), !seenCR {
                    state = .dataEnd(seenCR: true)
                } else if byte == UInt8(ascii: "\n") {
                    state = .size(line: [])
                } else {
                    throw MediaFormatError(.malformed, at: offset, "a chunk is longer than its size")
                }
            case .trailer(var line):
                let byte = bytes[index]
                index += 1
                offset += 1
                if byte == UInt8(ascii: "\n") {
                    state = line.isEmpty ? .finished : .trailer(line: [])
                } else {
                    guard line.count < Self.maximumLine else { throw MediaFormatError(.malformed, at: offset, "a trailer line is too long") }
                    if byte != UInt8(ascii: "\r") { line.append(byte) }
                    state = .trailer(line: line)
                }
            }
        }
        return out
    }

    static func afterSizeLine(_ line: [UInt8], at offset: Int) throws(MediaFormatError) -> State {
        let digits = line.prefix { $0 != UInt8(ascii: ";") }.filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
        guard !digits.isEmpty, digits.count <= 15 else { throw MediaFormatError(.malformed, at: offset, "a chunk size is not a hexadecimal number") }
        var size = 0
        for digit in digits {
            guard let value = hexValue(digit) else { throw MediaFormatError(.malformed, at: offset, "a chunk size is not a hexadecimal number") }
            size = size * 16 + value
        }
        return size == 0 ? .trailer(line: []) : .data(remaining: size)
    }

    static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
