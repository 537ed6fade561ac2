import Storage

/// Dual Player's tables: each account's settings, each player's last state, and saved
/// positions per item. Append; never edit a migration that has shipped.
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
            }
        ]
    )
}
