import Crypto
import Foundation
import JukeCore
import MediaStorage
import NIOCore
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The S3 server the tests use, from JUKE_TEST_S3_* (Scripts/test.sh starts SeaweedFS and
/// sets them); nil when they are not set.
struct S3TestServer {
    let endpoint: URL
    let bucket: String
    let accessKey: String
    let secret: String

    static let configured: S3TestServer? = {
        let environment = ProcessInfo.processInfo.environment
        guard let endpoint = environment["JUKE_TEST_S3_ENDPOINT"].flatMap(URL.init(string:)), let bucket = environment["JUKE_TEST_S3_BUCKET"],
            let accessKey = environment["JUKE_TEST_S3_ACCESS_KEY"], let secret = environment["JUKE_TEST_S3_SECRET"]
        else { return nil }
        return S3TestServer(endpoint: endpoint, bucket: bucket, accessKey: accessKey, secret: secret)
    }()
}

/// The S3 store against a real S3 server (SeaweedFS, which checks signatures): Scripts/test.sh
/// starts one and sets JUKE_TEST_S3_*, so these always run there; without it they are skipped.
@Suite(.enabled(if: S3TestServer.configured != nil), .timeLimit(.minutes(5)))
struct S3BucketTests {
    static var server: S3TestServer? { S3TestServer.configured }

    /// A store of its own under a fresh prefix, so tests running at once never see each
    /// other's objects.
    func bucket(
        secret: String? = nil, endpoint: URL? = nil, pageSize: Int = 1000, threshold: Int64 = 16 << 20, partSize: Int64 = 8 << 20,
        timeout: Duration = .seconds(60)
    ) throws -> S3Bucket {
        let server = try #require(Self.server)
        let configuration = S3Configuration(
            location: S3Location(bucket: server.bucket, prefix: "juke-tests/\(UUID().uuidString.lowercased())"), endpoint: endpoint ?? server.endpoint,
            region: "us-east-1", credentials: S3Credentials(accessKeyID: server.accessKey, secretAccessKey: secret ?? server.secret),
            multipartThreshold: threshold, partSize: partSize, listPageSize: pageSize, callTimeout: timeout, transferTimeout: timeout * 2)
        return S3Bucket(configuration: configuration)
    }

    func file(_ bytes: [UInt8]) -> String {
        let path = NSTemporaryDirectory() + "juke-s3-\(UUID().uuidString)"
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    func pattern(_ count: Int, seed: Int = 0) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: ($0 &* 31 &+ seed) % 251) } }

    func collect(_ bytes: StoredBytes) async throws -> [UInt8] {
        var out: [UInt8] = []
        for try await buffer in bytes.body { out += buffer.readableBytesView }
        return out
    }

    func key(_ raw: String) throws -> StorageKey { try #require(StorageKey(raw)) }

    @Test func storesReadsRangesListsAndDeletes() async throws {
        let store = try bucket()
        let bytes = pattern(200_000)
        let incoming = file(bytes)
        let book = try key("dual/books/b.mp3")
        let stored = try await store.store(file: incoming, as: book, contentType: "audio/mpeg")
        #expect(stored.size == 200_000)
        #expect(stored.key == book)
        #expect(stored.etag.hasPrefix("\""))
        #expect(abs(stored.modified.timeIntervalSinceNow) < 600)
        #expect(!FileManager.default.fileExists(atPath: incoming))
        #expect(try await store.info(book) == stored)
        #expect(try await collect(try await store.read(book, range: nil)) == bytes)
        let ranged = try await store.read(book, range: 70_000...70_009)
        #expect(ranged.object.size == 200_000)
        #expect(try await collect(ranged) == Array(bytes[70_000...70_009]))
        let cover = try key("dual/covers/b.jpg")
        try await store.store(file: file(pattern(10, seed: 3)), as: cover, contentType: "image/jpeg")
        #expect(try await store.list(prefix: "dual/").map(\.key) == [book, cover])
        #expect(try await store.list(prefix: "dual/books/").map(\.key) == [book])
        #expect(try await store.list(prefix: "dual/b").map(\.key) == [book])
        #expect(try await store.list(prefix: "dual/books/").first?.size == 200_000)
        #expect(try await store.list(prefix: "other/").isEmpty)
        try await store.delete(book)
        try await store.delete(cover)
        #expect(try await store.info(book) == nil)
        try await store.delete(book)
        #expect(try await store.list(prefix: "").isEmpty)
        try await store.shutdown()
    }

    @Test func aMissingKeyIsNotFound() async throws {
        let store = try bucket()
        let missing = try key("dual/books/none.mp3")
        #expect(try await store.info(missing) == nil)
        await #expect(throws: MediaStoreError.notFound(missing)) { try await store.read(missing, range: nil) }
        await #expect(throws: MediaStoreError.notFound(missing)) { try await store.read(missing, range: 0...9) }
        try await store.shutdown()
    }

    @Test func listsPastOnePage() async throws {
        let store = try bucket(pageSize: 2)
        var keys: [StorageKey] = []
        for index in 0..<7 {
            let name = try key("cache/item-\(index).bin")
            try await store.store(file: file(pattern(100, seed: index)), as: name, contentType: "application/octet-stream")
            keys.append(name)
        }
        try await store.store(file: file(pattern(5)), as: try key("other/x.bin"), contentType: "application/octet-stream")
        let listed = try await store.list(prefix: "cache/")
        #expect(listed.map(\.key) == keys)
        #expect(listed.allSatisfy { $0.size == 100 })
        #expect(try await store.list(prefix: "").count == 8)
        for name in keys { try await store.delete(name) }
        try await store.delete(try key("other/x.bin"))
        try await store.shutdown()
    }

    @Test func storesALargeFileInParts() async throws {
        let store = try bucket(threshold: 5 << 20, partSize: 5 << 20)
        // Three parts: 5 MiB, 5 MiB and what is left.
        let bytes = pattern((12 << 20) + 12_345, seed: 7)
        let big = try key("dual/books/big.m4b")
        let stored = try await store.store(file: file(bytes), as: big, contentType: "audio/mp4")
        #expect(stored.size == Int64(bytes.count))
        // S3 marks a multipart object's ETag with its number of parts.
        #expect(stored.etag.hasSuffix("-3\""), "\(stored.etag)")
        let read = try await collect(try await store.read(big, range: nil))
        #expect(read.count == bytes.count)
        #expect(SHA256.hash(data: read) == SHA256.hash(data: bytes))
        let across = Int64(5 << 20) - 5
        #expect(try await collect(try await store.read(big, range: across...(across + 9))) == Array(bytes[Int(across)...Int(across + 9)]))
        // A reader that stops after its first piece holds nothing up: the rest is never
        // asked for, and the store goes on answering.
        var firstPiece = 0
        for try await buffer in try await store.read(big, range: nil).body {
            firstPiece = buffer.readableBytes
            break
        }
        #expect(firstPiece > 0 && firstPiece < bytes.count)
        try await store.delete(big)
        #expect(try await store.info(big) == nil)
        try await store.shutdown()
    }

    @Test func aPresignedURLIsReadWithAPlainRangeGET() async throws {
        let store = try bucket()
        let bytes = pattern(50_000, seed: 11)
        let episode = try key("dual/episodes/e.mp3")
        try await store.store(file: file(bytes), as: episode, contentType: "audio/mpeg")
        let address = try await store.toolInput(episode, lifetime: .seconds(600))
        #expect(address.contains("X-Amz-Signature="))
        #expect(!address.contains(try #require(Self.server).secret))
        var request = URLRequest(url: try #require(URL(string: address)))
        request.setValue("bytes=100-199", forHTTPHeaderField: "Range")
        let (data, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 206)
        #expect(Array(data) == Array(bytes[100...199]))
        // Changed by one character, the URL is refused.
        let tampered = address.replacingOccurrences(of: "e.mp3?", with: "f.mp3?")
        let (_, refused) = try await URLSession.shared.data(from: try #require(URL(string: tampered)))
        #expect((refused as? HTTPURLResponse)?.statusCode == 403)
        try await store.delete(episode)
        try await store.shutdown()
    }

    @Test func aWrongSecretIsRefusedClearly() async throws {
        let store = try bucket(secret: "not-the-secret")
        let incoming = file(pattern(10))
        do {
            try await store.store(file: incoming, as: try key("dual/books/x.mp3"), contentType: "audio/mpeg")
            Issue.record("stored with a wrong secret")
        } catch let error as MediaStoreError {
            guard case .unavailable(let why) = error else { throw error }
            #expect(why.contains("SignatureDoesNotMatch"), "\(why)")
            #expect(!why.contains("not-the-secret"))
        }
        #expect(!FileManager.default.fileExists(atPath: incoming))
        await #expect(throws: MediaStoreError.self) { try await store.list(prefix: "") }
        try await store.shutdown()
    }

    @Test func anUnreachableServerFailsClearlyAndKeepsNothing() async throws {
        // A port bound here and never listened on: nothing answers there, and no other test's
        // server can take it while this one runs (a port merely free a moment ago once was).
        let (port, socket) = try Self.closedPort()
        defer { close(socket) }
        let closed = try #require(URL(string: "http://127.0.0.1:\(port)"))
        // The client tries to connect again until its deadline: a short one.
        let store = try bucket(endpoint: closed, timeout: .seconds(3))
        let incoming = file(pattern(1000))
        let name = try key("dual/books/x.mp3")
        do {
            try await store.store(file: incoming, as: name, contentType: "audio/mpeg")
            Issue.record("stored into a closed port")
        } catch let error as MediaStoreError {
            guard case .unavailable(let why) = error else { throw error }
            #expect(why.contains("127.0.0.1"), "\(why)")
        }
        #expect(!FileManager.default.fileExists(atPath: incoming))
        try await store.shutdown()
        // And the real bucket, under the same prefix, has nothing.
        let real = try bucket()
        #expect(try await real.list(prefix: "").isEmpty)
        try await real.shutdown()
    }

    /// A loopback port and the socket holding it (bound, not listening): connections to it are
    /// refused until the socket is closed.
    static func closedPort() throws -> (port: Int, socket: Int32) {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        guard bound else {
            close(socket)
            throw MediaStoreError.unavailable("no free port")
        }
        return (Int(UInt16(bigEndian: address.sin_port)), socket)
    }
}
