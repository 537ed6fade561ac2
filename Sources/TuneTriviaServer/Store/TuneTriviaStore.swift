public import Foundation
public import JukeCore
import SQLKit
import Storage
public import TuneTrivia

/// TuneTrivia games, their players and guesses, and the global leaderboard.
///
/// Every change goes through `update`: in one transaction it takes the game's row lock
/// (FOR UPDATE on PostgreSQL; SQLite's BEGIN IMMEDIATE already serializes writers), reloads
/// the game if another server changed it since the caller's copy, applies the rules, and
/// writes what changed before committing. An accepted guess is therefore on disk before it
/// is acknowledged, and two servers can never both accept a second guess or reveal twice.
public struct TuneTriviaStore: Sendable {
    let database: any JukeDatabase

    public init(database: any JukeDatabase) { self.database = database }

    /// A game as a list shows it.
    public struct Summary: Sendable {
        public let id: SessionID
        public let title: String
        public let status: Game.Status
        public let mode: Settings.Mode
        public let inviteCode: String
        public let isHost: Bool
        public let playerCount: Int
        public let createdAt: Date
    }

    public struct LeaderboardEntry: Sendable, Equatable {
        public let user: UserID
        public let displayName: String
        public let rank: Int
        public let gamesPlayed: Int
        public let totalPoints: Int
        public let artistCorrect: Int
        public let songCorrect: Int
        public let triviaCorrect: Int
        public let highestGameScore: Int
        public let lastPlayed: Date
    }

    /// Stores a new game. Throws StorageError.conflict when its invite code is taken.
    public func create(_ game: Game, now: Date) async throws {
        let state = try Self.encode(game.snapshot)
        try await database.transaction { db in
            if try await db.raw("SELECT id FROM tunetrivia_sessions WHERE invite_code = \(bind: game.inviteCode)").first() != nil {
                throw StorageError.conflict("invite code \(game.inviteCode)")
            }
            try await db.raw(
                """
                INSERT INTO tunetrivia_sessions (id, host_id, invite_code, status, state, version, created_at, updated_at)
                VALUES (\(bind: game.id.description), \(bind: game.host.description), \(bind: game.inviteCode), \(bind: game.status.rawValue),
                        \(bind: state), 1, \(bind: now.timeIntervalSince1970), \(bind: now.timeIntervalSince1970))
                """
            ).run()
            for p in game.seated { try await Self.insert(p, session: game.id, on: db) }
        }
    }

    /// The game and its version, or nil.
    public func load(_ id: SessionID) async throws -> (game: Game, version: Int)? {
        try await database.withConnection { db in try await Self.load(id, on: db) }
    }

    public func sessionID(inviteCode: String) async throws -> SessionID? {
        try await database.withConnection { db in
            try await db.raw("SELECT id FROM tunetrivia_sessions WHERE invite_code = \(bind: inviteCode)").first().map {
                try decodeID($0, "id")
            }
        }
    }

    /// The stored version, to tell whether a cached copy is current.
    public func version(_ id: SessionID) async throws -> Int? {
        try await database.withConnection { db in
            try await db.raw("SELECT version FROM tunetrivia_sessions WHERE id = \(bind: id.description)").first()?.decode(
                column: "version", as: Int.self)
        }
    }

    /// Applies `change` to the current game under its lock and stores the result. `cached`
    /// is the caller's copy, used when its version is still the stored one. Returns the new
    /// game and version and the events; a change that throws stores nothing.
    public func update(
        _ id: SessionID, cached: (game: Game, version: Int)?, now: Date,
        _ change: @escaping @Sendable (inout Game) throws -> [GameEvent]
    ) async throws -> (game: Game, version: Int, events: [GameEvent]) {
        try await update(id, now: now, cached: { cached }, remember: { _, _ in }, change)
    }

    /// `update`, for a caller that keeps a cache shared by concurrent commands: `cached` is
    /// asked for once the lock is held (so it holds the previous command's result, not what
    /// was there when this one arrived; otherwise every command in a burst would reload the
    /// whole game), and `remember` is told the new game before the commit, so the next
    /// command finds it. Should the commit fail, the cache is a version ahead of the
    /// database, and the next reader reloads: versions must match exactly to be used.
    public func update(
        _ id: SessionID, now: Date,
        cached: @escaping @Sendable () async -> (game: Game, version: Int)?,
        remember: @escaping @Sendable (Game, Int) async -> Void,
        _ change: @escaping @Sendable (inout Game) throws -> [GameEvent]
    ) async throws -> (game: Game, version: Int, events: [GameEvent]) {
        let lock = database.kind == .postgres ? " FOR UPDATE" : ""
        return try await database.transaction { db in
            guard
                let row = try await db.raw(
                    SQLQueryString("SELECT version FROM tunetrivia_sessions WHERE id = ") + "\(bind: id.description)" + SQLQueryString(lock)
                )
                .first()
            else { throw StorageError.notFound("game \(id)") }
            let stored = try row.decode(column: "version", as: Int.self)
            let before: Game
            if let cached = await cached(), cached.version == stored {
                before = cached.game
            } else {
                guard let fresh = try await Self.load(id, on: db) else { throw StorageError.notFound("game \(id)") }
                before = fresh.game
            }
            var after = before
            let events = try change(&after)
            if events.isEmpty { return (before, stored, events) }
            try await Self.persist(before: before, after: after, events: events, on: db, now: now)
            try await db.raw(
                """
                UPDATE tunetrivia_sessions SET version = version + 1, status = \(bind: after.status.rawValue),
                    updated_at = \(bind: now.timeIntervalSince1970) WHERE id = \(bind: id.description)
                """
            ).run()
            await remember(after, stored + 1)
            return (after, stored + 1, events)
        }
    }

    /// Whether `commitApplied` can store a change with these events: one that touches only
    /// the game's row and its guesses (answers, scoring, reveals, rounds), not its players or
    /// the leaderboard.
    public static func canCommitApplied(_ events: [GameEvent]) -> Bool {
        !events.contains {
            switch $0 {
            case .playerJoined, .playerLeft, .ended: true
            default: false
            }
        }
    }

    /// What `commitApplied` did.
    public enum AppliedCommit: Sendable, Equatable {
        case stored
        /// The stored version had moved on (another server): nothing was written.
        case changedElsewhere
        /// A token the change depends on is signed out or expired: nothing was written.
        case tokenRefused
    }

    /// Stores a change the caller already applied to the game at `version`, in one statement
    /// on PostgreSQL: it bumps the version only if it is still `version` and every token in
    /// `tokens` is still valid, writes the guesses only if it did, and sends `notify` (to the
    /// other servers) only then, all atomically. A batch of answers is then one round trip
    /// instead of a token lookup per answer, five statements and a NOTIFY.
    ///
    /// When nothing was written, the caller finds out which tokens are refused, or reloads
    /// the game, and tries again. Throws `StorageError.unsupported` on SQLite, whose
    /// transactions are local calls anyway.
    public func commitApplied(
        _ id: SessionID, before: Game, after: Game, events: [GameEvent], version: Int, tokens: Set<String> = [], now: Date,
        notify: (channel: String, payloads: [String])?
    ) async throws -> AppliedCommit {
        guard database.kind == .postgres else { throw StorageError.unsupported("a single-statement commit on SQLite") }
        guard Self.canCommitApplied(events) else { throw StorageError.unsupported("players or results in a single-statement commit") }
        let writes = try Self.guessWrites(before: before, after: after, events: events)
        let stateChanged = before.snapshot != after.snapshot
        if let postgres = database as? PostgresDatabase, let writes, !writes.inserts.isEmpty, writes.updates.isEmpty, !stateChanged {
            let statement = CommitAnswersStatement(
                tokens: Array(tokens), now: now.timeIntervalSince1970, session: id.description, version: version,
                round: writes.round.description, players: writes.inserts.map(\.player.description), data: writes.inserts.map(\.data),
                channel: notify?.channel ?? "", payloads: notify?.payloads ?? [])
            // Read to the end: the connection goes back to the pool when the rows are done.
            var reply: CommitAnswersStatement.Row?
            for try await row in try await postgres.client.execute(statement) { reply = row }
            guard let reply else { return .changedElsewhere }
            if reply.version != nil { return .stored }
            return reply.tokensValid ? .changedElsewhere : .tokenRefused
        }
        var sql: SQLQueryString = "WITH "
        var tokensValid: SQLQueryString = "TRUE"
        if !tokens.isEmpty {
            sql =
                sql
                + "ok AS (SELECT COUNT(*) = \(bind: tokens.count) AS ok FROM auth_tokens WHERE expires_at > \(bind: now.timeIntervalSince1970) AND token_hash IN ("
            for (i, hash) in tokens.enumerated() { sql = sql + (i == 0 ? "" : ", ") + "\(bind: hash)" }
            sql = sql + ")), "
            tokensValid = "(SELECT ok FROM ok)"
        }
        sql = sql + "v AS (UPDATE tunetrivia_sessions SET version = version + 1, status = \(bind: after.status.rawValue), "
        if stateChanged { sql = sql + "state = \(bind: try Self.encode(after.snapshot)), " }
        sql = sql + "updated_at = \(bind: now.timeIntervalSince1970) WHERE id = \(bind: id.description) AND version = \(bind: version) AND "
        sql = sql + tokensValid + " RETURNING version)"
        if let writes {
            let round = writes.round.description
            if !writes.inserts.isEmpty {
                sql = sql + ", inserted AS (INSERT INTO tunetrivia_guesses (round_id, player_id, session_id, data) SELECT x.r, x.p, x.s, x.d FROM v, (VALUES "
                for (i, row) in writes.inserts.enumerated() {
                    sql = sql + (i == 0 ? "" : ", ") + "(\(bind: round), \(bind: row.player.description), \(bind: id.description), \(bind: row.data))"
                }
                sql = sql + ") AS x(r, p, s, d))"
            }
            if !writes.updates.isEmpty {
                sql = sql + ", updated AS (UPDATE tunetrivia_guesses g SET data = x.d FROM v, (VALUES "
                for (i, row) in writes.updates.enumerated() {
                    sql = sql + (i == 0 ? "" : ", ") + "(\(bind: round), \(bind: row.player.description), \(bind: row.data))"
                }
                sql = sql + ") AS x(r, p, d) WHERE g.round_id = x.r AND g.player_id = x.p)"
            }
        }
        // A SELECT in a WITH runs only if the query reads it: the count makes it run (once
        // the version matched, since it reads v).
        var told: SQLQueryString = "0"
        if let notify, !notify.payloads.isEmpty {
            sql = sql + ", told AS (SELECT pg_notify(\(bind: notify.channel), x.payload) FROM v, (VALUES "
            for (i, payload) in notify.payloads.enumerated() { sql = sql + (i == 0 ? "" : ", ") + "(\(bind: payload))" }
            sql = sql + ") AS x(payload))"
            told = "(SELECT COUNT(*) FROM told)"
        }
        sql = sql + " SELECT (SELECT version FROM v) AS version, " + tokensValid + " AS tokens_valid, " + told + " AS told"
        let query = sql
        return try await database.withConnection { db in
            guard let row = try await db.raw(query).first() else { return .changedElsewhere }
            if try row.decode(column: "version", as: Int?.self) != nil { return .stored }
            return try row.decode(column: "tokens_valid", as: Bool.self) ? .changedElsewhere : .tokenRefused
        }
    }

    public func delete(_ id: SessionID) async throws {
        try await database.transaction { db in
            try await db.raw("DELETE FROM tunetrivia_guesses WHERE session_id = \(bind: id.description)").run()
            try await db.raw("DELETE FROM tunetrivia_players WHERE session_id = \(bind: id.description)").run()
            try await db.raw("DELETE FROM tunetrivia_sessions WHERE id = \(bind: id.description)").run()
        }
    }

    /// Games the user hosts or plays in, newest first.
    public func sessions(for user: UserID, limit: Int, offset: Int) async throws -> (items: [Summary], total: Int) {
        try await database.withConnection { db in
            let who = user.description
            let filter: SQLQueryString =
                "(s.host_id = \(bind: who) OR EXISTS (SELECT 1 FROM tunetrivia_players p WHERE p.session_id = s.id AND p.user_id = \(bind: who)))"
            let total =
                try await db.raw("SELECT COUNT(*) AS n FROM tunetrivia_sessions s WHERE " + filter).first()?.decode(column: "n", as: Int.self) ?? 0
            let rows = try await db.raw(
                "SELECT s.id, s.host_id, s.state, s.created_at, (SELECT COUNT(*) FROM tunetrivia_players p WHERE p.session_id = s.id AND p.is_host = 0) AS players FROM tunetrivia_sessions s WHERE "
                    + filter + " ORDER BY s.created_at DESC, s.id LIMIT \(bind: limit) OFFSET \(bind: offset)"
            ).all()
            let items = try rows.map { row -> Summary in
                let snapshot = try Self.decode(GameSnapshot.self, try row.decode(column: "state", as: String.self))
                return Summary(
                    id: snapshot.id, title: snapshot.settings.title, status: snapshot.status, mode: snapshot.settings.mode,
                    inviteCode: snapshot.inviteCode, isHost: snapshot.host == user, playerCount: try row.decode(column: "players", as: Int.self),
                    createdAt: snapshot.createdAt)
            }
            return (items, total)
        }
    }

    // MARK: - Leaderboard

    public func leaderboard(limit: Int, offset: Int) async throws -> (entries: [LeaderboardEntry], total: Int) {
        try await database.withConnection { db in
            let total = try await db.raw("SELECT COUNT(*) AS n FROM tunetrivia_leaderboard").first()?.decode(column: "n", as: Int.self) ?? 0
            // Rank ties share a rank: 1 + the number of players with more points.
            let rows = try await db.raw(
                """
                SELECT l.*, u.display_name,
                    (SELECT COUNT(*) FROM tunetrivia_leaderboard o WHERE o.total_points > l.total_points) + 1 AS rank
                FROM tunetrivia_leaderboard l JOIN users u ON u.id = l.user_id
                ORDER BY l.total_points DESC, l.games_played DESC, u.display_name, l.user_id
                LIMIT \(bind: limit) OFFSET \(bind: offset)
                """
            ).all()
            return (try rows.map(Self.entry), total)
        }
    }

    public func leaderboardEntry(_ user: UserID) async throws -> LeaderboardEntry? {
        try await database.withConnection { db in
            try await db.raw(
                """
                SELECT l.*, u.display_name,
                    (SELECT COUNT(*) FROM tunetrivia_leaderboard o WHERE o.total_points > l.total_points) + 1 AS rank
                FROM tunetrivia_leaderboard l JOIN users u ON u.id = l.user_id WHERE l.user_id = \(bind: user.description)
                """
            ).first().map(Self.entry)
        }
    }

    static func entry(_ row: any SQLRow) throws -> LeaderboardEntry {
        LeaderboardEntry(
            user: try decodeID(row, "user_id"), displayName: try row.decode(column: "display_name", as: String.self),
            rank: try row.decode(column: "rank", as: Int.self), gamesPlayed: try row.decode(column: "games_played", as: Int.self),
            totalPoints: try row.decode(column: "total_points", as: Int.self),
            artistCorrect: try row.decode(column: "total_artist_correct", as: Int.self),
            songCorrect: try row.decode(column: "total_song_correct", as: Int.self),
            triviaCorrect: try row.decode(column: "total_trivia_correct", as: Int.self),
            highestGameScore: try row.decode(column: "highest_game_score", as: Int.self),
            lastPlayed: Date(timeIntervalSince1970: try row.decode(column: "last_played", as: Double.self)))
    }

    // MARK: - Rows

    static func load(_ id: SessionID, on db: any SQLDatabase) async throws -> (game: Game, version: Int)? {
        guard let row = try await db.raw("SELECT state, version FROM tunetrivia_sessions WHERE id = \(bind: id.description)").first() else {
            return nil
        }
        let snapshot = try decode(GameSnapshot.self, try row.decode(column: "state", as: String.self))
        // In seat order: the order they joined in, which the game keeps.
        let players = try await db.raw("SELECT * FROM tunetrivia_players WHERE session_id = \(bind: id.description) ORDER BY seat").all().map { r in
            Player(
                id: try decodeID(r, "id"), user: try r.decode(column: "user_id", as: String?.self).flatMap(UserID.init),
                displayName: try r.decode(column: "display_name", as: String.self), isHost: try r.decode(column: "is_host", as: Int.self) != 0,
                isManual: try r.decode(column: "is_manual", as: Int.self) != 0,
                joinedAt: Date(timeIntervalSince1970: try r.decode(column: "joined_at", as: Double.self)))
        }
        let guesses = try await db.raw("SELECT data FROM tunetrivia_guesses WHERE session_id = \(bind: id.description)").all().map {
            try decode(Guess.self, try $0.decode(column: "data", as: String.self))
        }
        return (Game(snapshot: snapshot, players: players, guesses: guesses), try row.decode(column: "version", as: Int.self))
    }

    /// Writes the difference the events name: the snapshot if it changed, joined and removed
    /// players, the guesses recorded, and at the end the final scores and the leaderboard.
    static func persist(before: Game, after: Game, events: [GameEvent], on db: any SQLDatabase, now: Date) async throws {
        let id = after.id.description
        if before.snapshot != after.snapshot {
            try await db.raw("UPDATE tunetrivia_sessions SET state = \(bind: try encode(after.snapshot)) WHERE id = \(bind: id)").run()
        }
        for event in events {
            switch event {
            case .playerJoined(let p):
                if before.players[p] == nil, let player = after.players[p] { try await insert(player, session: after.id, on: db) }
            case .playerLeft(let p):
                try await db.raw("DELETE FROM tunetrivia_guesses WHERE player_id = \(bind: p.description)").run()
                try await db.raw("DELETE FROM tunetrivia_players WHERE id = \(bind: p.description)").run()
            case .ended:
                try await recordResults(after, on: db, now: now)
            default:
                continue
            }
        }
        guard let writes = try guessWrites(before: before, after: after, events: events) else { return }
        for row in writes.updates {
            try await db.raw(
                "UPDATE tunetrivia_guesses SET data = \(bind: row.data) WHERE round_id = \(bind: writes.round.description) AND player_id = \(bind: row.player.description)"
            ).run()
        }
        // 200 rows (800 parameters) a statement stays under every SQLite's parameter limit.
        var start = 0
        while start < writes.inserts.count {
            let chunk = writes.inserts[start..<min(start + 200, writes.inserts.count)]
            var sql: SQLQueryString = "INSERT INTO tunetrivia_guesses (round_id, player_id, session_id, data) VALUES "
            for (offset, row) in chunk.enumerated() {
                if offset > 0 { sql = sql + ", " }
                sql = sql + "(\(bind: writes.round.description), \(bind: row.player.description), \(bind: id), \(bind: row.data))"
            }
            try await db.raw(sql).run()
            start += chunk.count
        }
    }

    /// The guesses of the current round the events name, each once per batch however many
    /// events named it: new ones to insert, changed ones to update. (A batch of answers is
    /// then a handful of statements instead of one per answer.)
    static func guessWrites(before: Game, after: Game, events: [GameEvent]) throws -> (
        round: RoundID, inserts: [(player: PlayerID, data: String)], updates: [(player: PlayerID, data: String)]
    )? {
        var touched: [PlayerID] = []
        var seen: Set<PlayerID> = []
        for event in events {
            switch event {
            case .guessAccepted(let p), .scored(let p): if seen.insert(p).inserted { touched.append(p) }
            default: continue
            }
        }
        guard let round = after.round, !touched.isEmpty else { return nil }
        var inserts: [(player: PlayerID, data: String)] = []
        var updates: [(player: PlayerID, data: String)] = []
        for p in touched {
            guard after.players[p] != nil, let guess = after.guesses[round.id]?[p] else { continue }
            let data = try encode(guess)
            if before.guesses[round.id]?[p] == nil { inserts.append((p, data)) } else { updates.append((p, data)) }
        }
        return (round.id, inserts, updates)
    }

    /// Final scores on the players' rows, and each account's line of the global leaderboard.
    /// Manual players (host mode) and the host never reach the leaderboard.
    static func recordResults(_ game: Game, on db: any SQLDatabase, now: Date) async throws {
        for p in game.seated {
            try await db.raw("UPDATE tunetrivia_players SET total_score = \(bind: p.score.total) WHERE id = \(bind: p.id.description)").run()
            guard let user = p.user, !p.isManual, !p.isHost else { continue }
            let s = p.score
            let existing = try await db.raw("SELECT user_id FROM tunetrivia_leaderboard WHERE user_id = \(bind: user.description)").first()
            if existing == nil {
                try await db.raw(
                    """
                    INSERT INTO tunetrivia_leaderboard (user_id, games_played, total_points, total_artist_correct, total_song_correct,
                        total_trivia_correct, highest_game_score, last_played)
                    VALUES (\(bind: user.description), 1, \(bind: s.total), \(bind: s.artists), \(bind: s.songs), \(bind: s.trivia),
                        \(bind: s.total), \(bind: now.timeIntervalSince1970))
                    """
                ).run()
            } else {
                try await db.raw(
                    """
                    UPDATE tunetrivia_leaderboard SET games_played = games_played + 1, total_points = total_points + \(bind: s.total),
                        total_artist_correct = total_artist_correct + \(bind: s.artists),
                        total_song_correct = total_song_correct + \(bind: s.songs),
                        total_trivia_correct = total_trivia_correct + \(bind: s.trivia),
                        highest_game_score = CASE WHEN highest_game_score > \(bind: s.total) THEN highest_game_score ELSE \(bind: s.total) END,
                        last_played = \(bind: now.timeIntervalSince1970)
                    WHERE user_id = \(bind: user.description)
                    """
                ).run()
            }
        }
    }

    static func insert(_ p: Player, session: SessionID, on db: any SQLDatabase) async throws {
        try await db.raw(
            """
            INSERT INTO tunetrivia_players (id, session_id, user_id, display_name, is_host, is_manual, joined_at, seat)
            VALUES (\(bind: p.id.description), \(bind: session.description), \(bind: p.user?.description), \(bind: p.displayName),
                    \(bind: p.isHost ? 1 : 0), \(bind: p.isManual ? 1 : 0), \(bind: p.joinedAt.timeIntervalSince1970),
                    (SELECT COALESCE(MAX(seat), 0) + 1 FROM tunetrivia_players WHERE session_id = \(bind: session.description)))
            """
        ).run()
    }

    static func encode(_ value: some Encodable) throws -> String { try JSONColumn.encode(value) }

    static func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T { try JSONColumn.decode(type, text) }
}
