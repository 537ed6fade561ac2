import Foundation
import JukeCore
import LiveUpdates
import MediaStorage
import Providers
import Storage

/// The server's own settings: where it listens and keeps its data, who it trusts in front of
/// it, and the outside service several apps use (an OpenAI-compatible API: TuneTrivia's
/// trivia, Back2Back's DJ). Each app declares its own beside its code.
public struct PlatformSettings: SettingsGroup {
    public static let title = "Server"

    static let host = Setting("host", kind: .value(placeholder: "address"), default: "127.0.0.1", help: "Address to listen on; 0.0.0.0 for every interface.")
    static let port = Setting("port", kind: .value(placeholder: "number"), default: "8080", help: "Port to listen on.")
    public static let dataDir = Setting(
        "data-dir", kind: .value(placeholder: "folder"), default: "./data",
        help: "Folder for the SQLite database, uploads, the demo library and caches.", example: "/var/lib/juke")
    public static let database = Setting(
        "database", kind: .value(placeholder: "url"), default: "SQLite in the data folder",
        help: "postgres://user:password@host:5432/juke to share one PostgreSQL database between several servers, or sqlite:///path/file.sqlite.",
        example: "postgres://juke:secret@db.example:5432/juke")
    static let databaseWait = Setting(
        "database-wait", kind: .value(placeholder: "seconds"), default: "10",
        help:
            "How long a request waits for a free PostgreSQL connection (or, on SQLite, for the lock the juke command holds) before a 503 that says the database is busy."
    )
    public static let logLevel = Setting(
        "log-level", kind: .value(placeholder: "level"), default: "info", help: "trace, debug, info, notice, warning, error or critical.")
    static let demo = Setting(
        "demo", kind: .onOff, default: "on", help: "Create and scan the demo library on the first start (--no-demo: an empty library).")
    static let pinEventLoops = Setting(
        "pin-event-loops", kind: .onOff, default: "on",
        help: "Pin each event loop to a CPU of its own, on Linux (--no-pin-event-loops: let the kernel place them).")
    static let pushPath = Setting(
        "push-path", kind: .value(placeholder: "direct|pipeline"), default: "direct",
        help: "How live messages reach the kernel: straight to the socket, or through SwiftNIO's pipeline.")
    static let publicURL = Setting(
        "public-url", kind: .value(placeholder: "url"), default: "none",
        help:
            "The address people reach Juke at: links in exported playlists, an allowed Origin for live connections, and (https) the cookie's Secure flag. Without it, links name the address the connection reached.",
        example: "https://music.example.org")
    static let trustedProxy = Setting(
        "trusted-proxy", environment: "JUKE_TRUSTED_PROXIES", kind: .list(placeholder: "address or block"), default: "none",
        help: "Reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are believed: addresses or blocks like 10.0.0.0/8.",
        example: "127.0.0.1,10.0.0.0/8")
    static let allowedOrigin = Setting(
        "allowed-origin", environment: "JUKE_ALLOWED_ORIGINS", kind: .list(placeholder: "origin"), default: "none",
        help: "Other sites' pages allowed to open live connections.", example: "https://party.example")
    static let signUpsPerAddress = Setting(
        "sign-ups-per-address", kind: .value(placeholder: "number"), default: "30",
        help: "New accounts one address may make in 15 minutes; a party's phones share their router's address.")
    static let maxTranscodes = Setting(
        "max-transcodes", kind: .value(placeholder: "number"), default: "8",
        help: "0 turns off transcoding for browsers that cannot play a file; transcodes take their turn in the tool slots (--tool-slots).")
    static let toolSlots = Setting(
        "tool-slots", kind: .value(placeholder: "number"), default: "one per core, at least 2",
        help:
            "Outside programs running at once (ffmpeg's transcodes, clips and cover blurs, espeak-ng, pdftotext); four per slot wait in line, then 503 with Retry-After."
    )
    static let transcodeCacheMB = Setting(
        "transcode-cache-mb", kind: .value(placeholder: "megabytes"), default: "2000", help: "Disk kept for finished transcodes in the data folder.")
    static let openAIBaseURL = Setting(
        "openai-base-url", kind: .value(placeholder: "url"), default: "none: built-in trivia and DJ",
        help: "An OpenAI-compatible API for AI trivia and the Back2Back DJ.", example: "https://api.openai.com/v1")
    static let openAIKey = Setting(
        "openai-api-key", kind: .value(placeholder: "key"), default: "none", help: "Its API key; prefer the environment to the command line.")
    public static let settings: [Setting] =
        [
            host, port, dataDir, database, databaseWait, logLevel, demo, pinEventLoops, pushPath, publicURL, trustedProxy, allowedOrigin, signUpsPerAddress,
            maxTranscodes, toolSlots, transcodeCacheMB, openAIBaseURL, openAIKey,
        ] + MediaStorageSettings.settings

    public var host = "127.0.0.1"
    public var port = 8080
    public var dataDirectory = "./data"
    public var database: String?
    public var databaseWait = 10
    public var logLevel = "info"
    public var demo = true
    public var pinEventLoops = true
    public var pushPath = PushPath.default
    public var publicURL: URL?
    public var trustedProxies: [AddressRange] = []
    public var allowedOrigins: Set<String> = []
    public var signUpsPerAddress = 30
    public var transcoding: TranscodingSettings? = TranscodingSettings()
    public var toolSlots = ToolSlots.machineSize
    public var openAI: OpenAISettings?
    /// The bucket people's files are kept in; nil: the data folder.
    public var bucket: S3Configuration?

    public init() {}

    public init(_ values: SettingValues) throws {
        host = values.text(Self.host) ?? host
        port = try values.whole(Self.port, in: 1...65535) ?? port
        dataDirectory = values.text(Self.dataDir) ?? dataDirectory
        database = values.text(Self.database)
        databaseWait = try values.whole(Self.databaseWait, in: 1...3600) ?? databaseWait
        logLevel = values.text(Self.logLevel)?.lowercased() ?? logLevel
        demo = try values.isOn(Self.demo) ?? demo
        pinEventLoops = try values.isOn(Self.pinEventLoops) ?? pinEventLoops
        if let text = values.text(Self.pushPath) {
            guard let path = PushPath(rawValue: text.lowercased()) else { throw SettingError("\(Self.pushPath.label) is direct or pipeline, not '\(text)'") }
            pushPath = path
        }
        if let url = try values.url(Self.publicURL) { publicURL = url }
        trustedProxies = try values.list(Self.trustedProxy).map { text in
            guard let range = AddressRange(text) else {
                throw SettingError("\(Self.trustedProxy.label) takes IP addresses or blocks like 10.0.0.0/8, not '\(text)'")
            }
            return range
        }
        allowedOrigins = Set(
            try values.list(Self.allowedOrigin).map { text in
                guard let url = WebAddress(text)?.url, url.path.isEmpty || url.path == "/", url.query == nil
                else { throw SettingError("\(Self.allowedOrigin.label) takes origins like https://party.example, not '\(text)'") }
                return ClientOrigin(publicURL: url).publicOrigin ?? text.lowercased()
            })
        signUpsPerAddress = try values.whole(Self.signUpsPerAddress, in: 1...100_000) ?? signUpsPerAddress
        var transcoding = TranscodingSettings()
        if let megabytes = try values.whole(Self.transcodeCacheMB, in: 0...100_000_000) { transcoding.cacheLimit = Int64(megabytes) * 1_000_000 }
        if let count = try values.whole(Self.maxTranscodes, in: 0...256) { transcoding.maxConcurrent = count }
        self.transcoding = transcoding.maxConcurrent > 0 ? transcoding : nil
        toolSlots = try values.whole(Self.toolSlots, in: 1...1024) ?? toolSlots
        openAI = try Self.openAI(values)
        bucket = try MediaStorageSettings.bucket(values)
    }

    /// The AI service, when both its address and key are given.
    static func openAI(_ values: SettingValues) throws -> OpenAISettings? {
        guard let url = try values.url(openAIBaseURL) else { return nil }
        guard let key = values.text(openAIKey) else { throw SettingError("an OpenAI base URL needs an API key (\(openAIKey.label))") }
        return OpenAISettings(baseURL: url, apiKey: key)
    }

    /// The data folder as an absolute path.
    public var resolvedDataDirectory: String { URL(fileURLWithPath: dataDirectory).standardizedFileURL.path }

    /// The server's configuration from these settings; the apps' groups are added beside.
    public func configuration() throws -> ServerConfiguration {
        let folder = resolvedDataDirectory
        let location: DatabaseLocation
        do {
            location = try DatabaseLocation.parse(database, dataDirectory: folder)
        } catch {
            throw SettingError(error.description)
        }
        var configuration = ServerConfiguration(host: host, port: port, dataDirectory: folder, database: location, installDemoLibrary: demo)
        configuration.pushPath = pushPath
        configuration.publicURL = publicURL
        configuration.trustedProxies = trustedProxies
        configuration.allowedOrigins = allowedOrigins
        configuration.signUpsPerAddress = signUpsPerAddress
        configuration.databaseWait = .seconds(databaseWait)
        configuration.transcoding = transcoding
        configuration.toolSlots = toolSlots
        configuration.openAI = openAI
        configuration.mediaStore = bucket.map { S3Bucket(configuration: $0, http: configuration.http) }
        return configuration
    }
}
