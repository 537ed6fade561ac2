import Storage

/// Dual Player's tables: each account's settings, each player's last state, saved
/// positions per item, the books on the shelf, and favourite radio stations. Append; never edit a migration that has shipped.
extension Schema {
    public static let dualPlayer = Schema(
        module: "dualplayer",
        migrations: [
            Migration(version: 1, name: "dual player state") { _ in
                [
                    """
                    CREATE TABLE dual_settings (
                        user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                        data TEXT NOT NULL,
                        updated_at DOUBLE PRECISION NOT NULL
                    )
                    """,
                    // One row per account and player; updated_at is the device's time in
                    // milliseconds, and the newest wins.
                    """
                    CREATE TABLE dual_players (
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        player TEXT NOT NULL,
                        data TEXT NOT NULL,
                        updated_at BIGINT NOT NULL,
                        PRIMARY KEY (user_id, player)
                    )
                    """,
                    """
                    CREATE TABLE dual_positions (
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        item TEXT NOT NULL,
                        seconds DOUBLE PRECISION NOT NULL,
                        updated_at BIGINT NOT NULL,
                        PRIMARY KEY (user_id, item)
                    )
                    """,
                ]
            },
            Migration(version: 2, name: "dual player books") { _ in
                [
                    // The shelf: one row per book file, its chapters as JSON (read once, when
                    // the book came). owner_id NULL puts it on everyone's shelf (the demo).
                    """
                    CREATE TABLE dual_books (
                        id TEXT PRIMARY KEY,
                        owner_id TEXT REFERENCES users(id) ON DELETE CASCADE,
                        origin TEXT NOT NULL,
                        title TEXT NOT NULL,
                        author TEXT,
                        path TEXT NOT NULL,
                        format TEXT NOT NULL,
                        duration DOUBLE PRECISION NOT NULL,
                        chapter_source TEXT NOT NULL,
                        chapters TEXT NOT NULL,
                        added_at DOUBLE PRECISION NOT NULL
                    )
                    """,
                    "CREATE INDEX dual_books_owner ON dual_books(owner_id)",
                    // One demo per database, however many servers start on it together.
                    "CREATE UNIQUE INDEX dual_books_one_demo ON dual_books(origin) WHERE origin = 'demo'",
                ]
            },
            Migration(version: 3, name: "dual player radio favourites") { _ in
                [
                    // A station as Radio Browser described it when it was kept (JSON), so the
                    // favourites show without asking Radio Browser.
                    """
                    CREATE TABLE dual_radio_favorites (
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        station_id TEXT NOT NULL,
                        data TEXT NOT NULL,
                        added_at DOUBLE PRECISION NOT NULL,
                        PRIMARY KEY (user_id, station_id)
                    )
                    """
                ]
            },
            Migration(version: 4, name: "dual player librivox downloads") { _ in
                [
                    // A LibriVox book is shelved as it starts downloading: its status, its
                    // progress (JSON), its cover, and LibriVox's id so it is fetched once.
                    "ALTER TABLE dual_books ADD COLUMN status TEXT NOT NULL DEFAULT 'ready'",
                    "ALTER TABLE dual_books ADD COLUMN download TEXT",
                    "ALTER TABLE dual_books ADD COLUMN cover_path TEXT",
                    "ALTER TABLE dual_books ADD COLUMN source_id TEXT",
                    "CREATE INDEX dual_books_source ON dual_books(source_id)",
                ]
            },
            Migration(version: 5, name: "dual player uploaded songs") { _ in
                [
                    // Songs uploaded for the music player, with what their tags said. owner_id
                    // NULL: everyone's (an admin shared it).
                    """
                    CREATE TABLE dual_songs (
                        id TEXT PRIMARY KEY,
                        owner_id TEXT REFERENCES users(id) ON DELETE CASCADE,
                        title TEXT NOT NULL,
                        artist TEXT,
                        album TEXT,
                        path TEXT NOT NULL,
                        format TEXT NOT NULL,
                        duration DOUBLE PRECISION NOT NULL,
                        has_artwork BOOLEAN NOT NULL,
                        added_at DOUBLE PRECISION NOT NULL
                    )
                    """,
                    "CREATE INDEX dual_songs_owner ON dual_songs(owner_id)",
                ]
            },
        ]
    )
}
