import Foundation
import MediaStorage
import NIOCore
import Testing

@Suite(.timeLimit(.minutes(1)))
struct LocalFolderStoreTests {
    func scratch() throws -> String {
        let folder = NSTemporaryDirectory() + "juke-local-store-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    func collect(_ bytes: StoredBytes) async throws -> [UInt8] {
        var out: [UInt8] = []
        for try await buffer in bytes.body { out += buffer.readableBytesView }
        return out
    }

    @Test func keysAreRelativeNamesWithoutEscapes() {
        #expect(StorageKey("dual/books/a1.mp3") != nil)
        #expect(StorageKey("dual/books/a1.mp3")?.pathExtension == "mp3")
        #expect(StorageKey("dual/books/a1.mp3")?.name == "a1.mp3")
        for bad in ["", "/etc/passwd", "a//b", "a/../b", "./a", "a/", "a b", "a%2f", String(repeating: "a", count: 513), "ü"] {
            #expect(StorageKey(bad) == nil, "\(bad)")
        }
    }

    @Test func storesReadsRangesListsAndDeletes() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = LocalFolderStore(folder: folder)
        let incoming = folder + "/incoming.bin"
        let bytes = (0..<200_000).map { UInt8($0 % 251) }
        FileManager.default.createFile(atPath: incoming, contents: Data(bytes))
        let key = try #require(StorageKey("dual/books/b.mp3"))
        let stored = try await store.store(file: incoming, as: key, contentType: "audio/mpeg")
        #expect(stored.size == 200_000)
        #expect(!FileManager.default.fileExists(atPath: incoming))
        #expect(try await store.info(key) == stored)
        #expect(try await collect(try await store.read(key, range: nil)) == bytes)
        #expect(try await collect(try await store.read(key, range: 70_000...70_009)) == Array(bytes[70_000...70_009]))
        #expect(try await store.list(prefix: "dual/").map(\.key) == [key])
        #expect(try await store.list(prefix: "dual/b").map(\.key) == [key])
        #expect(try await store.list(prefix: "other/").isEmpty)
        try await store.delete(key)
        #expect(try await store.info(key) == nil)
        try await store.delete(key)
        await #expect(throws: MediaStoreError.notFound(key)) { try await store.read(key, range: nil) }
    }
}

@Suite(.timeLimit(.minutes(1)))
struct LegacyPathTests {
    let roots = ["dual/books", "dual/songs", "dual/podcasts", "dual/articles", "dual/demo"]

    @Test func aDataFolderPathBecomesTheKeyAfterIt() {
        #expect(StorageKey(legacyPath: "/srv/juke/data/dual/books/0a1b.mp3", roots: roots)?.rawValue == "dual/books/0a1b.mp3")
        #expect(StorageKey(legacyPath: "/d/dual/books/librivox-9/book.mp3", roots: roots)?.rawValue == "dual/books/librivox-9/book.mp3")
        #expect(StorageKey(legacyPath: "./data/dual/podcasts/p1/e1.mp3", roots: roots)?.rawValue == "dual/podcasts/p1/e1.mp3")
    }

    @Test func aDataFolderNamedLikeARootIsSkipped() {
        #expect(StorageKey(legacyPath: "/home/dual/books/data/dual/songs/x.flac", roots: roots)?.rawValue == "dual/songs/x.flac")
        #expect(StorageKey(legacyPath: "/home/dual/books/data/dual/books/x.mp3", roots: roots)?.rawValue == "dual/books/x.mp3")
    }

    @Test func aPathOutsideEveryRootHasNoKey() {
        #expect(StorageKey(legacyPath: "/etc/passwd", roots: roots) == nil)
        #expect(StorageKey(legacyPath: "/d/dual/books/", roots: roots) == nil)
        #expect(StorageKey(legacyPath: "/d/dual/books/a b.mp3", roots: roots) == nil)
    }
}
