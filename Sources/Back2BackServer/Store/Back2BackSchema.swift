import Storage

/// Back2Back's tables: sessions, members, personas, song memory, settings and the AI
/// endpoint. Append; never edit a migration that has shipped.
extension Schema {
    public static let back2back = Schema(
        module: "back2back",
        migrations: [
            Migration(version: 1, name: "back2back") { _ in
                [
                    // A session's state as JSON (its rules are one value type); `version` counts
                    // every accepted event, so a late writer can tell it lost a race.
                    """
                    CREATE TABLE b2b_sessions (
                        id TEXT PRIMARY KEY,
                        host_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        invite_token TEXT NOT NULL UNIQUE,
                        title TEXT NOT NULL,
                        state TEXT NOT NULL,
                        version BIGINT NOT NULL,
                        created_at DOUBLE PRECISION NOT NULL,
                        updated_at DOUBLE PRECISION NOT NULL
                    )
                    """,
                    // Who is in which session, for "my sessions" without reading every state.
                    """
                    CREATE TABLE b2b_members (
                        session_id TEXT NOT NULL REFERENCES b2b_sessions(id) ON DELETE CASCADE,
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        PRIMARY KEY (session_id, user_id)
                    )
                    """,
                    "CREATE INDEX b2b_members_user ON b2b_members(user_id)",
                    """
                    CREATE TABLE b2b_personas (
                        id TEXT PRIMARY KEY,
                        owner_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        name TEXT NOT NULL,
                        data TEXT NOT NULL,
                        updated_at DOUBLE PRECISION NOT NULL
                    )
                    """,
                    "CREATE INDEX b2b_personas_owner ON b2b_personas(owner_id)",
                    // What each persona played for each account in the last 24 hours.
                    """
                    CREATE TABLE b2b_song_memory (
                        owner_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        persona_id TEXT NOT NULL,
                        song_key TEXT NOT NULL,
                        isrc TEXT,
                        artist TEXT NOT NULL,
                        title TEXT NOT NULL,
                        played_at DOUBLE PRECISION NOT NULL,
                        PRIMARY KEY (owner_id, persona_id, song_key)
                    )
                    """,
                    "CREATE INDEX b2b_song_memory_played ON b2b_song_memory(played_at)",
                    """
                    CREATE TABLE b2b_settings (
                        user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                        data TEXT NOT NULL
                    )
                    """,
                ]
            },
            Migration(version: 2, name: "back2back ai endpoint") { _ in
                [
                    // The AI service an admin set on the settings page (it wins over the
                    // environment's). One row; the key is kept here as the environment keeps it.
                    """
                    CREATE TABLE b2b_ai_endpoint (
                        id BIGINT PRIMARY KEY,
                        base_url TEXT NOT NULL,
                        api_key TEXT NOT NULL,
                        updated_at DOUBLE PRECISION NOT NULL
                    )
                    """
                ]
            },
            // The songs sessions played so far, counted into their albums' plays (the library's
            // most and recently played lists); from now on each counts as it starts.
            Migration(version: 3, name: "back2back plays counted", rewrite: SessionPlays.backfill),
        ],
        // Before each module had its own numbering, these were migrations 4 and 5.
        formerVersions: [4: 1, 5: 2]
    )
}
