import Foundation
import Providers

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One file fetched to disk so that an interruption loses nothing: bytes go to `<path>.part`
/// as they arrive, a new attempt asks for the rest (`Range: bytes=<have>-`), and the file takes
/// its final name only when whole. A server that ignores the range (200) starts it again; an
/// answer that is an HTML page is refused rather than saved as audio.
struct SectionDownload: Sendable {
    let url: URL
    let path: String
    let userAgent: String
    let limit: Int64
    /// Seconds without a byte before the attempt fails.
    let idleTimeout: TimeInterval

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
    }

    var partPath: String { path + ".part" }

    /// Fetches what is missing; `progress` is told the bytes on disk as they grow (and
    /// awaited, so that what it records keeps the download's order).
    func run(progress: @Sendable (Int64) async -> Void) async throws {
        if FileManager.default.fileExists(atPath: path) { return }
        let have = (try? FileManager.default.attributesOfItem(atPath: partPath)[.size] as? NSNumber)?.int64Value ?? 0
        if have == 0 { FileManager.default.createFile(atPath: partPath, contents: nil) }
        guard let handle = FileHandle(forWritingAtPath: partPath) else { throw Failure.disk("cannot open \(partPath)") }
        defer { try? handle.close() }
        var request = URLRequest(url: url)
        request.setValue(userAgent, forHTTPHeaderField: "User-Agent")
        if have > 0 { request.setValue("bytes=\(have)-", forHTTPHeaderField: "Range") }
        var written = have
        for try await part in HTTPClient().stream(request, idleTimeout: idleTimeout) {
            switch part {
            case .head(let status, let headers):
                switch status {
                case 206:
                    try handle.seek(toOffset: UInt64(have))
                case 200:
                    // The whole file again: what was kept is dropped.
                    try handle.truncate(atOffset: 0)
                    written = 0
                case 416 where have > 0:
                    // Nothing after what we have: the part was already whole.
                    try handle.close()
                    try FileManager.default.moveItem(atPath: partPath, toPath: path)
                    return
                default:
                    throw Failure.status(status)
                }
                let type = headers["content-type"]?.lowercased() ?? ""
                if type.hasPrefix("text/") || type.contains("html") || type.contains("json") { throw Failure.notAudio(type) }
            case .bytes(let data):
                written += Int64(data.count)
                guard written <= limit else { throw Failure.tooLarge(limit) }
                do { try handle.write(contentsOf: data) } catch { throw Failure.disk("\(error)") }
                await progress(written)
            }
        }
        try handle.close()
        guard written > 0 else { throw Failure.status(204) }
        try FileManager.default.moveItem(atPath: partPath, toPath: path)
    }
}
