import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JukeCore
import JukePlatform
import JukeTestSupport
import Library
import LiveUpdates
import Logging
import MediaFormats
import NIOCore
import Storage
import Synchronization
import Testing

@testable import Back2BackServer
@testable import JukeServer
@testable import TuneTriviaServer

/// A Juke application on a throwaway database, driven through Hummingbird's test client.
struct TestApp {
    let services: AppServices

    static func configuration(dataDirectory: String) -> ServerConfiguration {
        ServerConfiguration(
            dataDirectory: dataDirectory, database: .sqliteInMemory, tokenLifetime: 3600, bcryptCost: 4,
            installDemoLibrary: false, maxBodySize: 4096, rescanInterval: nil
        )
    }

    /// Runs `body` against a fresh application and database, then throws both away.
    static func run(
        _ backend: TestBackend, clock: WallClock = .system, timers: any LiveClock = SystemLiveClock(), mode: TestingSetup = .router,
        configure: @Sendable (inout ServerConfiguration) -> Void = { _ in },
        _ body: @escaping @Sendable (TestApp, any TestClientProtocol) async throws -> Void
    )
        async throws
    {
        try await TestDatabase.with(backend, schemas: Juke.schemas) { db in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("juke-app-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: folder) }
            var settings = configuration(dataDirectory: folder)
            configure(&settings)
            let services = AppServices(configuration: settings, database: db.database, clock: clock, timers: timers, logger: TestDatabase.logger)
            let app = try buildApplication(services: services)
            // The body's end, so that an app whose services do not stop after it is reported
            // (a full parallel run has been seen to stand still past a test's time limit).
            let bodyEnded = Mutex<ContinuousClock.Instant?>(nil)
            let name = Test.current?.name ?? "a test"
            let watcher = Task {
                while true {
                    try await Task.sleep(for: .seconds(20))
                    if let ended = bodyEnded.withLock({ $0 }), ContinuousClock.now - ended > .seconds(60) {
                        FileHandle.standardError.write(
                            Data("juke test: \(name) (\(backend)): the app's services have not stopped a minute after its body ended\n".utf8))
                        return
                    }
                }
            }
            defer { watcher.cancel() }
            try await app.test(mode) { client in
                defer { bodyEnded.withLock { $0 = .now } }
                try await body(TestApp(services: services), client)
            }
        }
    }

    /// Writes a few tagged songs and scans them in, waiting for the scan and the search index.
    func addSongs(_ songs: [(title: String, artist: String, genre: String, year: Int)], cover: Bool = true) async throws -> String {
        let folder = services.configuration.dataDirectory + "/music"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (i, song) in songs.enumerated() {
            var tag = ID3v2Writer()
            tag.text("TIT2", song.title)
            tag.text("TPE1", song.artist)
            tag.text("TALB", "\(song.artist) Hits")
            tag.text("TCON", song.genre)
            tag.text("TDRC", String(song.year))
            tag.text("TRCK", String(i + 1))
            if cover { tag.picture(mimeType: "image/png", data: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, UInt8(i)]) }
            var wav = WAVWriter(sampleRate: 8000)
            wav.id3 = tag.encode()
            let samples = (0..<4000).map { Int16(truncatingIfNeeded: $0 &* 37) }
            try Data(wav.encode(samples: samples)).write(to: URL(fileURLWithPath: "\(folder)/\(i).wav"))
        }
        _ = try await services.platform.addFolder(path: folder)
        await services.platform.waitForScans()
        // And for the search index to have the songs (until it is built, the database answers
        // searches, without the index's ranking and typo correction).
        try await services.platform.search.waitUntilCurrent()
        return folder
    }
}

extension TestClientProtocol {
    @discardableResult
    func json(
        _ method: HTTPRequest.Method, _ uri: String, token: String? = nil, body: String? = nil, headers extra: HTTPFields = [:]
    ) async throws -> (status: HTTPResponse.Status, json: [String: Any], headers: HTTPFields, raw: ByteBuffer) {
        var headers = extra
        if let token { headers[.authorization] = "Bearer \(token)" }
        if body != nil { headers[.contentType] = "application/json" }
        let response = try await execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
        let data = Data(buffer: response.body)
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return (response.status, object, response.headers, response.body)
    }

    /// Registers `username` and returns its token.
    func register(_ username: String, password: String = "correct horse") async throws -> String {
        let r = try await json(.post, "/api/v1/auth/register", body: #"{"username":"\#(username)","password":"\#(password)"}"#)
        #expect(r.status == .created, "register \(username): \(r.json)")
        return r.json["token"] as? String ?? ""
    }
}

/// The apps' services as the tests reach them.
extension AppServices {
    var tuneTrivia: TuneTriviaService { tuneTriviaApp.service }
    var back2back: Back2BackService { back2backApp.service }
    var knownTokens: KnownTokens { platform.knownTokens }
}
