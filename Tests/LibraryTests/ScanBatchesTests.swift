import Foundation
import JukeCore
import JukeTestSupport
import Storage
import Testing

@testable import Library

/// A scan of any size never holds a page or a search behind it: it saves in short
/// transactions of at most its batch size (additions, changes and removals alike), and a
/// page read while one is open does not wait for it.
@Suite(.timeLimit(.minutes(5))) struct ScanBatchesTests {
    /// What the scanner told its observer.
    actor Recorder: LibraryChangeObserver {
        var starts = 0
        var batches: [LibraryStore.AppliedChanges] = []
        func willApply() async { starts += 1 }
        func applied(_ change: LibraryStore.AppliedChanges?) async { if let change { batches.append(change) } }
    }

    /// Holds a transaction open until released.
    actor Gate {
        private var open = false
        private var waiters: [CheckedContinuation<Void, Never>] = []
        func wait() async {
            if open { return }
            await withCheckedContinuation { waiters.append($0) }
        }
        func release() {
            open = true
            for waiter in waiters { waiter.resume() }
            waiters = []
        }
    }

    @Test(arguments: TestBackend.available)
    func aScanSavesAdditionsAndRemovalsInBatchesOfItsSize(backend: TestBackend) async throws {
        try await TestDatabase.with(backend) { db in
            let root = try ScannerTests.tempFolder()
            defer { try? FileManager.default.removeItem(atPath: root) }
            for i in 1...7 { try ScannerTests.writeSong("\(root)/song\(i).wav", title: "Song \(i)", artist: "Artist") }
            let store = LibraryStore(database: db.database)
            let recorder = Recorder()
            let scanner = LibraryScanner(store: store, logger: TestDatabase.logger, batchSize: 3, observer: recorder)
            let folder = try await store.addFolder(path: root, now: Date())
            let start = try await store.generation()

            _ = try await scanner.scan(folder)
            var batches = await recorder.batches
            #expect(batches.map(\.stored.count) == [3, 3, 1])
            // Each batch is its own transaction: the library's generation moves once for each.
            #expect(batches.map(\.generation) == [start + 1, start + 2, start + 3])

            for i in 1...7 { try FileManager.default.removeItem(atPath: "\(root)/song\(i).wav") }
            _ = try await scanner.scan(folder)
            batches = Array(await recorder.batches.dropFirst(3))
            #expect(batches.map(\.removed.count) == [3, 3, 1], "removals are batched as additions are")
            #expect(try await store.trackCount() == 0)
            // Every save was announced first (the search index waits for the change, not builds).
            #expect(await recorder.starts == 6)
        }
    }

    @Test(arguments: TestBackend.available)
    func pagesAndSearchesDoNotWaitForAWriteUnderWay(backend: TestBackend) async throws {
        try await TestDatabase.with(backend) { db in
            let store = LibraryStore(database: db.database)
            let folder = try await store.addFolder(path: "/music", now: Date()).id
            var changes = LibraryStore.ScanChanges()
            changes.upserts = (1...5).map { n in
                Track(
                    id: TrackID(), folderID: folder, path: "/music/\(n).mp3", fileSize: 1, modifiedMillis: 1, format: "mp3", title: "Old \(n)",
                    artist: "Band", album: "First", albumArtist: "Band", genre: "Rock", year: 1999, duration: 60, addedAt: Date())
            }
            try await store.apply(changes, folder: folder, now: Date())

            // A write, open: it has changed rows and not committed, and waits.
            let gate = Gate()
            let begun = Gate()
            let writer = Task {
                try await db.database.transaction { tx in
                    try await tx.raw("UPDATE library_generation SET generation = generation + 1 WHERE id = 1").run()
                    try await tx.raw("DELETE FROM albums").run()
                    await begun.release()
                    await gate.wait()
                }
            }
            await begun.wait()
            // Every read answers while the write is open, from the library as it was. (Were
            // a reader to wait for the writer, this would never end: the writer waits for it.)
            #expect(try await store.albums(LibraryStore.AlbumQuery(limit: 10)).albums.map(\.title) == ["First"])
            #expect(try await store.tracks(LibraryStore.TrackQuery(limit: 10)).tracks.count == 5)
            #expect(try await store.artists(limit: 10).artists.map(\.name) == ["Band"])
            #expect(try await store.facet(.genre).map(\.value) == ["Rock"])
            #expect(try await store.searchTracks(words: ["old"], limit: 10, offset: 0).total == 5)
            #expect(try await store.searchRows().rows.count == 5)
            await gate.release()
            try await writer.value
            #expect(try await store.albums(LibraryStore.AlbumQuery(limit: 10)).albums.isEmpty)
        }
    }
}
