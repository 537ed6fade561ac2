import Foundation
import JukePlatform
import Providers

/// RunBeat's settings: Spotify for the music of each phase, off until a client ID is given.
public struct RunBeatSettings: SettingsGroup {
    public static let title = "RunBeat"

    static let spotifyClientID = Setting(
        "spotify-client-id", kind: .value(placeholder: "id"), default: "none: Spotify off",
        help:
            "The client ID of an app registered at developer.spotify.com (PKCE: no secret); register its redirect URI as <public URL>/runbeat/spotify/callback (or http://127.0.0.1:<port>/runbeat/spotify/callback without --public-url)."
    )
    static let spotifyRedirectURL = Setting(
        "spotify-redirect-url", kind: .value(placeholder: "url"), default: "the one above", help: "Another redirect URI registered with Spotify.")
    static let spotifyTokenKey = Setting(
        "spotify-token-key", kind: .value(placeholder: "base64"), default: "a key kept in the database",
        help:
            "32 bytes in base64 (openssl rand -base64 32) that seal runners' Spotify tokens (AES-GCM), kept out of the database so a copy of it holds no usable token; the same on every server sharing one."
    )
    static let spotifyAccountsURL = Setting(
        "spotify-accounts-url", kind: .value(placeholder: "url"), default: "https://accounts.spotify.com", help: "Spotify's Accounts service.")
    static let spotifyAPIURL = Setting(
        "spotify-api-url", kind: .value(placeholder: "url"), default: "https://api.spotify.com/v1", help: "Spotify's Web API.")

    public static let settings = [spotifyClientID, spotifyRedirectURL, spotifyTokenKey, spotifyAccountsURL, spotifyAPIURL]

    /// Spotify for RunBeat's music; nil: off.
    public var spotify: SpotifySettings?

    public init() {}

    public init(_ values: SettingValues) throws {
        guard let clientID = values.text(Self.spotifyClientID) else { return }
        guard clientID.count <= 128, clientID.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
            throw SettingError("\(Self.spotifyClientID.label) is the app's client ID: letters and digits")
        }
        guard
            let accounts = try values.url(Self.spotifyAccountsURL) ?? SpotifyAccounts.defaultBase,
            let api = try values.url(Self.spotifyAPIURL) ?? SpotifyWebAPI.defaultBase
        else { return }
        var key: Data?
        if let text = values.text(Self.spotifyTokenKey) {
            guard let data = Data(base64Encoded: text), data.count == 32 else {
                throw SettingError("\(Self.spotifyTokenKey.label) is 32 bytes in base64, as openssl rand -base64 32 prints")
            }
            key = data
        }
        spotify = SpotifySettings(clientID: clientID, accountsURL: accounts, apiURL: api, redirectURL: try values.url(Self.spotifyRedirectURL), tokenKey: key)
    }
}

/// RunBeat's Spotify: the client ID of the app registered with Spotify (PKCE needs no
/// secret), where its Accounts service and Web API are (Spotify's own unless a test's fake),
/// and the redirect registered with it.
public struct SpotifySettings: Sendable {
    public var clientID: String
    public var accountsURL: URL
    public var apiURL: URL
    /// The redirect registered with Spotify; nil: the public URL's, else this server's own address.
    public var redirectURL: URL?
    /// 32 bytes that seal the runners' tokens at rest; nil: a key kept in the database.
    public var tokenKey: Data?

    public init(clientID: String, accountsURL: URL, apiURL: URL, redirectURL: URL? = nil, tokenKey: Data? = nil) {
        self.clientID = clientID
        self.accountsURL = accountsURL
        self.apiURL = apiURL
        self.redirectURL = redirectURL
        self.tokenKey = tokenKey
    }

    public static let callbackPath = "/runbeat/spotify/callback"

    /// Where Spotify sends the runner back: as configured, else under the public URL, else
    /// the loopback address (which Spotify accepts over plain HTTP for trying Juke locally).
    public func redirect(publicURL: URL?, port: Int) -> String {
        if let redirectURL { return redirectURL.absoluteString }
        if let publicURL {
            var base = publicURL.absoluteString
            while base.hasSuffix("/") { base.removeLast() }
            return base + Self.callbackPath
        }
        return "http://127.0.0.1:\(port)\(Self.callbackPath)"
    }
}
