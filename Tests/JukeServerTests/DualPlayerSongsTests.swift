import DualPlayer
import Foundation
import HTTPTypes
import HummingbirdTesting
import JukeCore
import JukePlatform
import JukeTestSupport
import NIOCore
import Testing

@testable import DualPlayerServer
@testable import JukeServer

/// The music player's uploads: read by Juke's tag readers, each listener's own or (an admin's
/// choice) everyone's, their audio with Range and the cover their tags carry, and whatever is
/// refused leaving nothing behind.
@Suite(.timeLimit(.minutes(5))) struct DualPlayerSongsTests {
    static func fixture(_ name: String) throws -> [UInt8] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("MediaFormatsTests/Fixtures/\(name)")
        return [UInt8](try Data(contentsOf: url))
    }

    static func upload(_ client: any TestClientProtocol, _ bytes: [UInt8], filename: String, token: String, share: Bool = false) async throws
        -> (status: HTTPResponse.Status, json: [String: Any])
    {
        let name = filename.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? filename
        let response = try await client.execute(
            uri: "/api/v1/dual/songs?filename=\(name)&share=\(share)", method: .post,
            headers: [.authorization: "Bearer \(token)", .contentType: "application/octet-stream"], body: ByteBuffer(bytes: bytes))
        return (response.status, (try? JSONSerialization.jsonObject(with: Data(buffer: response.body))) as? [String: Any] ?? [:])
    }

    static func items(_ client: any TestClientProtocol, _ token: String) async throws -> [[String: Any]] {
        (try await client.json(.get, "/api/v1/dual/songs", token: token).json["items"] as? [[String: Any]]) ?? []
    }

    @Test(arguments: TestBackend.available)
    func songsAreReadKeptPerAccountSharedByAdminsAndRemoved(backend: TestBackend) async throws {
        try await TestApp.run(backend, configure: { $0.maxUploadSize = 200_000 }) { app, client in
            let admin = try await client.register("admin")
            let ann = try await client.register("ann")
            let bob = try await client.register("bob")
            let folder = app.services.configuration.dataDirectory + "/dual/songs"

            let mp3 = try Self.fixture("id3v24.mp3")
            let added = try await Self.upload(client, mp3, filename: "song.mp3", token: ann)
            #expect(added.status == .created, "\(added.json)")
            #expect(added.json["title"] as? String == "Café Society ☕" && added.json["artist"] as? String == "Beyoncé")
            #expect(added.json["album"] as? String == "Über Album" && added.json["format"] as? String == "mp3")
            #expect(abs((added.json["duration"] as? Double ?? 0) - 1.044875) < 0.05 && added.json["yours"] as? Bool == true)
            let id = try #require(added.json["id"] as? String)
            let artwork = try #require(added.json["artwork_url"] as? String)
            let cover = try await client.json(.get, artwork, token: ann)
            #expect(cover.status == .ok && cover.headers[.contentType] == "image/png" && cover.raw.readableBytes == 165)
            let range = try await client.json(.get, "/api/v1/dual/songs/\(id)/audio", token: ann, headers: [.range: "bytes=0-99"])
            #expect(range.status == .partialContent && range.raw.readableBytes == 100 && range.headers[.contentType] == "audio/mpeg")
            #expect(try await Self.items(client, bob).isEmpty, "ann's upload is hers")
            #expect(try await client.json(.get, "/api/v1/dual/songs/\(id)/audio", token: bob).status == .notFound)

            // Untagged: the file's name is the title. FLAC, Ogg and the rest are read too.
            let flac = try await Self.upload(client, try Self.fixture("tagged.flac"), filename: "whatever.flac", token: ann)
            #expect(flac.status == .created && flac.json["format"] as? String == "flac" && flac.json["title"] as? String == "Ünïcode Title")
            let bare = try await Self.upload(client, try Self.fixture("vbr-xing.mp3"), filename: "Morning Walk.mp3", token: ann)
            #expect(bare.json["title"] as? String == "Morning Walk" && bare.json["artwork_url"] == nil)

            // Refused, and nothing left on disk: not audio, a name Juke does not play, empty, too large, sharing by a non-admin.
            let before = (try? FileManager.default.contentsOfDirectory(atPath: folder))?.count ?? 0
            #expect(try await Self.upload(client, Array("<html>not audio</html>".utf8), filename: "x.mp3", token: ann).status == .unprocessableContent)
            #expect(try await Self.upload(client, mp3, filename: "x.exe", token: ann).status == .unprocessableContent)
            #expect(try await Self.upload(client, [], filename: "x.mp3", token: ann).status == .unprocessableContent)
            #expect(try await Self.upload(client, [UInt8](repeating: 0, count: 300_000), filename: "big.mp3", token: ann).status == .contentTooLarge)
            #expect(try await Self.upload(client, mp3, filename: "x.mp3", token: ann, share: true).status == .forbidden)
            #expect(((try? FileManager.default.contentsOfDirectory(atPath: folder))?.count ?? 0) == before)

            // An admin shares one: everyone sees it, only an admin removes it.
            let shared = try await Self.upload(client, mp3, filename: "shared.mp3", token: admin, share: true)
            #expect(shared.status == .created && shared.json["shared"] as? Bool == true)
            let sharedID = try #require(shared.json["id"] as? String)
            #expect(try await Self.items(client, bob).map { $0["id"] as? String } == [sharedID])
            #expect(try await client.json(.delete, "/api/v1/dual/songs/\(sharedID)", token: bob).status == .forbidden)
            #expect(try await client.json(.delete, "/api/v1/dual/songs/\(id)", token: bob).status == .notFound)
            #expect(try await client.json(.delete, "/api/v1/dual/songs/\(id)", token: ann).status == .noContent)
            #expect(try await client.json(.delete, "/api/v1/dual/songs/\(sharedID)", token: admin).status == .noContent)
            #expect(try await client.json(.get, "/api/v1/dual/songs/\(id)/audio", token: ann).status == .notFound)
            #expect(try await Self.items(client, ann).count == 2)

            // A song is a player item like any other.
            let state =
                #"{"item":{"kind":"song","id":"\#(sharedID)","title":"x","audio_url":"/api/v1/dual/songs/\#(sharedID)/audio"},"position":0,"playing":false,"updated_at":5}"#
            #expect(try await client.json(.put, "/api/v1/dual/players/music", token: ann, body: state).status == .ok)
        }
    }

    /// An ALAC song (an M4A like an AAC one) is listed as not playable on a server without
    /// ffmpeg, and its audio says why to a browser that cannot play it; with ffmpeg it plays.
    @Test(arguments: TestBackend.available)
    func anALACSongIsListedAsNotPlayableWithoutFFmpeg(backend: TestBackend) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("juke-alac-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var made: [String: [UInt8]] = [:]
        for codec in ["alac", "aac"] {
            let path = folder.appendingPathComponent("\(codec).m4a").path
            try await TranscodingTests.tone(path, seconds: 1, codec: codec, title: codec)
            made[codec] = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        }
        let files = made
        for transcoding in [false, true] {
            try await TestApp.run(backend, configure: { if !transcoding { $0.transcoding = nil } }) { app, client in
                let ann = try await client.register("ann")
                for (codec, bytes) in files {
                    let added = try await Self.upload(client, bytes, filename: "\(codec).m4a", token: ann)
                    #expect(added.status == .created && added.json["format"] as? String == "mp4" && added.json["codec"] as? String == codec, "\(added.json)")
                    #expect(added.json["playable"] as? Bool == (codec == "aac" || transcoding), "\(codec), ffmpeg: \(transcoding)")
                }
                let listed = try await Self.items(client, ann)
                let playable = Dictionary(uniqueKeysWithValues: listed.map { ($0["codec"] as? String ?? "", $0["playable"] as? Bool) })
                #expect(playable == ["alac": transcoding, "aac": true])
                let alac = try #require(listed.first { $0["codec"] as? String == "alac" }?["id"] as? String)
                let audio = try await client.json(.get, "/api/v1/dual/songs/\(alac)/audio?plays=mp3,aac,opus", token: ann)
                #expect(audio.status == (transcoding ? .ok : .notAcceptable))

                // One stored before Juke kept codecs has its codec read once from the file, and kept.
                let store = app.services.dualPlayerApp.songs.songs
                let alacID = try #require(UUID(uuidString: alac))
                let kept = try #require(try await store.song(SongID(rawValue: alacID)))
                let older = Song(
                    id: SongID(rawValue: UUID()), owner: nil, title: "Older", artist: nil, album: nil, file: kept.file, format: "mp4", codec: nil,
                    duration: kept.duration, hasArtwork: false, addedAt: Date())
                try await store.add(older)
                let again = try await Self.items(client, ann).first { $0["id"] as? String == older.id.description }
                #expect(again?["codec"] as? String == "alac" && again?["playable"] as? Bool == transcoding)
                #expect(try await store.song(older.id)?.codec == "alac")
            }
        }
    }

    /// A program named x.mp3 was stored as a 17 s song (201): x86 code holds runs of what
    /// parses as MPEG Layer I headers, and ffprobe agreed. Juke's reader now asks that frames
    /// go on as frames, and ffmpeg must decode the start; a real song still goes in.
    @Test(.enabled(if: TranscodingTests.hasFFmpeg, "ffmpeg is installed by Scripts/test.sh")) func aProgramNamedLikeASongIsRefused() async throws {
        let program = try #require(FileManager.default.contents(atPath: "/bin/ls"), "every Debian machine has ls")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("juke-intake-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let song = folder.appendingPathComponent("tone.mp3").path
        try await TranscodingTests.tone(song, seconds: 2, codec: "libmp3lame", title: "Tone")
        let real = [UInt8](try Data(contentsOf: URL(fileURLWithPath: song)))
        try await TestApp.run(.sqlite) { app, client in
            let ann = try await client.register("ann")
            for name in ["x.mp3", "x.ogg", "x.flac", "x.m4a", "x.wav"] {
                let refused = try await Self.upload(client, Array(program), filename: name, token: ann)
                #expect(refused.status == .unprocessableContent, "\(name): \(refused.json)")
            }
            #expect(try await Self.items(client, ann).isEmpty, "nothing was kept")
            let kept = try await Self.upload(client, real, filename: "tone.mp3", token: ann)
            #expect(kept.status == .created, "\(kept.json)")
        }
        // Bytes Juke's reader takes for audio that do not decode are refused by ffmpeg.
        let mp3 = folder.appendingPathComponent("fake.mp3").path
        // Valid-looking frames whose contents are not MPEG audio: headers every 417 bytes, noise between.
        var bytes: [UInt8] = []
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 { bytes += [0xFF, 0xFB, 0x90, 0x64] + (0..<413).map { _ in UInt8.random(in: 0...255, using: &generator) } }
        FileManager.default.createFile(atPath: mp3, contents: Data(bytes))
        await #expect(throws: RuleRefusal.self) { try await SongUploads.verifyDecodes(mp3, with: try TranscodingTests.ffmpeg(), slots: ToolSlots()) }
        try await SongUploads.verifyDecodes(song, with: try TranscodingTests.ffmpeg(), slots: ToolSlots())
    }

    @Test func coversAreTypedByTheirBytes() {
        #expect(SongMediaRoutes.imageType([0xFF, 0xD8, 0xFF, 0xE0]) == "image/jpeg")
        #expect(SongMediaRoutes.imageType([0x89, 0x50, 0x4E, 0x47, 0x0D]) == "image/png")
        #expect(SongMediaRoutes.imageType(Array("<html><script>".utf8)) == nil, "a page in a cover tag is never served")
    }
}
