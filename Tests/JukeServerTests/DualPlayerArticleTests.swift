import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JukeTestSupport
import NIOCore
import Testing

@testable import DualPlayerServer
@testable import JukePlatform
@testable import JukeServer

/// Articles read aloud, over HTTP: imported from a page (fetched from a local host) or a file,
/// their readable text in chapters, each account's position (newest wins), the article spoken
/// by espeak-ng into audio with a cue per sentence, and what is refused.
@Suite(.timeLimit(.minutes(5))) struct DualPlayerArticleTests {
    static func importURL(_ client: any TestClientProtocol, _ token: String, _ url: String) async throws -> (HTTPResponse.Status, [String: Any]) {
        let body = String(decoding: try JSONSerialization.data(withJSONObject: ["url": url], options: [.withoutEscapingSlashes]), as: UTF8.self)
        let reply = try await client.json(.post, "/api/v1/dual/articles", token: token, body: body)
        return (reply.status, reply.json)
    }

    @Test(arguments: TestBackend.available)
    func importReadAndKeepPositions(backend: TestBackend) async throws {
        try await FakePodcastHost().run { base in
            try await TestApp.run(backend, configure: { $0.groups[DualPlayerSettings.self].webAllowPrivateNetworks = true }) { app, client in
                let ann = try await client.register("ann")
                let bob = try await client.register("bob")
                let (status, article) = try await Self.importURL(client, ann, base.absoluteString + "/article.html")
                #expect(status == .created, "\(article)")
                #expect(article["title"] as? String == "A Quiet Storm" && article["author"] as? String == "Ann Writer")
                let chapters = try #require(article["chapters"] as? [[String: Any]])
                #expect(chapters.compactMap { $0["title"] as? String } == ["A Quiet Storm", "The morning after"])
                #expect((chapters.first?["paragraphs"] as? [String])?.first?.hasPrefix("The storm came in the night") == true)
                let all = chapters.flatMap { ($0["paragraphs"] as? [String]) ?? [] }.joined()
                #expect(!all.contains("Home") && !all.contains("Great article"), "no menu, no comments")
                let id = try #require(article["id"] as? String)

                // A text file by URL and by upload.
                let (_, notes) = try await Self.importURL(client, ann, base.absoluteString + "/notes.txt")
                #expect(notes["title"] as? String == "Field Notes" && notes["format"] as? String == "text")
                let upload = try await client.execute(
                    uri: "/api/v1/dual/articles/files?filename=story.txt", method: .post,
                    headers: [.authorization: "Bearer \(ann)", .contentType: "application/octet-stream"],
                    body: ByteBuffer(string: "A Story\n\nOnce upon a time.\n\nThe end.\n"))
                #expect(upload.status == .created)
                let epubURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../ArticlesTests/Fixtures/books/epub3.epub")
                let book = try await client.execute(
                    uri: "/api/v1/dual/articles/files?filename=small.epub", method: .post,
                    headers: [.authorization: "Bearer \(ann)", .contentType: "application/octet-stream"],
                    body: ByteBuffer(bytes: try Data(contentsOf: epubURL)))
                let bookJSON = try JSONSerialization.jsonObject(with: Data(buffer: book.body)) as? [String: Any]
                #expect(book.status == .created && bookJSON?["title"] as? String == "The Small Book" && bookJSON?["format"] as? String == "epub")
                let pdfURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
                    "../ArticlesTests/Fixtures/books/core-fonts.pdf")
                let pdf = try await client.execute(
                    uri: "/api/v1/dual/articles/files?filename=lighthouse.pdf", method: .post,
                    headers: [.authorization: "Bearer \(ann)", .contentType: "application/octet-stream"],
                    body: ByteBuffer(bytes: try Data(contentsOf: pdfURL)))
                let pdfJSON = try JSONSerialization.jsonObject(with: Data(buffer: pdf.body)) as? [String: Any]
                #expect(pdf.status == .created && pdfJSON?["format"] as? String == "pdf")
                #expect((pdfJSON?["chapters"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == ["The Keeper", "The Storm"])
                let badType = try await client.execute(
                    uri: "/api/v1/dual/articles/files?filename=story.exe", method: .post,
                    headers: [.authorization: "Bearer \(ann)", .contentType: "application/octet-stream"], body: ByteBuffer(string: "MZ"))
                #expect(badType.status == .badRequest)
                let empty = try await client.execute(
                    uri: "/api/v1/dual/articles/files?filename=empty.html", method: .post,
                    headers: [.authorization: "Bearer \(ann)", .contentType: "application/octet-stream"], body: ByteBuffer(string: "<html><body></body></html>")
                )
                #expect(empty.status == .unprocessableContent)
                #expect(try await Self.importURL(client, ann, base.absoluteString + "/episodes/1.mp3").0 == .unprocessableContent, "audio is no article")
                #expect(try await Self.importURL(client, ann, base.absoluteString + "/missing.xml").0 == .badGateway)
                #expect(try await Self.importURL(client, ann, "ftp://example.com/a").0 == .badRequest)
                let list = try await client.json(.get, "/api/v1/dual/articles", token: ann)
                #expect((list.json["items"] as? [[String: Any]])?.count == 5)
                #expect((try await client.json(.get, "/api/v1/dual/articles", token: bob).json["items"] as? [Any])?.isEmpty == true)
                #expect(try await client.json(.get, "/api/v1/dual/articles/\(id)", token: bob).status == .notFound, "each account's own")

                // Positions: chapter and word, the newest winning.
                let saved = try await client.json(.put, "/api/v1/dual/articles/\(id)/position", token: ann, body: #"{"chapter":1,"word":5,"updated_at":2000}"#)
                #expect(saved.json["chapter"] as? Int == 1 && saved.json["word"] as? Int == 5)
                let older = try await client.json(.put, "/api/v1/dual/articles/\(id)/position", token: ann, body: #"{"chapter":0,"word":0,"updated_at":1000}"#)
                #expect(older.json["chapter"] as? Int == 1, "an older position does not win")
                #expect(
                    try await client.json(.put, "/api/v1/dual/articles/\(id)/position", token: ann, body: #"{"chapter":7,"word":0,"updated_at":3000}"#).status
                        == .badRequest)
                let reread = try await client.json(.get, "/api/v1/dual/articles/\(id)", token: ann)
                #expect((reread.json["position"] as? [String: Any])?["word"] as? Int == 5)

                #expect(try await client.json(.get, "/api/v1/dual/articles/\(id)/speech", token: ann).status == .notFound, "not spoken yet")
            }
        }
    }

    static var voiceInstalled: Bool {
        if case .success = SpokenTrack.find() { return true }
        return false
    }

    /// Spoken on the server: a cue per sentence, with its chapter and first word.
    @Test(.enabled(if: voiceInstalled, "needs espeak-ng and ffmpeg (Scripts/test.sh installs them)"), arguments: TestBackend.available)
    func anArticleIsSpokenOnTheServer(backend: TestBackend) async throws {
        try await FakePodcastHost().run { base in
            try await TestApp.run(backend, configure: { $0.groups[DualPlayerSettings.self].webAllowPrivateNetworks = true }) { app, client in
                let ann = try await client.register("ann")
                let bob = try await client.register("bob")
                let (status, article) = try await Self.importURL(client, ann, base.absoluteString + "/article.html")
                let id = try #require(article["id"] as? String, "\(status) \(article)")
                let asked = try await client.json(.post, "/api/v1/dual/articles/\(id)/speech", token: ann)
                #expect(asked.status == .accepted && asked.json["status"] as? String == "making")
                // Speaking runs in the platform's background work: awaited, not polled.
                await app.services.platform.background.idle()
                let speech = try await client.json(.get, "/api/v1/dual/articles/\(id)/speech", token: ann).json
                #expect(speech["status"] as? String == "ready", "\(speech)")
                let cues = try #require(speech["cues"] as? [[String: Any]])
                #expect(
                    cues.compactMap { $0["text"] as? String }.prefix(3) == [
                        "A Quiet Storm", "The storm came in the night, quietly, as storms rarely do.", "Nobody heard it arrive, and nobody saw it go.",
                    ])
                let jones = try #require(cues.first { ($0["text"] as? String)?.hasPrefix("Mr. Jones") == true })
                #expect(jones["chapter"] as? Int == 1 && jones["word"] as? Int == 0, "Mr. is no sentence's end")
                #expect(cues[2]["word"] as? Int == 11, "the second sentence starts at the paragraph's twelfth word")
                #expect((speech["chapters"] as? [[String: Any]])?.count == 2)
                let audioURL = try #require(speech["audio_url"] as? String)
                let audio = try await client.execute(uri: audioURL, method: .get, headers: [.authorization: "Bearer \(ann)", .range: "bytes=0-3"])
                #expect(audio.status == .partialContent && audio.headers[.contentType] == "audio/mpeg")
                #expect(try await client.json(.get, audioURL, token: bob).status == .notFound)
                #expect(try await client.json(.post, "/api/v1/dual/articles/\(id)/speech", token: ann).status == .ok, "already spoken")
                #expect(try await client.json(.delete, "/api/v1/dual/articles/\(id)", token: ann).status == .noContent)
                #expect(try await client.json(.get, audioURL, token: ann).status == .notFound)
            }
        }
    }

    /// A server without espeak-ng says so, and the page reads with the browser's own voice.
    @Test(.enabled(if: !voiceInstalled, "this machine has a voice: the refusal cannot happen here"))
    func aServerWithoutAVoiceSaysSo() async throws {
        try await FakePodcastHost().run { base in
            try await TestApp.run(.sqlite, configure: { $0.groups[DualPlayerSettings.self].webAllowPrivateNetworks = true }) { _, client in
                let ann = try await client.register("ann")
                let (_, article) = try await Self.importURL(client, ann, base.absoluteString + "/article.html")
                let id = try #require(article["id"] as? String)
                let asked = try await client.json(.post, "/api/v1/dual/articles/\(id)/speech", token: ann)
                #expect(asked.status == .conflict && asked.json["error"] as? String == "no_voice")
            }
        }
    }

    @Test(arguments: TestBackend.available)
    func pagesInsideTheServersNetworkAreRefused(backend: TestBackend) async throws {
        try await FakePodcastHost().run { base in
            try await TestApp.run(backend) { _, client in
                let ann = try await client.register("ann")
                let (status, body) = try await Self.importURL(client, ann, base.absoluteString + "/article.html")
                #expect(status == .unprocessableContent && body["error"] as? String == "private_network", "\(body)")
            }
        }
    }

    /// A one-page PDF with no Info dictionary (so no title), with a cross-reference table so
    /// that poppler reads it as Juke's own reader does.
    static func untitledPDF(_ line: String) -> [UInt8] {
        let content = "BT /F1 12 Tf 72 720 Td (\(line)) Tj ET"
        let objects = [
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
            "<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream",
        ]
        var out = "%PDF-1.4\n"
        var offsets: [Int] = []
        for (index, body) in objects.enumerated() {
            offsets.append(out.utf8.count)
            out += "\(index + 1) 0 obj\n\(body)\nendobj\n"
        }
        let xref = out.utf8.count
        out += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for offset in offsets { out += String(repeating: "0", count: 10 - String(offset).count) + "\(offset) 00000 n \n" }
        out += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        return Array(out.utf8)
    }

    /// A PDF that names no title is called by its file's name (cleaned), not by its first words.
    @Test func anUntitledPDFIsNamedAfterItsFile() async throws {
        try await TestApp.run(.sqlite) { _, client in
            let ann = try await client.register("ann")
            let line = "It was a bright cold day in April, and the clocks were striking thirteen, as they always did in that town by the sea."
            let reply = try await client.execute(
                uri: "/api/v1/dual/articles/files?filename=quarterly_report%20%20draft.pdf", method: .post,
                headers: [.authorization: "Bearer \(ann)", .contentType: "application/octet-stream"], body: ByteBuffer(bytes: Self.untitledPDF(line)))
            let json = (try? JSONSerialization.jsonObject(with: Data(buffer: reply.body))) as? [String: Any] ?? [:]
            #expect(reply.status == .created, "\(json)")
            #expect(json["title"] as? String == "quarterly report draft", "\(json)")
            let paragraphs = (json["chapters"] as? [[String: Any]])?.first?["paragraphs"] as? [String]
            #expect(paragraphs?.first?.hasPrefix("It was a bright cold day") == true, "the text is read as before: \(json)")
        }
    }
}
