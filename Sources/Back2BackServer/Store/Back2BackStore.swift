public import Back2Back
public import Foundation
public import JukeCore
import SQLKit
import Storage

/// Back2Back's sessions, personas, song memory and settings.
///
/// A session changes only through `update`: in one transaction it takes the session's row
/// lock (FOR UPDATE on PostgreSQL; SQLite's BEGIN IMMEDIATE serializes writers), applies the
/// rules to the stored state and writes the result, so two requests (or two servers) never
/// both accept a pick for the same turn.
public struct Back2BackStore: Sendable {
    let database: any JukeDatabase

    public init(database: any JukeDatabase) { self.database = database }

    public struct Summary: Sendable, Equatable {
        public let id: DJSessionID
        public let title: String
        public let host: UserID
        public let songCount: Int
        public let updatedAt: Date
    }

    // MARK: - Sessions

    public func create(_ session: DJSession, title: String, inviteToken: String) async throws {
        let state = try JSONColumn.encode(session)
        try await database.transaction { db in
            try await db.raw(
                """
                INSERT INTO b2b_sessions (id, host_id, invite_token, title, state, version, created_at, updated_at)
                VALUES (\(bind: session.id.description), \(bind: session.host.description), \(bind: inviteToken), \(bind: title),
                        \(bind: state), 1, \(bind: session.createdAt.timeIntervalSince1970), \(bind: session.updatedAt.timeIntervalSince1970))
                """
            ).run()
            try await Self.syncMembers(session, on: db)
        }
    }

    /// The session, its title, invite token and version, or nil.
    public func load(_ id: DJSessionID) async throws -> (session: DJSession, title: String, inviteToken: String, version: Int)? {
        try await database.withConnection { db in
            guard
                let row = try await db.raw(
                    "SELECT state, title, invite_token, version FROM b2b_sessions WHERE id = \(bind: id.description)"
                ).first()
            else { return nil }
            return (
                try JSONColumn.decode(DJSession.self, try row.decode(column: "state", as: String.self)),
                try row.decode(column: "title", as: String.self), try row.decode(column: "invite_token", as: String.self),
                try row.decode(column: "version", as: Int.self)
            )
        }
    }

    public func sessionID(inviteToken: String) async throws -> DJSessionID? {
        try await database.withConnection { db in
            try await db.raw("SELECT id FROM b2b_sessions WHERE invite_token = \(bind: inviteToken)").first().map { try decodeID($0, "id") }
        }
    }

    /// What an update left: the session, its version, the rules' actions, whether anything was
    /// stored, and the title and invite token (so the caller need not read the row again).
    public struct Updated: Sendable {
        public let session: DJSession
        public let version: Int
        public let actions: [SessionAction]
        public let changed: Bool
        public let title: String
        public let inviteToken: String
    }

    /// Applies `change` to the stored session under its lock and stores the result when it
    /// changed. A change that throws stores nothing.
    public func update(
        _ id: DJSessionID, _ change: @escaping @Sendable (inout DJSession) throws -> [SessionAction]
    ) async throws -> Updated {
        let lock = database.kind == .postgres ? " FOR UPDATE" : ""
        return try await database.transaction { db in
            guard
                let row = try await db.raw(
                    SQLQueryString("SELECT state, version, title, invite_token FROM b2b_sessions WHERE id = ") + "\(bind: id.description)"
                        + SQLQueryString(lock)
                ).first()
            else { throw StorageError.notFound("session \(id)") }
            let before = try JSONColumn.decode(DJSession.self, try row.decode(column: "state", as: String.self))
            let version = try row.decode(column: "version", as: Int.self)
            let title = try row.decode(column: "title", as: String.self)
            let token = try row.decode(column: "invite_token", as: String.self)
            var after = before
            let actions = try change(&after)
            guard after != before else {
                return Updated(session: before, version: version, actions: actions, changed: false, title: title, inviteToken: token)
            }
            try await db.raw(
                """
                UPDATE b2b_sessions SET state = \(bind: try JSONColumn.encode(after)), version = version + 1,
                    updated_at = \(bind: after.updatedAt.timeIntervalSince1970) WHERE id = \(bind: id.description)
                """
            ).run()
            if after.members != before.members { try await Self.syncMembers(after, on: db) }
            return Updated(session: after, version: version + 1, actions: actions, changed: true, title: title, inviteToken: token)
        }
    }

    public func delete(_ id: DJSessionID) async throws {
        try await database.transaction { db in
            try await db.raw("DELETE FROM b2b_members WHERE session_id = \(bind: id.description)").run()
            try await db.raw("DELETE FROM b2b_sessions WHERE id = \(bind: id.description)").run()
        }
    }

    /// Sessions the user hosts or takes turns in, most recently active first.
    public func sessions(for user: UserID, limit: Int, offset: Int) async throws -> (items: [Summary], total: Int) {
        try await database.withConnection { db in
            let who = user.description
            let filter: SQLQueryString = "EXISTS (SELECT 1 FROM b2b_members m WHERE m.session_id = s.id AND m.user_id = \(bind: who))"
            let total = try await db.raw("SELECT COUNT(*) AS n FROM b2b_sessions s WHERE " + filter).first()?.decode(column: "n", as: Int.self) ?? 0
            let rows = try await db.raw(
                "SELECT s.id, s.title, s.state, s.updated_at FROM b2b_sessions s WHERE " + filter
                    + " ORDER BY s.updated_at DESC, s.id LIMIT \(bind: limit) OFFSET \(bind: offset)"
            ).all()
            let items = try rows.map { row -> Summary in
                let session = try JSONColumn.decode(DJSession.self, try row.decode(column: "state", as: String.self))
                return Summary(
                    id: session.id, title: try row.decode(column: "title", as: String.self), host: session.host, songCount: session.entries.count,
                    updatedAt: Date(timeIntervalSince1970: try row.decode(column: "updated_at", as: Double.self)))
            }
            return (items, total)
        }
    }

    static func syncMembers(_ session: DJSession, on db: any SQLDatabase) async throws {
        try await db.raw("DELETE FROM b2b_members WHERE session_id = \(bind: session.id.description)").run()
        for member in session.members {
            try await db.raw(
                "INSERT INTO b2b_members (session_id, user_id) VALUES (\(bind: session.id.description), \(bind: member.description))"
            ).run()
        }
    }

    // MARK: - Personas

    /// The user's personas by name. An account starts with copies of the built-in personas
    /// (made the first time it asks), which it may edit or delete like its own.
    public func personas(of owner: UserID, now: Date) async throws -> [Persona] {
        try await database.transaction { db in
            try await Self.seedIfNew(owner, now: now, on: db)
            return try await db.raw("SELECT data FROM b2b_personas WHERE owner_id = \(bind: owner.description) ORDER BY name, id").all().map {
                try JSONColumn.decode(Persona.self, try $0.decode(column: "data", as: String.self))
            }
        }
    }

    public func persona(_ id: PersonaID) async throws -> Persona? {
        try await database.withConnection { db in
            try await db.raw("SELECT data FROM b2b_personas WHERE id = \(bind: id.description)").first().map {
                try JSONColumn.decode(Persona.self, try $0.decode(column: "data", as: String.self))
            }
        }
    }

    /// Inserts or replaces a persona (its owner must be set).
    public func save(_ persona: Persona) async throws {
        guard let owner = persona.owner else { throw StorageError.conflict("a persona without an owner") }
        let data = try JSONColumn.encode(persona)
        try await database.transaction { db in
            try await db.raw("DELETE FROM b2b_personas WHERE id = \(bind: persona.id.description)").run()
            try await db.raw(
                """
                INSERT INTO b2b_personas (id, owner_id, name, data, updated_at)
                VALUES (\(bind: persona.id.description), \(bind: owner.description), \(bind: persona.name), \(bind: data),
                        \(bind: persona.updatedAt.timeIntervalSince1970))
                """
            ).run()
        }
    }

    public func deletePersona(_ id: PersonaID) async throws {
        try await database.transaction { db in
            try await db.raw("DELETE FROM b2b_personas WHERE id = \(bind: id.description)").run()
            try await db.raw("DELETE FROM b2b_song_memory WHERE persona_id = \(bind: id.description)").run()
        }
    }

    /// The first time an account uses Back2Back: its settings row, and copies of the built-in personas.
    static func seedIfNew(_ owner: UserID, now: Date, on db: any SQLDatabase) async throws {
        let exists = try await db.raw("SELECT user_id FROM b2b_settings WHERE user_id = \(bind: owner.description)").first() != nil
        guard !exists else { return }
        try await db.raw(
            "INSERT INTO b2b_settings (user_id, data) VALUES (\(bind: owner.description), \(bind: try JSONColumn.encode(DJSettings())))"
        ).run()
        for var persona in Persona.builtIns(at: now) {
            persona.id = PersonaID()
            persona.owner = owner
            try await db.raw(
                """
                INSERT INTO b2b_personas (id, owner_id, name, data, updated_at)
                VALUES (\(bind: persona.id.description), \(bind: owner.description), \(bind: persona.name), \(bind: try JSONColumn.encode(persona)),
                        \(bind: now.timeIntervalSince1970))
                """
            ).run()
        }
    }

    // MARK: - Settings

    public func settings(of user: UserID, now: Date) async throws -> DJSettings {
        try await database.transaction { db in
            try await Self.seedIfNew(user, now: now, on: db)
            guard let row = try await db.raw("SELECT data FROM b2b_settings WHERE user_id = \(bind: user.description)").first() else {
                return DJSettings()
            }
            return try JSONColumn.decode(DJSettings.self, try row.decode(column: "data", as: String.self))
        }
    }

    public func save(_ settings: DJSettings, of user: UserID, now: Date) async throws {
        try await database.transaction { db in
            try await Self.seedIfNew(user, now: now, on: db)
            try await db.raw("UPDATE b2b_settings SET data = \(bind: try JSONColumn.encode(settings)) WHERE user_id = \(bind: user.description)").run()
        }
    }

    // MARK: - The AI endpoint

    /// The AI service an admin set on the settings page, if any.
    public func aiEndpoint() async throws -> (baseURL: String, apiKey: String)? {
        try await database.withConnection { db in
            guard let row = try await db.raw("SELECT base_url, api_key FROM b2b_ai_endpoint WHERE id = 1").first() else { return nil }
            return (try row.decode(column: "base_url", as: String.self), try row.decode(column: "api_key", as: String.self))
        }
    }

    public func saveAIEndpoint(baseURL: String, apiKey: String, at now: Date) async throws {
        try await database.transaction { db in
            try await db.raw("DELETE FROM b2b_ai_endpoint WHERE id = 1").run()
            try await db.raw(
                """
                INSERT INTO b2b_ai_endpoint (id, base_url, api_key, updated_at)
                VALUES (1, \(bind: baseURL), \(bind: apiKey), \(bind: now.timeIntervalSince1970))
                """
            ).run()
        }
    }

    public func clearAIEndpoint() async throws {
        try await database.withConnection { db in try await db.raw("DELETE FROM b2b_ai_endpoint WHERE id = 1").run() }
    }

    // MARK: - Song memory

    /// Remembers that `persona` played `song` for `owner` at `now`.
    public func remember(_ song: Song, persona: PersonaID, owner: UserID, at now: Date) async throws {
        let key = SongKey(song)
        try await database.transaction { db in
            try await db.raw(
                """
                DELETE FROM b2b_song_memory WHERE owner_id = \(bind: owner.description) AND persona_id = \(bind: persona.description)
                    AND song_key = \(bind: key.text)
                """
            ).run()
            try await db.raw(
                """
                INSERT INTO b2b_song_memory (owner_id, persona_id, song_key, isrc, artist, title, played_at)
                VALUES (\(bind: owner.description), \(bind: persona.description), \(bind: key.text), \(bind: key.isrc),
                        \(bind: song.artist), \(bind: song.title), \(bind: now.timeIntervalSince1970))
                """
            ).run()
        }
    }

    /// What `persona` played for `owner` within the memory's window, as the engine's memory.
    public func memory(persona: PersonaID, owner: UserID, at now: Date) async throws -> SongMemory {
        let since = now.addingTimeInterval(-SongMemory.window).timeIntervalSince1970
        return try await database.withConnection { db in
            let rows = try await db.raw(
                """
                SELECT song_key, isrc, artist, title, played_at FROM b2b_song_memory
                WHERE owner_id = \(bind: owner.description) AND persona_id = \(bind: persona.description) AND played_at > \(bind: since)
                ORDER BY played_at
                """
            ).all()
            var memory = SongMemory()
            for row in rows {
                memory.restore(
                    SongMemory.Remembered(
                        key: SongKey(storedText: try row.decode(column: "song_key", as: String.self), isrc: try row.decode(column: "isrc", as: String?.self)),
                        artist: try row.decode(column: "artist", as: String.self), title: try row.decode(column: "title", as: String.self),
                        playedAt: Date(timeIntervalSince1970: try row.decode(column: "played_at", as: Double.self))),
                    persona: persona)
            }
            return memory
        }
    }

    /// Forgets what the owner's personas played (one persona, or all of them).
    public func clearMemory(owner: UserID, persona: PersonaID? = nil) async throws {
        try await database.withConnection { db in
            if let persona {
                try await db.raw(
                    "DELETE FROM b2b_song_memory WHERE owner_id = \(bind: owner.description) AND persona_id = \(bind: persona.description)"
                ).run()
            } else {
                try await db.raw("DELETE FROM b2b_song_memory WHERE owner_id = \(bind: owner.description)").run()
            }
        }
    }

    /// Drops memories older than the window (housekeeping).
    public func pruneMemory(before now: Date) async throws {
        let cutoff = now.addingTimeInterval(-SongMemory.window).timeIntervalSince1970
        try await database.withConnection { db in
            try await db.raw("DELETE FROM b2b_song_memory WHERE played_at <= \(bind: cutoff)").run()
        }
    }
}
