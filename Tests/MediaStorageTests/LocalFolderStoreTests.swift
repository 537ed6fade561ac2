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
