import Foundation
import HTTPTypes
import HummingbirdTesting
import JukeTestSupport
import NIOCore
import Testing

@testable import Back2BackServer
@testable import JukePlatform
@testable import JukeServer
@testable import TuneTriviaServer

/// Back2Back over HTTP with Juke's own DJ (no AI configured): a session of turns, the AI's
/// picks with reasons, backups, a direction change, skips, a friend joining, export, personas
/// and settings, on both databases.
@Suite(.timeLimit(.minutes(5))) struct Back2BackAPITests {
    static let songs: [(title: String, artist: String, genre: String, year: Int)] = [
        ("Ode to Joy", "Ludwig van Beethoven", "Classical", 1824), ("Für Elise", "Ludwig van Beethoven", "Classical", 1810),
        ("Greensleeves", "Traditional", "Folk", 1580), ("The Entertainer", "Scott Joplin", "Ragtime", 1902),
        ("Maple Leaf Rag", "Scott Joplin", "Ragtime", 1899), ("Canon in D", "Johann Pachelbel", "Baroque", 1680),
        ("Spring", "Antonio Vivaldi", "Baroque", 1725), ("Scarborough Fair", "Traditional", "Folk", 1670),
        ("Swing Low, Sweet Chariot", "Wallace Willis", "Spiritual", 1865), ("Danny Boy", "Frederic Weatherly", "Folk", 1913),
    ]

    static func entries(_ json: [String: Any], _ key: String) -> [[String: Any]] { json[key] as? [[String: Any]] ?? [] }

    @Test(arguments: TestBackend.available)
    func aSessionOfTurnsWithJukesOwnDJ(backend: TestBackend) async throws {
        try await TestApp.run(backend) { app, client in
            let host = try await client.register("host")
            let friend = try await client.register("friend")
            _ = try await app.addSongs(Self.songs)

            let personas = try await client.json(.get, "/api/v1/back2back/personas", token: host)
            let list = try #require(personas.json["items"] as? [[String: Any]])
            #expect(list.compactMap { $0["name"] as? String } == ["Modern Electronic DJ", "Rare Groove Collector"])
            let collector = try #require(list.last?["id"] as? String)

            let created = try await client.json(.post, "/api/v1/back2back/sessions", token: host, body: #"{"persona_id":"\#(collector)"}"#)
            #expect(created.status == .created, "\(created.json)")
            let id = try #require(created.json["id"] as? String)
            let base = "/api/v1/back2back/sessions/\(id)"
            #expect(created.json["persona_name"] as? String == "Rare Groove Collector")
            #expect((created.json["turn"] as? [String: Any])?["is_you"] as? Bool == true)

            // The host picks a song from the library: it plays, and the AI's turn begins.
            let search = try await client.json(.get, "/api/v1/catalog/search?q=entertainer", token: host)
            let track = try #require((search.json["items"] as? [[String: Any]])?.first?["id"] as? String)
            let picked = try await client.json(.post, "\(base)/picks", token: host, body: #"{"track_id":"\#(track)"}"#)
            #expect(picked.status == .ok, "\(picked.json)")
            #expect((picked.json["now_playing"] as? [String: Any])?["picked_by"] as? String == "person")
            #expect((picked.json["turn"] as? [String: Any])?["kind"] as? String == "ai")
            #expect(picked.json["ai_thinking"] as? Bool == true)
            // Not your turn now.
            #expect(try await client.json(.post, "\(base)/picks", token: host, body: #"{"track_id":"\#(track)"}"#).status == .conflict)
            await app.services.back2back.settle()
            // The song that started is a play of its album: the most and recently played lists have it.
            for sort in ["frequent", "recent"] {
                let played = try await client.json(.get, "/api/v1/catalog/albums?sort=\(sort)", token: host).json
                #expect(played["total"] as? Int == 1, "\(sort): \(played)")
                let album = (played["items"] as? [[String: Any]])?.first
                #expect(album?["play_count"] as? Int == 1 && album?["last_played_at"] is String, "\(sort): \(played)")
            }

            var state = try await client.json(.get, base, token: host).json
            let aiPick = try #require(Self.entries(state, "queue").first)
            #expect(aiPick["picked_by"] as? String == "ai" && aiPick["status"] as? String == "upNext")
            #expect(!((aiPick["rationale"] as? String) ?? "").isEmpty)
            #expect((aiPick["song"] as? [String: Any])?["track_id"] as? String != track)

            // The player reports the end: the AI's song plays and the turn comes back with a backup queued.
            let playing = try #require((state["now_playing"] as? [String: Any])?["id"] as? String)
            #expect(try await client.json(.post, "\(base)/progress", token: host, body: #"{"entry_id":"\#(playing)","fraction":0.96}"#).status == .ok)
            #expect(try await client.json(.post, "\(base)/progress", token: host, body: #"{"entry_id":"\#(playing)","fraction":1.5}"#).status == .badRequest)
            #expect(try await client.json(.post, "\(base)/finished", token: host, body: #"{"entry_id":"\#(playing)"}"#).status == .ok)
            await app.services.back2back.settle()
            state = try await client.json(.get, base, token: host).json
            #expect((state["now_playing"] as? [String: Any])?["id"] as? String == aiPick["id"] as? String)
            #expect((state["turn"] as? [String: Any])?["is_you"] as? Bool == true)
            #expect(Self.entries(state, "queue").map { $0["status"] as? String } == ["queuedIfUserSkips"])
            let label = try #require(state["direction_label"] as? String)
            #expect((2...4).contains(label.split(separator: " ").count))

            // Taking the direction replaces the backup; the turn stays with the host.
            let oldBackup = Self.entries(state, "queue").first?["id"] as? String
            #expect(try await client.json(.post, "\(base)/direction", token: host).status == .ok)
            await app.services.back2back.settle()
            state = try await client.json(.get, base, token: host).json
            let backup = try #require(Self.entries(state, "queue").first)
            #expect(backup["id"] as? String != oldBackup && backup["direction"] as? String == label)
            #expect((state["turn"] as? [String: Any])?["is_you"] as? Bool == true)

            // Tap the backup to play it now: the turn stays, and a new backup comes.
            let tapped = try await client.json(.post, "\(base)/skip-to", token: host, body: #"{"entry_id":"\#(backup["id"] as? String ?? "")"}"#)
            #expect(tapped.status == .ok)
            #expect((tapped.json["now_playing"] as? [String: Any])?["id"] as? String == backup["id"] as? String)
            #expect(Self.entries(tapped.json, "history").last?["skipped"] as? Bool == true)
            await app.services.back2back.settle()
            #expect(try await client.json(.post, "\(base)/skip", token: host).status == .ok)

            // A friend cannot see the session until they join by its invite token.
            #expect(try await client.json(.get, base, token: friend).status == .forbidden)
            let token = try #require(state["invite_token"] as? String)
            #expect(try await client.json(.post, "/api/v1/back2back/sessions/join", token: friend, body: #"{"invite_token":"nope"}"#).status == .notFound)
            let joined = try await client.json(.post, "/api/v1/back2back/sessions/join", token: friend, body: #"{"invite_token":"\#(token)"}"#)
            #expect(joined.status == .ok && (joined.json["members"] as? [Any])?.count == 2)
            #expect(try await client.json(.post, "\(base)/picks", token: friend, body: #"{"track_id":"\#(track)"}"#).status == .conflict)
            #expect(try await client.json(.delete, base, token: friend).status == .forbidden)
            #expect(try await client.json(.get, "/api/v1/back2back/sessions", token: friend).json["total"] as? Int == 1)

            // Export: the songs that played, with links to their audio.
            let m3u = try await client.json(.get, "\(base)/export?format=m3u8", token: host)
            #expect(m3u.status == .ok && m3u.headers[.contentType]?.hasPrefix("audio/x-mpegurl") == true)
            let lines = String(buffer: m3u.raw).split(separator: "\n")
            #expect(lines.first == "#EXTM3U" && lines.contains { $0.hasSuffix("Scott Joplin - The Entertainer") })
            #expect(lines.contains { $0.contains("/api/v1/catalog/tracks/\(track)/audio") })
            // The links play in another player, with no login; for that track only, and not
            // once the signature is changed.
            let link = try #require(lines.first { $0.contains("/api/v1/catalog/tracks/\(track)/audio?expires=") })
            let path = try #require(link.range(of: "/api/v1/")).lowerBound
            let signed = String(link[path...])
            #expect(try await client.json(.get, signed, headers: [.range: "bytes=0-9"]).status == .partialContent)
            #expect(try await client.json(.get, signed.replacingOccurrences(of: "signature=", with: "signature=x")).status == .forbidden)
            let other = try #require(lines.first { $0.contains("/audio?expires=") && !$0.contains(track) })
            let otherID = try #require(other.range(of: "/tracks/")).upperBound
            let swapped = signed.replacingOccurrences(of: track, with: String(other[otherID...].prefix(36)))
            #expect(try await client.json(.get, swapped).status == .forbidden)
            #expect(try await client.json(.get, "/api/v1/catalog/tracks/\(track)/audio").status == .unauthorized)
            // The file keeps the session's title.
            let disposition = m3u.headers[.contentDisposition] ?? ""
            #expect(disposition.contains("filename*=UTF-8''"), "\(disposition)")
            let xspf = try await client.json(.get, "\(base)/export?format=xspf", token: host)
            #expect(String(buffer: xspf.raw).contains("<title>The Entertainer</title>"))
            #expect(try await client.json(.get, "\(base)/export?format=pls", token: host).status == .badRequest)

            #expect(try await client.json(.delete, base, token: host).status == .noContent)
            #expect(try await client.json(.get, base, token: host).status == .notFound)
        }
    }

    @Test(arguments: TestBackend.available)
    func theAIMayStartAndPersonasAndSettingsAreValidated(backend: TestBackend) async throws {
        try await TestApp.run(backend) { app, client in
            let user = try await client.register("deejay")
            _ = try await app.addSongs(Self.songs)
            // A persona of one's own, validated.
            let bad = try await client.json(
                .post, "/api/v1/back2back/personas", token: user, body: #"{"name":"  ","description":"","taste":{"genres":[],"artists":[],"adventure":0.3}}"#)
            #expect(bad.status == .unprocessableContent && bad.json["field"] as? String == "name")
            let years = try await client.json(
                .post, "/api/v1/back2back/personas", token: user,
                body: #"{"name":"Folk","description":"","taste":{"genres":["Folk"],"artists":[],"adventure":0.2,"year_from":1900,"year_to":3500}}"#)
            #expect(years.status == .unprocessableContent)
            let made = try await client.json(
                .post, "/api/v1/back2back/personas", token: user,
                body: #"{"name":"Folk digger","description":"Old ballads","taste":{"genres":["Folk"],"artists":[],"adventure":0.1}}"#)
            #expect(made.status == .created, "\(made.json)")
            let persona = try #require(made.json["id"] as? String)
            let updated = try await client.json(
                .put, "/api/v1/back2back/personas/\(persona)", token: user,
                body:
                    #"{"name":"Folk digger","description":"Ballads","style_guide":"Play ballads.","taste":{"genres":["Folk","Americana"],"artists":[],"adventure":0.1,"year_from":1500}}"#
            )
            #expect(updated.json["style_guide"] as? String == "Play ballads.")
            let taste = try #require(updated.json["taste"] as? [String: Any])
            #expect(taste["genres"] as? [String] == ["Folk", "Americana"] && taste["year_from"] as? Int == 1500 && taste["year_to"] as? Int == 3000)
            // Without a taste the request is incomplete.
            #expect(
                try await client.json(.put, "/api/v1/back2back/personas/\(persona)", token: user, body: #"{"name":"Folk digger","description":""}"#).status
                    == .badRequest)

            // Settings: defaults, validation, and the persona remembered.
            let settings = try await client.json(.get, "/api/v1/back2back/settings", token: user)
            #expect(settings.json["ai_configured"] as? Bool == false && settings.json["crossfade_seconds"] as? Double == 4)
            let badFade =
                #"{"song_selection":{"model":"gpt-5","effort":"low"},"direction_change":{"model":"gpt-5-nano","effort":"minimal"},"style_guide":{"model":"gpt-5","effort":"high"},"crossfade_seconds":13}"#
            let refused = try await client.json(.put, "/api/v1/back2back/settings", token: user, body: badFade)
            #expect(refused.status == .unprocessableContent && refused.json["field"] as? String == "crossfade_seconds")
            let badModel = badFade.replacingOccurrences(of: "13", with: "2").replacingOccurrences(
                of: #""gpt-5","effort":"low""#, with: #""gpt 5!","effort":"low""#)
            #expect(try await client.json(.put, "/api/v1/back2back/settings", token: user, body: badModel).status == .unprocessableContent)
            let good = badFade.replacingOccurrences(of: "13}", with: #"8,"persona_id":"\#(persona)"}"#)
            let saved = try await client.json(.put, "/api/v1/back2back/settings", token: user, body: good)
            #expect(saved.status == .ok && saved.json["crossfade_seconds"] as? Double == 8)

            // A session with the persona chosen last; the AI starts it with a folk song.
            let created = try await client.json(.post, "/api/v1/back2back/sessions", token: user, body: "{}")
            #expect(created.json["persona_name"] as? String == "Folk digger" && created.json["crossfade_seconds"] as? Double == 8)
            let base = "/api/v1/back2back/sessions/\(created.json["id"] as? String ?? "")"
            #expect(try await client.json(.post, "\(base)/ai-start", token: user).status == .ok)
            await app.services.back2back.settle()
            let state = try await client.json(.get, base, token: user).json
            let first = try #require(state["now_playing"] as? [String: Any])
            #expect(first["picked_by"] as? String == "ai" && (first["song"] as? [String: Any])?["genre"] as? String == "Folk")
            #expect((state["turn"] as? [String: Any])?["is_you"] as? Bool == true)
            #expect(try await client.json(.post, "\(base)/ai-start", token: user).status == .conflict)

            // Switching persona mid-session; someone else's persona is refused.
            let other = try await client.register("other")
            let theirs = try #require(
                (try await client.json(.get, "/api/v1/back2back/personas", token: other).json["items"] as? [[String: Any]])?.first?["id"] as? String)
            #expect(try await client.json(.put, "\(base)/persona", token: user, body: #"{"persona_id":"\#(theirs)"}"#).status == .notFound)
            #expect(try await client.json(.get, "/api/v1/back2back/personas/\(theirs)", token: user).status == .notFound)
            // Juke writes the style guide from the taste (no AI configured), streamed, and saves it.
            let guide = try await client.json(.post, "/api/v1/back2back/personas/\(persona)/style-guide", token: user)
            #expect(guide.status == .ok && guide.headers[.contentType] == "text/event-stream")
            let events = String(buffer: guide.raw)
            #expect(events.contains("event: progress") && events.contains("event: text") && events.contains("event: done"))
            let written = try await client.json(.get, "/api/v1/back2back/personas/\(persona)", token: user)
            #expect((written.json["style_guide"] as? String)?.contains("Home ground is Folk, Americana") == true)
            #expect(try await client.json(.post, "/api/v1/back2back/personas/\(theirs)/style-guide", token: user).status == .notFound)
            #expect(try await client.json(.delete, "/api/v1/back2back/memory?persona_id=\(persona)", token: user).status == .noContent)
            #expect(try await client.json(.delete, "/api/v1/back2back/personas/\(persona)", token: user).status == .noContent)
        }
    }
}
