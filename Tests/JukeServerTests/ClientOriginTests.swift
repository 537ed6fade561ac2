import Foundation
import HTTPTypes
import HummingbirdTesting
import JukeTestSupport
import Testing

@testable import Back2BackServer
@testable import JukePlatform

/// Behind a reverse proxy: forwarding headers are believed from trusted proxies only; links
/// use the configured public URL, never the Host header; cookies are Secure over HTTPS;
/// live connections open only from Juke's own pages; every response carries the security
/// headers.
@Suite(.timeLimit(.minutes(5))) struct ClientOriginTests {
    static func field(_ name: String, _ value: String) throws -> HTTPField { HTTPField(name: try #require(HTTPField.Name(name)), value: value) }
    static func name(_ name: String) throws -> HTTPField.Name { try #require(HTTPField.Name(name)) }

    @Test func addressRangesMatchTheirBlocks() throws {
        let lan = try #require(AddressRange("10.0.0.0/8"))
        #expect(lan.contains("10.200.3.4") && !lan.contains("11.0.0.1") && !lan.contains("fd00::1") && !lan.contains("unknown"))
        #expect(lan.contains("::ffff:10.1.2.3"), "a dual-stack socket's IPv4 peer")
        let one = try #require(AddressRange("192.0.2.7"))
        #expect(one.contains("192.0.2.7") && !one.contains("192.0.2.8"))
        let v6 = try #require(AddressRange("fd00::/8"))
        #expect(v6.contains("fd12:3456::1") && v6.contains("[fd00::2]") && !v6.contains("fe80::1"))
        #expect(AddressRange("172.16.0.0/12")?.contains("172.31.255.255") == true)
        for bad in ["", "10.0.0.0/33", "10.0.0/8", "example.org", "::/129", "10.0.0.0/x", "10.0.0.0/-1"] {
            #expect(AddressRange(bad) == nil, "\(bad)")
        }
    }

    @Test func forwardedForIsReadFromTheRightThroughTrustedHopsOnly() throws {
        let proxies = ClientOrigin(trustedProxies: [try #require(AddressRange("127.0.0.1")), try #require(AddressRange("10.0.0.0/8"))])
        // The client's own claim (the leftmost) is not believed past the first untrusted hop.
        #expect(proxies.clientAddress(peer: "127.0.0.1", forwardedFor: ["6.6.6.6, 203.0.113.9, 10.0.0.2"]) == "203.0.113.9")
        #expect(proxies.clientAddress(peer: "127.0.0.1", forwardedFor: ["6.6.6.6", "203.0.113.9"]) == "203.0.113.9")
        #expect(proxies.clientAddress(peer: "198.51.100.1", forwardedFor: ["203.0.113.9"]) == "198.51.100.1", "not a proxy")
        #expect(proxies.clientAddress(peer: "127.0.0.1", forwardedFor: ["not-an-address"]) == "127.0.0.1")
        #expect(proxies.clientAddress(peer: "127.0.0.1", forwardedFor: []) == "127.0.0.1")
        #expect(ClientOrigin().clientAddress(peer: "127.0.0.1", forwardedFor: ["203.0.113.9"]) == "127.0.0.1", "none trusted by default")
        #expect(proxies.isSecure(peer: "10.1.1.1", forwardedProto: "https") && !proxies.isSecure(peer: "198.51.100.1", forwardedProto: "https"))
        #expect(!proxies.isSecure(peer: "10.1.1.1", forwardedProto: "http, https"))
        let published = ClientOrigin(publicURL: URL(string: "HTTPS://Music.Example.org:8443/juke/"))
        #expect(published.publicOrigin == "https://music.example.org:8443")
        #expect(published.isSecure(peer: "198.51.100.1", forwardedProto: nil))
        #expect(ClientOrigin().linkOrigin(localAddress: "::ffff:192.168.1.5", localPort: 8080, secure: false) == "http://192.168.1.5:8080")
        #expect(ClientOrigin().linkOrigin(localAddress: "fd00::5", localPort: 443, secure: true) == "https://[fd00::5]")
    }

    /// With the proxy trusted, a guesser behind it locks only their own address out of an
    /// account; untrusted, the forwarded address is ignored (everyone is the proxy).
    @Test(arguments: [true, false])
    func signInLimitsFollowTheForwardedAddressOnlyFromATrustedProxy(trusted: Bool) async throws {
        try await TestApp.run(.sqlite, mode: .live, configure: { if trusted, let loopback = AddressRange("127.0.0.0/8") { $0.trustedProxies = [loopback] } }) {
            _, client in
            _ = try await client.register("erin")
            let guesser = HTTPFields([try Self.field("X-Forwarded-For", "203.0.113.9")])
            for _ in 0..<5 {
                let r = try await client.json(.post, "/api/v1/auth/login", body: #"{"username":"erin","password":"wrong password"}"#, headers: guesser)
                #expect(r.status == .unauthorized)
            }
            let owner = HTTPFields([try Self.field("X-Forwarded-For", "198.51.100.7"), try Self.field("X-Forwarded-Proto", "https")])
            let signIn = try await client.json(.post, "/api/v1/auth/login", body: #"{"username":"erin","password":"correct horse"}"#, headers: owner)
            if trusted {
                #expect(signIn.status == .ok, "the owner signs in from another address: \(signIn.json)")
                #expect(signIn.headers[.setCookie]?.hasSuffix("; Secure") == true, "HTTPS at the proxy: \(signIn.headers[.setCookie] ?? "")")
            } else {
                #expect(signIn.status == .tooManyRequests, "the forwarded address is the client's own claim")
            }
        }
    }

    @Test func theCookieIsNotSecureOverPlainHTTP() async throws {
        try await TestApp.run(.sqlite, mode: .live) { _, client in
            let r = try await client.json(
                .post, "/api/v1/auth/register", body: #"{"username":"plain","password":"correct horse"}"#,
                headers: HTTPFields([try Self.field("X-Forwarded-Proto", "https")]))
            let cookie = try #require(r.headers[.setCookie])
            #expect(cookie.contains("HttpOnly") && !cookie.contains("Secure"), "an untrusted peer's X-Forwarded-Proto: \(cookie)")
        }
    }

    @Test func liveConnectionsOpenOnlyFromJukesOwnPages() async throws {
        try await TestApp.run(.sqlite, mode: .live, configure: { $0.allowedOrigins = ["https://party.example"] }) { _, client in
            let token = try await client.register("host")
            let port = try #require(client.port)
            func upgrade(_ origin: String?, _ expected: String, _ why: String = "") async throws {
                try await HTTPHardeningTests.expect(
                    port,
                    "GET /api/v1/tunetrivia/sessions/\(UUID().uuidString)/ws HTTP/1.1\r\nHost: juke.local:8080\r\nUpgrade: websocket\r\n"
                        + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                        + "Authorization: Bearer \(token)\r\n" + (origin.map { "Origin: \($0)\r\n" } ?? "") + "\r\n", expected, why)
            }
            try await upgrade("https://evil.example", "HTTP/1.1 403 Forbidden")
            try await upgrade("http://juke.local:8081", "HTTP/1.1 403 Forbidden", "another port is another origin")
            try await upgrade("null", "HTTP/1.1 403 Forbidden", "a sandboxed page")
            // Juke's own page, an allowed site, and a client that is not a browser reach the
            // route (which finds no such game).
            try await upgrade("http://juke.local:8080", "HTTP/1.1 404 Not Found")
            try await upgrade("https://juke.local:8080", "HTTP/1.1 404 Not Found", "the page over a TLS proxy not named as trusted")
            try await upgrade("https://party.example", "HTTP/1.1 404 Not Found")
            try await upgrade(nil, "HTTP/1.1 404 Not Found")
            try await upgrade("ws://juke.local", "HTTP/1.1 404 Not Found", "a WebSocket library's own origin")
        }
    }

    /// A playlist's links: the public URL when configured, else the address the connection
    /// reached; a forged Host header never gets into them.
    @Test(arguments: [true, false])
    func exportLinksUseThePublicURLNotTheHostHeader(published: Bool) async throws {
        try await TestApp.run(.sqlite, mode: .live, configure: { if published { $0.publicURL = URL(string: "https://music.example.org") } }) {
            app, client in
            let host = try await client.register("host")
            _ = try await app.addSongs(Back2BackAPITests.songs)
            let created = try await client.json(.post, "/api/v1/back2back/sessions", token: host, body: "{}")
            let id = try #require(created.json["id"] as? String, "\(created.json)")
            let search = try await client.json(.get, "/api/v1/catalog/search?q=entertainer", token: host)
            let track = try #require((search.json["items"] as? [[String: Any]])?.first?["id"] as? String)
            #expect(try await client.json(.post, "/api/v1/back2back/sessions/\(id)/picks", token: host, body: #"{"track_id":"\#(track)"}"#).status == .ok)
            let port = try #require(client.port)
            let text =
                try await RawConnection.exchange(
                    port: port,
                    "GET /api/v1/back2back/sessions/\(id)/export?format=m3u8 HTTP/1.1\r\nHost: evil.example\r\nAuthorization: Bearer \(host)\r\nConnection: close\r\n\r\n"
                ) ?? ""
            #expect(text.hasPrefix("HTTP/1.1 200 OK") && !text.contains("evil.example"), "\(text)")
            let link = try #require(text.split(separator: "\n").first { $0.contains("/api/v1/catalog/tracks/\(track)/audio") })
            #expect(link.hasPrefix(published ? "https://music.example.org/" : "http://127.0.0.1:\(port)/"), "\(link)")
            await app.services.back2back.settle()
        }
    }

    @Test func everyResponseCarriesTheSecurityHeaders() async throws {
        try await TestApp.run(.sqlite) { _, client in
            for uri in ["/login", "/api/v1/auth/me", "/static/css/app.css", "/no/such/page"] {
                let r = try await client.execute(uri: uri, method: .get)
                #expect(r.headers[try Self.name("X-Frame-Options")] == "DENY", "\(uri)")
                #expect(r.headers[try Self.name("Referrer-Policy")] == "same-origin", "\(uri)")
                #expect(r.headers[.xContentTypeOptions] == "nosniff", "\(uri)")
            }
            let login = try await client.execute(uri: "/login", method: .get)
            #expect(login.headers[.contentSecurityPolicy]?.contains("frame-ancestors 'none'") == true)
        }
    }
}
