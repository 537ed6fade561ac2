import ExternalTools
import Foundation
import HummingbirdTesting
import JukePlatform
import JukeTestSupport
import NIOCore
import Testing

@testable import JukeServer
@testable import Library
@testable import TuneTriviaServer

/// How a game gets its songs and questions over HTTP: trivia for every round when trivia is
/// on, and an auto-pick that says what the library lacks.
@Suite(.timeLimit(.minutes(5))) struct TuneTriviaRoundsTests {
    static func rounds(_ client: any TestClientProtocol, _ base: String, _ token: String) async throws -> [[String: Any]] {
        let listed = try await client.json(.get, "\(base)/rounds", token: token)
        return try #require(try JSONSerialization.jsonObject(with: Data(buffer: listed.raw)) as? [[String: Any]])
    }

    /// How many rounds have their question, once `count` do (the writer works in the
    /// background) or after ten seconds of asking.
    static func roundsWithTrivia(_ client: any TestClientProtocol, _ base: String, _ token: String, reaching count: Int) async throws -> Int {
        var written = 0
        // Up to two minutes: a busy machine is slow, and a failure still says what was seen.
        for _ in 0..<2400 {
            written = try await rounds(client, base, token).filter { $0["has_trivia"] as? Bool == true }.count
            if written >= count { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        return written
    }

    /// Nobody presses "Write trivia": every song added gets its question in the background,
    /// and the game starts with one for its first round.
    @Test(arguments: TestBackend.available)
    func withTriviaOnEveryRoundGetsItsQuestion(backend: TestBackend) async throws {
        try await TestApp.run(backend) { app, client in
            let host = try await client.register("host")
            let ann = try await client.register("ann")
            _ = try await app.addSongs(TuneTriviaAPITests.songs)
            let created = try await client.json(
                .post, "/api/v1/tunetrivia/sessions", token: host, body: #"{"title":"Quiz","num_songs":5,"trivia_enabled":true}"#)
            let id = try #require(created.json["id"] as? String)
            let code = try #require(created.json["invite_code"] as? String)
            let base = "/api/v1/tunetrivia/sessions/\(id)"
            #expect(try await client.json(.post, "\(base)/rounds/auto-generate", token: host).status == .ok)
            #expect(try await client.json(.post, "/api/v1/tunetrivia/sessions/join", token: ann, body: #"{"invite_code":"\#(code)"}"#).status == .ok)
            // Started at once, before the background writer can have finished: round 1 has its question.
            let started = try await client.json(.post, "\(base)/start", token: host)
            #expect(started.status == .ok)
            let first = try #require(started.json["round"] as? [String: Any])
            #expect((first["trivia_question"] as? String)?.isEmpty == false, "\(first)")
            // The other rounds get theirs without anyone asking.
            #expect(try await Self.roundsWithTrivia(client, base, host, reaching: 5) == 5)
            for round in try await Self.rounds(client, base, host) {
                let question = round["trivia_question"] as? String ?? ""
                #expect(!question.contains("by Traditional"), "\(question)")
            }
        }
    }

    /// With trivia off, nothing is written behind the host's back.
    @Test func withTriviaOffNoQuestionIsWritten() async throws {
        try await TestApp.run(.sqlite) { app, client in
            let host = try await client.register("host")
            _ = try await app.addSongs(TuneTriviaAPITests.songs)
            let created = try await client.json(.post, "/api/v1/tunetrivia/sessions", token: host, body: #"{"title":"Quiz","num_songs":5}"#)
            let base = "/api/v1/tunetrivia/sessions/\(try #require(created.json["id"] as? String))"
            #expect(try await client.json(.post, "\(base)/rounds/auto-generate", token: host).status == .ok)
            // The writer is started (and listed) while the change is committed, before the answer:
            // none is under way, and none has already written anything.
            #expect(await app.services.tuneTrivia.writingTrivia.isEmpty, "a trivia writer started with trivia off")
            #expect(try await Self.rounds(client, base, host).allSatisfy { $0["has_trivia"] as? Bool == false })
            // Turning it on in the lobby writes them.
            #expect(try await client.json(.patch, base, token: host, body: #"{"trivia_enabled":true}"#).status == .ok)
            #expect(try await Self.roundsWithTrivia(client, base, host, reaching: 5) == 5)
        }
    }

    /// A decade the library lacks is named; nothing else is added until the host asks.
    @Test(arguments: TestBackend.available)
    func autoPickSaysWhatTheLibraryLacks(backend: TestBackend) async throws {
        try await TestApp.run(backend) { app, client in
            let host = try await client.register("host")
            _ = try await app.addSongs(TuneTriviaAPITests.songs)
            let created = try await client.json(
                .post, "/api/v1/tunetrivia/sessions", token: host, body: #"{"title":"Sixties","num_songs":5,"decade":"60s","artists":["Scott Joplin"]}"#)
            #expect(created.status == .created, "\(created.json)")
            let base = "/api/v1/tunetrivia/sessions/\(try #require(created.json["id"] as? String))"
            let strict = try await client.json(.post, "\(base)/rounds/auto-generate", token: host)
            #expect(strict.status == .ok)
            #expect(strict.json["added"] as? Int == 0 && strict.json["wanted"] as? Int == 5)
            #expect(strict.json["missing"] as? [String] == ["songs from the 60s"])
            #expect((strict.json["rounds"] as? [Any])?.isEmpty == true)
            let topped = try await client.json(.post, "\(base)/rounds/auto-generate?others=true", token: host)
            #expect(topped.json["added"] as? Int == 5 && (topped.json["rounds"] as? [Any])?.count == 5)
            #expect(try await client.json(.post, "\(base)/rounds/auto-generate?others=maybe", token: host).status == .badRequest)
        }
    }
}

/// The blurred cover before a reveal: the real cover's colours, addressed so that nothing
/// names the song, and only for people in the game.
@Suite(.timeLimit(.minutes(5))) struct TriviaCoverTests {
    @Test(.enabled(if: ExternalTool.locate("ffmpeg") != nil, "needs ffmpeg")) func aCoverShrinksToAFewPixels() async throws {
        let blur = CoverBlur()
        let cover = Data(CoverArt.png(title: "Greensleeves", genre: "Folk"))
        let tiny = try #require(await blur.tiny(cover, key: "abc"))
        // PNG's IHDR: width and height, big-endian, at bytes 16 and 20.
        #expect(tiny.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(Array(tiny[16..<24]) == [0, 0, 0, 8, 0, 0, 0, 8])
        #expect(try await blur.tiny(Data([1, 2, 3]), key: "broken") == nil, "not a picture: none, and no error")
        #expect(try await CoverBlur(ffmpeg: nil).tiny(cover, key: "abc") == nil)
    }

    @Test func onlyPlayersOfTheGameGetTheCurrentRoundsCover() async throws {
        try await TestApp.run(.sqlite) { app, client in
            let (host, players, base) = try await TuneTriviaAPITests.startedGame(app, client, players: ["ann"])
            let stranger = try await client.register("zed")
            let rounds = try await TuneTriviaRoundsTests.rounds(client, base, host)
            let current = try #require(rounds.first { $0["round_number"] as? Int == 1 }?["id"] as? String)
            let later = try #require(rounds.first { $0["round_number"] as? Int == 2 }?["id"] as? String)
            #expect(try await client.json(.get, "\(base)/rounds/\(current)/cover", token: stranger).status == .forbidden)
            #expect(try await client.json(.get, "\(base)/rounds/\(later)/cover", token: players[0]).status == .notFound)
            #expect(try await client.json(.get, "\(base)/rounds/\(current)/cover").status == .unauthorized)
            // The test songs' covers are not real pictures: no blurred cover, a 404 (the page draws a gradient).
            #expect(try await client.json(.get, "\(base)/rounds/\(current)/cover", token: players[0]).status == .notFound)
        }
    }
}
