public import Foundation
public import NIOCore

/// What is known of a stored file without reading it: enough for Content-Length, ETag and
/// Last-Modified.
public struct StoredObject: Sendable, Equatable {
    public let key: StorageKey
    public let size: Int64
    /// A strong validator, quoted as an ETag header says it.
    public let etag: String
    public let modified: Date

    public init(key: StorageKey, size: Int64, etag: String, modified: Date) {
        self.key = key
        self.size = size
        self.etag = etag
        self.modified = modified
    }
}

/// A stored file's bytes (all of them, or one range), as they are read: a stream with
/// back-pressure, so serving a book never holds it in memory.
public struct StoredBytes: Sendable {
    public let object: StoredObject
    public let body: AsyncThrowingStream<ByteBuffer, any Error>

    public init(object: StoredObject, body: AsyncThrowingStream<ByteBuffer, any Error>) {
        self.object = object
        self.body = body
    }
}

/// Why a storage call failed, said so a person can act on it.
public enum MediaStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nothing is stored under the key.
    case notFound(StorageKey)
    /// The storage could not be reached or refused the call (the bucket's answer, or the
    /// folder's error); nothing was stored.
    case unavailable(String)
    /// A name that is no key (a part outside letters, digits and `-_.`, say).
    case invalidKey(String)

    public var description: String {
        switch self {
        case .notFound(let key): "Nothing is stored under \(key)."
        case .unavailable(let why): "The media storage is unavailable: \(why)"
        case .invalidKey(let raw): "\"\(raw.prefix(100))\" cannot name a stored file."
        }
    }
}

/// Where the files people give Juke, and what Juke makes for them, are kept: this server's
/// data folder (the default), or an S3-compatible bucket that several servers share. The
/// database keeps only keys.
///
/// Juke's own readers and the tools (ffmpeg) work on files on this server's disk, so a file
/// is made in this server's scratch folder first and then stored (`store`), and a stored
/// file is read by a tool where the store says it can be (`toolInput`).
public protocol MediaStore: Sendable {
    /// A short name for logs and the settings page ("the data folder", "s3://bucket/prefix").
    var summary: String { get }

    /// The file at `file` (on this server's disk) stored under `key`, replacing what was
    /// there. The local file is moved or removed: the caller owns it no longer. When storing
    /// fails nothing is left under `key` (a new key) and the error says why.
    @discardableResult
    func store(file: String, as key: StorageKey, contentType: String) async throws -> StoredObject

    /// The object's size and validators, or nil when nothing is stored under `key`.
    func info(_ key: StorageKey) async throws -> StoredObject?

    /// The object's bytes, or those of `range` (inclusive, already checked against its size).
    /// Throws `MediaStoreError.notFound` when nothing is stored under `key`.
    func read(_ key: StorageKey, range: ClosedRange<Int64>?) async throws -> StoredBytes

    /// Removes what is stored under `key`; nothing there is no error.
    func delete(_ key: StorageKey) async throws

    /// Every object whose key starts with `prefix` (a key's first segments and its "/").
    func list(prefix: String) async throws -> [StoredObject]

    /// Where a tool such as ffmpeg reads the object: a path on this server's disk, or an
    /// address it may GET (with Range) for `lifetime`.
    func toolInput(_ key: StorageKey, lifetime: Duration) async throws -> String

    /// The path of the object when it is a file on this server's disk (the data folder), so
    /// it is served and read in place; nil for a bucket.
    func localPath(_ key: StorageKey) -> String?

    /// Lets go of what the store holds open (a bucket's HTTP client), once nothing uses it.
    func shutdown() async throws

    /// Clears what a failed upload could not (a bucket's multipart uploads begun more than
    /// `age` ago and never finished); returns how many. A folder has none.
    func abortAbandonedUploads(olderThan age: Duration) async throws -> Int
}

extension MediaStore {
    public func shutdown() async throws {}

    public func abortAbandonedUploads(olderThan age: Duration) async throws -> Int { 0 }
}

extension MediaStore {
    /// A copy of the object on this server's disk at `path`, for Juke's own readers.
    public func download(_ key: StorageKey, to path: String) async throws {
        if let local = localPath(key) {
            do {
                try? FileManager.default.removeItem(atPath: path)
                try FileManager.default.copyItem(atPath: local, toPath: path)
                return
            } catch {
                guard FileManager.default.fileExists(atPath: local) else { throw MediaStoreError.notFound(key) }
                throw MediaStoreError.unavailable("cannot copy \(key): \(error)")
            }
        }
        let bytes = try await read(key, range: nil)
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw MediaStoreError.unavailable("cannot write \(path)")
        }
        do {
            for try await buffer in bytes.body { try handle.write(contentsOf: Data(buffer.readableBytesView)) }
            try handle.close()
        } catch {
            try? handle.close()
            try? FileManager.default.removeItem(atPath: path)
            throw error
        }
    }
}
