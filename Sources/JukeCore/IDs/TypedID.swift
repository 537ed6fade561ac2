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
    public var description: String { rawValue.uuidString.lowercased() }

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
