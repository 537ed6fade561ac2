import Foundation
import LiveUpdates
import MediaStorage
import Providers
import Storage

/// Everything `juke serve` can be told, from flags or environment variables.
public struct ServerConfiguration: Sendable {
    public var host: String
    public var port: Int
    public var dataDirectory: String
    public var database: DatabaseLocation
    /// How long a call waits for a database connection (SQLite: for the lock another process
    /// holds) before `StorageError.noConnection`, which a request answers with 503.
    public var databaseWait: Duration = DatabaseFactory.defaultConnectionWait
    /// How long a login lasts.
    public var tokenLifetime: TimeInterval
    /// bcrypt's work factor; tests lower it, production keeps 12.
    public var bcryptCost: UInt8
    /// Creates and scans the demo library on the first start.
    public var installDemoLibrary: Bool
    /// Largest JSON body accepted, in bytes.
    public var maxBodySize: Int
    /// New accounts one address may make in 15 minutes: a party's phones share their router's
    /// address, so a big room raises it.
    public var signUpsPerAddress = 30
    /// The apps' own settings, each group by its type (an app reads its own; the platform
    /// knows none of them).
    public var groups = SettingsGroups()
    /// Largest file an upload route takes (an audiobook), in bytes.
    public var maxUploadSize: Int = 2 * 1024 * 1024 * 1024
    /// Where people's files are kept when not in the data folder: a bucket several servers
    /// share (`--storage s3://…`); nil keeps them in the data folder.
    public var mediaStore: (any MediaStore)?
    /// The server's one outbound HTTP client (`Platform.http`), made with the configuration
    /// so that the bucket (`mediaStore`, built with it) and the platform share it.
    public var http = HTTPClient()
    /// Transcoding what a browser cannot play (with ffmpeg, where installed); nil turns it off.
    public var transcoding: TranscodingSettings? = TranscodingSettings()
    /// Outside programs (ffmpeg, espeak-ng, pdftotext) running at once, whatever starts them:
    /// a slot per core by default; four per slot wait in line, then 503.
    public var toolSlots = ToolSlots.machineSize
    /// Seconds between background rescans of the watched folders; nil turns them off.
    public var rescanInterval: Double?
    /// An OpenAI-compatible service for AI trivia; nil means Juke writes all trivia itself.
    public var openAI: OpenAISettings?
    /// Reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are believed; none by
    /// default, so a client cannot pick its own address for the limits.
    public var trustedProxies: [AddressRange] = []
    /// The address people use to reach Juke ("https://music.example.org"): links in exported
    /// files, the Origin a live connection may come from, and HTTPS for the cookie.
    public var publicURL: URL?
    /// Other sites' pages that may open live connections, as origins ("https://party.example").
    public var allowedOrigins: Set<String> = []
    /// How long a request head may take to arrive, from the connection opening or the
    /// previous response ending (slow or silent clients are let go).
    public var headerTimeout: Duration = .seconds(30)
    /// How long a request's body may pause, and a kept-alive connection sit between requests.
    public var idleTimeout: Duration = .seconds(60)
    /// How often live game connections are pinged, so idle ones stay open through proxies.
    public var liveHeartbeat: Duration = .seconds(15)
    /// How live messages reach the kernel: straight to the socket (the default, faster) or
    /// through SwiftNIO's pipeline (`PushPath` says when the latter is needed).
    public var pushPath: PushPath = .default

    public init(
        host: String = "127.0.0.1", port: Int = 8080, dataDirectory: String, database: DatabaseLocation,
        tokenLifetime: TimeInterval = 30 * 24 * 3600, bcryptCost: UInt8 = 12, installDemoLibrary: Bool = true,
        maxBodySize: Int = 64 * 1024, rescanInterval: Double? = 15 * 60, openAI: OpenAISettings? = nil
    ) {
        self.host = host
        self.port = port
        self.dataDirectory = dataDirectory
        self.database = database
        self.tokenLifetime = tokenLifetime
        self.bcryptCost = bcryptCost
        self.installDemoLibrary = installDemoLibrary
        self.maxBodySize = maxBodySize
        self.rescanInterval = rescanInterval
        self.openAI = openAI
    }

    /// The trusted proxies and public URL, as requests are resolved against them.
    public var clientOrigin: ClientOrigin { ClientOrigin(trustedProxies: trustedProxies, publicURL: publicURL) }

    public var demoLibraryPath: String { (dataDirectory as NSString).appendingPathComponent("demo-library") }
}

/// How many ffmpegs may transcode at once, and how much disk finished transcodes may take
/// (in the data folder's `transcodes`).
public struct TranscodingSettings: Sendable {
    public var maxConcurrent: Int
    public var cacheLimit: Int64

    public init(maxConcurrent: Int = 8, cacheLimit: Int64 = 2_000_000_000) {
        self.maxConcurrent = maxConcurrent
        self.cacheLimit = cacheLimit
    }
}
