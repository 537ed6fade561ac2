import Foundation
import JukeTestSupport
import Providers
import Testing

@testable import Back2BackServer
@testable import JukeServer

/// SIGTERM must end the server within seconds even while an AI pick is out: shutdown gives
/// the work under way a moment, then cancels it.
@Suite(.timeLimit(.minutes(5))) struct Back2BackShutdownTests {
    @Test func shutdownDoesNotWaitForTheAIsAnswer() async throws {
        // The model answers only after 20 s (within the DJ's 90 s timeout).
        let fake = FakeOpenAI(behaviour: .slow(20, "{}"))
        try await fake.run { url in
            let settings = OpenAISettings(baseURL: url, apiKey: "test-key", timeout: 1)
            try await TestApp.run(.sqlite, configure: { $0.openAI = settings }) { app, client in
                let host = try await client.register("host")
                _ = try await app.addSongs(Array(Back2BackAPITests.songs.prefix(3)))
                let created = try await client.json(.post, "/api/v1/back2back/sessions", token: host, body: "{}")
                let base = "/api/v1/back2back/sessions/\(try #require(created.json["id"] as? String))"
                #expect(try await client.json(.post, "\(base)/ai-start", token: host).status == .ok)
                #expect(await eventually { !fake.log.all.isEmpty }, "the AI has the request")
                // Returns while the AI has still not answered: the pick was cancelled, not awaited.
                await app.services.back2back.stop()
                #expect(await app.services.back2back.workCount == 0)
                #expect(fake.log.unanswered >= 1, "shutdown waited for the AI's answer")
            }
        }
    }
}

/// An exported playlist's file name keeps the session's title, every character of it.
@Suite(.timeLimit(.minutes(5))) struct ExportFileNameTests {
    @Test func theTitleIsKeptWholeInTheDownloadName() throws {
        let header = Back2BackRoutes.attachment("Friday: Björk & Sigur Rós / 2am ☕", extension: "m3u8")
        #expect(header.hasPrefix("attachment; filename=\"Friday: Bj_rk & Sigur R_s _ 2am _.m3u8\"; filename*=UTF-8''"))
        let marker = try #require(header.range(of: "UTF-8''"))
        let encoded = String(header[marker.upperBound...])
        #expect(encoded.removingPercentEncoding == "Friday: Björk & Sigur Rós _ 2am ☕.m3u8")
        #expect(Back2BackRoutes.attachment("   ", extension: "xspf").contains("filename=\"back2back.xspf\""))
    }
}
