import Storage

/// TuneTrivia's tables: games, players, guesses and the leaderboard. Append; never edit a
/// migration that has shipped.
extension Schema {
    public static let tuneTrivia = Schema(
        module: "tunetrivia",
        migrations: [
            Migration(version: 1, name: "tunetrivia") { _ in
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
            Migration(version: 2, name: "tunetrivia presenters") { _ in
                [
                    // A big screen showing a game (the presenter view). A row is first a
                    // pairing code, valid for minutes and once; pairing swaps the code for the
                    // hash of the screen's token, valid for hours. Deleting the game, or the
                    // host disconnecting the screen, deletes the row.
                    """
                    CREATE TABLE tunetrivia_presenters (
                        id TEXT PRIMARY KEY,
                        session_id TEXT NOT NULL REFERENCES tunetrivia_sessions(id) ON DELETE CASCADE,
                        pairing_code TEXT UNIQUE,
                        token_hash TEXT UNIQUE,
                        created_at DOUBLE PRECISION NOT NULL,
                        expires_at DOUBLE PRECISION NOT NULL,
                        last_seen_at DOUBLE PRECISION
                    )
                    """,
                    "CREATE INDEX tunetrivia_presenters_session ON tunetrivia_presenters(session_id)",
                ]
            },
        ],
        // Before each module had its own numbering, this was migration 3.
        formerVersions: [3: 1]
    )
}
