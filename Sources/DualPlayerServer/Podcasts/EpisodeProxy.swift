import Foundation
import HTTPTypes
import Hummingbird
import JukePlatform
import NIOCore
import Providers

/// An episode streamed without a download: the server asks the host (under the web
/// fetcher's address policy, passing the player's Range on) and passes the bytes on as they
/// come, so the page plays every episode from Juke's own origin (Boost's Web Audio needs
/// that, and the host never sees the listener).
struct EpisodeProxy: Sendable {
    let fetcher: WebFetcher
    /// The longest episode file passed on.
    static let limit: Int64 = 4 * 1024 * 1024 * 1024

    enum Part: Sendable {
        case head(WebAnswer)
        case bytes([UInt8])
    }

    func response(for url: URL, fallbackType: String, request: Request) async throws -> Response {
        var headers: [String: String] = [:]
        if let range = request.headers[.range], Self.isByteRange(range) { headers["Range"] = range }
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Part.self, bufferingPolicy: .bufferingOldest(64))
        let fetcher = fetcher
        let task = Task {
            do {
                let answer = try await fetcher.get(url, headers: headers, limit: Self.limit, accept: { continuation.yield(.head($0)) }) { bytes in
                    // Backpressure: wait while the listener's side is behind.
                    while case .dropped = continuation.yield(.bytes(bytes)) {
                        try await Task.sleep(for: .milliseconds(20))
                        try Task.checkCancellation()
                    }
                }
                if !(200..<300).contains(answer.status) { continuation.yield(.head(answer)) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        let pipe = Pipe(stream: stream)
        let head: WebAnswer
        do {
            guard case .head(let first)? = try await pipe.next() else { throw WebFetchError.malformed("no answer") }
            head = first
        } catch {
            task.cancel()
            throw APIError(status: .badGateway, code: "podcast_host_unavailable", message: "The episode could not be fetched: \(FeedFetch.words(error)).")
        }
        switch head.status {
        case 200, 206: break
        case 416:
            task.cancel()
            var fields: HTTPFields = [:]
            if let range = head.headers["content-range"] { fields[.contentRange] = range }
            return Response(status: .rangeNotSatisfiable, headers: fields)
        default:
            task.cancel()
            throw APIError(status: .badGateway, code: "podcast_host_unavailable", message: "The podcast host answered HTTP \(head.status) for the episode.")
        }
        if let type = head.contentType, type.contains("html") || type.hasPrefix("text/") || type.contains("json") {
            task.cancel()
            throw APIError(status: .badGateway, code: "podcast_host_unavailable", message: "The podcast host answered \(type), not audio.")
        }
        var fields: HTTPFields = [.contentType: head.contentType.flatMap { $0.hasPrefix("audio/") || $0.hasPrefix("video/") ? $0 : nil } ?? fallbackType]
        fields[.acceptRanges] = "bytes"
        fields[.cacheControl] = "private, no-store"
        if let length = head.headers["content-length"] { fields[.contentLength] = length }
        if head.status == 206, let range = head.headers["content-range"] { fields[.contentRange] = range }
        if request.method == .head {
            task.cancel()
            return Response(status: head.status == 206 ? .partialContent : .ok, headers: fields)
        }
        return Response(
            status: head.status == 206 ? .partialContent : .ok, headers: fields,
            body: ResponseBody { writer in
                defer { task.cancel() }
                while let part = try await pipe.next() {
                    if case .bytes(let bytes) = part { try await writer.write(ByteBuffer(bytes: bytes)) }
                }
                try await writer.finish(nil)
            })
    }

    /// "bytes=N-", "bytes=N-M" or "bytes=-N": one range, the only form players send.
    static func isByteRange(_ text: String) -> Bool {
        guard text.hasPrefix("bytes="), text.count <= 60 else { return false }
        let spec = text.dropFirst(6)
        let parts = spec.split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) } && !(parts[0].isEmpty && parts[1].isEmpty)
    }

    /// The fetch's parts, read one at a time by the route and then by the response's body.
    actor Pipe {
        var iterator: AsyncThrowingStream<Part, any Error>.AsyncIterator

        init(stream: AsyncThrowingStream<Part, any Error>) { iterator = stream.makeAsyncIterator() }

        func next() async throws -> Part? {
            var current = iterator
            defer { iterator = current }
            return try await current.next(isolation: self)
        }
    }
}
