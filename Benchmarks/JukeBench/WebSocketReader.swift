/// One connection's WebSocket frames from the server (RFC 6455, section 5.2), parsed from
/// its bytes as they arrive: whole text messages, and pings to answer as a browser does.
/// A frame split between two reads waits in `pending` for the rest.
struct WebSocketReader {
    enum Output {
        /// A whole text message; the bytes are valid only during the call.
        case message(UnsafeRawBufferPointer)
        /// The pong to send back, a client's frame (masked).
        case pong([UInt8])
    }

    let player: Int
    /// The start of a frame whose end has not arrived yet.
    private var pending: [UInt8] = []
    /// A text message split over continuation frames, until its final frame.
    private var fragments: [UInt8]?

    init(player: Int) { self.player = player }

    /// Takes the bytes that arrived. False when the connection is to be closed: the server
    /// closed it, or sent what a server must not.
    mutating func take(_ bytes: UnsafeRawBufferPointer, _ emit: (Output) -> Void) -> Bool {
        if pending.isEmpty {
            guard let used = parse(bytes, emit) else { return false }
            if used < bytes.count { pending = Array(bytes[used...]) }
            return true
        }
        var whole = pending
        whole.append(contentsOf: bytes)
        pending = []
        return whole.withUnsafeBytes { all in
            guard let used = parse(all, emit) else { return false }
            if used < all.count { pending = Array(all[used...]) }
            return true
        }
    }

    /// The whole frames at the start of `bytes`: how many bytes they took, or nil to close.
    private mutating func parse(_ bytes: UnsafeRawBufferPointer, _ emit: (Output) -> Void) -> Int? {
        var at = 0
        while bytes.count - at >= 2 {
            let first = bytes[at]
            let second = bytes[at + 1]
            // A server's frames are never masked (section 5.1).
            guard second & 0x80 == 0 else { return nil }
            var header = 2
            var length = Int(second & 0x7F)
            if length == 126 {
                guard bytes.count - at >= 4 else { break }
                length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
                header = 4
            } else if length == 127 {
                guard bytes.count - at >= 10 else { break }
                length = (0..<8).reduce(0) { $0 << 8 | Int(bytes[at + 2 + $1]) }
                header = 10
                guard length < 1 << 30 else { return nil }
            }
            // Control frames (close, ping, pong) carry at most 125 bytes (section 5.5).
            guard first & 0x08 == 0 || length <= 125 else { return nil }
            guard bytes.count - at - header >= length else { break }
            let payload = UnsafeRawBufferPointer(rebasing: bytes[(at + header)..<(at + header + length)])
            at += header + length
            let final = first & 0x80 != 0
            switch first & 0x0F {
            case 0x1:
                if final { emit(.message(payload)) } else { fragments = Array(payload) }
            case 0x0:
                guard fragments != nil else { return nil }
                fragments?.append(contentsOf: payload)
                if final, let whole = fragments {
                    fragments = nil
                    whole.withUnsafeBytes { emit(.message($0)) }
                }
            case 0x8:
                return nil
            case 0x9:
                // Masked, as a client's frames must be; a zero key leaves the payload as it is.
                emit(.pong([0x8A, 0x80 | UInt8(payload.count), 0, 0, 0, 0] + payload))
            default:
                continue  // binary frames and pongs: not sent to players
            }
        }
        return at
    }
}
