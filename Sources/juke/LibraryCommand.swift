import ArgumentParser
import Foundation
import JukeCore
import JukePlatform
import JukeServer
import Library
import Storage

struct LibraryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "library",
        abstract: "Adds, scans and lists music folders.",
        subcommands: [Add.self, Scan.self, List.self]
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Watches a folder and scans it now.")
        @OptionGroup var data: DataOptions
        @Argument(help: "The music folder.") var folder: String

        func run() async throws {
            let path = URL(fileURLWithPath: folder).standardizedFileURL.resolvingSymlinksInPath().path
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ValidationError("there is no folder at \(path)")
            }
            try await withServices(data) { services in
                let added = try await services.library.addFolder(path: path, now: Date())
                try await ScanPrinter.scan(added, services: services)
            }
        }
    }

    struct Scan: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Rescans every watched folder (only changed files are read).")
        @OptionGroup var data: DataOptions

        func run() async throws {
            try await withServices(data) { services in
                let folders = try await services.library.folders()
                if folders.isEmpty { print("No folders yet: juke library add <folder>") }
                for folder in folders { try await ScanPrinter.scan(folder, services: services) }
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Lists the watched folders, or the tracks with --tracks.")
        @OptionGroup var data: DataOptions
        @Flag(name: .long, help: "List every track instead of the folders.") var tracks = false

        func run() async throws {
            try await withServices(data) { services in
                if tracks {
                    for t in try await services.library.allTracks().sorted(by: { ($0.artist, $0.album, $0.title) < ($1.artist, $1.album, $1.title) }) {
                        print("\(t.artist) — \(t.title) [\(t.album)\(t.year.map { ", \($0)" } ?? "")] \(Int(t.duration))s  \(t.path)")
                    }
                    return
                }
                let folders = try await services.library.folders()
                if folders.isEmpty { print("No folders yet: juke library add <folder>") }
                for folder in folders {
                    let count = try await services.library.fileRecords(folder: folder.id).count
                    let scanned = folder.lastScanAt.map { "last scanned \($0)" } ?? "never scanned"
                    print("\(folder.path)  \(count) tracks, \(scanned)")
                }
                let issues = try await services.library.scanIssues()
                if !issues.isEmpty {
                    print("\n\(issues.count) file(s) could not be read:")
                    for issue in issues { print("  \(issue.path): \(issue.reason)") }
                }
            }
        }
    }
}

/// Opens the data, runs `body`, and closes the database even when `body` fails.
func withServices(_ data: DataOptions, _ body: (AppServices) async throws -> Void) async throws {
    var logger = try data.logger(label: "juke.cli")
    if logger.logLevel == .info { logger.logLevel = .warning }  // the command prints its own progress
    let services = try await makeServices(configuration: try data.configuration(installDemo: false), logger: logger)
    do {
        try await body(services)
    } catch {
        await services.database.shutdown()
        throw error
    }
    await services.database.shutdown()
}

/// Scans with progress on the terminal: one line redrawn in place on a terminal, a line
/// every few hundred files otherwise, and a report of unreadable files at the end.
enum ScanPrinter {
    static func scan(_ folder: LibraryFolder, services: AppServices) async throws {
        let interactive = isatty(STDOUT_FILENO) == 1
        print("Scanning \(folder.path)")
        let scanner = LibraryScanner(store: services.library, logger: services.logger)
        let report = try await scanner.scan(folder) { progress in
            if interactive {
                print("\r\u{1B}[2K" + progress.summary, terminator: "")
                fflush(nil)  // all output streams; naming stdout is not concurrency-safe in Swift 6
            } else if progress.phase == .reading, progress.filesChecked % 500 == 0, progress.filesChecked > 0 {
                print(progress.summary)
            }
        }
        if interactive { print("") }
        print(report.progress.summary)
        if !report.failures.isEmpty {
            print("\(report.failures.count) file(s) skipped:")
            for failure in report.failures { print("  \(failure.path): \(failure.reason)") }
        }
    }
}
