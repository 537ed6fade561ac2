import Foundation
import JukeCore
import SQLKit
import Storage

/// Runners' Spotify rows (`runbeat_spotify`): sealed tokens, an authorisation under way, the
/// preferred device, the playlist last started, and how refreshing went.
struct SpotifyStore: Sendable {
    let database: any JukeDatabase

    struct Account: Sendable {
        enum Status: String, Sendable {
            /// Sent to Spotify, not back yet (no tokens).
            case pending
            case connected
            /// The refresh token stopped working: only the runner can connect again.
            case reauthorize
        }

        var user: UserID
        var status: Status
        var accessToken: String?
        var refreshToken: String?
        var expiresAt: Date?
        var scope: String?
        var pendingState: String?
        var pendingVerifier: String?
        var pendingAt: Date?
        /// The hash of the session token of the browser that started the authorisation.
        var pendingSession: String?
        var deviceID: String?
        var deviceName: String?
        var playingWorkout: String?
        var playingPlaylist: String?
        var connectedAt: Date?
        var refreshedAt: Date?
        var lastError: String?
        var lastErrorAt: Date?
        var version: Int64
    }

    func account(of user: UserID) async throws -> Account? {
        try await database.withConnection { db in
            try await db.raw("SELECT * FROM runbeat_spotify WHERE user_id = \(bind: user.description)").first().map(Self.account)
        }
    }

    func account(pendingState state: String) async throws -> Account? {
        try await database.withConnection { db in
            try await db.raw("SELECT * FROM runbeat_spotify WHERE pending_state = \(bind: state)").first().map(Self.account)
        }
    }

    /// An authorisation starts: its state, sealed verifier and the browser it belongs to (a
    /// connected runner keeps their tokens until the new ones arrive).
    func startAuthorization(of user: UserID, state: String, verifier: String, session: String, now: Date) async throws {
        let at = Self.millis(now)
        try await database.withConnection { db in
            try await db.raw(
                """
                INSERT INTO runbeat_spotify (user_id, status, pending_state, pending_verifier, pending_at, pending_session, version, updated_at)
                VALUES (\(bind: user.description), 'pending', \(bind: state), \(bind: verifier), \(bind: at), \(bind: session), 0, \(bind: at))
                ON CONFLICT (user_id) DO UPDATE SET pending_state = excluded.pending_state, pending_verifier = excluded.pending_verifier,
                    pending_at = excluded.pending_at, pending_session = excluded.pending_session, updated_at = excluded.updated_at
                """
            ).run()
        }
    }

    /// The authorisation came back: its state is used up. Returns whether it was still there
    /// (a callback opened twice exchanges its code once).
    func takeAuthorization(state: String, of user: UserID) async throws -> Bool {
        try await database.withConnection { db in
            try await db.raw(
                """
                UPDATE runbeat_spotify SET pending_state = NULL, pending_verifier = NULL, pending_at = NULL, pending_session = NULL
                WHERE user_id = \(bind: user.description) AND pending_state = \(bind: state) RETURNING user_id
                """
            ).first() != nil
        }
    }

    /// New tokens from the code: connected.
    func connect(_ user: UserID, access: String, refresh: String, expiresAt: Date, scope: String, now: Date) async throws {
        let at = Self.millis(now)
        try await database.withConnection { db in
            try await db.raw(
                """
                UPDATE runbeat_spotify SET status = 'connected', access_token = \(bind: access), refresh_token = \(bind: refresh),
                    expires_at = \(bind: Self.millis(expiresAt)), scope = \(bind: scope), connected_at = \(bind: at), refreshed_at = \(bind: at),
                    last_error = NULL, last_error_at = NULL, playing_workout = NULL, playing_playlist = NULL, version = version + 1,
                    updated_at = \(bind: at)
                WHERE user_id = \(bind: user.description)
                """
            ).run()
        }
    }

    /// Refreshed tokens, stored only over the version they were refreshed from: false when
    /// another server stored newer ones meanwhile.
    func refreshed(
        _ user: UserID, from version: Int64, access: String, refresh: String, expiresAt: Date, scope: String, now: Date
    ) async throws -> Bool {
        let at = Self.millis(now)
        return try await database.withConnection { db in
            try await db.raw(
                """
                UPDATE runbeat_spotify SET access_token = \(bind: access), refresh_token = \(bind: refresh), expires_at = \(bind: Self.millis(expiresAt)),
                    scope = \(bind: scope), refreshed_at = \(bind: at), last_error = NULL, last_error_at = NULL, version = version + 1,
                    updated_at = \(bind: at)
                WHERE user_id = \(bind: user.description) AND version = \(bind: version) AND status = 'connected' RETURNING user_id
                """
            ).first() != nil
        }
    }

    /// What went wrong last (shown to the runner and on the admin's status); `reauthorize`
    /// when the runner must connect again.
    func failed(_ user: UserID, error: String, reauthorize: Bool, now: Date) async throws {
        let at = Self.millis(now)
        let text = String(error.prefix(300))
        try await database.withConnection { db in
            if reauthorize {
                try await db.raw(
                    """
                    UPDATE runbeat_spotify SET status = 'reauthorize', access_token = NULL, refresh_token = NULL, expires_at = NULL,
                        last_error = \(bind: text), last_error_at = \(bind: at), version = version + 1, updated_at = \(bind: at)
                    WHERE user_id = \(bind: user.description)
                    """
                ).run()
            } else {
                try await db.raw(
                    """
                    UPDATE runbeat_spotify SET last_error = \(bind: text), last_error_at = \(bind: at), updated_at = \(bind: at)
                    WHERE user_id = \(bind: user.description)
                    """
                ).run()
            }
        }
    }

    func chooseDevice(_ user: UserID, id: String?, name: String?, now: Date) async throws {
        try await database.withConnection { db in
            try await db.raw(
                """
                UPDATE runbeat_spotify SET device_id = \(bind: id), device_name = \(bind: name), updated_at = \(bind: Self.millis(now))
                WHERE user_id = \(bind: user.description)
                """
            ).run()
        }
    }

    /// The playlist started for a workout, so that no server starts it again for that workout.
    func playing(_ user: UserID, workout: String?, playlist: String?) async throws {
        try await database.withConnection { db in
            try await db.raw(
                """
                UPDATE runbeat_spotify SET playing_workout = \(bind: workout), playing_playlist = \(bind: playlist)
                WHERE user_id = \(bind: user.description)
                """
            ).run()
        }
    }

    func delete(_ user: UserID) async throws {
        try await database.withConnection { db in
            try await db.raw("DELETE FROM runbeat_spotify WHERE user_id = \(bind: user.description)").run()
        }
    }

    /// Connected runners whose access token runs out before `before`.
    func expiring(before: Date) async throws -> [Account] {
        try await database.withConnection { db in
            try await db.raw(
                """
                SELECT * FROM runbeat_spotify WHERE status = 'connected' AND expires_at < \(bind: Self.millis(before))
                ORDER BY expires_at
                """
            ).all().map(Self.account)
        }
    }

    /// How many runners are in each status.
    func counts() async throws -> [Account.Status: Int] {
        try await database.withConnection { db in
            var out: [Account.Status: Int] = [:]
            for row in try await db.raw("SELECT status, COUNT(*) AS n FROM runbeat_spotify GROUP BY status").all() {
                if let status = Account.Status(rawValue: try row.decode(column: "status", as: String.self)) {
                    out[status] = try row.decode(column: "n", as: Int.self)
                }
            }
            return out
        }
    }

    /// The latest failures, newest first, with the runner's name.
    func recentFailures(limit: Int) async throws -> [(runner: String, status: Account.Status, error: String, at: Date)] {
        try await database.withConnection { db in
            try await db.raw(
                """
                SELECT u.display_name AS runner, s.status, s.last_error, s.last_error_at FROM runbeat_spotify s JOIN users u ON u.id = s.user_id
                WHERE s.last_error IS NOT NULL ORDER BY s.last_error_at DESC LIMIT \(bind: limit)
                """
            ).all().map { row in
                (
                    try row.decode(column: "runner", as: String.self),
                    Account.Status(rawValue: try row.decode(column: "status", as: String.self)) ?? .connected,
                    try row.decode(column: "last_error", as: String.self),
                    Self.date(try row.decode(column: "last_error_at", as: Int64.self))
                )
            }
        }
    }

    static func account(_ row: any SQLRow) throws -> Account {
        func text(_ column: String) throws -> String? { try row.decode(column: column, as: String?.self) }
        func time(_ column: String) throws -> Date? { try row.decode(column: column, as: Int64?.self).map(date) }
        return Account(
            user: try decodeID(row, "user_id"), status: Account.Status(rawValue: try row.decode(column: "status", as: String.self)) ?? .pending,
            accessToken: try text("access_token"), refreshToken: try text("refresh_token"), expiresAt: try time("expires_at"),
            scope: try text("scope"), pendingState: try text("pending_state"), pendingVerifier: try text("pending_verifier"),
            pendingAt: try time("pending_at"), pendingSession: try text("pending_session"), deviceID: try text("device_id"),
            deviceName: try text("device_name"),
            playingWorkout: try text("playing_workout"), playingPlaylist: try text("playing_playlist"), connectedAt: try time("connected_at"),
            refreshedAt: try time("refreshed_at"), lastError: try text("last_error"), lastErrorAt: try time("last_error_at"),
            version: try row.decode(column: "version", as: Int64.self))
    }

    static func millis(_ date: Date) -> Int64 { RunBeatStore.millis(date) }
    static func date(_ millis: Int64) -> Date { Date(timeIntervalSince1970: Double(millis) / 1000) }
}
