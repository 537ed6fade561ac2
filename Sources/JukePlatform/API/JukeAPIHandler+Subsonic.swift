import Foundation
import JukeAPI
import JukeCore
import Storage

// MARK: - What a person makes for Subsonic players (their account page)

extension JukeAPIHandler {
    func getSubsonicAccess(_ input: Operations.GetSubsonicAccess.Input) async throws -> Operations.GetSubsonicAccess.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            let keys = try await platform.subsonicAccess.apiKeys(of: user)
            let created = try await platform.subsonicAccess.appPasswordCreatedAt(of: user)
            return .ok(.init(body: .json(.init(apiKeys: keys.map(Self.apiKey), appPasswordCreatedAt: created))))
        }
    }

    func createSubsonicAPIKey(_ input: Operations.CreateSubsonicAPIKey.Input) async throws -> Operations.CreateSubsonicAPIKey.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            guard case .json(let body) = input.body else { throw APIError.badRequest("Send JSON.") }
            let made = try await platform.subsonicAccess.createAPIKey(for: user, name: body.name)
            return .created(
                .init(body: .json(.init(id: made.record.id.uuidString.lowercased(), name: made.record.name, createdAt: made.record.createdAt, key: made.key))))
        }
    }

    func revokeSubsonicAPIKey(_ input: Operations.RevokeSubsonicAPIKey.Input) async throws -> Operations.RevokeSubsonicAPIKey.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            guard let id = UUID(uuidString: input.path.keyId) else { throw APIError.badRequest("key_id is not an ID.", field: "key_id") }
            try await platform.subsonicAccess.revokeAPIKey(id, of: user)
            return .noContent(.init())
        }
    }

    func createSubsonicAppPassword(_ input: Operations.CreateSubsonicAppPassword.Input) async throws -> Operations.CreateSubsonicAppPassword.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            let made = try await platform.subsonicAccess.createAppPassword(for: user)
            return .created(.init(body: .json(.init(username: user.username, password: made.password, createdAt: made.createdAt))))
        }
    }

    func deleteSubsonicAppPassword(_ input: Operations.DeleteSubsonicAppPassword.Input) async throws -> Operations.DeleteSubsonicAppPassword.Output {
        try await respond {
            try await platform.subsonicAccess.deleteAppPassword(of: try CurrentRequest.requireUser())
            return .noContent(.init())
        }
    }

    static func apiKey(_ key: SubsonicCredentialStore.APIKey) -> Components.Schemas.SubsonicAPIKey {
        .init(id: key.id.uuidString.lowercased(), name: key.name, createdAt: key.createdAt, lastUsedAt: key.lastUsedAt)
    }
}
