import Foundation
import Providers
import Synchronization

/// One file fetched to disk so that an interruption loses nothing: bytes go to `<path>.part`
/// as they arrive, a new attempt asks for the rest (`Range: bytes=<have>-`), and the file takes
/// its final name only when whole. A server that ignores the range (200) starts it again; an
/// answer that is an HTML page is refused rather than saved as audio.
///
/// The addresses come from LibriVox's answer (a section's listen_url, the cover), so they are
/// fetched through the server's `WebFetcher`, under the same private-network rule as feeds,
/// articles and radio: a catalogue that names http://192.168.1.1/ gets nothing from inside.
struct SectionDownload: Sendable {
    let url: URL
    let path: String
    let fetcher: WebFetcher
    let limit: Int64

    enum Failure: Error, CustomStringConvertible {
        case status(Int)
        case notAudio(String)
        case tooLarge(Int64)
        case disk(String)

        var description: String {
            switch self {
            case .status(let code): "the archive answered HTTP \(code)"
            case .notAudio(let type): "the archive answered \(type), not audio"
            case .tooLarge(let limit): "the file is larger than \(limit / 1_000_000) MB"
            case .disk(let why): "the server could not write the file: \(why)"
            }
        }

        /// The same for the shelf: the server's own errors without their library's words.
        var words: String {
            switch self {
            case .status: "the archive did not send the file; try again later"
            case .notAudio: "the archive sent something that is not audio"
            case .tooLarge: description
            case .disk: "the server could not save the file"
            }
        }
    }

    var partPath: String { path + ".part" }

    /// Fetches what is missing; `progress` is told the bytes on disk as they grow (and
    /// awaited, so that what it records keeps the download's order).
    func run(progress: @Sendable (Int64) async -> Void) async throws {
        if FileManager.default.fileExists(atPath: path) { return }
        let have = (try? FileManager.default.attributesOfItem(atPath: partPath)[.size] as? NSNumber)?.int64Value ?? 0
        if have == 0 { FileManager.default.createFile(atPath: partPath, contents: nil) }
        guard let handle = FileHandle(forWritingAtPath: partPath) else { throw Failure.disk("cannot open \(partPath)") }
        let part = PartFile(handle: handle, have: have, limit: limit)
        let status = Mutex(0)
        let answer: WebAnswer
        do {
            answer = try await fetcher.get(
                url, headers: have > 0 ? ["Range": "bytes=\(have)-"] : [:], limit: limit,
                accept: { answer in
                    guard answer.status == 200 || answer.status == 206 else { throw Failure.status(answer.status) }
                    let type = answer.contentType ?? ""
                    if type.hasPrefix("text/") || type.contains("html") || type.contains("json") { throw Failure.notAudio(type) }
                    status.withLock { $0 = answer.status }
                },
                body: { bytes in
                    // 200 is the whole file again: what was kept is dropped.
                    let written = try await part.write(bytes, wholeFile: status.withLock { $0 } == 200)
                    await progress(written)
                })
        } catch {
            await part.close()
            throw error
        }
        switch answer.status {
        case 200, 206:
            let written = try await part.finish(wholeFile: answer.status == 200)
            guard written > 0 else { throw Failure.status(204) }
        case 416 where have > 0:
            // Nothing after what we have: the part was already whole.
            await part.close()
        default:
            await part.close()
            throw Failure.status(answer.status)
        }
        try FileManager.default.moveItem(atPath: partPath, toPath: path)
    }
}

/// The part file a download appends to, and how many bytes it holds (kept under the limit).
private actor PartFile {
    let handle: FileHandle
    let have: Int64
    let limit: Int64
    var written: Int64
    var started = false

    init(handle: FileHandle, have: Int64, limit: Int64) {
        self.handle = handle
        self.have = have
        self.limit = limit
        self.written = have
    }

    /// Appends `bytes`; the first piece places the write (after what was kept, or at the start
    /// of a whole file). Returns the bytes on disk.
    func write(_ bytes: [UInt8], wholeFile: Bool) throws -> Int64 {
        try start(wholeFile: wholeFile)
        written += Int64(bytes.count)
        guard written <= limit else { throw SectionDownload.Failure.tooLarge(limit) }
        do { try handle.write(contentsOf: bytes) } catch { throw SectionDownload.Failure.disk("\(error)") }
        return written
    }

    /// The answer ended: the file is closed and its size returned.
    func finish(wholeFile: Bool) throws -> Int64 {
        try start(wholeFile: wholeFile)
        try handle.close()
        return written
    }

    func close() { try? handle.close() }

    private func start(wholeFile: Bool) throws {
        guard !started else { return }
        started = true
        do {
            if wholeFile {
                try handle.truncate(atOffset: 0)
                written = 0
            } else {
                try handle.seek(toOffset: UInt64(have))
            }
        } catch {
            throw SectionDownload.Failure.disk("\(error)")
        }
    }
}
