import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The socket under a connection's channel, sent to directly, past SwiftNIO's write path: a
/// reveal's ten thousand writes each cost less this way (see `TriviaPushHandler`, which
/// decides when that is safe).
public struct SocketSend {
    public let descriptor: CInt

    /// The channel's socket, from SwiftNIO's access to a channel's transport; nil for a
    /// channel without one (a test's) or whose socket is closed. Call it on the channel's
    /// event loop.
    ///
    /// SwiftNIO lends the descriptor for the length of a call. Asking for it again at each
    /// send cost more than the send (the runtime looks the transport's type up by name each
    /// time), so the number is kept while the channel is active instead, and used only then,
    /// on its event loop (`TriviaPushHandler` says why that is safe).
    public static func of(_ pipeline: ChannelPipeline) -> SocketSend? {
        let descriptor = try? pipeline.syncOperations.withUnsafeTransportIfAvailable(of: NIOBSDSocket.Handle.self) { $0 }
        return descriptor.flatMap { $0 }.map(SocketSend.init)
    }

    /// What one send did.
    public enum Outcome: Equatable {
        /// This many bytes went to the socket: all of them, or as many as it had room for
        /// (none, when its buffer is full).
        case sent(Int)
        /// The send failed (the peer left, say): SwiftNIO, given the same bytes, meets the
        /// same error and handles it its own way.
        case failed
    }

    /// Sends `first`, `second` and `third`, in this order, with one sendmsg(2) that never
    /// blocks. The parts are separate arguments, not an array, so a send allocates nothing.
    public func send(_ first: ByteBuffer, _ second: ByteBuffer? = nil, _ third: ByteBuffer? = nil) -> Outcome {
        Self.send(to: descriptor, first, second, third)
    }

    /// Never blocks; and no SIGPIPE for a peer that has gone, the error is enough (on
    /// Darwin, SwiftNIO sets SO_NOSIGPIPE on its sockets instead).
    #if canImport(Glibc)
        private static let flags = CInt(MSG_NOSIGNAL) | CInt(MSG_DONTWAIT)
    #else
        private static let flags = CInt(MSG_DONTWAIT)
    #endif

    private static func send(to socket: CInt, _ first: ByteBuffer, _ second: ByteBuffer?, _ third: ByteBuffer?) -> Outcome {
        first.withUnsafeReadableBytes { a in
            readable(second) { b in
                readable(third) { c in
                    var vectors = (vector(a), vector(b), vector(c))
                    let count = third != nil ? 3 : second != nil ? 2 : 1
                    return withUnsafeMutableBytes(of: &vectors) { raw in
                        var message = msghdr()
                        message.msg_iov = raw.baseAddress?.assumingMemoryBound(to: iovec.self)
                        message.msg_iovlen = numericCast(count)
                        while true {
                            let sent = sendmsg(socket, &message, flags)
                            if sent >= 0 { return .sent(sent) }
                            switch errno {
                            case EINTR: continue
                            case EAGAIN, EWOULDBLOCK: return .sent(0)
                            default: return .failed
                            }
                        }
                    }
                }
            }
        }
    }

    /// What is left of `parts` once their first `count` bytes have been sent: the part that
    /// was cut, from where it was cut, and the ones after it, all as they are.
    public static func unsent(_ parts: [ByteBuffer], after count: Int) -> [ByteBuffer] {
        var skip = max(0, count)
        var rest: [ByteBuffer] = []
        for var part in parts {
            if skip >= part.readableBytes {
                skip -= part.readableBytes
                continue
            }
            part.moveReaderIndex(forwardBy: skip)
            skip = 0
            rest.append(part)
        }
        return rest
    }

    private static func readable<Result>(_ buffer: ByteBuffer?, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        guard let buffer else { return body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return buffer.withUnsafeReadableBytes(body)
    }

    private static func vector(_ bytes: UnsafeRawBufferPointer) -> iovec {
        iovec(iov_base: UnsafeMutableRawPointer(mutating: bytes.baseAddress), iov_len: bytes.count)
    }
}
