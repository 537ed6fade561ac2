/// The platform's tables: accounts and the music library. Apps keep their own (each app
/// server module has its `Schema`). Append; never edit a migration that has shipped.
extension Schema {
    public static let platform = Schema(
        module: "platform",
        migrations: [
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
            Migration(version: 3, name: "track tempo") { _ in
                [
                    "ALTER TABLE tracks ADD COLUMN bpm DOUBLE PRECISION",
                    // Files scanned before Juke read tempo tags are read again on the next scan:
                    // a scan re-reads a file whose size or time differs from the stored one.
                    "UPDATE tracks SET modified_millis = -1",
                ]
            },
            Migration(version: 4, name: "sign-in attempts") { _ in
                [
                    // A sign-in takes its place in the count before its password is checked
                    // (so parallel attempts cannot all slip under the limit); the attempt id
                    // lets a refused or successful attempt take its rows back.
                    "ALTER TABLE login_failures ADD COLUMN attempt TEXT",
                    "CREATE INDEX login_failures_attempt ON login_failures(attempt)",
                ]
            },
            Migration(version: 5, name: "server secrets") { _ in
                [
                    // Keys the servers sharing this database sign with (links to media that
                    // play without a login), made once by whichever server needs one first.
                    "CREATE TABLE server_secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL)"
                ]
            },
            Migration(version: 6, name: "track codec") { _ in
                [
                    // MP4 holds AAC, which browsers play, or ALAC, which most do not: the
                    // codec says which, so a track is sent as it is or transcoded.
                    "ALTER TABLE tracks ADD COLUMN codec TEXT",
                    // MP4 files scanned before are read again on the next scan to learn it.
                    "UPDATE tracks SET modified_millis = -1 WHERE format = 'mp4'",
                ]
            },
            // Albums and artists as their own rows, kept in step by each scan, and the stored
            // order keys every catalog page is read by (see CatalogSchema).
            Migration(version: 7, name: "catalog", rewrite: CatalogSchema.migrate),
            // How often and how lately each album was played, for the most and recently played
            // lists.
            Migration(version: 8, name: "catalog plays", rewrite: CatalogPlays.migrate),
            // The genres and years with their numbers of tracks, kept as rows.
            Migration(version: 9, name: "catalog facets", rewrite: CatalogFacets.migrate),
            // Each track's search words, for searches while the in-memory index is built; the
            // catalog is filled here (see CatalogSchema.migrate).
            Migration(version: 10, name: "track search words", rewrite: CatalogMaintenance.addSearchWords),
            // What Subsonic-family players sign in with (/rest): API keys a person makes and
            // names (only their SHA-256 kept, as for login tokens), and one app password per
            // account, sealed with a server secret because the legacy token form (md5 of the
            // password and a salt) can only be checked with the password itself
            // (SubsonicCredentialStore, docs/SUBSONIC.md).
            Migration(version: 11, name: "subsonic credentials") { _ in
                [
                    """
                    CREATE TABLE subsonic_api_keys (
                        id TEXT PRIMARY KEY,
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        name TEXT NOT NULL,
                        key_hash TEXT NOT NULL UNIQUE,
                        created_at DOUBLE PRECISION NOT NULL,
                        last_used_at DOUBLE PRECISION
                    )
                    """,
                    "CREATE INDEX subsonic_api_keys_user ON subsonic_api_keys(user_id)",
                    """
                    CREATE TABLE subsonic_app_passwords (
                        user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                        sealed TEXT NOT NULL,
                        created_at DOUBLE PRECISION NOT NULL
                    )
                    """,
                ]
            },
        ],
        // Before each module had its own numbering: 1 accounts, 2 library, 6 track tempo.
        formerVersions: [1: 1, 2: 2, 6: 3]
    )
}
