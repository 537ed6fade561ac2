/// Which addresses Juke's server may open a radio stream from.
///
/// The relay fetches an address a page (or Radio Browser's directory) supplied, from inside
/// the network Juke runs in. Without a check, a "station" at http://192.168.1.1/ or
/// http://169.254.169.254/ would let anyone with an account read the router's admin page or
/// the cloud's metadata service through Juke (server-side request forgery). So by default
/// only globally routable addresses are allowed: loopback, private (RFC 1918), shared
/// (CGNAT), link-local, unique-local, multicast, documentation and reserved ranges are not,
/// including IPv4 addresses embedded in IPv6 (mapped, NAT64, 6to4). The check is made on the
/// address actually connected to, after DNS, so a name that resolves to a private address
/// (DNS rebinding) is refused too.
public enum NetworkAddressPolicy {
    /// True when `bytes` (4 bytes for IPv4, 16 for IPv6, network order) is a public address.
    public static func isPublic(_ bytes: [UInt8]) -> Bool {
        switch bytes.count {
        case 4: return isPublicIPv4(bytes[0], bytes[1], bytes[2], bytes[3])
        case 16: return isPublicIPv6(bytes)
        default: return false
        }
    }

    static func isPublicIPv4(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> Bool {
        switch (a, b) {
        case (0, _): return false  // "this network"
        case (10, _): return false  // private
        case (100, 64...127): return false  // shared address space (CGNAT)
        case (127, _): return false  // loopback
        case (169, 254): return false  // link-local, cloud metadata services
        case (172, 16...31): return false  // private
        case (192, 168): return false  // private
        case (198, 18...19): return false  // benchmarking
        case (224...255, _): return false  // multicast, reserved, broadcast
        default: break
        }
        switch (a, b, c) {
        case (192, 0, 0), (192, 0, 2), (198, 51, 100), (203, 0, 113), (192, 88, 99): return false  // IETF, documentation, 6to4 relay
        default: return true
        }
    }

    static func isPublicIPv6(_ bytes: [UInt8]) -> Bool {
        let first = bytes[0]
        if bytes[0..<15].allSatisfy({ $0 == 0 }) { return false }  // :: and ::1
        // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible): the IPv4 address decides.
        if bytes[0..<10].allSatisfy({ $0 == 0 }), (bytes[10] == 0xFF && bytes[11] == 0xFF) || (bytes[10] == 0 && bytes[11] == 0) {
            return isPublicIPv4(bytes[12], bytes[13], bytes[14], bytes[15])
        }
        // 64:ff9b::/96 (NAT64): the embedded IPv4 address decides.
        if bytes[0] == 0x00, bytes[1] == 0x64, bytes[2] == 0xFF, bytes[3] == 0x9B, bytes[4..<12].allSatisfy({ $0 == 0 }) {
            return isPublicIPv4(bytes[12], bytes[13], bytes[14], bytes[15])
        }
        // 2002::/16 (6to4): the IPv4 address in bits 16-48 decides.
        if bytes[0] == 0x20, bytes[1] == 0x02 { return isPublicIPv4(bytes[2], bytes[3], bytes[4], bytes[5]) }
        if first & 0xFE == 0xFC { return false }  // fc00::/7 unique local
        if first == 0xFE, bytes[1] & 0xC0 == 0x80 { return false }  // fe80::/10 link-local
        if first == 0xFE, bytes[1] & 0xC0 == 0xC0 { return false }  // fec0::/10 site-local (deprecated)
        if first == 0xFF { return false }  // multicast
        if bytes[0] == 0x20, bytes[1] == 0x01, bytes[2] == 0x0D, bytes[3] == 0xB8 { return false }  // documentation
        if bytes[0] == 0x01, bytes[1..<8].allSatisfy({ $0 == 0 }) { return false }  // 100::/64 discard
        // Only global unicast (2000::/3) is routable on the internet.
        return first & 0xE0 == 0x20
    }
}
