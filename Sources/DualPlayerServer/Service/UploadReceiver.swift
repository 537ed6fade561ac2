import Crypto
import Foundation
import JukeCore
import JukePlatform
import MediaStorage

/// A file coming in over HTTP, streamed to this server's scratch folder under the size
/// limit: a name with one of the expected extensions, never empty, and nothing left behind
/// when it fails. Its SHA-256 is taken as it comes (the same file uploaded again is found by
/// it). What it is (an audiobook, a song) is decided by Juke's own readers on that local
/// copy; only then is it stored (the data folder or the bucket) under a key of its own.
struct UploadReceiver: Sendable {
    /// This server's scratch folder: where the bytes land before they are read.
    let scratch: String
    /// Where the file is kept once read, and the key prefix ("dual/books").
    let files: any MediaStore
    let prefix: String
    let limit: Int
    let extensions: Set<String>
    /// What the refusal of another extension says ("Juke plays audiobooks as M4B, M4A or MP3 files.").
    let expected: String

    /// A file received: where it is on this server's disk, the key it will be stored under,
    /// and the SHA-256 of its bytes (lowercase hex).
    struct Received: Sendable {
        let path: String
        let key: StorageKey
        let sha256: String
    }

    /// What reading an upload gives: the item, and files to store beside it (a song's cover).
    struct Reading<Item: Sendable>: Sendable {
        let item: Item
        var companions: [StorageKey: Data] = [:]
    }

    /// Writes `body` to a new file in the scratch folder.
    func receive(_ body: some AsyncSequence<ArraySlice<UInt8>, any Error>, filename: String) async throws -> Received {
        let ext = (filename as NSString).pathExtension.lowercased()
        guard extensions.contains(ext) else { throw RuleRefusal.unprocessable("filename", expected) }
        let name = "\(UUID().uuidString.lowercased()).\(ext)"
        guard let key = StorageKey(prefix, name) else { throw RuleRefusal.unprocessable("filename", expected) }
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let path = scratch + "/" + name
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw APIError(status: .internalServerError, code: "storage", message: "The server cannot write to its scratch folder.")
        }
        var written = 0
        var digest = SHA256()
        do {
            for try await chunk in body {
                written += chunk.count
                guard written <= limit else { throw APIError.tooLarge(limit) }
                digest.update(data: chunk)
                try handle.write(contentsOf: chunk)
            }
            try handle.close()
        } catch {
            try? handle.close()
            try? FileManager.default.removeItem(atPath: path)
            throw error
        }
        guard written > 0 else {
            try? FileManager.default.removeItem(atPath: path)
            throw RuleRefusal.unprocessable("body", "The upload is empty.")
        }
        return Received(path: path, key: key, sha256: Hex.string(digest.finalize()))
    }

    /// An upload from the request to the shelf, the same for books and songs: the file's name
    /// checked, its bytes received, and then either the same file already there (found by
    /// its SHA-256: the new copy is removed and that one is the answer, `created` false) or
    /// the file read in the reading pool, stored, and added. Neither the local copy nor a
    /// stored one stays behind a refusal or a failure (the bucket unreachable, say).
    func take<Item: Sendable>(
        _ body: some AsyncSequence<ArraySlice<UInt8>, any Error>, filename: String, reading: ReadingPool,
        existing: (_ sha256: String) async throws -> Item?,
        read: @escaping @Sendable (_ path: String, _ key: StorageKey, _ filename: String) throws -> Reading<Item>,
        verify: (_ path: String) async throws -> Void = { _ in },
        contentType: String,
        add: (Item, _ sha256: String) async throws -> Void
    ) async throws -> (item: Item, created: Bool) {
        let name = filename.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, TextRules.isAllowed(name) else { throw RuleRefusal.invalid("filename", "Give the file's name.") }
        let received = try await receive(body, filename: name)
        let (path, key) = (received.path, received.key)
        defer { try? FileManager.default.removeItem(atPath: path) }
        if let found = try await existing(received.sha256) { return (found, false) }
        let result = try await reading.read { try read(path, key, name) }
        try await verify(path)
        var stored: [StorageKey] = []
        do {
            try await files.store(file: path, as: key, contentType: contentType)
            stored.append(key)
            for (companion, data) in result.companions {
                let local = scratch + "/" + UUID().uuidString.lowercased()
                guard FileManager.default.createFile(atPath: local, contents: data) else { continue }
                defer { try? FileManager.default.removeItem(atPath: local) }
                try await files.store(file: local, as: companion, contentType: "application/octet-stream")
                stored.append(companion)
            }
            try await add(result.item, received.sha256)
        } catch {
            for key in stored { try? await files.delete(key) }
            throw Self.refusal(error)
        }
        return (result.item, true)
    }

    /// A storage failure as the person uploading reads it: nothing was kept, try again.
    static func refusal(_ error: any Error) -> any Error {
        guard let failure = error as? MediaStoreError else { return error }
        return APIError(
            status: .serviceUnavailable, code: "storage_unavailable",
            message: "The file could not be stored, so nothing was kept; try again later. (\(failure))")
    }
}
