import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A host name's addresses, from the system resolver (getaddrinfo, on threads of its own so
/// that no event loop waits on DNS), each with its raw bytes for the address policy.
enum ResolvedAddresses {
    /// getaddrinfo can wait for the resolver's timeouts (seconds, times its retries). On NIO's
    /// shared pool, which is as wide as the machine has cores, two slow lookups would hold the
    /// threads that hash passwords, and sign-ins would wait on somebody's feed's DNS.
    static let pool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 8)
        pool.start()
        return pool
    }()

    struct Address: Sendable {
        let socket: SocketAddress
        let bytes: [UInt8]
    }

    static func resolve(host: String, port: Int) async throws(StreamRelayError) -> [Address] {
        do {
            return try await pool.runIfActive { try lookup(host: host, port: port) }
        } catch let error as StreamRelayError {
            throw error
        } catch {
            throw .unreachable("\(host) could not be looked up: \(error)")
        }
    }

    static func lookup(host: String, port: Int) throws(StreamRelayError) -> [Address] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Darwin)
            hints.ai_socktype = SOCK_STREAM
        #else
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw .unreachable("\(host) is not a name DNS knows (\(String(cString: gai_strerror(status))))")
        }
        defer { freeaddrinfo(first) }
        var found: [Address] = []
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let entry = next {
            next = entry.pointee.ai_next
            guard let pointer = entry.pointee.ai_addr else { continue }
            switch Int32(pointer.pointee.sa_family) {
            case AF_INET:
                let ipv4 = pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee }
                let bytes = withUnsafeBytes(of: ipv4.sin_addr) { Array($0) }
                found.append(Address(socket: SocketAddress(ipv4, host: host), bytes: bytes))
            case AF_INET6:
                let ipv6 = pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee }
                let bytes = withUnsafeBytes(of: ipv6.sin6_addr) { Array($0) }
                found.append(Address(socket: SocketAddress(ipv6, host: host), bytes: bytes))
            default:
                continue
            }
        }
        return found
    }
}
