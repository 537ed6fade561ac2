// swift-tools-version:6.2
// Juke: one Swift package. Pure engines and format readers at the bottom, storage and
// providers beside them, the platform server and one server module per app above them, the
// composition root and the `juke` command on top (docs/ARCHITECTURE.md has the map).
// Swift 6.2 for `@concurrent`; macOS 15 for the Synchronization module (Mutex, Atomic).
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
    name: "Juke",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "juke", targets: ["juke"]),
        .library(name: "MediaFormats", targets: ["MediaFormats"]),
        .library(name: "Matching", targets: ["Matching"]),
        .library(name: "Feeds", targets: ["Feeds"]),
        .library(name: "Articles", targets: ["Articles"]),
        .library(name: "Workouts", targets: ["Workouts"]),
        .library(name: "RunBeat", targets: ["RunBeat"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird.git", from: "2.1.0"),
        .package(url: "https://github.com/apple/swift-openapi-generator.git", from: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
        .package(url: "https://github.com/vapor/sqlite-kit.git", from: "4.5.2"),
        .package(url: "https://github.com/vapor/postgres-kit.git", from: "2.17.0"),
        // Storage and TuneTrivia's relay use the drivers under the kits directly (notifications,
        // connection settings): declared, not borrowed through the kits.
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/vapor/sqlite-nio.git", from: "1.13.2"),
        // zlib for ePub files and PDF streams (Articles/Archive/Inflate.swift says why not ZIPFoundation).
        .package(url: "https://github.com/adam-fowler/compress-nio.git", from: "1.5.0"),
        // The one outbound HTTP client (Providers/HTTP), which the S3-compatible bucket
        // (MediaStorage/S3) shares: streamed bodies with back-pressure, deadlines, no URLSession.
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        // Read by the ContractErrors plugin's tool (the same Yams the OpenAPI generator uses).
        .package(url: "https://github.com/jpsim/Yams", "5.0.1"..<"7.0.0"),
        // Programs Juke starts (ffmpeg, espeak-ng, pdftotext): posix_spawn without listing
        // /proc, a pidfd per child, asynchronous pipes.
        .package(url: "https://github.com/swiftlang/swift-subprocess.git", from: "1.0.2"),
        .package(url: "https://github.com/apple/swift-system.git", from: "1.8.1"),
    ],
    targets: [
        // The Linux calls Swift's Glibc module leaves out (thread CPU affinity, epoll, timerfd),
        // for the event loops' pinning and the benchmarks' load clients.
        .target(name: "CLinuxSystem"),
        // Shared vocabulary: typed IDs, values, clock and randomness interfaces. No I/O.
        .target(name: "JukeCore", swiftSettings: strict),
        // Is this the same song? Normalization and string similarity (rapidfuzz-compatible
        // scores, bit-parallel). Pure, no dependencies.
        .target(name: "Matching", swiftSettings: strict),
        // Where a song's chorus is, from its samples (chroma, self-similarity): pure.
        .target(name: "AudioAnalysis", swiftSettings: strict),
        // Pure, bounds-checked readers of audio tags and containers. Fuzzed.
        .target(name: "MediaFormats", swiftSettings: strict),
        // Juke's own feed parser: a lenient streaming XML tokenizer, encodings, RSS, Atom and
        // the podcast namespaces. Pure, fuzzed.
        .target(name: "Feeds", dependencies: ["JukeCore", "Matching"], swiftSettings: strict),
        // TuneTrivia's rules: a pure state machine (commands in, state and events out).
        .target(name: "TuneTrivia", dependencies: ["JukeCore", "Matching"], swiftSettings: strict),
        // Back2Back's rules: turns and queue states, song memory, Juke's own persona DJ and
        // direction changes, playlist export. Pure.
        .target(name: "Back2Back", dependencies: ["JukeCore", "Matching"], swiftSettings: strict),
        // Dual Player's rules: the two players' transport and lock-screen decision, chapter
        // cursor with its generation counter, positions (newest wins), settings. Pure.
        // Articles read aloud: Juke's own readers of web pages (Readability's method on a
        // lenient HTML tree), ePub, PDF's text layer and plain text, into chapters of
        // paragraphs. Pure, fuzzed; DEFLATE is zlib's, through compress-nio.
        .target(
            name: "Articles",
            dependencies: [
                "Feeds", "JukeCore", .product(name: "CompressNIO", package: "compress-nio"), .product(name: "NIOCore", package: "swift-nio"),
            ], swiftSettings: strict),
        .target(name: "DualPlayer", dependencies: ["JukeCore", "Feeds"], swiftSettings: strict),
        // Juke's own readers and writers of recorded workouts: FIT (Garmin's binary protocol),
        // TCX and GPX (on the feed tokenizer). Pure, fuzzed.
        .target(name: "Workouts", dependencies: ["Feeds"], swiftSettings: strict),
        // RunBeat's rules: the heart-rate measurement (Bluetooth 0x2A37), Karvonen zones and
        // their editing, workout plans (free, 4x4, custom), the training session (samples in,
        // cues and phases out) and the summary. Pure.
        .target(name: "RunBeat", dependencies: ["JukeCore"], swiftSettings: strict),
        // Outside services: a client per service, speaking its documented wire format, with
        // a hard deadline on every request. Tested against local fakes of each service. Radio
        // streams are opened on SwiftNIO directly: the relay checks the address it connects to
        // (no request forgery into the LAN) and reads SHOUTcast's "ICY 200 OK".
        .target(
            name: "Providers",
            dependencies: [
                "MediaFormats", "JukeCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            swiftSettings: strict
        ),
        // Programs Juke starts (ffmpeg, espeak-ng, pdftotext), one way: swift-subprocess, each
        // in a process group of its own, ended on cancellation, deadline or output budget.
        .target(
            name: "ExternalTools",
            dependencies: [.product(name: "Subprocess", package: "swift-subprocess"), .product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: strict
        ),
        // Music library: scanning folders, the demo library synthesizer, search.
        .target(
            name: "Library",
            dependencies: [
                "Matching",
                "JukeCore", "MediaFormats", "Storage",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // One schema, two backends (SQLite embedded, PostgreSQL shared) through SQLKit.
        .target(
            name: "Storage",
            dependencies: [
                "JukeCore",
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        // The HTTP contract: one openapi.yaml, generated per module by tag. JukeAPI holds the
        // platform's operations (system, auth, catalog, library) and serves the whole file.
        // Each API module also gets, from the ContractErrors plugin, the error responses each
        // of its operations declares (ContractSupport).
        .target(
            name: "JukeAPI",
            dependencies: ["ContractSupport", .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")],
            resources: [.copy("openapi.yaml")],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator"), "ContractErrors"]
        ),
        // TuneTrivia's operations from the same file (its openapi.yaml is a link to JukeAPI's).
        .target(
            name: "TuneTriviaAPI",
            dependencies: ["ContractSupport", .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator"), "ContractErrors"]
        ),
        // Back2Back's operations from the same file.
        .target(
            name: "Back2BackAPI",
            dependencies: ["ContractSupport", .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator"), "ContractErrors"]
        ),
        // Dual Player's operations from the same file.
        .target(
            name: "DualPlayerAPI",
            dependencies: ["ContractSupport", .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator"), "ContractErrors"]
        ),
        // RunBeat's operations from the same file.
        .target(
            name: "RunBeatAPI",
            dependencies: ["ContractSupport", .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator"), "ContractErrors"]
        ),
        // A refusal as the contract writes it, and the protocol the generated outputs conform to.
        .target(name: "ContractSupport", swiftSettings: strict),
        // Writes each operation's declared error responses from openapi.yaml (run by the plugin).
        .executableTarget(
            name: "ContractErrorsTool", dependencies: [.product(name: "Yams", package: "Yams")], swiftSettings: strict
        ),
        .plugin(name: "ContractErrors", capability: .buildTool(), dependencies: ["ContractErrorsTool"]),
        // Live updates every app uses: the cross-server relay over LISTEN/NOTIFY (one payload
        // format) and the WebSocket wire.
        .target(
            name: "LiveUpdates",
            dependencies: [
                "JukeCore", "Storage",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        // Where the files people give Juke are kept: this server's data folder, or an
        // S3-compatible bucket several servers share (Signature Version 4 written here).
        .target(
            name: "MediaStorage",
            dependencies: [
                // The server's one outbound HTTP client, which the bucket's calls go through.
                "JukeCore", "Providers",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        // The platform every app stands on: application build, middleware, auth, the web
        // shell (page frame, home, sign-in, shared scripts and styles), media, library admin,
        // observability, and the `JukeApp` interface an app registers through. Imports no app.
        .target(
            name: "JukePlatform",
            dependencies: [
                "Providers", "LiveUpdates", "ContractSupport", "CLinuxSystem", "MediaStorage", "ExternalTools",
                "JukeCore", "MediaFormats", "Library", "Storage", "JukeAPI", "Matching",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // The event loops pinned to CPUs; the connections' guard (HTTP/1 parts).
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            resources: [.copy("Web/static")],
            swiftSettings: strict
        ),
        // TuneTrivia on the server: its service, store and migrations, routes, live hub,
        // pages, scripts and styles.
        .target(
            name: "TuneTriviaServer",
            dependencies: [
                "TuneTrivia", "TuneTriviaAPI", "JukePlatform", "LiveUpdates", "ContractSupport",
                "JukeCore", "Library", "Storage", "Providers", "Matching",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            resources: [.copy("static")],
            swiftSettings: strict
        ),
        // Back2Back on the server: its service, store and migrations, the AI DJ, routes,
        // live updates, pages, scripts and styles.
        .target(
            name: "Back2BackServer",
            dependencies: [
                "Back2Back", "Back2BackAPI", "JukePlatform", "LiveUpdates", "ContractSupport",
                "JukeCore", "Library", "Storage", "Providers", "Matching",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "SQLKit", package: "sql-kit"),
            ],
            resources: [.copy("static")],
            swiftSettings: strict
        ),
        // Dual Player on the platform: its store, service, handlers, page and scripts (/dual).
        .target(
            name: "DualPlayerServer",
            dependencies: [
                "DualPlayer", "DualPlayerAPI", "JukePlatform", "ContractSupport", "JukeCore", "Library", "Storage", "MediaFormats", "Providers",
                "Feeds", "Articles", "MediaStorage", "ExternalTools",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "SQLKit", package: "sql-kit"),
            ],
            resources: [.copy("static")],
            swiftSettings: strict
        ),
        // RunBeat on the platform: its store, service, live training hub (samples in, cues out,
        // coaches' classes), handlers, pages and scripts (/runbeat).
        .target(
            name: "RunBeatServer",
            dependencies: [
                "RunBeat", "RunBeatAPI", "Workouts", "JukePlatform", "LiveUpdates", "ContractSupport", "JukeCore", "Library", "Storage", "Providers",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            resources: [.copy("static")],
            swiftSettings: strict
        ),
        // The composition root: the one place that lists Juke's apps.
        .target(
            name: "JukeServer",
            dependencies: [
                "JukePlatform", "TuneTriviaServer", "Back2BackServer", "DualPlayerServer", "RunBeatServer", "Storage", "JukeCore", "LiveUpdates",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // Benchmarks (run with Scripts/bench.sh, in release, beside the reference tools).
        .executableTarget(
            name: "JukeBench",
            dependencies: [
                "MediaFormats", "Library", "Storage", "JukeCore", "Matching", "Feeds", "Articles", "Workouts", "CLinuxSystem", "ExternalTools",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                // The TuneTrivia load client (TriviaLoad.swift).
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                // The RunBeat load client's runners (RunBeatLoad.swift).
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
            ],
            path: "Benchmarks/JukeBench",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "juke",
            dependencies: [
                "JukeServer", "JukePlatform", "Library", "Storage", "MediaFormats", "Matching", "Providers", "Feeds", "Articles",
                "Workouts", "RunBeat", "JukeCore", "ExternalTools",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // Shared by the test targets only: throwaway databases on both backends.
        .target(
            name: "JukeTestSupport",
            dependencies: [
                "Storage", "LiveUpdates", "JukeCore", .product(name: "Logging", package: "swift-log"), .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                // A local fake of OpenAI's API for the provider and AI DJ tests.
                .product(name: "Hummingbird", package: "hummingbird"), .product(name: "HummingbirdTesting", package: "hummingbird"),
                // A raw TCP radio station for the relay's tests (an ICY status line, a paced stream).
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                // The Spotify fake checks PKCE challenges.
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "MediaFormatsTests", dependencies: ["MediaFormats"], resources: [.copy("Fixtures")], swiftSettings: strict
        ),
        .testTarget(name: "DualPlayerTests", dependencies: ["DualPlayer", "Feeds", "JukeCore"], resources: [.copy("Fixtures")], swiftSettings: strict),
        .testTarget(
            name: "LibraryTests",
            dependencies: ["Library", "MediaFormats", "Storage", "JukeCore", "JukeTestSupport", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict),
        .testTarget(name: "MatchingTests", dependencies: ["Matching", "JukeCore"], resources: [.copy("Oracle")], swiftSettings: strict),
        .testTarget(name: "AudioAnalysisTests", dependencies: ["AudioAnalysis"], swiftSettings: strict),
        .testTarget(name: "TuneTriviaTests", dependencies: ["TuneTrivia", "JukeCore"], swiftSettings: strict),
        .testTarget(name: "FeedsTests", dependencies: ["Feeds"], resources: [.copy("Fixtures")], swiftSettings: strict),
        .testTarget(name: "WorkoutsTests", dependencies: ["Workouts"], resources: [.copy("Fixtures")], swiftSettings: strict),
        .testTarget(name: "RunBeatTests", dependencies: ["RunBeat", "JukeCore"], resources: [.copy("Traces")], swiftSettings: strict),
        .testTarget(
            name: "ArticlesTests",
            dependencies: [
                // Tests compress their hostile books and streams with zlib (compress-nio).
                "Articles", .product(name: "CompressNIO", package: "compress-nio"), .product(name: "NIOCore", package: "swift-nio"),
            ], resources: [.copy("Fixtures")], swiftSettings: strict),
        .testTarget(
            name: "ProvidersTests",
            dependencies: [
                "Providers", "JukeTestSupport", "MediaFormats", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"), .product(name: "HummingbirdTesting", package: "hummingbird"),
                // A raw TCP radio station for the relay's tests (an ICY status line, a paced stream).
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict),
        .testTarget(name: "ExternalToolsTests", dependencies: ["ExternalTools"], swiftSettings: strict),
        .testTarget(name: "Back2BackTests", dependencies: ["Back2Back", "JukeCore", "Library"], swiftSettings: strict),
        .testTarget(
            name: "LiveUpdatesTests", dependencies: ["LiveUpdates", "JukeCore", "JukeTestSupport", .product(name: "NIOCore", package: "swift-nio")],
            swiftSettings: strict),
        .testTarget(
            name: "MediaStorageTests",
            dependencies: [
                "MediaStorage", "JukeCore", .product(name: "NIOCore", package: "swift-nio"), .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            resources: [.copy("SigV4Vectors")], swiftSettings: strict),
        .testTarget(
            name: "StorageTests",
            dependencies: [
                "Storage", "JukeCore", "JukeTestSupport", .product(name: "Logging", package: "swift-log"), .product(name: "SQLKit", package: "sql-kit"),
            ], swiftSettings: strict),
        .testTarget(
            name: "JukeServerTests",
            dependencies: [
                "JukeServer", "JukePlatform", "TuneTriviaServer", "Back2BackServer", "DualPlayerServer", "LiveUpdates",
                "Storage", "Library", "JukeCore", "JukeAPI", "TuneTriviaAPI", "ContractSupport", "JukeTestSupport", "TuneTrivia", "Back2Back", "Providers",
                "Matching", "DualPlayer", "MediaFormats", "RunBeatServer", "RunBeat", "RunBeatAPI", "Workouts", "MediaStorage", "ExternalTools",
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
    ]
)
