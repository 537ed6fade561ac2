import Foundation
import JukeCore
import JukeTestSupport
import Storage
import Testing

@testable import JukePlatform

/// Signed links to audio for exported playlists: one key for every server on a database, a
/// link good for its track until it expires.
@Suite(.timeLimit(.minutes(5))) struct MediaLinksTests {
    @Test(arguments: TestBackend.available)
    func aLinkPlaysItsTrackUntilItExpiresFromAnyServer(backend: TestBackend) async throws {
        try await TestDatabase.with(backend) { db in
            try await Migrator.migrate(db.database, schemas: [.platform], logger: TestDatabase.logger)
            let one = MediaLinks(secrets: SecretStore(database: db.database))
            let another = MediaLinks(secrets: SecretStore(database: db.database))  // a second server
            let track = TrackID()
            let now = Date(timeIntervalSince1970: 1_900_000_000)
            let query = try await one.query(for: track, now: now)
            let parts = Dictionary(
                uniqueKeysWithValues: query.split(separator: "&").map { pair in
                    let kv = pair.split(separator: "=", maxSplits: 1)
                    return (String(kv[0]), kv.count > 1 ? String(kv[1]) : "")
                })
            let expires = try #require(parts["expires"].flatMap { Int64($0) })
            let signature = try #require(parts["signature"])
            #expect(Double(expires) == now.timeIntervalSince1970 + MediaLinks.lifetime)
            #expect(try await another.isValid(track: track, expires: expires, signature: signature, now: now))
            #expect(try await !one.isValid(track: TrackID(), expires: expires, signature: signature, now: now), "another track")
            #expect(try await !one.isValid(track: track, expires: expires + 1, signature: signature, now: now), "a later end")
            #expect(try await !one.isValid(track: track, expires: expires, signature: signature, now: now.addingTimeInterval(MediaLinks.lifetime + 1)))
            #expect(try await !one.isValid(track: track, expires: expires, signature: "", now: now))
            #expect(try await SecretStore(database: db.database).secret(named: "media-links").count == 32)
        }
    }
}
