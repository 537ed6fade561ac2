import Foundation
import JukeCore
import JukeTestSupport
import Logging
import MediaFormats
import Storage
import Testing

@testable import Library

/// Incremental scanning: what is reopened, what is a move, what is lost (nothing).
@Suite(.timeLimit(.minutes(5))) struct ScannerTests {
    static func writeSong(_ path: String, title: String, artist: String, seconds: Double = 0.2) throws {
        var tag = ID3v2Writer()
        tag.text("TIT2", title)
        tag.text("TPE1", artist)
        tag.text("TALB", "Test Album")
        var wav = WAVWriter(sampleRate: 8000)
        wav.id3 = tag.encode()
        let samples = [Int16](repeating: 0, count: Int(8000 * seconds))
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(wav.encode(samples: samples)).write(to: URL(fileURLWithPath: path))
    }

    static func tempFolder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("juke-scan-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Sets a file's modification time, so "changed" does not depend on the clock's resolution.
    static func touch(_ path: String, secondsSince1970: Double) throws {
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: secondsSince1970)], ofItemAtPath: path)
    }

    @Test(arguments: TestBackend.available)
    func rescansOnlyWhatChangedAndFollowsMovesAndDeletions(backend: TestBackend) async throws {
        try await TestDatabase.with(backend) { db in
            let root = try Self.tempFolder()
            defer { try? FileManager.default.removeItem(atPath: root) }
            for i in 1...5 { try Self.writeSong("\(root)/a/song\(i).wav", title: "Song \(i)", artist: "Artist \(i % 2)") }
            let store = LibraryStore(database: db.database)
            let scanner = LibraryScanner(store: store, logger: TestDatabase.logger, batchSize: 2)
            let folder = try await store.addFolder(path: root, now: Date())

            let first = try await scanner.scan(folder)
            #expect(first.progress.added == 5)
            #expect(first.failures.isEmpty)
            let ids = Dictionary(uniqueKeysWithValues: try await store.allTracks().map { ($0.title, $0.id) })

            let second = try await scanner.scan(folder)
            #expect(second.progress.unchanged == 5)
            #expect(second.progress.added + second.progress.updated + second.progress.removed == 0)

            // Edit one, move one, delete one, add one.
            try Self.writeSong("\(root)/a/song1.wav", title: "Song 1 (Remastered)", artist: "Artist 1")
            try Self.touch("\(root)/a/song1.wav", secondsSince1970: 2_000_000_000)
            try FileManager.default.createDirectory(atPath: "\(root)/b", withIntermediateDirectories: true)
            try FileManager.default.moveItem(atPath: "\(root)/a/song2.wav", toPath: "\(root)/b/renamed.wav")
            try FileManager.default.removeItem(atPath: "\(root)/a/song3.wav")
            try Self.writeSong("\(root)/b/new.wav", title: "New Song", artist: "Newcomer")

            let third = try await scanner.scan(folder)
            #expect(third.progress.updated == 1)
            #expect(third.progress.moved == 1)
            #expect(third.progress.removed == 1)
            #expect(third.progress.added == 1)
            #expect(third.progress.unchanged == 2)
            let after = try await store.allTracks()
            #expect(Set(after.map(\.title)) == ["Song 1 (Remastered)", "Song 2", "Song 4", "Song 5", "New Song"])
            let moved = try #require(after.first { $0.title == "Song 2" })
            #expect(moved.id == ids["Song 2"])
            #expect(moved.path.hasSuffix("/b/renamed.wav"))
            #expect(after.first { $0.title == "Song 1 (Remastered)" }?.id == ids["Song 1"])
        }
    }

    @Test(arguments: TestBackend.available)
    func unreadableFilesAreReportedAndNothingIsLost(backend: TestBackend) async throws {
        try await TestDatabase.with(backend) { db in
            let root = try Self.tempFolder()
            defer { try? FileManager.default.removeItem(atPath: root) }
            try Self.writeSong("\(root)/good.wav", title: "Good", artist: "A")
            try Self.writeSong("\(root)/later-broken.wav", title: "Was Fine", artist: "B")
            let store = LibraryStore(database: db.database)
            let scanner = LibraryScanner(store: store, logger: TestDatabase.logger)
            let folder = try await store.addFolder(path: root, now: Date())
            _ = try await scanner.scan(folder)

            // A truncated new file and a previously good file that is now garbage.
            try Data("RIFF\u{10}\0\0\0WAVEfmt ".utf8).write(to: URL(fileURLWithPath: "\(root)/truncated.wav"))
            try Data(repeating: 0x42, count: 300).write(to: URL(fileURLWithPath: "\(root)/later-broken.wav"))
            try Self.touch("\(root)/later-broken.wav", secondsSince1970: 2_000_000_000)
            let report = try await scanner.scan(folder)
            #expect(report.progress.failed == 2)
            #expect(Set(report.failures.map { ($0.path as NSString).lastPathComponent }) == ["truncated.wav", "later-broken.wav"])
            #expect(report.failures.allSatisfy { !$0.reason.isEmpty })
            // The old entry of the broken file is still there; the good one too.
            #expect(Set(try await store.allTracks().map(\.title)) == ["Good", "Was Fine"])
            #expect(try await store.scanIssues().count == 2)

            // Fixing the file clears its issue.
            try Self.writeSong("\(root)/later-broken.wav", title: "Fixed", artist: "B")
            try Self.touch("\(root)/later-broken.wav", secondsSince1970: 2_100_000_000)
            _ = try await scanner.scan(folder)
            #expect(try await store.scanIssues().map { ($0.path as NSString).lastPathComponent } == ["truncated.wav"])
            #expect(Set(try await store.allTracks().map(\.title)) == ["Good", "Fixed"])
        }
    }

    @Test(arguments: TestBackend.available)
    func twoScannersOnTheSameFolderAtOnceBothSucceed(backend: TestBackend) async throws {
        try await TestDatabase.with(backend) { db in
            let root = try Self.tempFolder()
            defer { try? FileManager.default.removeItem(atPath: root) }
            for i in 1...20 { try Self.writeSong("\(root)/song\(i).wav", title: "Song \(i)", artist: "A") }
            let store = LibraryStore(database: db.database)
            let folder = try await store.addFolder(path: root, now: Date())
            // Two servers sharing one database scan the same folder on start.
            try await withThrowingTaskGroup(of: ScanReport.self) { group in
                for _ in 0..<2 {
                    group.addTask { try await LibraryScanner(store: store, logger: TestDatabase.logger, batchSize: 3).scan(folder) }
                }
                for try await report in group { #expect(report.failures.isEmpty) }
            }
            let tracks = try await store.allTracks()
            #expect(tracks.count == 20)
            #expect(Set(tracks.map(\.path)).count == 20)
        }
    }

    /// A link to the parent and two links to "." used to index every file 40 times, or never
    /// finish; a link out of the folder was followed. Now each file is listed once, links
    /// inside the folder are followed, and links out of it are not.
    @Test func symlinkLoopsEndAndLinksOutOfTheFolderAreNotFollowed() throws {
        let root = try Self.tempFolder()
        let outside = try Self.tempFolder()
        defer {
            try? FileManager.default.removeItem(atPath: root)
            try? FileManager.default.removeItem(atPath: outside)
        }
        try Self.writeSong("\(root)/music/a.wav", title: "A", artist: "X")
        try Self.writeSong("\(root)/music/deep/b.wav", title: "B", artist: "X")
        try Self.writeSong("\(outside)/secret.wav", title: "Secret", artist: "Y")
        let links = FileManager.default
        try links.createSymbolicLink(atPath: "\(root)/music/deep/up", withDestinationPath: "..")
        try links.createSymbolicLink(atPath: "\(root)/music/here", withDestinationPath: ".")
        try links.createSymbolicLink(atPath: "\(root)/music/again", withDestinationPath: ".")
        try links.createSymbolicLink(atPath: "\(root)/shortcut", withDestinationPath: "\(root)/music/deep")
        try links.createSymbolicLink(atPath: "\(root)/music/out.wav", withDestinationPath: "\(outside)/secret.wav")
        try links.createSymbolicLink(atPath: "\(root)/elsewhere", withDestinationPath: outside)
        try links.createSymbolicLink(atPath: "\(root)/dangling.wav", withDestinationPath: "\(root)/gone.wav")

        let files = try FileWalker.audioFiles(under: root)
        #expect(files.map(\.path) == ["\(root)/music/a.wav", "\(root)/music/deep/b.wav"], "each once, under its own path: \(files.map(\.path))")
        #expect(!files.contains { $0.path.hasPrefix(outside) || $0.path.contains("secret") })

        // A folder that is itself a link is scanned as the folder it leads to.
        try links.createSymbolicLink(atPath: "\(outside)/library-link", withDestinationPath: "\(root)/music")
        #expect(try FileWalker.audioFiles(under: "\(outside)/library-link").count == 2)
    }

    @Test func aMissingFolderFailsWithItsPath() async throws {
        try await TestDatabase.with(.sqlite) { db in
            let store = LibraryStore(database: db.database)
            let folder = try await store.addFolder(path: "/nonexistent/juke", now: Date())
            await #expect(throws: LibraryError.notAFolder("/nonexistent/juke")) {
                try await LibraryScanner(store: store, logger: TestDatabase.logger).scan(folder)
            }
        }
    }
}
