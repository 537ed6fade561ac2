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

/// Uploads to Dual Player's shelf and song list: a book's chapters held to its audio.
@Suite(.timeLimit(.minutes(5))) struct DualPlayerUploadTests {
    static func ffmpeg() throws -> ExternalTool { try #require(ExternalTool.locate("ffmpeg"), "ffmpeg is installed by Scripts/test.sh") }

    /// `seconds` of a tone with chapters every 30 s to 120 s, whatever the audio's length, in
    /// `path`'s container (ffmpeg writes M4B's chapter track and MP3's ID3 CHAP frames).
    static func bookWithLongChapters(_ path: String, seconds: Int) throws -> [UInt8] {
        let metadata = path + ".txt"
        var text = ";FFMETADATA1\ntitle=Longer Than Its Audio\nartist=Juke Tests\n"
        for (index, title) in ["One", "Two", "Three", "Four"].enumerated() {
            text += "[CHAPTER]\nTIMEBASE=1/1000\nSTART=\(index * 30_000)\nEND=\((index + 1) * 30_000)\ntitle=\(title)\n"
        }
        try text.write(toFile: metadata, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: metadata) }
        let codec = path.hasSuffix(".mp3") ? "libmp3lame" : "aac"
        try ffmpeg().run(
            [
                "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=\(seconds)", "-i", metadata,
                "-map", "0:a", "-map_metadata", "1", "-map_chapters", "1", "-c:a", codec, "-b:a", "32k", path,
            ])
        defer { try? FileManager.default.removeItem(atPath: path) }
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    static func upload(_ client: any TestClientProtocol, _ what: String, _ bytes: [UInt8], filename: String, token: String, share: Bool = false)
        async throws -> (status: HTTPResponse.Status, json: [String: Any])
    {
        let response = try await client.execute(
            uri: "/api/v1/dual/\(what)?filename=\(filename)&share=\(share)", method: .post,
            headers: [.authorization: "Bearer \(token)", .contentType: "application/octet-stream"], body: ByteBuffer(bytes: bytes))
        return (response.status, (try? JSONSerialization.jsonObject(with: Data(buffer: response.body))) as? [String: Any] ?? [:])
    }

    /// A 40 s book whose file declares four 30 s chapters: the chapters that start after its
    /// audio are left out and the last ends with it, so the player never offers a chapter it
    /// cannot play (the M4B's movie lasts as long as its chapter track: 120 s).
    @Test(arguments: ["m4b", "mp3"])
    func aBooksChaptersEndWithItsAudio(ext: String) async throws {
        let bytes = try Self.bookWithLongChapters(
            FileManager.default.temporaryDirectory.appendingPathComponent("juke-long-\(UUID().uuidString).\(ext)").path, seconds: 40)
        try await TestApp.run(.sqlite) { _, client in
            let ann = try await client.register("ann")
            let added = try await Self.upload(client, "books", bytes, filename: "long.\(ext)", token: ann)
            #expect(added.status == .created, "\(added.json)")
            let chapters = try #require(added.json["chapters"] as? [[String: Any]])
            #expect(chapters.compactMap { $0["title"] as? String } == ["One", "Two"], "\(chapters)")
            let duration = try #require(added.json["duration"] as? Double)
            #expect(abs(duration - 40) < 0.2, "the audio's length, not the chapters': \(duration)")
            #expect((chapters.last?["end"] as? Double).map { abs($0 - duration) < 0.001 } == true, "\(chapters)")
        }
    }
}
