import ExternalTools
import Foundation
import JukeCore
import Library
import Logging
import Matching
import MediaStorage
import Prometheus
import Providers
import Storage

/// What every app stands on, built once and shared by every route: the configuration,
/// the database, accounts, the library and its search, the clock, the
/// logger and the metrics registry. Apps receive it when they are built; it knows no app.
public struct Platform: Sendable {
    public let configuration: ServerConfiguration
    public let database: any JukeDatabase
    public let users: UserStore
    public let library: LibraryStore
    let auth: AuthService
    public let search: CatalogSearch
    /// Every library track, read once per library generation, for the apps that pick songs.
    public let snapshot: LibrarySnapshot
    let scans: ScanCoordinator
    /// Signed-in users' token hashes seen lately (live connections check a batch at once).
    public let knownTokens: KnownTokens
    /// Who Subsonic players are (API keys, app passwords) under the sign-in limits.
    public let subsonicAccess: SubsonicAccess
    public let clock: WallClock
    public let logger: Logger
    public let metrics: PrometheusCollectorRegistry
    /// The slots every outside program the server starts takes one of (transcodes, clips,
    /// cover blurs, speech, PDF reads): `--tool-slots` at once, a short line, then 503.
    public let tools: ToolSlots
    /// Covers shrunk for showing blurred (TuneTrivia before a reveal), kept in the data folder.
    public let coverBlur: CoverBlur
    /// Signed links to audio that plays without a login (exported playlists).
    public let mediaLinks: MediaLinks
    /// Where uploaded and fetched documents, feeds and workouts are read: a few at once, off the
    /// server's threads, then 503.
    public let reading = ReadingPool()
    /// ffmpeg for what a browser cannot play; nil when it is off or not installed (such
    /// tracks are then listed as not playable here).
    public let transcoder: Transcoder?
    /// Where the files people give Juke, and what Juke makes for them, are kept: the data
    /// folder, or a bucket every server shares (`--storage`). The database keeps their keys.
    public let files: any MediaStore
    /// This server's own data folder as a store: what each server keeps for itself (the
    /// demos it makes on its first start).
    public let ownFiles: LocalFolderStore
    /// Where a file is made or received on this server's disk before it is stored.
    public var scratchFolder: String { ScratchFolder.path(dataDirectory: configuration.dataDirectory) }
    /// Where work that outlives its request runs (a service of the server's group: shutdown
    /// cancels and awaits it).
    public let background: BackgroundWork
    /// The one outbound HTTP client, for every call to an outside service the apps are
    /// configured with and for the bucket (`configuration.http`, made before both); shut down
    /// by the service group (`OutboundHTTPService`).
    public var http: HTTPClient { configuration.http }

    public init(configuration: ServerConfiguration, database: any JukeDatabase, clock: WallClock, logger: Logger) {
        self.configuration = configuration
        self.database = database
        self.tools = ToolSlots(size: configuration.toolSlots)
        self.coverBlur = CoverBlur(slots: tools, folder: (configuration.dataDirectory as NSString).appendingPathComponent("blurred-covers"))
        self.background = BackgroundWork(logger: logger)
        self.ownFiles = LocalFolderStore(folder: configuration.dataDirectory)
        self.files = configuration.mediaStore ?? ownFiles
        self.users = UserStore(database: database)
        self.library = LibraryStore(database: database)
        self.auth = AuthService(
            users: users, hasher: PasswordHasher(cost: configuration.bcryptCost), clock: clock,
            tokenLifetime: configuration.tokenLifetime,
            throttle: LoginThrottle(maxRegistrationsPerAddress: configuration.signUpsPerAddress)
        )
        self.snapshot = LibrarySnapshot(store: library)
        self.search = CatalogSearch(store: library, background: background, logger: logger)
        self.mediaLinks = MediaLinks(secrets: SecretStore(database: database))
        self.scans = ScanCoordinator(store: library, clock: clock, background: background, logger: logger, search: search)
        self.knownTokens = KnownTokens()
        self.subsonicAccess = SubsonicAccess(
            users: users, credentials: SubsonicCredentialStore(database: database), secrets: SecretStore(database: database), clock: clock)
        self.clock = clock
        self.logger = logger
        self.metrics = PrometheusCollectorRegistry()
        self.transcoder = Self.transcoder(configuration, shared: configuration.mediaStore, slots: tools, logger: logger)
        // The guess judge's folding table, built now rather than under the lock of a
        // game's first guess or a DJ's first pick.
        background.start("music text folding table") { MusicTextNormalizer.prepare() }
    }

    /// `shared`: the bucket every server keeps files in, whose `cache/` they share; nil when
    /// files are in the data folder (its `transcodes` is the whole cache).
    static func transcoder(_ configuration: ServerConfiguration, shared: (any MediaStore)?, slots: ToolSlots, logger: Logger) -> Transcoder? {
        guard let settings = configuration.transcoding else { return nil }
        guard let ffmpeg = ExternalTool.locate("ffmpeg") else {
            logger.notice("ffmpeg is not installed: tracks a browser cannot play (WMA, WavPack, DSD…) are listed as not playable here")
            return nil
        }
        let folder = (configuration.dataDirectory as NSString).appendingPathComponent("transcodes")
        do {
            return try Transcoder(
                ffmpeg: ffmpeg, settings: .init(maxConcurrent: settings.maxConcurrent, cacheDirectory: folder, cacheLimit: settings.cacheLimit),
                shared: shared, slots: slots, logger: logger)
        } catch {
            logger.error("transcoding is off: its cache folder cannot be made", metadata: ["path": "\(folder)", "error": "\(error)"])
            return nil
        }
    }

    /// Watches a folder on the server's disk and starts scanning it (the admin page and
    /// `POST /api/v1/library/folders`).
    public func addFolder(path: String) async throws -> LibraryFolder {
        let trimmed = path.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.hasPrefix("/") else { throw APIError.unprocessable("Give an absolute path, starting with '/'.", field: "path") }
        let standardized = URL(fileURLWithPath: trimmed).standardizedFileURL.resolvingSymlinksInPath().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: standardized, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw APIError.unprocessable("There is no folder at \(standardized) on the server.", field: "path")
        }
        guard FileManager.default.isReadableFile(atPath: standardized) else {
            throw APIError.unprocessable("The server cannot read \(standardized).", field: "path")
        }
        let folder = try await library.addFolder(path: standardized, now: clock.now())
        await scans.start(folder)
        return folder
    }

    /// Waits until every running scan has finished (tests, and commands that scan).
    public func waitForScans() async { await scans.waitForAll() }

    /// First start: write the demo library into the data folder and scan it. Returns
    /// whether it did (false when the library already has folders). On later starts a demo
    /// library an older Juke wrote is written again with what Juke now tags (tempo, say); the
    /// rescan every start makes reads it. A current one costs a look at each file.
    @discardableResult
    func installDemoLibraryIfEmpty() async -> Bool {
        do {
            let path = configuration.demoLibraryPath
            let folders = try await library.folders()
            guard folders.isEmpty else {
                if folders.contains(where: { $0.path == path }) { try await Self.writeDemoLibrary(into: path) }
                return false
            }
            logger.info("creating the demo library", metadata: ["path": "\(path)"])
            try await Self.writeDemoLibrary(into: path)
            let folder = try await library.addFolder(path: path, now: clock.now())
            await scans.start(folder)
            return true
        } catch is CancellationError {
            // The folder is added only once every file is written: the next start finishes it.
            logger.info("the demo library is unfinished: the server is stopping", metadata: ["path": "\(configuration.demoLibraryPath)"])
            return false
        } catch {
            logger.error("could not create the demo library", metadata: ["error": "\(error)"])
            return false
        }
    }
}

extension Platform {
    /// Synthesis is about a second of CPU per piece: on a thread of its own, not the task
    /// pool's (two threads on two cores), and stopped between pieces when the waiting task is
    /// cancelled, as it is when the server shuts down.
    static func writeDemoLibrary(into path: String) async throws {
        try await BlockingWork.run(stoppable: { stop in _ = try DemoLibrary.generate(into: path, shouldStop: { stop.isRequested }) })
    }
}

/// A refused account, in words for a terminal.
public struct AccountError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

extension Platform {
    /// Creates an account with the same rules as registration (for `juke user create`).
    public func createAccount(username: String, password: String, email: String?, displayName: String?, isAdmin: Bool) async throws -> User {
        do {
            return try await auth.createAccount(username: username, password: password, email: email, displayName: displayName, isAdmin: isAdmin)
        } catch let error as APIError {
            throw AccountError(message: error.message)
        }
    }
}
