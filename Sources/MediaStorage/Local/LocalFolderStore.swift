public import Foundation
import NIOCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The embedded default: every object is a file under this server's data folder, at its key
/// (`<folder>/dual/books/<id>.mp3`). What one server stores only that server sees, unless
/// the folder itself is shared.
public struct LocalFolderStore: MediaStore {
    public let folder: String

    public init(folder: String) {
        self.folder = folder.hasSuffix("/") && folder.count > 1 ? String(folder.dropLast()) : folder
    }

    public var summary: String { "the data folder (\(folder))" }

    public func localPath(_ key: StorageKey) -> String? { folder + "/" + key.rawValue }

    func path(_ key: StorageKey) -> String { folder + "/" + key.rawValue }

    public func store(file: String, as key: StorageKey, contentType: String) async throws -> StoredObject {
        let target = path(key)
        let directory = (target as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw MediaStoreError.unavailable("cannot make \(directory): \(error.localizedDescription)")
        }
        guard file != target else {
            guard let object = try await info(key) else { throw MediaStoreError.notFound(key) }
            return object
        }
        // Renamed in one step where the file is on the same disk; else copied beside the
        // target first and renamed, so a reader never sees half a file under the key.
        if rename(file, target) != 0 {
            let staging = target + ".incoming-\(UUID().uuidString.lowercased())"
            do {
                try FileManager.default.copyItem(atPath: file, toPath: staging)
                guard rename(staging, target) == 0 else { throw MediaStoreError.unavailable("cannot rename into \(target)") }
                try? FileManager.default.removeItem(atPath: file)
            } catch {
                try? FileManager.default.removeItem(atPath: staging)
                throw error as? MediaStoreError ?? MediaStoreError.unavailable("cannot store \(key): \(error.localizedDescription)")
            }
        }
        guard let object = try await info(key) else { throw MediaStoreError.notFound(key) }
        return object
    }

    public func info(_ key: StorageKey) async throws -> StoredObject? {
        Self.object(at: path(key), key: key)
    }

    static func object(at path: String, key: StorageKey) -> StoredObject? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let size = Int64(info.st_size)
        let millis = Int64(info.st_mtim.tv_sec) * 1000 + Int64(info.st_mtim.tv_nsec) / 1_000_000
        // The same validator the data folder's files always had: size and time, in hex.
        return StoredObject(
            key: key, size: size, etag: "\"\(String(size, radix: 16))-\(String(millis, radix: 16))\"",
            modified: Date(timeIntervalSince1970: TimeInterval(millis / 1000)))
    }

    public func read(_ key: StorageKey, range: ClosedRange<Int64>?) async throws -> StoredBytes {
        let target = path(key)
        guard let object = Self.object(at: target, key: key), let handle = FileHandle(forReadingAtPath: target) else {
            throw MediaStoreError.notFound(key)
        }
        let start = range?.lowerBound ?? 0
        let end = range.map { $0.upperBound + 1 } ?? object.size
        if start > 0 { try handle.seek(toOffset: UInt64(start)) }
        let reader = ChunkReader(handle: handle, remaining: max(0, end - start))
        let body = AsyncThrowingStream<ByteBuffer, any Error>(unfolding: { try reader.next() })
        return StoredBytes(object: object, body: body)
    }

    public func delete(_ key: StorageKey) async throws {
        let target = path(key)
        guard FileManager.default.fileExists(atPath: target) else { return }
        do {
            try FileManager.default.removeItem(atPath: target)
        } catch {
            throw MediaStoreError.unavailable("cannot remove \(key): \(error.localizedDescription)")
        }
        // Folders the key made (`dual/books/librivox-<id>/`) go once empty, as a bucket has
        // no folders to leave behind; rmdir refuses a folder that is not.
        var folder = (target as NSString).deletingLastPathComponent
        while folder.count > self.folder.count, folder.hasPrefix(self.folder + "/"), rmdir(folder) == 0 {
            folder = (folder as NSString).deletingLastPathComponent
        }
    }

    public func list(prefix: String) async throws -> [StoredObject] {
        let base = folder + "/" + prefix
        let directory = prefix.hasSuffix("/") || prefix.isEmpty ? base : (base as NSString).deletingLastPathComponent
        guard let walker = FileManager.default.enumerator(atPath: directory) else { return [] }
        let relativeBase = String(directory.dropFirst(folder.count + 1))
        var found: [StoredObject] = []
        while let next = walker.nextObject() as? String {
            let raw = relativeBase.isEmpty ? next : (relativeBase.hasSuffix("/") ? relativeBase + next : relativeBase + "/" + next)
            guard raw.hasPrefix(prefix), let key = StorageKey(raw), let object = Self.object(at: path(key), key: key) else { continue }
            found.append(object)
        }
        return found.sorted { $0.key < $1.key }
    }

    public func toolInput(_ key: StorageKey, lifetime: Duration) async throws -> String { path(key) }
}

/// Reads a file in pieces as they are asked for (the stream's back-pressure), closing it at
/// the end.
final class ChunkReader: Sendable {
    private let state: Mutex<(handle: FileHandle?, remaining: Int64)>
    static let chunk = 64 * 1024

    init(handle: FileHandle, remaining: Int64) {
        state = Mutex((handle, remaining))
    }

    func next() throws -> ByteBuffer? {
        try state.withLock { state in
            guard let handle = state.handle else { return nil }
            guard state.remaining > 0 else {
                try? handle.close()
                state.handle = nil
                return nil
            }
            let data = try handle.read(upToCount: Int(min(Int64(Self.chunk), state.remaining))) ?? Data()
            guard !data.isEmpty else {
                try? handle.close()
                state.handle = nil
                return nil
            }
            state.remaining -= Int64(data.count)
            return ByteBuffer(bytes: data)
        }
    }

    deinit {
        state.withLock { state in try? state.handle?.close() }
    }
}
