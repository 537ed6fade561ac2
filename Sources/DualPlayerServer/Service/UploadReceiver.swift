import Crypto
import Foundation
import JukeCore
import JukePlatform

/// A file coming in over HTTP, streamed to disk under the size limit: a name with one of the
/// expected extensions, never empty, and nothing left behind when it fails. Its SHA-256 is
/// taken as it comes (the same file uploaded again is found by it). What it is (an audiobook,
/// a song) is decided afterwards by Juke's own readers.
struct UploadReceiver: Sendable {
    let folder: String
    let limit: Int
    let extensions: Set<String>
    /// What the refusal of another extension says ("Juke plays audiobooks as M4B, M4A or MP3 files.").
    let expected: String

    /// A file received: where it is, and the SHA-256 of its bytes (lowercase hex).
    struct Received: Sendable {
        let path: String
        let sha256: String
    }

    /// Writes `body` to a new file in the folder.
    func receive(_ body: some AsyncSequence<ArraySlice<UInt8>, any Error>, filename: String) async throws -> Received {
        let ext = (filename as NSString).pathExtension.lowercased()
        guard extensions.contains(ext) else { throw RuleRefusal.unprocessable("filename", expected) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/\(UUID().uuidString.lowercased()).\(ext)"
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw APIError(status: .internalServerError, code: "storage", message: "The server cannot write to its uploads folder.")
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
        return Received(path: path, sha256: Hex.string(digest.finalize()))
    }

    /// An upload from the request to the shelf, the same for books and songs: the file's name
    /// checked, its bytes received, and then either the same file already there (found by
    /// its SHA-256: the new copy is removed and that one is the answer, `created` false) or
    /// the file read in the reading pool and added. The file never stays behind a refusal.
    func take<Item: Sendable>(
        _ body: some AsyncSequence<ArraySlice<UInt8>, any Error>, filename: String, reading: ReadingPool,
        existing: (_ sha256: String) async throws -> Item?,
        read: @escaping @Sendable (_ path: String, _ filename: String) throws -> Item,
        add: (Item, _ sha256: String) async throws -> Void
    ) async throws -> (item: Item, created: Bool) {
        let name = filename.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, TextRules.isAllowed(name) else { throw RuleRefusal.invalid("filename", "Give the file's name.") }
        let received = try await receive(body, filename: name)
        let path = received.path
        let found: Item?
        do {
            found = try await existing(received.sha256)
        } catch {
            try? FileManager.default.removeItem(atPath: path)
            throw error
        }
        if let found {
            try? FileManager.default.removeItem(atPath: path)
            return (found, false)
        }
        let item = try await Self.read(path, in: reading) { try read(path, name) }
        do {
            try await add(item, received.sha256)
        } catch {
            try? FileManager.default.removeItem(atPath: path)
            throw error
        }
        return (item, true)
    }

    /// Reads the received file at `path` in the reading pool; when the pool refuses it (or the
    /// reading fails before removing it), the file goes with the refusal.
    static func read<T: Sendable>(_ path: String, in pool: ReadingPool, _ read: @escaping @Sendable () throws -> T) async throws -> T {
        do {
            return try await pool.read(read)
        } catch {
            try? FileManager.default.removeItem(atPath: path)
            throw error
        }
    }
}
