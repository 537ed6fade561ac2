import ArgumentParser
import Foundation
import Hummingbird
import JukePlatform
import JukeServer
import LiveUpdates
import Logging
import Providers

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Runs the Juke server.")

    @OptionGroup var data: DataOptions

    @Option(name: .long, help: "Address to listen on (env JUKE_HOST; default 127.0.0.1).")
    var host: String?

    @Option(name: .long, help: "Port to listen on (env JUKE_PORT; default 8080).")
    var port: Int?

    @Flag(name: .long, help: "Do not create the demo library on the first start.")
    var noDemo = false

    @Flag(
        inversion: .prefixedNo,
        help: "Pin each event loop to a CPU of its own, on Linux (env JUKE_PIN_EVENT_LOOPS=0 or 1; default on).")
    var pinEventLoops: Bool?

    @Option(
        name: .long,
        help: "How live messages reach the kernel: direct (straight to the socket, the default) or pipeline (through SwiftNIO; env JUKE_PUSH_PATH).")
    var pushPath: String?

    @Option(name: .long, help: "An OpenAI-compatible API for AI trivia and the Back2Back DJ, e.g. https://api.openai.com/v1 (env JUKE_OPENAI_BASE_URL).")
    var openaiBaseUrl: String?

    @Option(name: .long, help: "Its API key; prefer the environment (env JUKE_OPENAI_API_KEY).")
    var openaiApiKey: String?

    @Option(name: .long, help: "The model that words trivia (env JUKE_TRIVIA_MODEL; default gpt-4o-mini).")
    var triviaModel: String?

    @Option(name: .long, help: "A MusicKit private key (.p8) for the Apple Music catalog (env JUKE_APPLE_MUSIC_KEY_FILE).")
    var appleMusicKeyFile: String?

    @Option(name: .long, help: "That key's 10-character ID (env JUKE_APPLE_MUSIC_KEY_ID).")
    var appleMusicKeyId: String?

    @Option(name: .long, help: "Your Apple developer team ID (env JUKE_APPLE_MUSIC_TEAM_ID).")
    var appleMusicTeamId: String?

    @Option(name: .long, help: "The Apple Music storefront to search (env JUKE_APPLE_MUSIC_STOREFRONT; default us).")
    var appleMusicStorefront: String?

    @Option(name: .long, help: "The iTunes Search API, e.g. https://itunes.apple.com (env JUKE_ITUNES_SEARCH_URL); off by default.")
    var itunesSearchUrl: String?

    @Option(
        name: .long,
        help:
            "Radio Browser's server list for Dual Player, e.g. https://all.api.radio-browser.info/json/servers (env JUKE_RADIO_BROWSER_URL; default that, then fixed mirrors)."
    )
    var radioBrowserUrl: String?

    @Flag(
        name: .long,
        help:
            "Let the radio relay open streams on private and local networks, e.g. an Icecast server on the LAN (env JUKE_RADIO_ALLOW_PRIVATE_STREAMS=1; off: refused, so no account can make Juke fetch from inside its network)."
    )
    var radioAllowPrivateStreams = false

    @Flag(
        name: .long,
        help:
            "Let Dual Player fetch podcast feeds, episodes, articles and LibriVox's sections and covers from private and local networks (env JUKE_WEB_ALLOW_PRIVATE_NETWORKS=1; off: refused, so no account can make Juke fetch from inside its network)."
    )
    var webAllowPrivateNetworks = false

    @Option(
        name: .long,
        help:
            "The podcast directory (iTunes Search API) for Dual Player, e.g. https://itunes.apple.com (env JUKE_PODCAST_SEARCH_URL; default that; 'off' turns search off)."
    )
    var podcastSearchUrl: String?

    @Option(name: .long, help: "Gigabytes of podcast episodes the server keeps; played ones are removed past it (env JUKE_PODCAST_STORAGE_GB; default 20).")
    var podcastStorageGb: Double?

    @Option(
        name: .long,
        help: "How many ffmpegs may transcode at once for browsers that cannot play a file; 0 turns transcoding off (env JUKE_MAX_TRANSCODES; default 8).")
    var maxTranscodes: Int?

    @Option(name: .long, help: "Megabytes of finished transcodes kept in the data folder's transcodes (env JUKE_TRANSCODE_CACHE_MB; default 2000).")
    var transcodeCacheMb: Int?

    @Option(name: .long, help: "Minutes between refreshes of each podcast feed (env JUKE_PODCAST_REFRESH_MINUTES; default 30).")
    var podcastRefreshMinutes: Double?

    @Option(name: .long, help: "LibriVox's catalogue API for Dual Player, e.g. https://librivox.org/api/feed (env JUKE_LIBRIVOX_URL; default that).")
    var librivoxUrl: String?

    @Option(
        name: .long,
        help:
            "The client ID of a Spotify app (developer.spotify.com) for RunBeat's music; its redirect URI must be <public URL>/runbeat/spotify/callback (env JUKE_SPOTIFY_CLIENT_ID; default none: Spotify off)."
    )
    var spotifyClientId: String?

    @Option(name: .long, help: "The redirect URI registered with Spotify, when not under --public-url (env JUKE_SPOTIFY_REDIRECT_URL).")
    var spotifyRedirectUrl: String?

    @Option(
        name: .long,
        help:
            "32 bytes in base64 (openssl rand -base64 32) that seal runners' Spotify tokens at rest, kept out of the database; the same on every server sharing one (env JUKE_SPOTIFY_TOKEN_KEY; default a key kept in the database)."
    )
    var spotifyTokenKey: String?

    @Option(name: .long, help: "Spotify's Accounts service (env JUKE_SPOTIFY_ACCOUNTS_URL; default https://accounts.spotify.com).")
    var spotifyAccountsUrl: String?

    @Option(name: .long, help: "Spotify's Web API (env JUKE_SPOTIFY_API_URL; default https://api.spotify.com/v1).")
    var spotifyApiUrl: String?

    @Option(
        name: .long,
        help:
            "The address people reach Juke at, e.g. https://music.example.org: links in exported playlists, live connections' Origin, and the cookie's Secure flag (env JUKE_PUBLIC_URL)."
    )
    var publicUrl: String?

    @Option(
        name: .long,
        help:
            "New accounts one address may make in 15 minutes; a party's phones share their router's address (env JUKE_SIGN_UPS_PER_ADDRESS; default 30)."
    )
    var signUpsPerAddress: Int?

    @Option(
        name: .long,
        help:
            "A reverse proxy whose X-Forwarded-For and X-Forwarded-Proto are believed: an address or block, e.g. 127.0.0.1 or 10.0.0.0/8; repeat for more (env JUKE_TRUSTED_PROXIES, comma-separated; default none)."
    )
    var trustedProxy: [String] = []

    @Option(
        name: .long,
        help: "Another site's page that may open live connections, e.g. https://party.example; repeat for more (env JUKE_ALLOWED_ORIGINS, comma-separated)."
    )
    var allowedOrigin: [String] = []

    /// The sign-up limit, proxies, public URL and extra origins, from flags or the environment.
    func network(_ env: [String: String], into configuration: inout ServerConfiguration) throws {
        if let raw = publicUrl ?? env["JUKE_PUBLIC_URL"], !raw.isEmpty {
            guard let url = URL(string: raw), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host?.isEmpty == false else {
                throw ValidationError("--public-url (or JUKE_PUBLIC_URL) must be an http(s) URL, not '\(raw)'")
            }
            configuration.publicURL = url
        }
        if let count = try signUpsPerAddress
            ?? env["JUKE_SIGN_UPS_PER_ADDRESS"].map({ text in
                guard let value = Int(text) else { throw ValidationError("JUKE_SIGN_UPS_PER_ADDRESS must be a whole number") }
                return value
            })
        {
            guard (1...100_000).contains(count) else { throw ValidationError("--sign-ups-per-address is 1 to 100000") }
            configuration.signUpsPerAddress = count
        }
        let proxies = trustedProxy.isEmpty ? Self.list(env["JUKE_TRUSTED_PROXIES"]) : trustedProxy
        configuration.trustedProxies = try proxies.map { text in
            guard let range = AddressRange(text) else {
                throw ValidationError("--trusted-proxy (or JUKE_TRUSTED_PROXIES) takes IP addresses or blocks like 10.0.0.0/8, not '\(text)'")
            }
            return range
        }
        let origins = allowedOrigin.isEmpty ? Self.list(env["JUKE_ALLOWED_ORIGINS"]) : allowedOrigin
        configuration.allowedOrigins = Set(
            try origins.map { text in
                guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host?.isEmpty == false,
                    url.path.isEmpty || url.path == "/", url.query == nil
                else { throw ValidationError("--allowed-origin (or JUKE_ALLOWED_ORIGINS) takes origins like https://party.example, not '\(text)'") }
                return ClientOrigin(publicURL: url).publicOrigin ?? text.lowercased()
            })
    }

    /// Transcoding's bounds: ffmpegs at once (0: off) and the cache's size.
    func transcoding(_ env: [String: String]) throws -> TranscodingSettings? {
        func number(_ flag: Int?, _ variable: String, _ range: ClosedRange<Int>, _ what: String) throws -> Int? {
            guard
                let value = try flag
                    ?? env[variable].map({ text in
                        guard let value = Int(text) else { throw ValidationError("\(variable) must be a whole number") }
                        return value
                    })
            else { return nil }
            guard range.contains(value) else { throw ValidationError("\(what) is \(range.lowerBound) to \(range.upperBound)") }
            return value
        }
        var settings = TranscodingSettings()
        if let count = try number(maxTranscodes, "JUKE_MAX_TRANSCODES", 0...256, "--max-transcodes") {
            guard count > 0 else { return nil }
            settings.maxConcurrent = count
        }
        if let megabytes = try number(transcodeCacheMb, "JUKE_TRANSCODE_CACHE_MB", 0...100_000_000, "--transcode-cache-mb") {
            settings.cacheLimit = Int64(megabytes) * 1_000_000
        }
        return settings
    }

    /// RunBeat's Spotify, on when a client ID is given.
    func spotify(_ env: [String: String]) throws -> SpotifySettings? {
        guard let clientID = (spotifyClientId ?? env["JUKE_SPOTIFY_CLIENT_ID"])?.trimmingCharacters(in: .whitespaces), !clientID.isEmpty else {
            return nil
        }
        guard clientID.count <= 128, clientID.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
            throw ValidationError("--spotify-client-id (or JUKE_SPOTIFY_CLIENT_ID) is the app's client ID: letters and digits")
        }
        guard
            let accounts = try Self.httpURL(spotifyAccountsUrl, env, option: "spotify-accounts-url", variable: "JUKE_SPOTIFY_ACCOUNTS_URL")
                ?? SpotifyAccounts.defaultBase,
            let api = try Self.httpURL(spotifyApiUrl, env, option: "spotify-api-url", variable: "JUKE_SPOTIFY_API_URL") ?? SpotifyWebAPI.defaultBase
        else { return nil }
        let redirect = try Self.httpURL(spotifyRedirectUrl, env, option: "spotify-redirect-url", variable: "JUKE_SPOTIFY_REDIRECT_URL")
        var key: Data?
        if let text = spotifyTokenKey ?? env["JUKE_SPOTIFY_TOKEN_KEY"], !text.isEmpty {
            guard let data = Data(base64Encoded: text.trimmingCharacters(in: .whitespaces)), data.count == 32 else {
                throw ValidationError("--spotify-token-key (or JUKE_SPOTIFY_TOKEN_KEY) is 32 bytes in base64, as openssl rand -base64 32 prints")
            }
            key = data
        }
        return SpotifySettings(clientID: clientID, accountsURL: accounts, apiURL: api, redirectURL: redirect, tokenKey: key)
    }

    static func list(_ text: String?) -> [String] {
        (text ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The outside catalog Back2Back looks AI picks up in (ISRC and length make the library
    /// match certain): Apple Music when a key is given, else iTunes Search when its URL is.
    func catalog(_ env: [String: String]) throws -> CatalogSettings? {
        if let path = appleMusicKeyFile ?? env["JUKE_APPLE_MUSIC_KEY_FILE"], !path.isEmpty {
            guard let pem = try? String(contentsOfFile: path, encoding: .utf8) else { throw ValidationError("cannot read the Apple Music key \(path)") }
            guard let keyID = appleMusicKeyId ?? env["JUKE_APPLE_MUSIC_KEY_ID"], let teamID = appleMusicTeamId ?? env["JUKE_APPLE_MUSIC_TEAM_ID"] else {
                throw ValidationError("an Apple Music key needs --apple-music-key-id and --apple-music-team-id")
            }
            return .appleMusic(pem: pem, keyID: keyID, teamID: teamID, storefront: appleMusicStorefront ?? env["JUKE_APPLE_MUSIC_STOREFRONT"] ?? "us")
        }
        if let raw = itunesSearchUrl ?? env["JUKE_ITUNES_SEARCH_URL"], !raw.isEmpty {
            guard let url = URL(string: raw), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
                throw ValidationError("--itunes-search-url must be an http(s) URL")
            }
            return .iTunesSearch(url)
        }
        return nil
    }

    /// The AI service, when both its address and key are given.
    func openAI(_ env: [String: String]) throws -> OpenAISettings? {
        guard let raw = openaiBaseUrl ?? env["JUKE_OPENAI_BASE_URL"], !raw.isEmpty else { return nil }
        guard let url = URL(string: raw), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
            throw ValidationError("--openai-base-url must be an http(s) URL")
        }
        guard let key = openaiApiKey ?? env["JUKE_OPENAI_API_KEY"], !key.isEmpty else {
            throw ValidationError("an OpenAI base URL needs an API key (--openai-api-key or JUKE_OPENAI_API_KEY)")
        }
        return OpenAISettings(baseURL: url, apiKey: key, triviaModel: triviaModel ?? env["JUKE_TRIVIA_MODEL"] ?? "gpt-4o-mini")
    }

    /// Dual Player's podcast settings: the directory, private networks, the refresh interval.
    func podcasts(_ env: [String: String], into configuration: inout ServerConfiguration) throws {
        if let raw = podcastSearchUrl ?? env["JUKE_PODCAST_SEARCH_URL"], !raw.isEmpty {
            if raw.lowercased() == "off" {
                configuration.podcastSearchURL = nil
            } else {
                guard let url = URL(string: raw), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
                    throw ValidationError("--podcast-search-url (or JUKE_PODCAST_SEARCH_URL) must be an http(s) URL or off")
                }
                configuration.podcastSearchURL = url
            }
        }
        configuration.webAllowPrivateNetworks =
            try webAllowPrivateNetworks || Self.switchedOn(env["JUKE_WEB_ALLOW_PRIVATE_NETWORKS"], name: "JUKE_WEB_ALLOW_PRIVATE_NETWORKS") ?? false
        if let minutes = try podcastRefreshMinutes
            ?? env["JUKE_PODCAST_REFRESH_MINUTES"].map({ text in
                guard let value = Double(text) else { throw ValidationError("JUKE_PODCAST_REFRESH_MINUTES must be a number of minutes") }
                return value
            })
        {
            guard minutes.isFinite, (1...10_080).contains(minutes) else { throw ValidationError("podcast refreshes are every 1 to 10080 minutes") }
            configuration.podcastRefreshInterval = minutes * 60
        }
        if let gigabytes = try podcastStorageGb
            ?? env["JUKE_PODCAST_STORAGE_GB"].map({ text in
                guard let value = Double(text) else { throw ValidationError("JUKE_PODCAST_STORAGE_GB must be a number of gigabytes") }
                return value
            })
        {
            guard gigabytes.isFinite, gigabytes >= 0, gigabytes <= 1_000_000 else { throw ValidationError("podcast storage is 0 to 1000000 GB") }
            configuration.podcastStorageLimit = Int64(gigabytes * 1_000_000_000)
        }
    }

    /// An http(s) address from a flag or else its environment variable: nil when neither is set.
    static func httpURL(_ flag: String?, _ env: [String: String], option: String, variable: String) throws -> URL? {
        guard let raw = flag ?? env[variable], !raw.isEmpty else { return nil }
        guard let url = URL(string: raw), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host?.isEmpty == false else {
            throw ValidationError("--\(option) (or \(variable)) must be an http(s) URL, not '\(raw)'")
        }
        return url
    }

    /// An on/off setting from the environment: nil when unset.
    static func switchedOn(_ value: String?, name: String) throws -> Bool? {
        guard let value, !value.isEmpty else { return nil }
        switch value.lowercased() {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off": return false
        default: throw ValidationError("\(name) must be 1 or 0 (on or off), not '\(value)'")
        }
    }

    func run() async throws {
        let env = ProcessInfo.processInfo.environment
        let host = host ?? env["JUKE_HOST"] ?? "127.0.0.1"
        guard let port = port ?? Int(env["JUKE_PORT"] ?? "8080"), (1...65535).contains(port) else {
            throw ValidationError("the port must be a number from 1 to 65535")
        }
        let pin = try pinEventLoops ?? Self.switchedOn(env["JUKE_PIN_EVENT_LOOPS"], name: "JUKE_PIN_EVENT_LOOPS") ?? true
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .info
            return handler
        }
        let logger = try data.logger()
        var configuration = try data.configuration(host: host, port: port, installDemo: !noDemo)
        configuration.openAI = try openAI(env)
        configuration.catalog = try catalog(env)
        if let url = try Self.httpURL(radioBrowserUrl, env, option: "radio-browser-url", variable: "JUKE_RADIO_BROWSER_URL") {
            configuration.radioBrowserDiscovery = url
        }
        if let url = try Self.httpURL(librivoxUrl, env, option: "librivox-url", variable: "JUKE_LIBRIVOX_URL") {
            configuration.libriVoxURL = url
        }
        try network(env, into: &configuration)
        configuration.spotify = try spotify(env)
        try podcasts(env, into: &configuration)
        configuration.transcoding = try transcoding(env)
        configuration.radioAllowPrivateStreams =
            radioAllowPrivateStreams || ["1", "true", "yes"].contains(env["JUKE_RADIO_ALLOW_PRIVATE_STREAMS"]?.lowercased() ?? "")
        if let text = pushPath ?? env["JUKE_PUSH_PATH"] {
            guard let path = PushPath(rawValue: text.lowercased()) else {
                throw ValidationError("--push-path (or JUKE_PUSH_PATH) is direct or pipeline, not '\(text)'")
            }
            configuration.pushPath = path
        }
        logger.info(
            "starting Juke",
            metadata: [
                "database": "\(configuration.database)", "data": "\(configuration.dataDirectory)",
                "ai trivia": "\(configuration.openAI.map { "\($0.triviaModel) at \($0.baseURL)" } ?? "off")",
                "catalog": "\(configuration.catalog.map { "\($0)" } ?? "off")", "push path": "\(configuration.pushPath.rawValue)",
                "public url": "\(configuration.publicURL?.absoluteString ?? "none")",
                "trusted proxies": "\(configuration.trustedProxies.map(\.description).joined(separator: ","))",
            ])
        if pin {
            if let cpus = try await EventLoopPinning.pin() {
                logger.info("event loops pinned", metadata: ["cpus": "\(cpus.map(String.init).joined(separator: ","))"])
            }
        }
        let app = try await buildApplication(configuration: configuration, logger: logger)
        try await app.runService()
    }
}
