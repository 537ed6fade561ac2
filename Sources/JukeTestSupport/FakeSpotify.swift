import Crypto
public import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization

/// A local stand-in for Spotify's Accounts service and Web API, speaking their documented wire
/// formats: `/authorize` (approving at once and redirecting with the code and state),
/// `/api/token` (authorization_code with PKCE checked, refresh_token; `invalid_grant` for a
/// revoked refresh token), and under `/v1`: the runner's playlists in pages, their devices,
/// play and transfer. Errors as Spotify sends them: 401 for an expired token, 404
/// NO_ACTIVE_DEVICE, 429 with Retry-After.
public final class FakeSpotify: Sendable {
    public struct Play: Sendable, Equatable {
        public let contextURI: String
        public let device: String

        public init(contextURI: String, device: String) {
            self.contextURI = contextURI
            self.device = device
        }
    }

    struct State {
        var codes: [String: (challenge: String, redirect: String)] = [:]
        var accessTokens: [String: Date] = [:]
        var refreshTokens: Set<String> = []
        var activeDevice: String?
        var plays: [Play] = []
        var transfers: [String] = []
        var pauses = 0
        var devices: [(id: String, name: String)] = []
        var rateLimited = 0
        var tokenRequests: [String] = []
        var apiRequests: [String] = []
    }

    let state = Mutex(State())
    public let clientID = "juke-test-client"
    public let playlistCount: Int
    /// The devices Spotify is open on now.
    public var devices: [(id: String, name: String)] { state.withLock { $0.devices } }
    /// Seconds an access token lasts.
    public let tokenLifetime: Int
    let now: @Sendable () -> Date

    public init(
        playlistCount: Int = 120, devices: [(id: String, name: String)] = [("phone-1", "Runner's phone")], tokenLifetime: Int = 3600,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.playlistCount = playlistCount
        state.withLock { $0.devices = devices }
        self.tokenLifetime = tokenLifetime
        self.now = now
    }

    // What tests arrange and read.
    public func expireAccessTokens() { state.withLock { s in for key in s.accessTokens.keys { s.accessTokens[key] = .distantPast } } }
    public func revokeRefreshTokens() { state.withLock { $0.refreshTokens.removeAll() } }
    public func rateLimitNext(_ count: Int) { state.withLock { $0.rateLimited = count } }
    public var plays: [Play] { state.withLock { $0.plays } }
    public var transfers: [String] { state.withLock { $0.transfers } }
    public var pauses: Int { state.withLock { $0.pauses } }
    /// The runner closed Spotify on the device that played: none is active.
    public func dropActiveDevice() { state.withLock { $0.activeDevice = nil } }
    /// Spotify is open on these devices instead (none of them active).
    public func replaceDevices(_ devices: [(id: String, name: String)]) {
        state.withLock {
            $0.devices = devices
            $0.activeDevice = nil
        }
    }
    public var tokenRequests: [String] { state.withLock { $0.tokenRequests } }
    public var apiRequests: [String] { state.withLock { $0.apiRequests } }
    public var activeDevice: String? { state.withLock { $0.activeDevice } }

    /// The runner allows Juke at once: the address Spotify sends them back to, with the code
    /// and the state (nil for a request Spotify would refuse).
    public func approve(_ query: [String: String]) -> String? {
        guard query["client_id"] == clientID, query["response_type"] == "code", query["code_challenge_method"] == "S256",
            let challenge = query["code_challenge"], let redirect = query["redirect_uri"]
        else { return nil }
        let code = "code-\(UUID().uuidString)"
        state.withLock { $0.codes[code] = (challenge, redirect) }
        var location = URLComponents(string: redirect)
        location?.queryItems = [URLQueryItem(name: "code", value: code), URLQueryItem(name: "state", value: query["state"] ?? "")]
        return location?.url?.absoluteString ?? redirect
    }

    /// `approve` for an authorisation address as Juke makes it.
    public func approve(_ url: URL) -> String? {
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        return approve(Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { a, _ in a }))
    }

    public static func playlistID(_ i: Int) -> String { String(format: "pl%06d", i) }

    func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/authorize") { request, _ -> Response in
            let query = Dictionary(request.uri.queryParameters.map { (String($0.key), String($0.value)) }, uniquingKeysWith: { a, _ in a })
            guard let location = self.approve(query) else {
                return Self.reply(400, #"{"error":"invalid_request","error_description":"Invalid authorization request"}"#)
            }
            return Response(status: .found, headers: [.location: location])
        }
        router.post("/api/token") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 1 << 16)
            let form = Self.form(String(buffer: body))
            let grant = form["grant_type"] ?? ""
            self.state.withLock { $0.tokenRequests.append(grant) }
            guard form["client_id"] == self.clientID else { return Self.reply(400, #"{"error":"invalid_client","error_description":"Invalid client"}"#) }
            switch grant {
            case "authorization_code":
                guard let code = form["code"], let verifier = form["code_verifier"],
                    let issued = self.state.withLock({ $0.codes.removeValue(forKey: code) })
                else { return Self.reply(400, #"{"error":"invalid_grant","error_description":"Invalid authorization code"}"#) }
                guard Self.challenge(verifier) == issued.challenge else {
                    return Self.reply(400, #"{"error":"invalid_grant","error_description":"code_verifier was incorrect"}"#)
                }
                guard form["redirect_uri"] == issued.redirect else {
                    return Self.reply(400, #"{"error":"invalid_grant","error_description":"Invalid redirect URI"}"#)
                }
                return self.issue(refresh: nil)
            case "refresh_token":
                guard let refresh = form["refresh_token"], self.state.withLock({ $0.refreshTokens.contains(refresh) }) else {
                    return Self.reply(400, #"{"error":"invalid_grant","error_description":"Refresh token revoked"}"#)
                }
                return self.issue(refresh: refresh)
            default:
                return Self.reply(400, #"{"error":"unsupported_grant_type","error_description":"grant_type must be authorization_code or refresh_token"}"#)
            }
        }
        router.get("/v1/me/playlists") { request, _ -> Response in
            if let refusal = self.gate(request) { return refusal }
            let limit = min(50, max(1, Int(request.uri.queryParameters["limit"].map(String.init) ?? "20") ?? 20))
            let offset = max(0, Int(request.uri.queryParameters["offset"].map(String.init) ?? "0") ?? 0)
            let items = (offset..<min(self.playlistCount, offset + limit)).map { i in
                #"{"id":"\#(Self.playlistID(i))","name":"Playlist \#(i)","description":"","public":\#(i % 2 == 0),"tracks":{"href":"x","total":\#(10 + i)},"images":[{"url":"https://i.scdn.co/image/\#(i)","height":640,"width":640}],"owner":{"display_name":"Runner","id":"runner"},"type":"playlist","uri":"spotify:playlist:\#(Self.playlistID(i))"}"#
            }
            let next = offset + limit < self.playlistCount ? #""http://fake/v1/me/playlists?offset=\#(offset + limit)&limit=\#(limit)""# : "null"
            return Self.reply(
                200,
                #"{"href":"x","items":[\#(items.joined(separator: ","))],"limit":\#(limit),"next":\#(next),"offset":\#(offset),"previous":null,"total":\#(self.playlistCount)}"#
            )
        }
        router.get("/v1/me/player/devices") { request, _ -> Response in
            if let refusal = self.gate(request) { return refusal }
            let active = self.state.withLock { $0.activeDevice }
            let list = self.devices.map {
                #"{"id":"\#($0.id)","is_active":\#($0.id == active),"is_private_session":false,"is_restricted":false,"name":"\#($0.name)","type":"Smartphone","volume_percent":80}"#
            }
            return Self.reply(200, #"{"devices":[\#(list.joined(separator: ","))]}"#)
        }
        router.put("/v1/me/player/play") { request, _ -> Response in
            if let refusal = self.gate(request) { return refusal }
            let body = try await request.body.collect(upTo: 1 << 16)
            let object = (try? JSONSerialization.jsonObject(with: Data(buffer: body))) as? [String: Any]
            let device = request.uri.queryParameters["device_id"].map(String.init) ?? self.state.withLock { $0.activeDevice }
            guard let device, self.devices.contains(where: { $0.id == device }) else {
                return Self.reply(404, #"{"error":{"status":404,"message":"Player command failed: No active device found","reason":"NO_ACTIVE_DEVICE"}}"#)
            }
            let context = object?["context_uri"] as? String ?? ""
            self.state.withLock {
                $0.plays.append(Play(contextURI: context, device: device))
                $0.activeDevice = device
            }
            return Response(status: .noContent)
        }
        router.put("/v1/me/player/pause") { request, _ -> Response in
            if let refusal = self.gate(request) { return refusal }
            let active = self.state.withLock { s -> String? in
                if s.activeDevice != nil { s.pauses += 1 }
                return s.activeDevice
            }
            guard active != nil else {
                return Self.reply(404, #"{"error":{"status":404,"message":"Player command failed: No active device found","reason":"NO_ACTIVE_DEVICE"}}"#)
            }
            return Response(status: .noContent)
        }
        router.put("/v1/me/player") { request, _ -> Response in
            if let refusal = self.gate(request) { return refusal }
            let body = try await request.body.collect(upTo: 1 << 16)
            let object = (try? JSONSerialization.jsonObject(with: Data(buffer: body))) as? [String: Any]
            guard let id = (object?["device_ids"] as? [String])?.first, self.devices.contains(where: { $0.id == id }) else {
                return Self.reply(404, #"{"error":{"status":404,"message":"Device not found"}}"#)
            }
            self.state.withLock {
                $0.transfers.append(id)
                $0.activeDevice = id
            }
            return Response(status: .noContent)
        }
        return router
    }

    /// The Web API's checks before any call: rate limits first, then the token.
    func gate(_ request: Request) -> Response? {
        let path = request.uri.path
        let limited = state.withLock { s -> Bool in
            s.apiRequests.append("\(request.method) \(path)")
            guard s.rateLimited > 0 else { return false }
            s.rateLimited -= 1
            return true
        }
        if limited {
            return Response(
                status: .tooManyRequests, headers: [.retryAfter: "2", .contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: #"{"error":{"status":429,"message":"API rate limit exceeded"}}"#)))
        }
        let token = request.headers[.authorization].map { String($0.dropFirst("Bearer ".count)) } ?? ""
        guard let expiry = state.withLock({ $0.accessTokens[token] }), expiry > now() else {
            return Self.reply(401, #"{"error":{"status":401,"message":"The access token expired"}}"#)
        }
        return nil
    }

    func issue(refresh: String?) -> Response {
        let access = "access-\(UUID().uuidString)"
        let newRefresh = refresh ?? "refresh-\(UUID().uuidString)"
        state.withLock {
            $0.accessTokens[access] = now().addingTimeInterval(Double(tokenLifetime))
            $0.refreshTokens.insert(newRefresh)
        }
        // A refresh may come back without a refresh token (the old one stays good), as Spotify's does.
        let refreshField = refresh == nil ? #","refresh_token":"\#(newRefresh)""# : ""
        return Self.reply(
            200,
            #"{"access_token":"\#(access)","token_type":"Bearer","scope":"playlist-read-private user-modify-playback-state","expires_in":\#(tokenLifetime)\#(refreshField)}"#
        )
    }

    static func challenge(_ verifier: String) -> String {
        Data(SHA256.hash(data: Data(verifier.utf8))).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func form(_ text: String) -> [String: String] {
        var out: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            if parts.count == 2 { out[parts[0]] = parts[1] }
        }
        return out
    }

    static func reply(_ status: Int, _ json: String) -> Response {
        Response(
            status: HTTPResponse.Status(code: status), headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: json)))
    }

    /// Runs `body` with the fake listening on a free local port (its base URL).
    public func run(_ body: @escaping @Sendable (URL) async throws -> Void) async throws {
        let app = Application(router: router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            guard let port = client.port, let url = URL(string: "http://127.0.0.1:\(port)") else { throw FakeServerError.notStarted }
            try await body(url)
        }
    }
}
