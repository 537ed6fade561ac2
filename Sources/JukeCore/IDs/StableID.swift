public import Foundation

/// Name-derived IDs (a UUID-shaped FNV-1a hash of a key), so that two servers scanning the
/// same library independently agree on an album's or artist's ID without coordinating.
public enum StableID {
    public static func uuid(for key: String) -> UUID {
        var a: UInt64 = 0xcbf2_9ce4_8422_2325
        var b: UInt64 = 0x8422_2325_cbf2_9ce4
        for byte in key.utf8 {
            a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            b = (b ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 &+ 0x9E37_79B9
        }
        var bytes = [UInt8](repeating: 0, count: 16)
        for i in 0..<8 {
            bytes[i] = UInt8(truncatingIfNeeded: a >> (8 * UInt64(i)))
            bytes[8 + i] = UInt8(truncatingIfNeeded: b >> (8 * UInt64(i)))
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x80  // version 8: custom
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 4122 variant
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }

    public static func artist(named name: String) -> ArtistID {
        ArtistID(rawValue: uuid(for: "artist\u{1F}" + SortKey.make(name)))
    }

    public static func album(title: String, artist: String) -> AlbumID {
        AlbumID(rawValue: uuid(for: "album\u{1F}" + SortKey.make(artist) + "\u{1F}" + SortKey.make(title)))
    }
}
