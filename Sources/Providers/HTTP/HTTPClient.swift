public import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// A response read whole.
public struct HTTPReply: Sendable {
    public let status: Int
    /// Header names in lower case.
    public let headers: [String: String]
    public let body: Data

    public init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// A streamed response: its head, then its body in pieces as they arrive.
public enum HTTPStreamPart: Sendable {
    case head(status: Int, headers: [String: String])
    case bytes(Data)
}

public enum TransportError: Error, Sendable, Equatable {
    /// No answer (or no next piece of a stream) within the time allowed.
    case timeout(TimeInterval)
    case unreachable(String)
}

/// The one way Juke's providers reach outside services: Foundation's URLSession with a hard
/// deadline (URLRequest's own timeout counts between bytes and is not enforced everywhere),
/// and streaming through a data delegate (Linux's Foundation has no async byte streams).
public struct HTTPClient: Sendable {
    public init() {}

    /// The whole response, or `timeout` after `timeout` seconds.
    public func send(_ request: URLRequest, timeout: TimeInterval) async throws(TransportError) -> HTTPReply {
        let (stream, continuation) = AsyncStream.makeStream(of: Result<HTTPReply, TransportError>?.self)
        let call = Task {
            do {
                let (data, response) = try await URLSession.shared.data(for: request)
                let http = response as? HTTPURLResponse
                continuation.yield(.success(HTTPReply(status: http?.statusCode ?? 0, headers: Self.headers(http), body: data)))
            } catch {
                continuation.yield(.failure(.unreachable(error.localizedDescription)))
            }
        }
        let timer = Task {
            try? await Task.sleep(for: .seconds(timeout))
            continuation.yield(nil)
        }
        defer {
            call.cancel()
            timer.cancel()
            continuation.finish()
        }
        for await first in stream {
            guard let first else { throw .timeout(timeout) }
            return try first.get()
        }
        throw .unreachable("no answer")
    }

    /// The response's head and body pieces. Each piece must come within `idleTimeout` seconds
    /// of the one before, or the stream ends with `TransportError.timeout`.
    public func stream(_ request: URLRequest, idleTimeout: TimeInterval) -> AsyncThrowingStream<HTTPStreamPart, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: HTTPStreamPart.self)
        let delegate = StreamDelegate(continuation: continuation)
        let session = URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: nil)
        var timed = request
        timed.timeoutInterval = idleTimeout
        let task = session.dataTask(with: timed)
        continuation.onTermination = { _ in
            task.cancel()
            session.invalidateAndCancel()
        }
        task.resume()
        // The idle deadline, enforced here: each piece restarts the watch.
        return AsyncThrowingStream { (out: AsyncThrowingStream<HTTPStreamPart, any Error>.Continuation) in
            let lastPiece = Watch()
            let pump = Task {
                do {
                    for try await part in stream {
                        lastPiece.touch()
                        out.yield(part)
                    }
                    out.finish()
                } catch {
                    out.finish(throwing: error)
                }
            }
            let watchdog = Task {
                let step = Duration.milliseconds(Int64(min(1000, max(10, idleTimeout * 250))))
                while !Task.isCancelled {
                    try? await Task.sleep(for: step)
                    let idle = ContinuousClock.now - lastPiece.last
                    if idle > .milliseconds(Int64(idleTimeout * 1000)) {
                        out.finish(throwing: TransportError.timeout(idleTimeout))
                        pump.cancel()
                        task.cancel()
                        return
                    }
                }
            }
            out.onTermination = { _ in
                pump.cancel()
                watchdog.cancel()
                task.cancel()
                session.invalidateAndCancel()
            }
        }
    }

    static func headers(_ response: HTTPURLResponse?) -> [String: String] {
        var out: [String: String] = [:]
        for (key, value) in response?.allHeaderFields ?? [:] {
            if let k = key as? String, let v = value as? String { out[k.lowercased()] = v }
        }
        return out
    }
}

/// When a stream's last piece came, shared by the pump and its watchdog.
final class Watch: Sendable {
    private let instant = Mutex(ContinuousClock.now)
    func touch() { instant.withLock { $0 = .now } }
    var last: ContinuousClock.Instant { instant.withLock { $0 } }
}

/// Hands URLSession's callbacks to a stream. Its only state is the continuation, which is
/// safe to use from any thread.
final class StreamDelegate: NSObject, URLSessionDataDelegate, Sendable {
    let continuation: AsyncThrowingStream<HTTPStreamPart, any Error>.Continuation

    init(continuation: AsyncThrowingStream<HTTPStreamPart, any Error>.Continuation) { self.continuation = continuation }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let http = response as? HTTPURLResponse
        continuation.yield(.head(status: http?.statusCode ?? 0, headers: HTTPClient.headers(http)))
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        continuation.yield(.bytes(data))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error {
            continuation.finish(throwing: TransportError.unreachable(error.localizedDescription))
        } else {
            continuation.finish()
        }
        session.finishTasksAndInvalidate()
    }
}
