public import Foundation

/// Spotify's Web API as RunBeat uses it: the runner's playlists (paged), their devices,
/// starting a playlist on a device, and moving playback to a device. Errors come as
/// `{"error": {"status", "message", "reason"}}`: 401 for an expired token, 404 with reason
/// NO_ACTIVE_DEVICE, 403 PREMIUM_REQUIRED, 429 with Retry-After.
public struct SpotifyWebAPI: Sendable {
    public static let defaultBase = URL(string: "https://api.spotify.com/v1")

    public let baseURL: URL
    public var timeout: TimeInterval
    /// The server's one outbound client (`Platform.http`).
    let http: HTTPClient

    public init(http: HTTPClient, baseURL: URL, timeout: TimeInterval = 10) {
        self.http = http
        self.baseURL = baseURL
        self.timeout = timeout
    }

    public struct Playlist: Sendable, Equatable, Codable {
        public var id: String
        public var name: String
        public var description: String?
        public var trackCount: Int
        public var imageURL: String?
        public var isPublic: Bool
        public var owner: String
    }

    public struct Device: Sendable, Equatable, Codable {
        public var id: String
        public var name: String
        public var type: String
        public var isActive: Bool
    }

    /// One page of the runner's playlists and the total.
    public func playlists(token: String, limit: Int = 50, offset: Int = 0) async throws(SpotifyError) -> (playlists: [Playlist], total: Int, more: Bool) {
        let reply = try await call("GET", "me/playlists", query: ["limit": String(max(1, min(50, limit))), "offset": String(max(0, offset))], token: token)
        guard let object = try? JSONSerialization.jsonObject(with: reply.body) as? [String: Any], let items = object["items"] as? [Any] else {
            throw .malformed("a playlist page without items")
        }
        let playlists = items.compactMap { $0 as? [String: Any] }.compactMap { item -> Playlist? in
            guard let id = item["id"] as? String, let name = item["name"] as? String else { return nil }
            let description = (item["description"] as? String).flatMap { $0.isEmpty ? nil : $0 }
            return Playlist(
                id: id, name: name, description: description, trackCount: (item["tracks"] as? [String: Any])?["total"] as? Int ?? 0,
                imageURL: ((item["images"] as? [[String: Any]])?.first?["url"]) as? String, isPublic: item["public"] as? Bool ?? false,
                owner: ((item["owner"] as? [String: Any])?["display_name"] as? String) ?? "")
        }
        return (playlists, object["total"] as? Int ?? playlists.count, object["next"] is String)
    }

    /// Every playlist, page by page (at most `limit` of them).
    public func allPlaylists(token: String, limit: Int = 1000) async throws(SpotifyError) -> [Playlist] {
        var all: [Playlist] = []
        var offset = 0
        while all.count < limit {
            let page = try await playlists(token: token, limit: 50, offset: offset)
            all += page.playlists
            guard page.more, !page.playlists.isEmpty else { break }
            offset += page.playlists.count
        }
        return Array(all.prefix(limit))
    }

    public func devices(token: String) async throws(SpotifyError) -> [Device] {
        let reply = try await call("GET", "me/player/devices", token: token)
        guard let object = try? JSONSerialization.jsonObject(with: reply.body) as? [String: Any], let list = object["devices"] as? [[String: Any]] else {
            throw .malformed("a device list without devices")
        }
        return list.compactMap { d in
            guard let id = d["id"] as? String, let name = d["name"] as? String else { return nil }
            return Device(id: id, name: name, type: d["type"] as? String ?? "", isActive: d["is_active"] as? Bool ?? false)
        }
    }

    /// Starts a playlist (on `device`, or the active one).
    public func play(playlist: String, device: String?, token: String) async throws(SpotifyError) {
        let body = try? JSONSerialization.data(withJSONObject: ["context_uri": "spotify:playlist:\(playlist)"])
        _ = try await call("PUT", "me/player/play", query: device.map { ["device_id": $0] } ?? [:], token: token, body: body)
    }

    /// Pauses whatever plays (a phase with no Spotify music, the workout's end).
    public func pause(token: String) async throws(SpotifyError) {
        _ = try await call("PUT", "me/player/pause", token: token)
    }

    /// Carries on with what was paused, from where it stopped: Start/Resume Playback with no
    /// body keeps the context and the position (a `context_uri` would start from the top).
    public func resume(device: String?, token: String) async throws(SpotifyError) {
        _ = try await call("PUT", "me/player/play", query: device.map { ["device_id": $0] } ?? [:], token: token)
    }

    /// Moves playback to `device`, as it was (paused stays paused: the phase's playlist is
    /// started next, and a phase without Spotify music stays quiet).
    public func transfer(to device: String, token: String) async throws(SpotifyError) {
        let body = try? JSONSerialization.data(withJSONObject: ["device_ids": [device], "play": false])
        _ = try await call("PUT", "me/player", token: token, body: body)
    }

    func call(_ method: String, _ path: String, query: [String: String] = [:], token: String, body: Data? = nil) async throws(SpotifyError) -> HTTPReply {
        var components = URLComponents(url: baseURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)
        if !query.isEmpty { components?.queryItems = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) } }
        guard let url = components?.url else { throw .malformed("a request Juke could not address") }
        var request = OutboundRequest(url: url)
        request.httpMethod = method
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let reply = try await Self.send(request, http: http, timeout: timeout)
        guard (200..<300).contains(reply.status) else { throw Self.error(reply) }
        return reply
    }

    static func send(_ request: OutboundRequest, http: HTTPClient, timeout: TimeInterval) async throws(SpotifyError) -> HTTPReply {
        try await http.send(request, timeout: timeout, failingAs: SpotifyError.self)
    }

    static func retryAfter(_ reply: HTTPReply) -> Int {
        Int((RetryAfter.seconds(reply.headers["retry-after"]) ?? 1).rounded(.up))
    }

    /// A refusal in Spotify's error format.
    static func error(_ reply: HTTPReply) -> SpotifyError {
        let object = (try? JSONSerialization.jsonObject(with: reply.body) as? [String: Any])?["error"] as? [String: Any]
        let message = object?["message"] as? String ?? "HTTP \(reply.status)"
        let reason = object?["reason"] as? String
        switch reply.status {
        case 401: return .unauthorized
        case 429: return .rateLimited(retryAfter: retryAfter(reply))
        case 403 where reason == "PREMIUM_REQUIRED": return .premiumRequired
        case 404 where reason == "NO_ACTIVE_DEVICE": return .noActiveDevice
        case 404: return .notFound(message)
        default: return .refused(status: reply.status, message: message)
        }
    }
}
