import Foundation
import HTTPTypes
import HummingbirdTesting
import JukeCore
import JukeTestSupport
import NIOCore
import Testing
import TuneTrivia

@testable import Back2BackServer
@testable import JukePlatform
@testable import JukeServer
@testable import TuneTriviaServer

/// TuneTrivia over HTTP: a whole party game and a host-mode game, the security rules, on
/// both databases.
@Suite(.timeLimit(.minutes(5))) struct TuneTriviaAPITests {
    static let songs: [(title: String, artist: String, genre: String, year: Int)] = [
        ("Ode to Joy", "Ludwig van Beethoven", "Classical", 1824), ("Für Elise", "Ludwig van Beethoven", "Classical", 1810),
        ("Greensleeves", "Traditional", "Folk", 1580), ("The Entertainer", "Scott Joplin", "Ragtime", 1902),
        ("Maple Leaf Rag", "Scott Joplin", "Ragtime", 1899), ("Canon in D", "Johann Pachelbel", "Baroque", 1680),
    ]

    static func text(_ raw: ByteBuffer) -> String { String(buffer: raw) }

    @Test(arguments: TestBackend.available)
    func aPartyGameOverHTTP(backend: TestBackend) async throws {
        // The server's clock stands still: a guess is refused once the clip's time is over,
        // and on a loaded machine the steps below took longer than a clip (seen in a full run).
        let startedAt = Date()
        try await TestApp.run(backend, clock: WallClock { startedAt }) { app, client in
            let host = try await client.register("host")
            let players = [try await client.register("ann"), try await client.register("bob"), try await client.register("cyd")]
            _ = try await app.addSongs(Self.songs)

            let created = try await client.json(
                .post, "/api/v1/tunetrivia/sessions/", token: host, body: #"{"title":"Friday","num_songs":5,"seconds_per_song":20,"trivia_enabled":true}"#)
            #expect(created.status == .created, "\(created.json)")
            let id = try #require(created.json["id"] as? String)
            let code = try #require(created.json["invite_code"] as? String)
            #expect(code.count == 6 && created.json["status"] as? String == "lobby" && created.json["is_host"] as? Bool == true)
            let base = "/api/v1/tunetrivia/sessions/\(id)"

            // Five songs from the library, and trivia for each, written from library facts.
            let rounds = try await client.json(.post, "\(base)/rounds/auto-generate/", token: host)
            #expect(rounds.status == .ok)
            let list = try #require(rounds.json["rounds"] as? [[String: Any]])
            #expect(list.count == 5)
            for round in list {
                let trivia = try await client.json(.post, "\(base)/rounds/\(round["id"] as? String ?? "")/trivia", token: host)
                #expect(trivia.status == .ok, "\(trivia.json)")
                #expect((trivia.json["trivia_options"] as? [String])?.count == 4)
            }

            // Three players join by code; a wrong code is a 404, and lower case works.
            #expect(try await client.json(.post, "/api/v1/tunetrivia/sessions/join", token: players[0], body: #"{"invite_code":"ZZZZZZ"}"#).status == .notFound)
            for (i, token) in players.enumerated() {
                let joined = try await client.json(
                    .post, "/api/v1/tunetrivia/sessions/join", token: token, body: #"{"invite_code":"\#(code.lowercased())","display_name":"P\#(i)"}"#)
                #expect(joined.status == .ok, "\(joined.json)")
                #expect(joined.json["you"] is String)
            }
            // Joining again (a reload) keeps the seat.
            let again = try await client.json(.post, "/api/v1/tunetrivia/sessions/join", token: players[0], body: #"{"invite_code":"\#(code)"}"#)
            #expect((again.json["players"] as? [Any])?.count == 3 && again.json["player_count"] as? Int == 3)

            // Only the host runs the game.
            #expect(try await client.json(.post, "\(base)/start", token: players[0]).status == .forbidden)
            #expect(try await client.json(.post, "\(base)/start/", token: host).status == .ok)

            // Before the reveal no player payload names the song.
            let state = try await client.json(.get, "\(base)/state", token: players[1])
            let hostView = try await client.json(.get, "\(base)/state", token: host)
            let current = try #require(hostView.json["round"] as? [String: Any])
            let title = try #require(current["title"] as? String)
            let artist = try #require(current["artist"] as? String)
            for raw in [Self.text(state.raw), Self.text(try await client.json(.get, "\(base)/rounds", token: players[1]).raw)] {
                #expect(!raw.contains(title) && !raw.contains(artist), "the answer leaked before the reveal")
            }
            #expect(try await client.json(.get, current["clip_url"] as? String ?? "", token: players[1]).status == .forbidden)
            let clip = try await client.json(.get, current["clip_url"] as? String ?? "", token: host, headers: [.range: "bytes=0-99"])
            #expect(clip.status == .partialContent)

            // One guess each; a second is a conflict; no verdict before the reveal.
            let right = #"{"artist_guess":"\#(artist)","song_guess":"\#(title)"}"#
            let first = try await client.json(.post, "\(base)/guess", token: players[0], body: right)
            #expect(first.status == .accepted && first.json["round_number"] as? Int == 1)
            #expect(Set(first.json.keys) == ["accepted", "round_number"])
            #expect(try await client.json(.post, "\(base)/guess", token: players[0], body: right).status == .conflict)
            #expect(
                try await client.json(.post, "\(base)/guess", token: players[1], body: #"{"artist_guess":"nobody","song_guess":"nothing"}"#).status == .accepted
            )
            #expect(try await client.json(.post, "\(base)/guess", token: host, body: right).status == .forbidden)
            let long = String(repeating: "x", count: 256)
            #expect(try await client.json(.post, "\(base)/guess", token: players[2], body: #"{"artist_guess":"\#(long)"}"#).status == .badRequest)
            let mine = try await client.json(.get, "\(base)/state", token: players[0])
            let myGuess = try #require((mine.json["guesses"] as? [[String: Any]])?.first)
            #expect(myGuess["artist_verdict"] == nil && myGuess["points_earned"] == nil)

            // The reveal: the answer, verdicts and points; guesses are closed.
            #expect(try await client.json(.post, "\(base)/reveal", token: players[0]).status == .forbidden)
            let revealed = try await client.json(.post, "\(base)/reveal", token: host)
            #expect(revealed.status == .ok)
            let after = try await client.json(.get, "\(base)/state", token: players[1])
            #expect((after.json["round"] as? [String: Any])?["title"] as? String == title)
            #expect(try await client.json(.post, "\(base)/guess", token: players[2], body: right).status == .conflict)

            // Trivia after the reveal, scored when its answer is out.
            let options = try #require((after.json["round"] as? [String: Any])?["trivia_options"] as? [String])
            let answer = try #require(
                ((try await client.json(.get, "\(base)/state", token: host)).json["round"] as? [String: Any])?["trivia_answer"] as? String)
            #expect((after.json["round"] as? [String: Any])?["trivia_answer"] == nil)
            #expect(try await client.json(.post, "\(base)/guess", token: players[0], body: #"{"trivia_guess":"\#(answer)"}"#).status == .accepted)
            let wrongOption = options.first { $0 != answer } ?? ""
            #expect(try await client.json(.post, "\(base)/guess", token: players[1], body: #"{"trivia_guess":"\#(wrongOption)"}"#).status == .accepted)
            #expect(try await client.json(.post, "\(base)/reveal-trivia", token: host).status == .ok)

            let board = try await client.json(.get, "\(base)/scoreboard", token: players[2])
            let rows = try #require(try JSONSerialization.jsonObject(with: Data(buffer: board.raw)) as? [[String: Any]])
            #expect(rows.map { $0["total_score"] as? Int } == [3, 0, 0])
            #expect(rows.map { $0["rank"] as? Int } == [1, 2, 2])

            // Ending early sends the results to the leaderboard (accounts only, not the host).
            #expect(try await client.json(.post, "\(base)/end", token: host).status == .ok)
            #expect(try await client.json(.post, "\(base)/next-round", token: host).status == .conflict)
            let leaderboard = try await client.json(.get, "/api/v1/tunetrivia/leaderboard?limit=2", token: players[2])
            #expect(leaderboard.json["total"] as? Int == 3)
            #expect((leaderboard.json["items"] as? [[String: Any]])?.first?["total_points"] as? Int == 3)
            let me = try await client.json(.get, "/api/v1/tunetrivia/leaderboard/me", token: players[2])
            #expect(me.json["rank"] as? Int == 2 && me.json["games_played"] as? Int == 1)
            #expect(try await client.json(.get, "/api/v1/tunetrivia/leaderboard/me", token: host).status == .notFound)
            let sessions = try await client.json(.get, "/api/v1/tunetrivia/sessions", token: players[1])
            #expect(sessions.json["total"] as? Int == 1)
        }
    }

    /// A started party game of five library songs with these players seated: the host's
    /// token, the players' tokens and the game's path.
    static func startedGame(_ app: TestApp, _ client: any TestClientProtocol, players names: [String]) async throws -> (
        host: String, players: [String], base: String
    ) {
        let host = try await client.register("host")
        var players: [String] = []
        for name in names { players.append(try await client.register(name)) }
        _ = try await app.addSongs(Self.songs)
        let created = try await client.json(.post, "/api/v1/tunetrivia/sessions", token: host, body: #"{"title":"Late","num_songs":5}"#)
        let id = try #require(created.json["id"] as? String)
        let code = try #require(created.json["invite_code"] as? String)
        let base = "/api/v1/tunetrivia/sessions/\(id)"
        #expect(try await client.json(.post, "\(base)/rounds/auto-generate", token: host).status == .ok)
        for token in players {
            #expect(try await client.json(.post, "/api/v1/tunetrivia/sessions/join", token: token, body: #"{"invite_code":"\#(code)"}"#).status == .ok)
        }
        #expect(try await client.json(.post, "\(base)/start", token: host).status == .ok)
        return (host, players, base)
    }

    /// Answers skip the token lookup when this server knows the token; the answer's batch
    /// checks it instead. A token signed out elsewhere (here: removed from the database, as
    /// another server's sign-out does) must still be refused at once.
    @Test(arguments: TestBackend.available)
    func anAnswerWithASignedOutTokenIsRefusedWhereTheTokenWasKnown(backend: TestBackend) async throws {
        try await TestApp.run(backend) { app, client in
            let (host, players, base) = try await Self.startedGame(app, client, players: ["ann", "bob"])
            let ann = players[0], bob = players[1], cyd = try await client.register("cyd")
            #expect(try await client.json(.get, "/api/v1/auth/me", token: cyd).status == .ok)
            for token in [ann, cyd] {
                #expect(app.services.knownTokens.user(Tokens.hash(token)) != nil, "the server knows the token")
                try await app.services.users.revokeToken(hash: Tokens.hash(token))
            }

            let guess = #"{"artist_guess":"someone","song_guess":"something"}"#
            let refused = try await client.json(.post, "\(base)/guess", token: ann, body: guess)
            #expect(refused.status == .unauthorized, "\(refused.json)")
            #expect(app.services.knownTokens.user(Tokens.hash(ann)) == nil, "a refused token is forgotten")
            // Not seated: still 401, not the reason the answer would not count.
            #expect(try await client.json(.post, "\(base)/guess", token: cyd, body: guess).status == .unauthorized)
            #expect(try await client.json(.post, "\(base)/guess", token: bob, body: guess).status == .accepted)
            // Ann's answer was not stored: the host's list has Bob's alone.
            let hostView = try await client.json(.get, "\(base)/state", token: host)
            #expect((hostView.json["guesses"] as? [Any])?.count == 1)
        }
    }

    /// Two servers on one PostgreSQL database answer the same game: a server whose copy is a
    /// version behind finds out in its one-statement commit, and takes the locked way, which
    /// reloads the game; so both answers land, and a second answer is refused on either.
    @Test(.enabled(if: TestBackend.postgresAvailable, "needs PostgreSQL: JUKE_TEST_POSTGRES_URL")) func twoServersTakeAnswersForOneGame() async throws {
        try await TestApp.run(.postgres) { app, client in
            let (host, players, base) = try await Self.startedGame(app, client, players: ["ann", "bob"])
            let ann = players[0], bob = players[1]
            let other = AppServices(configuration: app.services.configuration, database: app.services.database, clock: .system, logger: TestDatabase.logger)
            let session: SessionID = try #require(SessionID(String(base.split(separator: "/").last ?? "")))
            _ = try await other.tuneTrivia.game(session)  // the other server's copy, taken now
            let guess = #"{"artist_guess":"someone","song_guess":"something"}"#
            #expect(try await client.json(.post, "\(base)/guess", token: ann, body: guess).status == .accepted)

            let annID = try #require(UserID(try await client.json(.get, "/api/v1/auth/me", token: ann).json["id"] as? String ?? ""))
            let bobID = try #require(UserID(try await client.json(.get, "/api/v1/auth/me", token: bob).json["id"] as? String ?? ""))
            let bobSeat = try await other.tuneTrivia.guessingSeat(in: session, of: bobID)
            let answered = try await other.tuneTrivia.run(session, by: bobID, .guess(player: bobSeat.id, artist: "nobody", song: "nothing"))
            #expect(answered.events == [.guessAccepted(bobSeat.id)])
            #expect(answered.game.guesses[answered.game.round?.id ?? RoundID()]?.count == 2)
            let annSeat = try await other.tuneTrivia.guessingSeat(in: session, of: annID)
            await #expect(throws: GameError.conflict("You have already guessed this round.")) {
                try await other.tuneTrivia.run(session, by: annID, .guess(player: annSeat.id, artist: "again", song: ""))
            }
            #expect(try await client.json(.post, "\(base)/guess", token: bob, body: guess).status == .conflict)
            let hostView = try await client.json(.get, "\(base)/state", token: host)
            #expect(hostView.json["answered_count"] as? Int == 2)
        }
    }

    @Test(arguments: TestBackend.available)
    func aHostModeGameAndTheGuards(backend: TestBackend) async throws {
        try await TestApp.run(backend) { app, client in
            let host = try await client.register("host")
            let stranger = try await client.register("stranger")
            _ = try await app.addSongs(Self.songs)
            let created = try await client.json(.post, "/api/v1/tunetrivia/sessions", token: host, body: #"{"title":"Family","mode":"host"}"#)
            let id = try #require(created.json["id"] as? String)
            let base = "/api/v1/tunetrivia/sessions/\(id)"
            // Bad settings, bad IDs, no token.
            #expect(try await client.json(.post, "/api/v1/tunetrivia/sessions", token: host, body: #"{"title":"x","num_songs":4}"#).status == .badRequest)
            #expect(try await client.json(.post, "/api/v1/tunetrivia/sessions", token: host, body: #"{"title":""}"#).status == .badRequest)
            #expect(try await client.json(.get, "/api/v1/tunetrivia/sessions/not-a-uuid", token: host).status == .badRequest)
            #expect(try await client.json(.get, "/api/v1/tunetrivia/sessions/\(UUID().uuidString)", token: host).status == .notFound)
            #expect(try await client.json(.get, base).status == .unauthorized)
            #expect(try await client.json(.patch, base, token: stranger, body: #"{"title":"Mine now"}"#).status == .forbidden)
            let patched = try await client.json(.patch, base, token: host, body: #"{"title":"Family night","points_song":2}"#)
            #expect(patched.json["title"] as? String == "Family night")

            // Songs by hand: a catalog track by ID.
            let tracks = try await client.json(.get, "/api/v1/catalog/tracks?limit=5", token: host)
            let trackIDs = (tracks.json["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            for t in trackIDs {
                #expect(try await client.json(.post, "\(base)/rounds", token: host, body: #"{"track_id":"\#(t)","clip_start":1}"#).status == .created)
            }
            #expect(try await client.json(.post, "\(base)/rounds", token: host, body: #"{"track_id":"\#(trackIDs[0])"}"#).status == .conflict)
            // Players by name, no accounts; joining by code is for party mode.
            let dad = try await client.json(.post, "\(base)/players", token: host, body: #"{"display_name":"Dad"}"#)
            #expect(dad.status == .created && dad.json["is_manual"] as? Bool == true)
            let dadID = try #require(dad.json["id"] as? String)
            #expect(
                try await client.json(.post, "\(base)/players", token: host, body: #"{"display_name":"\#(String(repeating: "n", count: 51))"}"#).status
                    == .badRequest)
            let code = try #require(created.json["invite_code"] as? String)
            #expect(try await client.json(.post, "/api/v1/tunetrivia/sessions/join", token: stranger, body: #"{"invite_code":"\#(code)"}"#).status == .conflict)
            #expect(try await client.json(.post, "\(base)/start", token: host).status == .ok)
            let scored = try await client.json(
                .post, "\(base)/score", token: host, body: #"{"player_id":"\#(dadID)","artist_correct":true,"song_correct":true}"#)
            #expect(scored.status == .ok)
            let rows = try #require(try JSONSerialization.jsonObject(with: Data(buffer: scored.raw)) as? [[String: Any]])
            #expect(rows.first { $0["id"] as? String == dadID }?["total_score"] as? Int == 3)
            #expect(try await client.json(.post, "\(base)/score", token: stranger, body: #"{"player_id":"\#(dadID)"}"#).status == .forbidden)
            #expect(try await client.json(.post, "\(base)/end", token: host).status == .ok)
            // Manual players never reach the leaderboard.
            #expect(try await client.json(.get, "/api/v1/tunetrivia/leaderboard", token: host).json["total"] as? Int == 0)
            #expect(try await client.json(.delete, base, token: stranger).status == .forbidden)
            #expect(try await client.json(.delete, base, token: host).status == .noContent)
            #expect(try await client.json(.get, base, token: host).status == .notFound)
        }
    }

    @Test(arguments: TestBackend.available)
    func wrongInviteCodesAreRateLimited(backend: TestBackend) async throws {
        try await TestApp.run(backend) { _, client in
            let guesser = try await client.register("guesser")
            for i in 0..<10 {
                let r = try await client.json(.post, "/api/v1/tunetrivia/sessions/join", token: guesser, body: #"{"invite_code":"AAAA\#(i)\#(i)"}"#)
                #expect(r.status == .notFound)
            }
            let blocked = try await client.json(.post, "/api/v1/tunetrivia/sessions/join", token: guesser, body: #"{"invite_code":"AAAA99"}"#)
            #expect(blocked.status == .tooManyRequests)
            #expect(blocked.headers[.retryAfter] != nil)
        }
    }

    /// Codes sent at once are counted before any is looked up: 40 at once used to have 15
    /// judged against a limit of 10.
    @Test(arguments: TestBackend.available)
    func parallelWrongInviteCodesCannotSlipUnderTheLimit(backend: TestBackend) async throws {
        try await TestApp.run(backend) { _, client in
            let guesser = try await client.register("guesser")
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for i in 0..<40 {
                    let code = String(format: "AAAA%02d", i)
                    group.addTask {
                        try await client.json(.post, "/api/v1/tunetrivia/sessions/join", token: guesser, body: #"{"invite_code":"\#(code)"}"#).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .notFound }.count == 10, "exactly the limit's worth are judged: \(statuses)")
            #expect(statuses.filter { $0 == .tooManyRequests }.count == 30)
        }
    }
}
