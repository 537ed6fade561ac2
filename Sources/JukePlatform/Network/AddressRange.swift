import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A block of IP addresses, "10.0.0.0/8", "fd00::/8" or one address ("192.0.2.7"): what
/// `--trusted-proxy` names. IPv4 addresses written inside IPv6 (::ffff:a.b.c.d, as a
/// dual-stack socket reports an IPv4 peer) match the IPv4 blocks.
public struct AddressRange: Sendable, Equatable, CustomStringConvertible {
    let network: [UInt8]
    let prefix: Int

    public init?(_ text: String) {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let first = parts.first, let bytes = Self.bytes(of: String(first)) else { return nil }
        let bits = bytes.count * 8
        var prefix = bits
        if parts.count == 2 {
            guard let given = Int(parts[1]), (0...bits).contains(given), parts[1].allSatisfy(\.isASCII) else { return nil }
            prefix = given
        }
        self.prefix = prefix
        self.network = Self.masked(bytes, prefix)
    }

    public var description: String {
        let text =
            network.count == 4
            ? network.map(String.init).joined(separator: ".")
            : stride(from: 0, to: 16, by: 2).map { String(UInt16(network[$0]) << 8 | UInt16(network[$0 + 1]), radix: 16) }.joined(separator: ":")
        return "\(text)/\(prefix)"
    }

    public func contains(_ address: String) -> Bool {
        guard let bytes = Self.bytes(of: address) else { return false }
        return bytes.count == network.count && Self.masked(bytes, prefix) == network
    }

    /// An address's bytes in network order (4 or 16), IPv4-mapped IPv6 as IPv4; nil when it
    /// is not an address (a host name, "unknown").
    static func bytes(of text: String) -> [UInt8]? {
        var host = text
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if let zone = host.firstIndex(of: "%") { host = String(host[..<zone]) }
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, host, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF { return Array(bytes[12...]) }
        return bytes
    }

    private static func masked(_ bytes: [UInt8], _ prefix: Int) -> [UInt8] {
        bytes.enumerated().map { index, byte in
            let kept = max(0, min(8, prefix - index * 8))
            return kept == 8 ? byte : byte & UInt8(truncatingIfNeeded: 0xFF << (8 - kept))
        }
    }
}
