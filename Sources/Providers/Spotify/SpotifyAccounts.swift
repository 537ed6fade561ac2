public import Foundation

/// Spotify's Accounts service for the Authorization Code with PKCE flow: the address a runner
/// is sent to (`/authorize`), and `/api/token` to exchange the code for tokens and to refresh
/// them (form-encoded; errors as `{"error": "invalid_grant", "error_description": …}`).
public struct SpotifyAccounts: Sendable {
    public static let defaultBase = URL(string: "https://accounts.spotify.com")
    /// What RunBeat asks for: the runner's playlists, their devices and control of playback.
    public static let scopes = ["playlist-read-private", "playlist-read-collaborative", "user-read-playback-state", "user-modify-playback-state"]

    public let baseURL: URL
    public let clientID: String
    public let redirectURI: String
    public var timeout: TimeInterval
    /// The server's one outbound client (`Platform.http`).
    let http: HTTPClient

    public init(http: HTTPClient, baseURL: URL, clientID: String, redirectURI: String, timeout: TimeInterval = 10) {
        self.http = http
        self.baseURL = baseURL
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.timeout = timeout
    }

    /// Tokens as Spotify gives them, with when the access token expires.
    public struct Tokens: Sendable, Equatable, Codable {
        public var accessToken: String
        public var refreshToken: String
        public var expiresAt: Date
        public var scope: String

        public init(accessToken: String, refreshToken: String, expiresAt: Date, scope: String) {
            self.accessToken = accessToken
            self.refreshToken = refreshToken
            self.expiresAt = expiresAt
            self.scope = scope
        }
    }

    /// Where to send the runner to authorise Juke.
    public func authorizeURL(state: String, challenge: String) -> URL? {
        var components = URLComponents(url: baseURL.appendingPathComponent("authorize"), resolvingAgainstBaseURL: false)
        components?.queryItems = [
            URLQueryItem(name: "response_type", value: "code"), URLQueryItem(name: "client_id", value: clientID),
            URLQueryItem(name: "redirect_uri", value: redirectURI), URLQueryItem(name: "code_challenge_method", value: "S256"),
            URLQueryItem(name: "code_challenge", value: challenge), URLQueryItem(name: "state", value: state),
            URLQueryItem(name: "scope", value: Self.scopes.joined(separator: " ")),
        ]
        return components?.url
    }

    /// The code from the redirect, exchanged with the verifier kept since the authorisation.
    public func exchange(code: String, verifier: String, now: Date) async throws(SpotifyError) -> Tokens {
        try await token(
            ["grant_type": "authorization_code", "code": code, "redirect_uri": redirectURI, "client_id": clientID, "code_verifier": verifier],
            keeping: nil, now: now)
    }

    /// New tokens from the refresh token (Spotify may send a new refresh token; else the old one stays).
    public func refresh(_ refreshToken: String, now: Date) async throws(SpotifyError) -> Tokens {
        try await token(["grant_type": "refresh_token", "refresh_token": refreshToken, "client_id": clientID], keeping: refreshToken, now: now)
    }

    func token(_ form: [String: String], keeping refreshToken: String?, now: Date) async throws(SpotifyError) -> Tokens {
        var request = OutboundRequest(url: baseURL.appendingPathComponent("api/token"))
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(Self.formEncoded(form).utf8)
        let reply = try await SpotifyWebAPI.send(request, http: http, timeout: timeout)
        let object = (try? JSONSerialization.jsonObject(with: reply.body)) as? [String: Any]
        guard (200..<300).contains(reply.status) else {
            let error = object?["error"] as? String ?? ""
            let description = object?["error_description"] as? String ?? error
            if error == "invalid_grant" { throw .invalidGrant(description) }
            if reply.status == 429 { throw .rateLimited(retryAfter: SpotifyWebAPI.retryAfter(reply)) }
            throw .refused(status: reply.status, message: description.isEmpty ? "HTTP \(reply.status)" : description)
        }
        guard let access = object?["access_token"] as? String, let expiresIn = object?["expires_in"] as? Double,
            let refresh = object?["refresh_token"] as? String ?? refreshToken
        else { throw .malformed("a token reply without access_token, expires_in or refresh_token") }
        return Tokens(accessToken: access, refreshToken: refresh, expiresAt: now.addingTimeInterval(expiresIn), scope: object?["scope"] as? String ?? "")
    }

    static func formEncoded(_ form: [String: String]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return form.sorted { $0.key < $1.key }.map { key, value in
            "\(key)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
        }.joined(separator: "&")
    }
}
