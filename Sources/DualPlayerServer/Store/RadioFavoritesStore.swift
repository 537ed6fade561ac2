import Foundation
import JukeCore
import Providers
import SQLKit
import Storage

/// Each account's favourite radio stations.
public struct RadioFavoritesStore: Sendable {
    let database: any JukeDatabase

    public init(database: any JukeDatabase) { self.database = database }

    public func favorites(of user: UserID) async throws -> [RadioStation] {
        try await database.withConnection { db in
            try await db.raw("SELECT data FROM dual_radio_favorites WHERE user_id = \(bind: user.description) ORDER BY added_at DESC").all().map {
                try JSONColumn.decode(RadioStation.self, try $0.decode(column: "data", as: String.self))
            }
        }
    }

    /// Keeps `station` (again: its description is refreshed, its place kept).
    public func add(_ station: RadioStation, for user: UserID, now: Date) async throws {
        let data = try JSONColumn.encode(station)
        try await database.withConnection { db in
            try await db.raw(
                """
                INSERT INTO dual_radio_favorites (user_id, station_id, data, added_at)
                VALUES (\(bind: user.description), \(bind: station.id), \(bind: data), \(bind: now.timeIntervalSince1970))
                ON CONFLICT (user_id, station_id) DO UPDATE SET data = excluded.data
                """
            ).run()
        }
    }

    public func remove(_ stationID: String, for user: UserID) async throws {
        try await database.withConnection { db in
            try await db.raw("DELETE FROM dual_radio_favorites WHERE user_id = \(bind: user.description) AND station_id = \(bind: stationID)").run()
        }
    }
}
