public import Foundation

public struct User: Sendable, Codable, Equatable {
    public var id: UserID
    public var username: String
    public var email: String?
    public var displayName: String
    public var isAdmin: Bool
    public var createdAt: Date

    public init(id: UserID, username: String, email: String?, displayName: String, isAdmin: Bool, createdAt: Date) {
        self.id = id
        self.username = username
        self.email = email
        self.displayName = displayName
        self.isAdmin = isAdmin
        self.createdAt = createdAt
    }
}
