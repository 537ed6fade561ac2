public import Foundation
import SQLKit

/// Keys shared by every server on this database, each made once by whichever server asks
/// first: the insert that loses the race changes nothing, and everyone reads the winner's.
public struct SecretStore: Sendable {
    let database: any JukeDatabase

    public init(database: any JukeDatabase) { self.database = database }

    /// The secret called `name`: 32 random bytes, made now if there is none yet.
    public func secret(named name: String) async throws -> Data {
        var fresh = [UInt8](repeating: 0, count: 32)
        var generator = SystemRandomNumberGenerator()
        for i in fresh.indices { fresh[i] = UInt8.random(in: 0...255, using: &generator) }
        let candidate = Data(fresh).base64EncodedString()
        return try await database.withConnection { db in
            try await db.raw("INSERT INTO server_secrets (name, value) VALUES (\(bind: name), \(bind: candidate)) ON CONFLICT (name) DO NOTHING")
                .run()
            guard let row = try await db.raw("SELECT value FROM server_secrets WHERE name = \(bind: name)").first(),
                let value = Data(base64Encoded: try row.decode(column: "value", as: String.self))
            else { throw StorageError.notFound("secret \(name)") }
            return value
        }
    }
}
