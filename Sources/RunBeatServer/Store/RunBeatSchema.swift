import Storage

/// RunBeat's tables: each runner's settings, their own interval workouts, workouts with their
/// heart-rate samples, and coaches' classes. Append; never edit a migration that has shipped.
extension Schema {
    public static let runBeat = Schema(
        module: "runbeat",
        migrations: [
            Migration(version: 1, name: "runbeat") { _ in
                [
                    """
                    CREATE TABLE runbeat_settings (
                        user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                        data TEXT NOT NULL,
                        updated_at BIGINT NOT NULL
                    )
                    """,
                    """
                    CREATE TABLE runbeat_plans (
                        id TEXT PRIMARY KEY,
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        name TEXT NOT NULL,
                        data TEXT NOT NULL,
                        created_at BIGINT NOT NULL
                    )
                    """,
                    "CREATE INDEX runbeat_plans_user ON runbeat_plans(user_id, created_at)",
                    // setup: the plan, zones, maximum and cue rules the workout runs by (JSON);
                    // seconds: how long it ran (so far); summary: JSON once it is finished.
                    """
                    CREATE TABLE runbeat_workouts (
                        id TEXT PRIMARY KEY,
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        name TEXT NOT NULL,
                        mode TEXT NOT NULL,
                        status TEXT NOT NULL,
                        source TEXT NOT NULL,
                        started_at BIGINT NOT NULL,
                        seconds DOUBLE PRECISION NOT NULL,
                        setup TEXT NOT NULL,
                        summary TEXT,
                        class_code TEXT,
                        damage TEXT,
                        created_at BIGINT NOT NULL
                    )
                    """,
                    "CREATE INDEX runbeat_workouts_user ON runbeat_workouts(user_id, started_at)",
                    "CREATE INDEX runbeat_workouts_running ON runbeat_workouts(user_id, status)",
                    // seq: the page's count of samples from 0, so a sample sent twice (a resend
                    // after a dropped connection) is stored once.
                    """
                    CREATE TABLE runbeat_samples (
                        workout_id TEXT NOT NULL REFERENCES runbeat_workouts(id) ON DELETE CASCADE,
                        seq BIGINT NOT NULL,
                        t DOUBLE PRECISION NOT NULL,
                        bpm INTEGER NOT NULL,
                        PRIMARY KEY (workout_id, seq)
                    )
                    """,
                    """
                    CREATE TABLE runbeat_classes (
                        code TEXT PRIMARY KEY,
                        coach_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        name TEXT NOT NULL,
                        created_at BIGINT NOT NULL
                    )
                    """,
                ]
            },
            // Each runner's Spotify: tokens sealed with the server's key (AES-GCM, the row's
            // user bound in), an authorisation under way (its state, the sealed PKCE
            // verifier), the device they prefer, the playlist last started (so a restart of
            // the server does not start it again), and how the last refresh went. version
            // moves with every token change, so two servers refreshing at once cannot
            // overwrite each other's newer tokens with older ones.
            Migration(version: 2, name: "runbeat spotify") { _ in
                [
                    """
                    CREATE TABLE runbeat_spotify (
                        user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                        status TEXT NOT NULL,
                        access_token TEXT,
                        refresh_token TEXT,
                        expires_at BIGINT,
                        scope TEXT,
                        pending_state TEXT,
                        pending_verifier TEXT,
                        pending_at BIGINT,
                        device_id TEXT,
                        device_name TEXT,
                        playing_workout TEXT,
                        playing_playlist TEXT,
                        connected_at BIGINT,
                        refreshed_at BIGINT,
                        last_error TEXT,
                        last_error_at BIGINT,
                        version BIGINT NOT NULL,
                        updated_at BIGINT NOT NULL
                    )
                    """,
                    "CREATE UNIQUE INDEX runbeat_spotify_pending ON runbeat_spotify(pending_state)",
                    "CREATE INDEX runbeat_spotify_expiry ON runbeat_spotify(status, expires_at)",
                ]
            },
            // The browser that started an authorisation (its session token's hash), so that
            // only that browser's callback can finish it: a callback opened anywhere else would
            // attach the starter's Juke account to whoever approved at Spotify.
            Migration(version: 3, name: "runbeat spotify pending session") { _ in
                ["ALTER TABLE runbeat_spotify ADD COLUMN pending_session TEXT"]
            },
            // file_sha256: the SHA-256 of an imported file's bytes, so the same file imported
            // again is the workout it made, not a copy. deleted_at: a workout deleted but
            // still restorable (Undo) until the undo window ends; then it is removed for good.
            Migration(version: 4, name: "runbeat imported files and undo") { _ in
                [
                    "ALTER TABLE runbeat_workouts ADD COLUMN file_sha256 TEXT",
                    "ALTER TABLE runbeat_workouts ADD COLUMN deleted_at BIGINT",
                    "CREATE INDEX runbeat_workouts_file ON runbeat_workouts(user_id, file_sha256)",
                ]
            },
        ]
    )
}
