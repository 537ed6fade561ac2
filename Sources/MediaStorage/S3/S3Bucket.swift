import Foundation
public import JukeCore
public import Providers

/// The shared store: every object in one S3-compatible bucket (AWS S3, SeaweedFS, MinIO…),
/// under an optional prefix, so several Juke servers see the same files.
///
/// Its calls go through the server's one outbound client (`Platform.http`, made with the
/// configuration for the bucket and the platform to share), whose owner shuts it down; a
/// bucket given none makes one of its own, closed by `shutdown()`.
public struct S3Bucket: MediaStore {
    let client: S3Client
    /// What HEAD said lately, so a seek costs one round trip to the bucket, not two.
    let recent: RecentObjects

    public var configuration: S3Configuration { client.configuration }

    /// `http`: the server's client (nil: one of the bucket's own). `clock` times the
    /// signatures and presigned URLs (S3 refuses a request signed more than 15 minutes away
    /// from its own clock).
    public init(configuration: S3Configuration, http: HTTPClient? = nil, clock: WallClock = .system) {
        client = S3Client(configuration: configuration, http: http, clock: clock)
        recent = RecentObjects(clock: clock)
    }

    public func shutdown() async throws { try await client.shutdown() }

    public var summary: String { configuration.summary }

    public func localPath(_ key: StorageKey) -> String? { nil }

    /// Uploads the file (in parts above `multipartThreshold`), then removes it: the local
    /// file is removed whether or not storing succeeded, as the protocol says the caller owns
    /// it no longer (a failed store is made again from its source). When storing fails,
    /// nothing new is under `key`: a single PUT is all or nothing, and a multipart upload
    /// is aborted.
    @discardableResult
    public func store(file: String, as key: StorageKey, contentType: String) async throws -> StoredObject {
        defer { try? FileManager.default.removeItem(atPath: file) }
        let length: Int64
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: file)
            guard let size = (attributes[.size] as? NSNumber)?.int64Value else { throw MediaStoreError.unavailable("cannot tell the size of \(file)") }
            length = size
        } catch let error as MediaStoreError {
            throw error
        } catch {
            throw MediaStoreError.unavailable("cannot read \(file): \(error.localizedDescription)")
        }
        if length > configuration.multipartThreshold {
            try await client.putMultipart(file: file, length: length, as: key, contentType: contentType)
        } else {
            try await client.put(file: file, length: length, as: key, contentType: contentType)
        }
        recent.forget(key)
        guard let object = try await client.head(key) else {
            throw MediaStoreError.unavailable("\(key) was stored but S3 does not find it")
        }
        recent.remember(object)
        return object
    }

    public func info(_ key: StorageKey) async throws -> StoredObject? {
        if let known = recent.object(key) { return known }
        guard let object = try await client.head(key) else {
            recent.forget(key)
            return nil
        }
        recent.remember(object)
        return object
    }

    public func read(_ key: StorageKey, range: ClosedRange<Int64>?) async throws -> StoredBytes {
        do {
            return try await client.get(key, range: range)
        } catch MediaStoreError.notFound(let missing) {
            recent.forget(key)
            throw MediaStoreError.notFound(missing)
        }
    }

    public func delete(_ key: StorageKey) async throws {
        recent.forget(key)
        try await client.delete(key)
    }

    /// Objects under the configured prefix whose key starts with `prefix`; names that are
    /// not keys (put there by something else) are left out.
    public func list(prefix: String) async throws -> [StoredObject] {
        let base = configuration.location.prefix.map { $0 + "/" } ?? ""
        var found: [StoredObject] = []
        for entry in try await client.list(namePrefix: base + prefix) {
            guard entry.key.hasPrefix(base), let key = StorageKey(String(entry.key.dropFirst(base.count))) else { continue }
            found.append(StoredObject(key: key, size: entry.size, etag: entry.etag, modified: entry.modified))
        }
        return found.sorted { $0.key < $1.key }
    }

    /// Aborts multipart uploads under this store's prefix begun more than `age` ago: a store
    /// that went away between two parts of an upload could not be told to abort it then.
    /// `age` leaves alone the uploads other servers have under way.
    public func abortAbandonedUploads(olderThan age: Duration) async throws -> Int {
        let base = configuration.location.prefix.map { $0 + "/" } ?? ""
        let cutoff = client.clock.now().addingTimeInterval(-Double(age.components.seconds))
        return try await client.abortAbandonedUploads(namePrefix: base, begunBefore: cutoff)
    }

    /// A presigned GET URL, valid for `lifetime` (at most 7 days): ffmpeg reads it with
    /// Range requests, and needs no credentials of its own.
    public func toolInput(_ key: StorageKey, lifetime: Duration) async throws -> String {
        client.presignedGet(key, lifetime: lifetime)
    }
}
