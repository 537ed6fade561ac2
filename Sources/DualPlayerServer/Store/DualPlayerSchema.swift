import Storage

/// Dual Player's tables: each account's settings, each player's last state, saved
/// positions per item, the books on the shelf, favourite radio stations, uploaded songs, and
/// podcasts (shows, subscriptions, episodes, played marks). Append; never edit a migration that has shipped.
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
            Migration(version: 6, name: "dual player podcasts") { _ in
                [
                    // A show is fetched once for every account that subscribes to it: its feed's
                    // schedule (validators, backoff, moves) is FeedSchedule as JSON, and
                    // next_fetch is that schedule's due time, for the refresher's query.
                    """
                    CREATE TABLE dual_podcasts (
                        id TEXT PRIMARY KEY,
                        feed_url TEXT NOT NULL,
                        title TEXT NOT NULL,
                        author TEXT,
                        summary TEXT,
                        image_url TEXT,
                        link TEXT,
                        schedule TEXT NOT NULL,
                        next_fetch DOUBLE PRECISION NOT NULL,
                        last_fetch DOUBLE PRECISION,
                        added_at DOUBLE PRECISION NOT NULL
                    )
                    """,
                    "CREATE UNIQUE INDEX dual_podcasts_feed ON dual_podcasts(feed_url)",
                    "CREATE INDEX dual_podcasts_due ON dual_podcasts(next_fetch)",
                    // An account's subscription, with the show's own speed and skip-silence.
                    """
                    CREATE TABLE dual_subscriptions (
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        podcast_id TEXT NOT NULL REFERENCES dual_podcasts(id) ON DELETE CASCADE,
                        settings TEXT NOT NULL,
                        added_at DOUBLE PRECISION NOT NULL,
                        PRIMARY KEY (user_id, podcast_id)
                    )
                    """,
                    "CREATE INDEX dual_subscriptions_podcast ON dual_subscriptions(podcast_id)",
                    // Episodes as the feed last described them (details as JSON), one per guid;
                    // the server's copy of the audio, when downloaded, in download.
                    """
                    CREATE TABLE dual_episodes (
                        id TEXT PRIMARY KEY,
                        podcast_id TEXT NOT NULL REFERENCES dual_podcasts(id) ON DELETE CASCADE,
                        guid TEXT NOT NULL,
                        title TEXT NOT NULL,
                        published DOUBLE PRECISION,
                        details TEXT NOT NULL,
                        download TEXT,
                        seen_at DOUBLE PRECISION NOT NULL
                    )
                    """,
                    "CREATE UNIQUE INDEX dual_episodes_guid ON dual_episodes(podcast_id, guid)",
                    "CREATE INDEX dual_episodes_published ON dual_episodes(podcast_id, published)",
                    // Played marks per account; the newest updated_at (the device's time) wins.
                    """
                    CREATE TABLE dual_episode_played (
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        episode_id TEXT NOT NULL REFERENCES dual_episodes(id) ON DELETE CASCADE,
                        played BOOLEAN NOT NULL,
                        updated_at BIGINT NOT NULL,
                        PRIMARY KEY (user_id, episode_id)
                    )
                    """,
                ]
            },
            Migration(version: 7, name: "dual player articles") { _ in
                [
                    // An account's articles to read aloud: the text as Juke extracted it (the
                    // Article as JSON: title, author, chapters of paragraphs).
                    """
                    CREATE TABLE dual_articles (
                        id TEXT PRIMARY KEY,
                        owner_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        title TEXT NOT NULL,
                        author TEXT,
                        source_url TEXT,
                        format TEXT NOT NULL,
                        content TEXT NOT NULL,
                        words INTEGER NOT NULL,
                        added_at DOUBLE PRECISION NOT NULL
                    )
                    """,
                    "CREATE INDEX dual_articles_owner ON dual_articles(owner_id, added_at)",
                    // Where reading stopped: chapter and word; the newest updated_at wins.
                    """
                    CREATE TABLE dual_article_positions (
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        article_id TEXT NOT NULL REFERENCES dual_articles(id) ON DELETE CASCADE,
                        chapter INTEGER NOT NULL,
                        word INTEGER NOT NULL,
                        updated_at BIGINT NOT NULL,
                        PRIMARY KEY (user_id, article_id)
                    )
                    """,
                    // The article spoken by espeak-ng on the server: its file, chapters and
                    // sentence cues (JSON), and progress while it is made.
                    """
                    CREATE TABLE dual_article_speech (
                        article_id TEXT PRIMARY KEY REFERENCES dual_articles(id) ON DELETE CASCADE,
                        data TEXT NOT NULL
                    )
                    """,
                ]
            },
            Migration(version: 8, name: "dual player song codecs") { _ in
                // An MP4 song holds AAC or ALAC: kept at upload, so the list can say which
                // songs this server cannot play without ffmpeg.
                ["ALTER TABLE dual_songs ADD COLUMN codec TEXT"]
            },
            Migration(version: 9, name: "dual player upload digests") { _ in
                // The SHA-256 of an uploaded file's bytes: the same file uploaded again is the
                // book or song already there, not a copy (null for what was kept before, and
                // for what is not uploaded: the demo, LibriVox's books).
                [
                    "ALTER TABLE dual_books ADD COLUMN sha256 TEXT",
                    "CREATE INDEX dual_books_sha256 ON dual_books(sha256)",
                    "ALTER TABLE dual_songs ADD COLUMN sha256 TEXT",
                    "CREATE INDEX dual_songs_sha256 ON dual_songs(sha256)",
                ]
            },
            // Files are named by their key in the media storage (`dual/books/<id>.mp3`), the same
            // on every server, no longer by this server's absolute path: the paths written
            // before become keys (the columns keep their names; JSON's "path" becomes "file").
            Migration(version: 10, name: "dual player storage keys") { db in try await StorageKeyMigration.run(on: db) },
            // Podcast sync for AntennaPod and gPodder (gpodder.net's API): see docs/GPODDER.md.
            Migration(version: 11, name: "dual player podcast sync") { _ in
                [
                    // The devices an account's apps named, as gpodder.net lists them.
                    """
                    CREATE TABLE dual_sync_devices (
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        device_id TEXT NOT NULL,
                        caption TEXT NOT NULL,
                        type TEXT NOT NULL,
                        updated_at DOUBLE PRECISION NOT NULL,
                        PRIMARY KEY (user_id, device_id)
                    )
                    """,
                    // Sessions from login.json: only the cookie's SHA-256.
                    """
                    CREATE TABLE dual_sync_sessions (
                        token_hash TEXT PRIMARY KEY,
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        expires_at DOUBLE PRECISION NOT NULL
                    )
                    """,
                    "CREATE INDEX dual_sync_sessions_user ON dual_sync_sessions(user_id)",
                    // Each account's last timestamp given out: every change and every answer
                    // takes a later one, so "since" never misses what came in the same second.
                    """
                    CREATE TABLE dual_sync_clocks (
                        user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                        stamp BIGINT NOT NULL
                    )
                    """,
                    // The last change of each feed in an account's subscriptions (added or
                    // removed, by which device, at which timestamp): what "since" answers.
                    """
                    CREATE TABLE dual_subscription_changes (
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        feed_url TEXT NOT NULL,
                        added BOOLEAN NOT NULL,
                        device_id TEXT,
                        stamp BIGINT NOT NULL,
                        PRIMARY KEY (user_id, feed_url)
                    )
                    """,
                    "CREATE INDEX dual_subscription_changes_stamp ON dual_subscription_changes(user_id, stamp)",
                    // Episode actions, the newest of each kind per episode (what clients read:
                    // an older play position is of no use). position_item and
                    // position_updated_at name the saved position a play action wrote, so that
                    // position is not sent back a second time as one of Juke's.
                    """
                    CREATE TABLE dual_episode_actions (
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        episode_url TEXT NOT NULL,
                        action TEXT NOT NULL,
                        podcast_url TEXT NOT NULL,
                        guid TEXT,
                        device_id TEXT,
                        happened_at DOUBLE PRECISION NOT NULL,
                        started INTEGER,
                        position INTEGER,
                        total INTEGER,
                        position_item TEXT,
                        position_updated_at BIGINT,
                        stamp BIGINT NOT NULL,
                        PRIMARY KEY (user_id, episode_url, action)
                    )
                    """,
                    "CREATE INDEX dual_episode_actions_stamp ON dual_episode_actions(user_id, stamp)",
                ]
            },
            // What a bookmark made through the Subsonic API adds to
            // a saved position: its comment and when it was first made (the position itself stays
            // in dual_positions, so a place set in a player resumes on the page and back).
            Migration(version: 12, name: "dual player bookmark notes") { _ in
                [
                    """
                    CREATE TABLE dual_bookmark_notes (
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        item TEXT NOT NULL,
                        comment TEXT NOT NULL,
                        created_at BIGINT NOT NULL,
                        PRIMARY KEY (user_id, item)
                    )
                    """
                ]
            },
        ]
    )
}
