// swift-tools-version:6.0
// libFuzzer targets for Juke's parsers of outside data. A package of its own because a
// fuzzer executable has no main (libFuzzer provides it) and so cannot sit in the main
// package's `swift build`. Build and run with Scripts/fuzz.sh.
import Foundation
import PackageDescription

// The main package's identity is its folder's name, whatever the checkout is called.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

let package = Package(
    name: "JukeFuzz",
    dependencies: [.package(path: root.path)],
    targets: [
        .executableTarget(
            name: "TagReaderFuzzer",
            dependencies: [.product(name: "MediaFormats", package: root.lastPathComponent)]
        ),
        .executableTarget(
            name: "ChapterReaderFuzzer",
            dependencies: [.product(name: "MediaFormats", package: root.lastPathComponent)]
        ),
        .executableTarget(
            name: "StreamFramingFuzzer",
            dependencies: [.product(name: "MediaFormats", package: root.lastPathComponent)]
        ),
        .executableTarget(
            name: "FeedFuzzer",
            dependencies: [.product(name: "Feeds", package: root.lastPathComponent)]
        ),
        .executableTarget(
            name: "ArticleFuzzer",
            dependencies: [
                .product(name: "Articles", package: root.lastPathComponent), .product(name: "Feeds", package: root.lastPathComponent),
            ]
        ),
        .executableTarget(
            name: "WorkoutFuzzer",
            dependencies: [
                .product(name: "Workouts", package: root.lastPathComponent), .product(name: "RunBeat", package: root.lastPathComponent),
            ]
        ),
        .executableTarget(
            name: "MatchingFuzzer",
            dependencies: [.product(name: "Matching", package: root.lastPathComponent)]
        ),
    ]
)
