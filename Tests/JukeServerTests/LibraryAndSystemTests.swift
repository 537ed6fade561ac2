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

@Suite(.timeLimit(.minutes(5))) struct LibraryAndSystemTests {
    @Test(arguments: TestBackend.available)
    func onlyAdminsManageFoldersAndPathsAreChecked(backend: TestBackend) async throws {
        try await TestApp.run(backend) { app, client in
            let admin = try await client.register("admin")
            let user = try await client.register("user")
            let folder = app.services.configuration.dataDirectory
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            #expect(try await client.json(.post, "/api/v1/library/folders", token: user, body: #"{"path":"\#(folder)"}"#).status == .forbidden)
            #expect(try await client.json(.get, "/api/v1/library/folders", token: user).status == .forbidden)
            #expect(try await client.json(.post, "/api/v1/library/scan", token: user).status == .forbidden)
            let missing = try await client.json(.post, "/api/v1/library/folders", token: admin, body: #"{"path":"/no/such/folder"}"#)
            #expect(missing.status == .unprocessableContent)
            #expect(missing.json["field"] as? String == "path")
            #expect(try await client.json(.post, "/api/v1/library/folders", token: admin, body: #"{"path":"relative/path"}"#).status == .unprocessableContent)
            let added = try await client.json(.post, "/api/v1/library/folders", token: admin, body: #"{"path":"\#(folder)"}"#)
            #expect(added.status == .accepted)
            await app.services.platform.waitForScans()
            let status = try await client.json(.get, "/api/v1/library/status", token: user)
            let scans = try #require(status.json["scans"] as? [[String: Any]])
            #expect(scans.first?["phase"] as? String == "done")
        }
    }

    @Test(arguments: TestBackend.available)
    func reportsUnreadableFilesOnTheStatus(backend: TestBackend) async throws {
        try await TestApp.run(backend) { app, client in
            let admin = try await client.register("admin")
            let folder = app.services.configuration.dataDirectory + "/broken"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data("ID3\u{4}\0\0\u{7F}\u{7F}\u{7F}\u{7F}".utf8).write(to: URL(fileURLWithPath: folder + "/liar.mp3"))
            _ = try await client.json(.post, "/api/v1/library/folders", token: admin, body: #"{"path":"\#(folder)"}"#)
            await app.services.platform.waitForScans()
            let status = try await client.json(.get, "/api/v1/library/status", token: admin)
            let issues = try #require(status.json["issues"] as? [[String: Any]])
            #expect(issues.count == 1)
            #expect((issues.first?["path"] as? String)?.hasSuffix("liar.mp3") == true)
            #expect((issues.first?["reason"] as? String)?.contains("truncated") == true)
            #expect((status.json["scans"] as? [[String: Any]])?.first?["folder_path"] as? String == folder)

            // Other users see the counts, never where the server keeps its files.
            let user = try await client.register("user")
            let seen = try await client.json(.get, "/api/v1/library/status", token: user)
            #expect(seen.status == .ok)
            #expect(seen.json["track_count"] as? Int == 0)
            #expect((seen.json["issues"] as? [Any])?.isEmpty == true)
            let scan = try #require((seen.json["scans"] as? [[String: Any]])?.first)
            #expect(scan["phase"] as? String == "done" && scan["failed"] as? Int == 1)
            #expect(scan["folder_path"] == nil && scan["current_path"] == nil && scan["message"] == nil)
            #expect(!String(buffer: seen.raw).contains(folder), "\(String(buffer: seen.raw))")
        }
    }

    /// A scanned file replaced by a symlink out of the library is not served (it used to
    /// serve /etc/hostname); a link to another file inside the library still is.
    @Test func theAudioRouteServesNothingOutsideTheLibrary() async throws {
        try await TestApp.run(.sqlite) { app, client in
            let token = try await client.register("admin")
            let folder = try await app.addSongs([("One", "A", "Pop", 2000), ("Two", "B", "Pop", 2001)])
            let tracks = try await app.services.platform.library.allTracks()
            let one = try #require(tracks.first { $0.title == "One" })
            let two = try #require(tracks.first { $0.title == "Two" })
            let secret = app.services.configuration.dataDirectory + "/secret.txt"
            try Data("the server's secret".utf8).write(to: URL(fileURLWithPath: secret))

            try FileManager.default.removeItem(atPath: one.path)
            try FileManager.default.createSymbolicLink(atPath: one.path, withDestinationPath: secret)
            let swapped = try await client.execute(uri: "/api/v1/catalog/tracks/\(one.id)/audio", method: .get, headers: [.authorization: "Bearer \(token)"])
            #expect(swapped.status == .notFound)
            #expect(!String(buffer: swapped.body).contains("secret"), "\(String(buffer: swapped.body))")

            try FileManager.default.removeItem(atPath: one.path)
            try FileManager.default.createSymbolicLink(atPath: one.path, withDestinationPath: "\(folder)/\((two.path as NSString).lastPathComponent)")
            let inside = try await client.execute(uri: "/api/v1/catalog/tracks/\(one.id)/audio", method: .get, headers: [.authorization: "Bearer \(token)"])
            #expect(inside.status == .ok && inside.body.readableBytes > 0)
        }
    }

    @Test(arguments: TestBackend.available)
    func servesHealthMetricsAndTheContract(backend: TestBackend) async throws {
        try await TestApp.run(backend) { _, client in
            let health = try await client.json(.get, "/health")
            #expect(health.status == .ok)
            #expect(health.json["database"] as? String == backend.rawValue)
            _ = try await client.json(.get, "/api/v1/auth/me")
            let metrics = try await client.execute(uri: "/metrics", method: .get)
            let text = String(buffer: metrics.body)
            #expect(text.contains(#"juke_http_requests_total{method="GET",route="/api/v1/auth/me",status="401"} 1"#))
            #expect(text.contains("juke_http_request_duration_seconds_bucket"))
            let spec = try await client.execute(uri: "/openapi.yaml", method: .get)
            #expect(String(buffer: spec.body).contains("operationId: searchCatalog"))
        }
    }

    @Test(arguments: TestBackend.available)
    func servesPagesAndStaticFiles(backend: TestBackend) async throws {
        try await TestApp.run(backend) { _, client in
            let home = try await client.execute(uri: "/", method: .get)
            #expect(home.status == .seeOther)
            #expect(home.headers[.location] == "/login")
            let login = try await client.execute(uri: "/login", method: .get)
            #expect(String(buffer: login.body).contains(#"<label for="username">"#))
            let token = try await client.register("admin")
            let signedIn = try await client.execute(uri: "/", method: .get, headers: [.cookie: "juke_session=\(token)"])
            #expect(signedIn.status == .ok)
            // Every app is in; none is still coming.
            let page = String(buffer: signedIn.body)
            #expect(page.contains("/runbeat") && !page.contains("Coming soon"))
            let script = try await client.execute(uri: "/static/js/app.js", method: .get)
            #expect(script.headers[.contentType]?.hasPrefix("text/javascript") == true)
            #expect(try await client.execute(uri: "/static/../Package.swift", method: .get).status == .notFound)
            #expect(try await client.execute(uri: "/static/js/nope.js", method: .get).status == .notFound)
        }
    }

    @Test func escapesHTML() {
        #expect(HTML.escape(#"<script>"x"&'y'</script>"#) == "&lt;script&gt;&quot;x&quot;&amp;&#39;y&#39;&lt;/script&gt;")
        // Characters no page or playlist can carry are dropped, not passed through.
        #expect(HTML.escape("a\u{0}b\u{1B}c\u{FFFF}d\té") == "abcd\té")
    }
}
