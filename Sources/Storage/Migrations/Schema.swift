/// Juke's schema, as the ordered list of migrations that builds it. Append; never edit a
/// migration that has shipped.
enum Schema {
    static let migrations: [Migration] = [
        Migration(version: 1, name: "accounts") { _ in
            [
                """
                CREATE TABLE users (
                    id TEXT PRIMARY KEY,
                    username TEXT NOT NULL,
                    username_key TEXT NOT NULL UNIQUE,
                    email TEXT,
                    display_name TEXT NOT NULL,
                    password_hash TEXT NOT NULL,
                    is_admin BIGINT NOT NULL DEFAULT 0,
                    created_at DOUBLE PRECISION NOT NULL
                )
                """,
                """
                CREATE TABLE auth_tokens (
                    token_hash TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    created_at DOUBLE PRECISION NOT NULL,
                    expires_at DOUBLE PRECISION NOT NULL
                )
                """,
                "CREATE INDEX auth_tokens_user ON auth_tokens(user_id)",
                """
                CREATE TABLE login_failures (
                    subject TEXT NOT NULL,
                    failed_at DOUBLE PRECISION NOT NULL
                )
                """,
                "CREATE INDEX login_failures_subject ON login_failures(subject, failed_at)",
            ]
        },
        Migration(version: 2, name: "library") { blob in
            [
                """
                CREATE TABLE library_folders (
                    id TEXT PRIMARY KEY,
                    path TEXT NOT NULL UNIQUE,
                    added_at DOUBLE PRECISION NOT NULL,
                    last_scan_at DOUBLE PRECISION
                )
                """,
                """
                CREATE TABLE artwork (
                    hash TEXT PRIMARY KEY,
                    mime_type TEXT NOT NULL,
                    data \(blob) NOT NULL
                )
                """,
                """
                CREATE TABLE tracks (
                    id TEXT PRIMARY KEY,
                    folder_id TEXT NOT NULL REFERENCES library_folders(id) ON DELETE CASCADE,
                    path TEXT NOT NULL UNIQUE,
                    file_size BIGINT NOT NULL,
                    modified_millis BIGINT NOT NULL,
                    format TEXT NOT NULL,
                    title TEXT NOT NULL,
                    artist TEXT NOT NULL,
                    album TEXT NOT NULL,
                    album_artist TEXT NOT NULL,
                    album_id TEXT NOT NULL,
                    artist_id TEXT NOT NULL,
                    composer TEXT,
                    genre TEXT,
                    year BIGINT,
                    track_number BIGINT,
                    disc_number BIGINT,
                    duration DOUBLE PRECISION NOT NULL,
                    isrc TEXT,
                    musicbrainz_id TEXT,
                    artwork_hash TEXT REFERENCES artwork(hash),
                    added_at DOUBLE PRECISION NOT NULL
                )
                """,
                "CREATE INDEX tracks_album ON tracks(album_id)",
                "CREATE INDEX tracks_artist ON tracks(artist_id)",
                "CREATE INDEX tracks_folder ON tracks(folder_id)",
                """
                CREATE TABLE scan_issues (
                    folder_id TEXT NOT NULL REFERENCES library_folders(id) ON DELETE CASCADE,
                    path TEXT NOT NULL,
                    reason TEXT NOT NULL,
                    seen_at DOUBLE PRECISION NOT NULL,
                    PRIMARY KEY (folder_id, path)
                )
                """,
                // A counter bumped on every library change, so each server's in-memory
                // search index knows when another server (or the command line) changed it.
                "CREATE TABLE library_generation (id BIGINT PRIMARY KEY, generation BIGINT NOT NULL)",
                "INSERT INTO library_generation (id, generation) VALUES (1, 0)",
            ]
        },
        Migration(version: 3, name: "tunetrivia") { _ in
            [
                // The game's slow-changing part as JSON (settings, rounds, status); `version`
                // counts every accepted command, so a server knows when its cached copy is stale.
                """
                CREATE TABLE tunetrivia_sessions (
                    id TEXT PRIMARY KEY,
                    host_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    invite_code TEXT NOT NULL UNIQUE,
                    status TEXT NOT NULL,
                    state TEXT NOT NULL,
                    version BIGINT NOT NULL,
                    created_at DOUBLE PRECISION NOT NULL,
                    updated_at DOUBLE PRECISION NOT NULL
                )
                """,
                "CREATE INDEX tunetrivia_sessions_host ON tunetrivia_sessions(host_id)",
                """
                CREATE TABLE tunetrivia_players (
                    id TEXT PRIMARY KEY,
                    session_id TEXT NOT NULL REFERENCES tunetrivia_sessions(id) ON DELETE CASCADE,
                    user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
                    display_name TEXT NOT NULL,
                    is_host BIGINT NOT NULL,
                    is_manual BIGINT NOT NULL,
                    joined_at DOUBLE PRECISION NOT NULL,
                    seat BIGINT NOT NULL,
                    total_score BIGINT NOT NULL DEFAULT 0,
                    UNIQUE (session_id, user_id)
                )
                """,
                "CREATE INDEX tunetrivia_players_user ON tunetrivia_players(user_id)",
                // One row per player per round: the primary key is what makes a second guess
                // a conflict even when two servers take them at the same moment.
                """
                CREATE TABLE tunetrivia_guesses (
                    round_id TEXT NOT NULL,
                    player_id TEXT NOT NULL REFERENCES tunetrivia_players(id) ON DELETE CASCADE,
                    session_id TEXT NOT NULL REFERENCES tunetrivia_sessions(id) ON DELETE CASCADE,
                    data TEXT NOT NULL,
                    PRIMARY KEY (round_id, player_id)
                )
                """,
                "CREATE INDEX tunetrivia_guesses_session ON tunetrivia_guesses(session_id)",
                """
                CREATE TABLE tunetrivia_leaderboard (
                    user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                    games_played BIGINT NOT NULL,
                    total_points BIGINT NOT NULL,
                    total_artist_correct BIGINT NOT NULL,
                    total_song_correct BIGINT NOT NULL,
                    total_trivia_correct BIGINT NOT NULL,
                    highest_game_score BIGINT NOT NULL,
                    last_played DOUBLE PRECISION NOT NULL
                )
                """,
                "CREATE INDEX tunetrivia_leaderboard_rank ON tunetrivia_leaderboard(total_points DESC, games_played DESC)",
            ]
        },
        Migration(version: 4, name: "back2back") { _ in
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
        Migration(version: 5, name: "back2back ai endpoint") { _ in
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
        Migration(version: 6, name: "track tempo") { _ in
            [
                "ALTER TABLE tracks ADD COLUMN bpm DOUBLE PRECISION",
                // Files scanned before Juke read tempo tags are read again on the next scan:
                // a scan re-reads a file whose size or time differs from the stored one.
                "UPDATE tracks SET modified_millis = -1",
            ]
        },
    ]
}
