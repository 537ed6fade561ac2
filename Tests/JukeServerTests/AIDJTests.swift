import Back2Back
import Foundation
import JukeCore
import JukeTestSupport
import Logging
import Providers
import Testing

@testable import Back2BackServer
@testable import JukePlatform
@testable import JukeServer
@testable import TuneTriviaServer

/// The AI DJ against a local fake of OpenAI: picks resolved through the matching engine,
/// retries with feedback, exclusions enforced after matching, Juke's own DJ standing in on
/// errors and when hurried, and direction labels checked.
@Suite(.timeLimit(.minutes(5))) struct AIDJTests {
    static let library: [Song] = [
        ("The Entertainer", "Scott Joplin", "Ragtime", 1902), ("Maple Leaf Rag", "Scott Joplin", "Ragtime", 1899),
        ("Greensleeves", "Traditional", "Folk", 1580), ("Canon in D", "Johann Pachelbel", "Baroque", 1680),
        ("Ode to Joy", "Ludwig van Beethoven", "Classical", 1824),
    ].map { Song(track: TrackID(), title: $0.0, artist: $0.1, album: "\($0.1) Hits", duration: 180, genre: $0.2, year: $0.3) }

    static func context(excluding: [Song] = [], direction: Direction? = nil) -> PickContext {
        PickContext(
            request: AIRequest(purpose: .turn, direction: direction), persona: Persona.builtIns(at: Date())[0], library: library,
            recent: [library[2]], exclusions: SongExclusions([], songs: excluding + [library[2]]),
            memory: [SongMemory.Remembered(key: SongKey(library[3]), artist: library[3].artist, title: library[3].title, playedAt: Date())],
            settings: DJSettings())
    }

    static func dj(_ url: URL, attempts: Int = 10) -> AIDJ {
        AIDJ(
            client: OpenAIClient(http: .tests, baseURL: url, apiKey: "test-key", timeout: 5, sleep: { _ in }), logger: Logger(label: "test"), attempts: attempts
        )
    }

    static func answer(_ artist: String, _ title: String, _ why: String = "Because.") -> String {
        FakeOpenAI.encode(["artist": artist, "title": title, "album": "", "rationale": why])
    }

    @Test func aPickIsResolvedToTheLibraryTrackEvenWhenNamedLoosely() async throws {
        let fake = FakeOpenAI(behaviour: .script([Self.answer("scott joplin", "The Entertainer (Remastered 2011)", "Ragtime to lift the room.")]))
        try await fake.run { url in
            let result = await Self.dj(url).pick(Self.context())
            let pick = try result.get()
            #expect(pick.song == Self.library[0] && pick.rationale == "Ragtime to lift the room.")
            // The prompt carried the persona, the set, the memory and the library to choose from.
            let input = try #require(fake.log.all.first?.1["input"] as? String)
            #expect(input.contains("Traditional - Greensleeves") && input.contains("do not play them again") && input.contains("Johann Pachelbel - Canon in D"))
            #expect(input.contains("Scott Joplin - Maple Leaf Rag"))
            let instructions = try #require(fake.log.all.first?.1["instructions"] as? String)
            #expect(instructions.contains("Rare Groove Collector") && instructions.contains("never impersonating"))
            #expect(fake.log.all.first?.1["model"] as? String == "gpt-5-mini")
        }
    }

    @Test func unknownAndExcludedSongsAreSentBackAsFeedback() async throws {
        let fake = FakeOpenAI(
            behaviour: .script([
                Self.answer("Sly Stone", "Family Affair"),  // not in the library
                Self.answer("Traditional", "Greensleeves"),  // played in this session
                "not json at all",
                Self.answer("Beethoven", "Ode to Joy"),  // resolves ("Beethoven" is the surname)
            ]))
        try await fake.run { url in
            let pick = try await Self.dj(url).pick(Self.context()).get()
            #expect(pick.song.title == "Ode to Joy")
            #expect(fake.log.paths.count == 4)
            let last = try #require(fake.log.all.last?.1["input"] as? String)
            #expect(last.contains("Sly Stone - Family Affair (not in the library)"))
            #expect(last.contains("Traditional - Greensleeves (already played"))
            #expect(last.contains("the reply was not the JSON asked for"))
        }
    }

    @Test func afterTenMissesOrOnAQuotaErrorJukesOwnDJPicks() async throws {
        let fake = FakeOpenAI(behaviour: .script([Self.answer("Nobody", "Nothing")]))
        try await fake.run { url in
            let pick = try await Self.dj(url).pick(Self.context()).get()
            #expect(fake.log.paths.count == 10)
            #expect(Self.library.contains(pick.song) && pick.song != Self.library[2])
            #expect(pick.rationale.contains("Juke's own DJ picked: the AI named no playable library song in 10 tries"))
        }
        let quota = FakeOpenAI(behaviour: .quota)
        try await quota.run { url in
            let pick = try await Self.dj(url).pick(Self.context()).get()
            #expect(quota.log.paths.count == 1)
            #expect(pick.rationale.contains("quota is used up"))
        }
    }

    @Test func aHurriedPickIsAnsweredByJukesOwnDJAtOnce() async throws {
        // The model would answer only after 8 s (within the client's 30 s), with its own reason:
        // a pick that says the song was ending came from Juke's own DJ, without waiting.
        let fake = FakeOpenAI(behaviour: .slow(8, Self.answer("Scott Joplin", "The Entertainer", "The model's reason.")))
        try await fake.run { url in
            let dj = AIDJ(client: OpenAIClient(http: .tests, baseURL: url, apiKey: "test-key", timeout: 30, sleep: { _ in }), logger: Logger(label: "test"))
            let context = Self.context()
            async let result = dj.pick(context)
            // Hurried once the model has the request (a state to wait for, not a time).
            #expect(await eventually { !fake.log.all.isEmpty })
            await dj.hurry(context.request.task)
            let pick = try await result.get()
            #expect(pick.rationale.contains("the song was ending before the AI answered"))
            #expect(!pick.rationale.contains("The model's reason."))
            #expect(pick.followedDirection, "no direction was asked for")
        }
    }

    /// Covering at the song's end for an AI asked for a direction in words, Juke's own DJ
    /// cannot follow it: its pick says so, and so does not wear the direction's label.
    @Test func aStandInPickDoesNotClaimTheAIsDirection() async throws {
        let fake = FakeOpenAI(behaviour: .slow(8, Self.answer("Scott Joplin", "The Entertainer", "The model's reason.")))
        try await fake.run { url in
            let dj = AIDJ(client: OpenAIClient(http: .tests, baseURL: url, apiKey: "test-key", timeout: 30, sleep: { _ in }), logger: Logger(label: "test"))
            for (direction, followed) in [
                (Direction(label: "Moody late night", prompt: "Something moody for late at night."), false),
                (Direction(label: "Back to ragtime", prompt: "Ragtime.", towardGenre: "Ragtime"), true),
            ] {
                let context = Self.context(direction: direction)
                async let result = dj.pick(context)
                #expect(await eventually { fake.log.all.count >= (followed ? 2 : 1) })
                await dj.hurry(context.request.task)
                let pick = try await result.get()
                #expect(pick.followedDirection == followed)
            }
        }
    }

    @Test func directionLabelsAreCheckedAndFallBackToJukesOwn() async throws {
        let good = FakeOpenAI(
            behaviour: .script([FakeOpenAI.encode(["direction_prompt": "West Coast psychedelic rock, loose and loud.", "button_label": "West Coast vibes"])]))
        try await good.run { url in
            let direction = await Self.dj(url).direction(
                after: Self.library, avoiding: [], persona: Persona.builtIns(at: Date())[0], library: Self.library, settings: DJSettings())
            #expect(direction?.label == "West Coast vibes")
            #expect(good.log.all.first?.1["model"] as? String == "gpt-5-nano")
        }
        let long = FakeOpenAI(behaviour: .script([FakeOpenAI.encode(["direction_prompt": "x", "button_label": "A label far too long for any button"])]))
        try await long.run { url in
            let direction = await Self.dj(url).direction(
                after: Array(Self.library.prefix(2)), avoiding: [], persona: Persona.builtIns(at: Date())[0], library: Self.library, settings: DJSettings())
            let label = try #require(direction?.label)
            // Juke's own: a structured target.
            let target = direction?.towardGenre != nil || direction?.towardYears != nil || direction?.towardTempo != nil
            #expect(Direction.isUsableLabel(label) && target)
        }
    }

    @Test(arguments: TestBackend.available)
    func aServerWithAnAIEndpointLetsTheAIPick(backend: TestBackend) async throws {
        let fake = FakeOpenAI(behaviour: .script([Self.answer("Scott Joplin", "Maple Leaf Rag", "A rag to answer a rag.")]))
        try await fake.run { url in
            let settings = OpenAISettings(baseURL: url, apiKey: "test-key", timeout: 5)
            try await TestApp.run(backend, configure: { $0.openAI = settings }) { app, client in
                let host = try await client.register("host")
                _ = try await app.addSongs(Back2BackAPITests.songs)
                #expect(try await client.json(.get, "/api/v1/back2back/settings", token: host).json["ai_configured"] as? Bool == true)
                let created = try await client.json(.post, "/api/v1/back2back/sessions", token: host, body: "{}")
                let base = "/api/v1/back2back/sessions/\(created.json["id"] as? String ?? "")"
                let search = try await client.json(.get, "/api/v1/catalog/search?q=entertainer", token: host)
                let track = try #require((search.json["items"] as? [[String: Any]])?.first?["id"] as? String)
                #expect(try await client.json(.post, "\(base)/picks", token: host, body: #"{"track_id":"\#(track)"}"#).status == .ok)
                await app.services.back2back.settle()
                let state = try await client.json(.get, base, token: host).json
                let queued = try #require((state["queue"] as? [[String: Any]])?.first)
                #expect((queued["song"] as? [String: Any])?["title"] as? String == "Maple Leaf Rag")
                #expect(queued["rationale"] as? String == "A rag to answer a rag." && queued["picked_by"] as? String == "ai")
                #expect(fake.log.paths.first == "responses")
            }
        }
    }

    @Test(arguments: TestBackend.available)
    func anAdminSetsTheAIEndpointOnTheSettingsPageAndTheKeyNeverComesBack(backend: TestBackend) async throws {
        let fake = FakeOpenAI(behaviour: .script([Self.answer("Scott Joplin", "Maple Leaf Rag", "Set from the settings page.")]))
        try await fake.run { url in
            try await TestApp.run(backend) { app, client in
                let admin = try await client.register("admin")  // the first account is the admin
                let member = try await client.register("member")
                _ = try await app.addSongs(Back2BackAPITests.songs)
                #expect(try await client.json(.get, "/api/v1/back2back/ai-endpoint", token: member).status == .forbidden)
                #expect(try await client.json(.get, "/api/v1/back2back/ai-endpoint", token: admin).json["source"] as? String == "off")
                let bad = try await client.json(.put, "/api/v1/back2back/ai-endpoint", token: admin, body: #"{"base_url":"ftp://x","api_key":"k"}"#)
                #expect(bad.status == .unprocessableContent && bad.json["field"] as? String == "base_url")
                let set = try await client.json(
                    .put, "/api/v1/back2back/ai-endpoint", token: admin, body: #"{"base_url":"\#(url.absoluteString)","api_key":"test-key"}"#)
                #expect(set.status == .ok && set.json["source"] as? String == "settings" && set.json["key_set"] as? Bool == true)
                #expect(!String(buffer: set.raw).contains("test-key"))
                #expect(try await client.json(.get, "/api/v1/back2back/settings", token: member).json["ai_configured"] as? Bool == true)

                // A member's session now picks through that endpoint.
                let created = try await client.json(.post, "/api/v1/back2back/sessions", token: member, body: "{}")
                let base = "/api/v1/back2back/sessions/\(created.json["id"] as? String ?? "")"
                #expect(try await client.json(.post, "\(base)/ai-start", token: member).status == .ok)
                await app.services.back2back.settle()
                let state = try await client.json(.get, base, token: member).json
                #expect((state["now_playing"] as? [String: Any])?["rationale"] as? String == "Set from the settings page.")

                let cleared = try await client.json(.delete, "/api/v1/back2back/ai-endpoint", token: admin)
                #expect(cleared.json["source"] as? String == "off" && cleared.json["key_set"] as? Bool == false)
                #expect(try await client.json(.get, "/api/v1/back2back/settings", token: member).json["ai_configured"] as? Bool == false)
            }
        }
    }

    @Test func endpointRulesMatchTheContract() {
        for good in ["https://api.openai.com/v1", "http://127.0.0.1:8000", "http://localhost:11434/v1/", "https://a-b.example/x_y~z"] {
            #expect(AIEndpointRules.isBaseURL(good), "\(good)")
        }
        for bad in ["ftp://x", "https://", "https://host:123456", "https://host/with space", "https://host?q=1", "api.openai.com"] {
            #expect(!AIEndpointRules.isBaseURL(bad), "\(bad)")
        }
        #expect(AIEndpointRules.isKey("sk-abc_123") && !AIEndpointRules.isKey("") && !AIEndpointRules.isKey("with space") && !AIEndpointRules.isKey("é"))
    }
}
