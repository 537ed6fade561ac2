import DualPlayer
import Feeds
import Foundation
import HTTPTypes
import Hummingbird
import JukeCore
import JukePlatform
import Logging
import NIOCore
import Storage
import Synchronization

/// gpodder.net's API v2 (and the simple API's subscription lists) at the paths AntennaPod,
/// gPodder and mygpoclient call, on Juke's accounts. Thin: who is calling, the body read and
/// checked (`GpodderWire`), `PodcastSync` does the rest. Not in openapi.yaml (see
/// docs/GPODDER.md): clients send JSON labelled as a form or as "plain/text", which a
/// generated server refuses.
///
/// Signing in: HTTP Basic with the username and the account's app password (the one made for
/// players on the Account page, checked with the Subsonic API's limits; never the web
/// password), or the `sessionid` cookie that login.json sets. A request without either is
/// answered 401 with a Basic challenge, which is what makes urllib (mygpoclient) send them.
struct GpodderRoutes: Sendable {
    let sync: PodcastSync
    let access: SubsonicAccess
    let users: UserStore
    let logger: Logger

    static let cookieName = "sessionid"
    /// A body's budget (the router's `largerBodyPaths` lets these paths take it).
    static let bodyLimit = 1 << 20

    func register(on router: Router<JukeRequestContext>) {
        router.post("/api/2/auth/:username/login.json") { request, context in await answer(request, context) { try await login($0, $1) } }
        router.post("/api/2/auth/:username/logout.json") { request, context in await answer(request, context) { try await logout($0, $1) } }
        router.get("/api/2/devices/{username}.json") { request, context in await answer(request, context) { try await devices($0, $1) } }
        router.post("/api/2/devices/:username/{deviceid}.json") { request, context in
            await answer(request, context) { try await updateDevice($0, $1) }
        }
        router.get("/api/2/subscriptions/:username/{deviceid}.json") { request, context in
            await answer(request, context) { try await subscriptionChanges($0, $1) }
        }
        router.post("/api/2/subscriptions/:username/{deviceid}.json") { request, context in
            await answer(request, context) { try await uploadSubscriptions($0, $1) }
        }
        router.get("/api/2/episodes/{username}.json") { request, context in await answer(request, context) { try await episodeActions($0, $1) } }
        router.post("/api/2/episodes/{username}.json") { request, context in await answer(request, context) { try await uploadActions($0, $1) } }
        // The simple API: the whole list, of the account or of a device, and a device's upload.
        for format in ListFormat.allCases {
            router.get("/subscriptions/{username}.\(format.rawValue)") { request, context in
                await answer(request, context) { try await list($0, $1, format: format, device: false) }
            }
            router.get("/subscriptions/:username/{deviceid}.\(format.rawValue)") { request, context in
                await answer(request, context) { try await list($0, $1, format: format, device: true) }
            }
        }
        for format in [ListFormat.json, .txt] {
            router.put("/subscriptions/:username/{deviceid}.\(format.rawValue)") { request, context in
                await answer(request, context) { try await replaceList($0, $1, format: format) }
            }
        }
    }

    enum ListFormat: String, CaseIterable, Sendable { case json, txt, opml }

    // MARK: Authentication

    /// Runs a handler with room for the session cookie its caller's sign-in starts.
    func answer(_ request: Request, _ context: JukeRequestContext, _ body: (Request, JukeRequestContext) async throws -> Response) async -> Response {
        let session = NewSession()
        var response = await NewSession.$current.withValue(session) { await refusingClearly(request, context, body) }
        // A session started for a caller goes with a refusal of their input too: urllib
        // answers a challenge at most three times in a client's life.
        if let cookie = session.cookie, response.headers[.setCookie] == nil { response.headers[.setCookie] = cookie }
        return response
    }

    /// Runs a handler and turns what it throws into a clear status: 400 for bad input, 401
    /// (with the challenge) for who is calling, 429 past the sign-in limits; 500 only for what
    /// Juke did not expect, logged.
    private func refusingClearly(
        _ request: Request, _ context: JukeRequestContext, _ body: (Request, JukeRequestContext) async throws -> Response
    ) async -> Response {
        do {
            return try await body(request, context)
        } catch let refusal as SubsonicError {
            if let wait = refusal.retryAfter {
                var response = APIError(status: .tooManyRequests, code: "too_many_attempts", message: refusal.message, retryAfter: wait).response()
                response.headers[.retryAfter] = String(wait)
                return response
            }
            return Self.unauthorized()
        } catch is NIOTooManyBytesError {
            return APIError.tooLarge(Self.bodyLimit).response()
        } catch {
            if let known = APIError.from(error) {
                return known.status == .unauthorized ? Self.unauthorized() : known.response()
            }
            logger.error("a podcast sync request failed", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
            return APIError(status: .internalServerError, code: "internal", message: "Something went wrong on the server.").response()
        }
    }

    static func unauthorized() -> Response {
        var response = APIError(
            status: .unauthorized, code: "unauthorized", message: "Sign in with your username and the app password from your Account page."
        ).response()
        response.headers[.wwwAuthenticate] = "Basic realm=\"Juke podcast sync\""
        return response
    }

    /// The session cookie a request carries, if any.
    static func sessionCookie(_ request: Request) -> String? {
        for header in request.headers[values: .cookie] {
            for part in header.split(separator: ";") {
                let pair = part.trimmingCharacters(in: .whitespaces)
                if pair.hasPrefix(cookieName + "="), pair.count <= 300 {
                    let value = String(pair.dropFirst(cookieName.count + 1))
                    if !value.isEmpty { return value }
                }
            }
        }
        return nil
    }

    /// The user of a valid session cookie.
    func sessionUser(_ request: Request) async throws -> User? {
        guard let token = Self.sessionCookie(request), let id = try await sync.sessionUser(token: token) else { return nil }
        return try await users.user(id: id)
    }

    /// The caller, who must be the account in the path (gpodder.net's paths name it).
    func caller(_ request: Request, _ context: JukeRequestContext) async throws -> User {
        let username = context.parameters.get("username") ?? ""
        let user: User
        if let basic = GpodderWire.basicCredentials(request.headers[.authorization]) {
            user = try await access.user(for: .password(username: basic.username, password: basic.password), address: CurrentRequest.remoteAddress)
            // As gpodder.net does: signed in by Basic without a session, the answer starts one.
            // mygpoclient (urllib) sends credentials only on a challenge, and at most three
            // times in a client's life; its cookie jar carries the rest of a sync.
            if try await sessionUser(request)?.id != user.id, user.username.lowercased() == username.lowercased() {
                NewSession.current?.cookie = Self.cookie(try await sync.startSession(for: user.id))
            }
        } else if let session = try await sessionUser(request) {
            user = session
        } else {
            throw APIError.unauthorized
        }
        guard user.username.lowercased() == username.lowercased() else { throw APIError.unauthorized }
        return user
    }

    func login(_ request: Request, _ context: JukeRequestContext) async throws -> Response {
        let username = context.parameters.get("username") ?? ""
        if let session = try await sessionUser(request), session.username.lowercased() != username.lowercased() {
            throw APIError.badRequest("This session is another account's; log out first.")
        }
        let user = try await caller(request, context)
        // A valid cookie is a check that it still is; Basic credentials start a session
        // (`caller`), and a login always answers with one.
        if NewSession.current?.cookie == nil, GpodderWire.basicCredentials(request.headers[.authorization]) != nil {
            NewSession.current?.cookie = Self.cookie(try await sync.startSession(for: user.id))
        }
        return Self.empty()
    }

    static func cookie(_ token: String) -> String {
        "\(cookieName)=\(token); Path=/; Max-Age=\(Int(PodcastSync.sessionLifetime)); HttpOnly; SameSite=Strict" + (CurrentRequest.isSecure ? "; Secure" : "")
    }

    /// The session cookie a request's answer starts, if any.
    final class NewSession: Sendable {
        @TaskLocal static var current: NewSession?
        private let value = Mutex<String?>(nil)
        var cookie: String? {
            get { value.withLock { $0 } }
            set { value.withLock { $0 = newValue } }
        }
    }

    func logout(_ request: Request, _ context: JukeRequestContext) async throws -> Response {
        let username = context.parameters.get("username") ?? ""
        guard let token = Self.sessionCookie(request), let id = try await sync.sessionUser(token: token), let user = try await users.user(id: id) else {
            return Self.empty()
        }
        guard user.username.lowercased() == username.lowercased() else { throw APIError.badRequest("This session is another account's.") }
        try await sync.endSession(token: token, of: user.id)
        var response = Self.empty()
        response.headers[.setCookie] = "\(Self.cookieName)=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict" + (CurrentRequest.isSecure ? "; Secure" : "")
        return response
    }

    // MARK: Devices

    func devices(_ request: Request, _ context: JukeRequestContext) async throws -> Response {
        let user = try await caller(request, context)
        return try Self.json(
            try await sync.devices(of: user.id).map {
                ["id": $0.device.id, "caption": $0.device.caption, "type": $0.device.type, "subscriptions": $0.subscriptions] as [String: Any]
            })
    }

    func updateDevice(_ request: Request, _ context: JukeRequestContext) async throws -> Response {
        let user = try await caller(request, context)
        let device = try GpodderWire.deviceID(context.parameters.get("deviceid") ?? "")
        let body = try await Self.body(request)
        var caption: String?
        var type: String?
        if !body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else {
                throw RuleRefusal.invalid("body", "Send a JSON object with caption and type.")
            }
            if let value = object["caption"], !(value is NSNull) {
                guard let text = value as? String, text.unicodeScalars.count <= 100, TextRules.isAllowed(text) else {
                    throw RuleRefusal.invalid("caption", "A caption is a line of at most 100 characters.")
                }
                caption = text
            }
            if let value = object["type"], !(value is NSNull) {
                guard let text = value as? String, GpodderWire.deviceTypes.contains(text) else {
                    throw RuleRefusal.invalid("type", "type is one of desktop, laptop, mobile, server, other.")
                }
                type = text
            }
        }
        if try await !sync.store.hasDevice(device, of: user.id) { try await sync.ensureDevice(device, of: user.id) }
        try await sync.updateDevice(device, caption: caption, type: type, of: user.id)
        return Self.empty()
    }

    // MARK: Subscriptions

    func subscriptionChanges(_ request: Request, _ context: JukeRequestContext) async throws -> Response {
        let user = try await caller(request, context)
        let device = try GpodderWire.deviceID(context.parameters.get("deviceid") ?? "")
        let since = try GpodderWire.since(request.uri.queryParameters["since"].map(String.init))
        let changes = try await sync.subscriptionChanges(device: device, since: since, of: user.id)
        return try Self.json(["add": changes.add, "remove": changes.remove, "timestamp": changes.timestamp] as [String: Any])
    }

    func uploadSubscriptions(_ request: Request, _ context: JukeRequestContext) async throws -> Response {
        let user = try await caller(request, context)
        let device = try GpodderWire.deviceID(context.parameters.get("deviceid") ?? "")
        let upload = try GpodderWire.subscriptionUpload(try await Self.body(request))
        let stamp = try await sync.uploadSubscriptions(upload, device: device, of: user.id)
        return try Self.json(["timestamp": stamp, "update_urls": upload.updated.map { [$0.0, $0.1] }] as [String: Any])
    }

    func list(_ request: Request, _ context: JukeRequestContext, format: ListFormat, device: Bool) async throws -> Response {
        let user = try await caller(request, context)
        if device {
            let id = try GpodderWire.deviceID(context.parameters.get("deviceid") ?? "")
            guard try await sync.store.hasDevice(id, of: user.id) else { throw APIError.notFound("device") }
        }
        let urls = try await sync.allSubscriptions(of: user.id)
        switch format {
        case .json: return try Self.json(urls)
        case .txt: return Self.text(urls.map { $0 + "\n" }.joined(), type: "text/plain; charset=utf-8")
        case .opml: return Self.text(OPML.write(urls.map { OPML.Subscription(feedURL: $0) }), type: "text/x-opml; charset=utf-8")
        }
    }

    func replaceList(_ request: Request, _ context: JukeRequestContext, format: ListFormat) async throws -> Response {
        let user = try await caller(request, context)
        let device = try GpodderWire.deviceID(context.parameters.get("deviceid") ?? "")
        let body = try await Self.body(request)
        let sent: [String]
        if format == .json {
            guard let list = try? JSONSerialization.jsonObject(with: body) as? [String] else {
                throw RuleRefusal.invalid("body", "Send a JSON list of feed addresses.")
            }
            sent = list
        } else {
            sent = String(decoding: body, as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init).filter { !$0.isEmpty }
        }
        guard sent.count <= GpodderWire.maxURLsPerUpload else { throw RuleRefusal.invalid("body", "Send at most \(GpodderWire.maxURLsPerUpload) addresses.") }
        var seen = Set<String>()
        let urls = sent.map(GpodderWire.sanitized).filter { !$0.isEmpty && seen.insert($0).inserted }
        try await sync.replaceSubscriptions(with: urls, device: device, of: user.id)
        return Self.empty()
    }

    // MARK: Episode actions

    func episodeActions(_ request: Request, _ context: JukeRequestContext) async throws -> Response {
        let user = try await caller(request, context)
        let query = request.uri.queryParameters
        let since = try GpodderWire.since(query["since"].map(String.init))
        let podcast = try query["podcast"].map { (sent: Substring) throws(RuleRefusal) -> String in
            let url = GpodderWire.sanitized(String(sent))
            guard !url.isEmpty else { throw .invalid("podcast", "podcast is a feed's address (http or https).") }
            return url
        }
        let device = try query["device"].map { (sent: Substring) throws(RuleRefusal) -> String in try GpodderWire.deviceID(String(sent)) }
        let aggregated = ["true", "1", "yes"].contains(query["aggregated"].map { $0.lowercased() } ?? "")
        let found = try await sync.actions(since: since, podcast: podcast, device: device, aggregated: aggregated, of: user.id)
        return try Self.json(["actions": found.actions.map(GpodderWire.json), "timestamp": found.timestamp] as [String: Any])
    }

    func uploadActions(_ request: Request, _ context: JukeRequestContext) async throws -> Response {
        let user = try await caller(request, context)
        let upload = try GpodderWire.actionUpload(try await Self.body(request), now: sync.clock.now())
        let stamp = try await sync.uploadActions(upload.actions, of: user.id)
        return try Self.json(["timestamp": stamp, "update_urls": upload.updated.map { [$0.0, $0.1] }] as [String: Any])
    }

    // MARK: Bodies and answers

    static func body(_ request: Request) async throws -> Data {
        var request = request
        return Data(try await request.collectBody(upTo: bodyLimit).readableBytesView)
    }

    static func json(_ value: Any) throws -> Response {
        let data = try JSONSerialization.data(withJSONObject: value, options: [.withoutEscapingSlashes, .sortedKeys])
        return Response(
            status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func text(_ text: String, type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type, .cacheControl: "no-store"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// What gpodder.net answers a device update or a login with: 200 and no body.
    static func empty() -> Response {
        Response(status: .ok, headers: [.cacheControl: "no-store"], body: .init())
    }
}
