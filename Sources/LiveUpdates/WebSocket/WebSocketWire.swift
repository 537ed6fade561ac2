import NIOCore

/// WebSocket frames from server to client as bytes on the wire (RFC 6455, section 5.2):
/// final, unmasked, with the shortest length encoding.
public enum WebSocketWire {
    /// The most a header takes: two bytes, and eight of length.
    public static let headerRoom = 10

    /// A text message as one frame: `body` writes the message, after room left for the
    /// header, which goes in front of it once its length is known. One buffer, so one
    /// write to the socket.
    public static func text(allocator: ByteBufferAllocator, capacity: Int, _ body: (inout ByteBuffer) throws -> Void) rethrows -> ByteBuffer {
        var buffer = allocator.buffer(capacity: capacity + headerRoom)
        buffer.writeRepeatingByte(0, count: headerRoom)
        try body(&buffer)
        let start = header(in: &buffer, length: buffer.writerIndex - headerRoom)
        buffer.moveReaderIndex(to: start)
        return buffer
    }

    /// A text message as one frame whose message is a head shared with other messages (sent
    /// as it is, not copied) and a tail of its own. `tail` writes the tail and returns the
    /// head. The three parts go to the socket in this order, together: one sendmsg(2).
    public static func text(
        allocator: ByteBufferAllocator, tailCapacity: Int, _ tail: (inout ByteBuffer) throws -> ByteBuffer
    ) rethrows -> (header: ByteBuffer, head: ByteBuffer, tail: ByteBuffer) {
        var buffer = allocator.buffer(capacity: tailCapacity + headerRoom)
        buffer.writeRepeatingByte(0, count: headerRoom)
        let head = try tail(&buffer)
        let tailLength = buffer.writerIndex - headerRoom
        let start = header(in: &buffer, length: head.readableBytes + tailLength)
        // Both slices share the one buffer, and lie within what was written to it.
        guard let headerBytes = buffer.getSlice(at: start, length: headerRoom - start),
            let tailBytes = buffer.getSlice(at: headerRoom, length: tailLength)
        else { preconditionFailure("a frame's header or tail outside its own buffer") }
        return (headerBytes, head, tailBytes)
    }

    /// Writes a final text frame's header for a message of `length` bytes at the end of the
    /// room left at the buffer's start; returns where the header starts.
    private static func header(in buffer: inout ByteBuffer, length: Int) -> Int {
        let start: Int
        switch length {
        case ..<126:
            start = headerRoom - 2
            buffer.setInteger(UInt8(length), at: start + 1)
        case ...0xFFFF:
            start = headerRoom - 4
            buffer.setInteger(UInt8(126), at: start + 1)
            buffer.setInteger(UInt16(length), at: start + 2)
        default:
            start = 0
            buffer.setInteger(UInt8(127), at: 1)
            buffer.setInteger(UInt64(length), at: 2)
        }
        buffer.setInteger(UInt8(0x81), at: start)  // FIN, text
        return start
    }

    /// An empty ping. A control frame must be final: a non-final ping is a protocol error.
    public static func ping(allocator: ByteBufferAllocator) -> ByteBuffer {
        var buffer = allocator.buffer(capacity: 2)
        buffer.writeBytes([0x89, 0x00])
        return buffer
    }
}
