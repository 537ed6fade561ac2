import Foundation
import HTTPTypes
import HummingbirdTesting
import JukeTestSupport
import NIOCore
import Testing

@testable import JukePlatform
@testable import JukeServer

/// Dual Player over HTTP on both databases: settings validated by the engine, player states
/// and positions kept newest-first across devices, and a library track's chapters.
@Suite(.timeLimit(.minutes(5))) struct DualPlayerAPITests {
    static let speech =
        #"{"item":{"kind":"track","id":"t1","title":"A Book","subtitle":"Someone","audio_url":"/api/v1/catalog/tracks/t1/audio","chapter":2},"position":125.5,"playing":true,"updated_at":2000}"#

    @Test(arguments: TestBackend.available)
    func settingsStartAtTheDefaultsAndRefuseOutOfRangeValues(backend: TestBackend) async throws {
        try await TestApp.run(backend) { _, client in
            let ann = try await client.register("ann")
            let state = try await client.json(.get, "/api/v1/dual/state", token: ann)
            #expect(state.status == .ok)
            let settings = try #require(state.json["settings"] as? [String: Any])
            let speech = try #require(settings["speech"] as? [String: Any])
            #expect(speech["mode"] as? String == "quality" && speech["voice_eq"] as? Bool == true && speech["speed"] as? Double == 1)
            #expect(state.json["music"] == nil && state.json["speech"] == nil)

            let boost =
                #"{"music":{"speed":1.25,"volume":0.8,"mode":"quality","boost_gain_db":0,"voice_eq":false},"speech":{"speed":2,"volume":1,"mode":"boost","boost_gain_db":9,"voice_eq":true},"ducking":{"enabled":true,"level":0.25}}"#
            #expect(try await client.json(.put, "/api/v1/dual/settings", token: ann, body: boost).status == .ok)
            let saved = try await client.json(.get, "/api/v1/dual/state", token: ann)
            let after = try #require(saved.json["settings"] as? [String: Any])
            #expect((after["speech"] as? [String: Any])?["mode"] as? String == "boost")
            #expect((after["ducking"] as? [String: Any])?["level"] as? Double == 0.25)

            let tooFast = boost.replacingOccurrences(of: #""speed":2,"#, with: #""speed":3.5,"#)
            let refused = try await client.json(.put, "/api/v1/dual/settings", token: ann, body: tooFast)
            #expect(refused.status == .badRequest && refused.json["field"] as? String == "speed")
            let loudDuck = boost.replacingOccurrences(of: #""level":0.25"#, with: #""level":2"#)
            #expect(try await client.json(.put, "/api/v1/dual/settings", token: ann, body: loudDuck).status == .badRequest)
            #expect(try await client.json(.put, "/api/v1/dual/settings", body: boost).status == .unauthorized)
        }
    }

    @Test(arguments: TestBackend.available)
    func theNewestPlayerStateWinsAcrossDevicesAndStaysPerAccount(backend: TestBackend) async throws {
        try await TestApp.run(backend) { _, client in
            let ann = try await client.register("ann")
            let bob = try await client.register("bob")
            let saved = try await client.json(.put, "/api/v1/dual/players/speech", token: ann, body: Self.speech)
            #expect(saved.status == .ok && saved.json["position"] as? Double == 125.5)

            // An older save from another device loses, and the answer says what is kept.
            let older = #"{"position":3,"playing":false,"updated_at":1000}"#
            let lost = try await client.json(.put, "/api/v1/dual/players/speech", token: ann, body: older)
            #expect(lost.json["position"] as? Double == 125.5 && lost.json["updated_at"] as? Int == 2000)
            // A tie keeps the stored one too; a newer one replaces it.
            let tie = #"{"position":9,"playing":false,"updated_at":2000}"#
            #expect(try await client.json(.put, "/api/v1/dual/players/speech", token: ann, body: tie).json["position"] as? Double == 125.5)
            let newer = #"{"position":130,"playing":false,"updated_at":3000}"#
            #expect(try await client.json(.put, "/api/v1/dual/players/speech", token: ann, body: newer).json["position"] as? Double == 130)

            let state = try await client.json(.get, "/api/v1/dual/state", token: ann)
            let speech = try #require(state.json["speech"] as? [String: Any])
            #expect(speech["playing"] as? Bool == false && speech["item"] == nil)
            #expect(try await client.json(.get, "/api/v1/dual/state", token: bob).json["speech"] == nil, "each account has its own players")

            // A clock far in the future is taken as the server's now, so it cannot win forever.
            let future = #"{"position":1,"playing":false,"updated_at":99999999999999}"#
            let clamped = try await client.json(.put, "/api/v1/dual/players/music", token: ann, body: future)
            #expect((clamped.json["updated_at"] as? Int ?? 0) < 99_999_999_999_999)
        }
    }

    @Test(arguments: TestBackend.available)
    func playerStatesRefuseOutsideAddressesAndBrokenNumbers(backend: TestBackend) async throws {
        try await TestApp.run(backend) { _, client in
            let ann = try await client.register("ann")
            let outside = Self.speech.replacingOccurrences(of: "/api/v1/catalog/tracks/t1/audio", with: "https://evil.example/x.mp3")
            #expect(try await client.json(.put, "/api/v1/dual/players/speech", token: ann, body: outside).status == .badRequest)
            let protocolRelative = Self.speech.replacingOccurrences(of: "/api/v1/catalog/tracks/t1/audio", with: "//evil.example/x.mp3")
            #expect(try await client.json(.put, "/api/v1/dual/players/speech", token: ann, body: protocolRelative).status == .badRequest)
            let backslash = Self.speech.replacingOccurrences(of: "/api/v1/catalog/tracks/t1/audio", with: #"/\evil.example/x.mp3"#)
            #expect(try await client.json(.put, "/api/v1/dual/players/speech", token: ann, body: backslash).status == .badRequest)
            let negative = #"{"position":-5,"playing":false,"updated_at":10}"#
            #expect(try await client.json(.put, "/api/v1/dual/players/speech", token: ann, body: negative).status == .badRequest)
            #expect(try await client.json(.put, "/api/v1/dual/players/radio", token: ann, body: negative).status == .badRequest)
            let farChapter = Self.speech.replacingOccurrences(of: #""chapter":2"#, with: #""chapter":100001"#)
            #expect(try await client.json(.put, "/api/v1/dual/players/speech", token: ann, body: farChapter).status == .badRequest)
            let root = Self.speech.replacingOccurrences(of: "/api/v1/catalog/tracks/t1/audio", with: "/")
            #expect(try await client.json(.put, "/api/v1/dual/players/speech", token: ann, body: root).status == .badRequest)
        }
    }

    @Test(arguments: TestBackend.available)
    func positionsAreKeptPerItemNewestFirst(backend: TestBackend) async throws {
        try await TestApp.run(backend, configure: { $0.maxBodySize = 1 << 20 }) { _, client in
            let ann = try await client.register("ann")
            let first =
                #"{"positions":[{"item":"track:a#0","seconds":10,"updated_at":100},{"item":"track:a#1","seconds":20,"updated_at":100},{"item":"track:b","seconds":5,"updated_at":100}]}"#
            let saved = try await client.json(.put, "/api/v1/dual/positions", token: ann, body: first)
            #expect((saved.json["positions"] as? [[String: Any]])?.count == 3)
            let mixed = #"{"positions":[{"item":"track:a#0","seconds":99,"updated_at":50},{"item":"track:b","seconds":7,"updated_at":200}]}"#
            let kept = try await client.json(.put, "/api/v1/dual/positions", token: ann, body: mixed)
            let byItem = Dictionary(
                uniqueKeysWithValues: (kept.json["positions"] as? [[String: Any]] ?? []).compactMap { p in
                    (p["item"] as? String).map { ($0, p["seconds"] as? Double ?? -1) }
                })
            #expect(byItem == ["track:a#0": 10, "track:b": 7])
            let read = try await client.json(.get, "/api/v1/dual/positions?items=track:a%231,track:b,track:none", token: ann)
            #expect((read.json["positions"] as? [[String: Any]])?.compactMap { $0["item"] as? String } == ["track:a#1", "track:b"])
            let tooMany = "{\"positions\":[" + (0...200).map { #"{"item":"track:\#($0)","seconds":1,"updated_at":1}"# }.joined(separator: ",") + "]}"
            #expect(try await client.json(.put, "/api/v1/dual/positions", token: ann, body: tooMany).status == .badRequest)
            let negative = #"{"positions":[{"item":"track:a#0","seconds":-1,"updated_at":900}]}"#
            #expect(try await client.json(.put, "/api/v1/dual/positions", token: ann, body: negative).status == .badRequest)
            let longQuery = String(repeating: "0", count: 4_001)
            #expect(try await client.json(.get, "/api/v1/dual/positions?items=track:%C3%A9", token: ann).status == .badRequest)
            #expect(try await client.json(.get, "/api/v1/dual/positions?items=\(longQuery)", token: ann).status == .badRequest)
            let badKey = #"{"positions":[{"item":"track a","seconds":1,"updated_at":900}]}"#
            #expect(try await client.json(.put, "/api/v1/dual/positions", token: ann, body: badKey).status == .badRequest)
        }
    }

    @Test(arguments: TestBackend.available)
    func aLibraryTracksChaptersAreReadFromItsFile(backend: TestBackend) async throws {
        try await TestApp.run(backend, configure: { $0.maxBodySize = 1 << 20 }) { app, client in
            let ann = try await client.register("ann")
            _ = try await app.addSongs([("Plain Song", "Someone", "Pop", 2001)])
            let folder = app.services.configuration.dataDirectory + "/books"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            // The chapter reader's fixture (an ffmpeg-made M4B with four chapters), from the checkout.
            let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("MediaFormatsTests/Fixtures/chapters/both.m4b")
            try FileManager.default.copyItem(atPath: fixtures.path, toPath: folder + "/book.m4b")
            _ = try await app.services.platform.addFolder(path: folder)
            await app.services.platform.waitForScans()
            let tracks = try await client.json(.get, "/api/v1/catalog/tracks", token: ann)
            let items = tracks.json["items"] as? [[String: Any]] ?? []
            let book = try #require(items.first { $0["format"] as? String == "mp4" }?["id"] as? String)
            let song = try #require(items.first { $0["format"] as? String != "mp4" }?["id"] as? String)

            let chapters = try await client.json(.get, "/api/v1/dual/tracks/\(book)/chapters", token: ann)
            #expect(chapters.status == .ok)
            #expect(chapters.json["source"] as? String == "quicktime")
            let list = chapters.json["chapters"] as? [[String: Any]] ?? []
            #expect(list.compactMap { $0["title"] as? String } == ["Opening", "Der Sturm – über den Fjord", "第三章", "Ending"])
            let whole = try await client.json(.get, "/api/v1/dual/tracks/\(song)/chapters", token: ann)
            #expect(whole.json["source"] as? String == "none" && (whole.json["chapters"] as? [[String: Any]])?.count == 1)

            #expect(try await client.json(.get, "/api/v1/dual/tracks/\(UUID().uuidString.lowercased())/chapters", token: ann).status == .notFound)
            #expect(try await client.json(.get, "/api/v1/dual/tracks/not-an-id/chapters", token: ann).status == .badRequest)
            // A file damaged after the scan is a clear 422, not a crash or a 500.
            try Data("not an audiobook any more".utf8).write(to: URL(fileURLWithPath: folder + "/book.m4b"))
            let damaged = try await client.json(.get, "/api/v1/dual/tracks/\(book)/chapters", token: ann)
            #expect(damaged.status == .unprocessableContent, "\(damaged.json)")
            // A file gone since the scan is not found (the API fuzz found it answered 422).
            try FileManager.default.removeItem(atPath: folder + "/book.m4b")
            #expect(try await client.json(.get, "/api/v1/dual/tracks/\(book)/chapters", token: ann).status == .notFound)
        }
    }
}
