public import Foundation

/// A UUID that knows what it identifies, so a track's ID can never be passed as a user's.
public protocol TypedID: Hashable, Codable, Sendable, CustomStringConvertible, LosslessStringConvertible {
    var rawValue: UUID { get }
    init(rawValue: UUID)
}

extension TypedID {
    public init() { self.init(rawValue: UUID()) }
    public init?(_ description: String) {
        guard let uuid = UUID(uuidString: description) else { return nil }
        self.init(rawValue: uuid)
    }
    /// Lowercase, as `uuidString.lowercased()` writes it: every ID in every JSON reply and
    /// every push is one of these, and Foundation formats a UUID with snprintf and then
    /// lowercases it with Unicode's rules (ten thousand of them at a TuneTrivia reveal).
    public var description: String { rawValue.lowercasedString }

    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(UUID.self))
    }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}

public struct UserID: TypedID { public let rawValue: UUID; public init(rawValue: UUID) { self.rawValue = rawValue } }
public struct TrackID: TypedID { public let rawValue: UUID; public init(rawValue: UUID) { self.rawValue = rawValue } }
public struct AlbumID: TypedID { public let rawValue: UUID; public init(rawValue: UUID) { self.rawValue = rawValue } }
public struct ArtistID: TypedID { public let rawValue: UUID; public init(rawValue: UUID) { self.rawValue = rawValue } }
public struct LibraryFolderID: TypedID { public let rawValue: UUID; public init(rawValue: UUID) { self.rawValue = rawValue } }

extension TypedID {
    /// A new ID drawn from `generator`, so engines that make IDs stay deterministic under a
    /// seeded generator in tests. (A version-4 UUID: the version and variant bits are set.)
    public static func random(using generator: inout some RandomNumberGenerator) -> Self {
        let high = generator.next()
        let low = generator.next()
        var bytes = [UInt8](repeating: 0, count: 16)
        for i in 0..<8 {
            bytes[i] = UInt8(truncatingIfNeeded: high >> (8 * UInt64(i)))
            bytes[8 + i] = UInt8(truncatingIfNeeded: low >> (8 * UInt64(i)))
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let uuid = UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
        return Self(rawValue: uuid)
    }
}

extension UUID {
    /// `uuidString.lowercased()`, written straight from the bytes.
    public var lowercasedString: String {
        String(unsafeUninitializedCapacity: Self.lowercasedLength) { out in
            writeLowercased(into: UnsafeMutableRawBufferPointer(out))
            return Self.lowercasedLength
        }
    }

    /// The length of `lowercasedString`: 32 hex digits and 4 hyphens.
    public static let lowercasedLength = 36

    /// Writes `lowercasedString`'s bytes into the first `lowercasedLength` bytes of `out`,
    /// for callers that write JSON into a buffer of their own without a string in between.
    public func writeLowercased(into out: UnsafeMutableRawBufferPointer) {
        precondition(out.count >= Self.lowercasedLength, "room for a UUID")
        withUnsafeBytes(of: uuid) { bytes in
            let digits: StaticString = "0123456789abcdef"
            var at = 0
            for (i, byte) in bytes.enumerated() {
                if i == 4 || i == 6 || i == 8 || i == 10 {
                    out[at] = UInt8(ascii: "-")
                    at += 1
                }
                out[at] = digits.utf8Start[Int(byte >> 4)]
                out[at + 1] = digits.utf8Start[Int(byte & 0x0F)]
                at += 2
            }
        }
    }
}
