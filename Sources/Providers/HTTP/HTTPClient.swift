import AsyncHTTPClient
public import Foundation
import NIOCore
import NIOHTTP1
import Synchronization

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
    /// The answer's body is longer than the caller reads (the limit, in bytes).
    case tooLarge(Int)
}

/// The one way Juke's providers reach the services they are configured with (OpenAI, Spotify,
/// Apple Music, the iTunes directory, Radio Browser, LibriVox): one AsyncHTTPClient for the
/// whole server, its connections pooled and kept alive, owned by the service group, which
/// shuts it down (`Platform.http`, `OutboundHTTPService`). The bucket's calls share its pool
/// (`pooled`); the web fetcher's go through clients it makes pinned to checked addresses
/// (`pinned`), on the same event loops.
///
/// Every call has a hard deadline (`send`) or an idle limit (`stream`), and a body read whole
/// is bounded (`limit`). Redirects are followed here, not by the client (at most five, http
/// and https only, Authorization dropped when the host changes), so each hop is one Juke saw.
public struct HTTPClient: Sendable {
    let owner: Owner

    /// The most a body read whole may be, unless the call says otherwise: far above any
    /// service's JSON answer, far below what would hurt the server.
    public static let defaultLimit = 16 << 20
    static let maximumHops = 5

    /// A client of its own. The server's is the platform's, shut down by the service group;
    /// the `juke` command makes its own and shuts it down. One let go without `shutdown()`
    /// shuts down as it goes (tests).
    public init() { owner = Owner() }

    /// Closes the pooled connections; calls after it fail.
    public func shutdown() async throws { try await owner.shutdown() }

    /// The pooled AsyncHTTPClient itself, for a caller within the package whose calls do not fit
    /// `send` and `stream` (the bucket's: bodies streamed from files and to readers, signed
    /// requests), with its own deadlines and limits. Redirects are not followed; no read timeout.
    package var pooled: AsyncHTTPClient.HTTPClient { owner.client }

    /// The whole response, or `timeout` after `timeout` seconds, or `tooLarge` past `limit`
    /// bytes of body.
    public func send(_ request: OutboundRequest, timeout: TimeInterval, limit: Int = defaultLimit) async throws(TransportError) -> HTTPReply {
        let client = owner.client
        do {
            return try await Self.within(timeout) {
                let deadline = NIODeadline.now() + .nanoseconds(Int64(timeout * 1_000_000_000))
                let (response, _) = try await Self.execute(request, on: client, deadline: deadline)
                if let declared = response.headers.first(name: "content-length").flatMap(Int.init), declared > limit {
                    throw TransportError.tooLarge(limit)
                }
                let body = try await response.body.collect(upTo: limit)
                return HTTPReply(status: Int(response.status.code), headers: Self.headers(response.headers), body: Data(body.readableBytesView))
            }
        } catch {
            throw Self.transportError(error, timeout: timeout, limit: limit)
        }
    }

    /// The response's head and body pieces. Each piece must come within `idleTimeout` seconds
    /// of the one before (the head within `idleTimeout` of the request), or the stream ends
    /// with `TransportError.timeout`.
    public func stream(_ request: OutboundRequest, idleTimeout: TimeInterval) -> AsyncThrowingStream<HTTPStreamPart, any Error> {
        let client = owner.client
        return AsyncThrowingStream { continuation in
            let work = Task {
                let lastPiece = Watch()
                do {
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            let (response, _) = try await Self.execute(request, on: client, deadline: .distantFuture)
                            lastPiece.touch()
                            continuation.yield(.head(status: Int(response.status.code), headers: Self.headers(response.headers)))
                            for try await buffer in response.body {
                                lastPiece.touch()
                                continuation.yield(.bytes(Data(buffer.readableBytesView)))
                            }
                        }
                        // The idle deadline: each piece restarts the watch.
                        group.addTask {
                            let limit = Duration.milliseconds(Int64(idleTimeout * 1000))
                            let step = Duration.milliseconds(Int64(min(1000, max(10, idleTimeout * 250))))
                            while ContinuousClock.now - lastPiece.last <= limit { try await Task.sleep(for: step) }
                            throw TransportError.timeout(idleTimeout)
                        }
                        try await group.next()
                        group.cancelAll()
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: Self.transportError(error, timeout: idleTimeout, limit: 0))
                }
            }
            continuation.onTermination = { _ in work.cancel() }
        }
    }

    /// Sends `request`, following redirects; the answer whose body the caller reads, and the
    /// address that gave it.
    static func execute(_ request: OutboundRequest, on client: AsyncHTTPClient.HTTPClient, deadline: NIODeadline) async throws -> (
        HTTPClientResponse, URL
    ) {
        var current = request
        for _ in 0...maximumHops {
            guard let scheme = current.url.scheme?.lowercased(), ["http", "https"].contains(scheme), current.url.host != nil else {
                throw TransportError.unreachable("\(current.url.absoluteString) is not an http or https address")
            }
            var outbound = HTTPClientRequest(url: current.url.absoluteString)
            outbound.method = HTTPMethod(rawValue: current.httpMethod.uppercased())
            for (name, value) in current.headers { outbound.headers.replaceOrAdd(name: name, value: value) }
            if let body = current.httpBody { outbound.body = .bytes(ByteBuffer(bytes: body)) }
            let response = try await client.execute(outbound, deadline: deadline)
            guard [301, 302, 303, 307, 308].contains(response.status.code), let location = response.headers.first(name: "location") else {
                return (response, current.url)
            }
            guard let next = URL(string: location, relativeTo: current.url)?.absoluteURL else {
                throw TransportError.unreachable("a redirect to \(location), which is not an address")
            }
            current = redirected(current, to: next, status: Int(response.status.code))
        }
        throw TransportError.unreachable("\(request.url.host ?? "the service") redirected too many times")
    }

    /// The request a redirect asks for: a GET without a body after 303 (and after 301 or 302
    /// of a POST, as browsers do); the same request after 307 and 308; no Authorization for
    /// another host.
    static func redirected(_ request: OutboundRequest, to url: URL, status: Int) -> OutboundRequest {
        var next = request
        next.url = url
        if status == 303 || ([301, 302].contains(status) && request.httpMethod.uppercased() == "POST") {
            next.httpMethod = request.httpMethod.uppercased() == "HEAD" ? "HEAD" : "GET"
            next.httpBody = nil
            next.setValue(nil, forHTTPHeaderField: "Content-Type")
            next.setValue(nil, forHTTPHeaderField: "Content-Length")
        }
        if url.host?.lowercased() != request.url.host?.lowercased() || url.port != request.url.port || url.scheme != request.url.scheme {
            next.setValue(nil, forHTTPHeaderField: "Authorization")
        }
        return next
    }

    /// Runs `work`, or throws `TransportError.timeout` once `seconds` have passed (the work
    /// is cancelled: the request and its connection go).
    static func within<T: Sendable>(_ seconds: TimeInterval, _ work: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await work() }
            group.addTask {
                try await Task.sleep(for: .milliseconds(Int64(seconds * 1000)))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else { throw TransportError.timeout(seconds) }
            return value
        }
    }

    static func transportError(_ error: any Error, timeout: TimeInterval, limit: Int) -> TransportError {
        switch error {
        case let error as TransportError: return error
        case is NIOTooManyBytesError: return .tooLarge(limit)
        case let error as HTTPClientError:
            if [.deadlineExceeded, .readTimeout, .connectTimeout, .tlsHandshakeTimeout].contains(error) { return .timeout(timeout) }
            return .unreachable("the service could not be reached (\(error))")
        case is CancellationError: return .unreachable("the call was cancelled")
        default: return .unreachable("the service could not be reached (\(error))")
        }
    }

    /// Header names in lower case; a header sent more than once, its values joined by commas.
    static func headers(_ fields: HTTPHeaders) -> [String: String] {
        var out: [String: String] = [:]
        for (name, value) in fields {
            let key = name.lowercased()
            out[key] = out[key].map { $0 + ", " + value } ?? value
        }
        return out
    }
}

extension HTTPClient {
    /// Owns the AsyncHTTPClient: made on first use (a platform that never calls out opens
    /// nothing), shut down once.
    final class Owner: Sendable {
        /// The client once made, and whether it has been shut down.
        private let state = Mutex<(client: AsyncHTTPClient.HTTPClient?, closed: Bool)>((nil, false))

        var client: AsyncHTTPClient.HTTPClient {
            state.withLock { state in
                if let made = state.client { return made }
                let client = Self.make()
                state.client = client
                return client
            }
        }

        /// Redirects are followed by `HTTPClient.execute`, one hop at a time. No read timeout
        /// here: each call brings its own deadline or idle limit. A refused connection fails
        /// its call at once (the pool would otherwise retry it until the deadline, and a
        /// provider that tries another server, as Radio Browser's does, would wait for nothing).
        static func make(
            timeout: AsyncHTTPClient.HTTPClient.Configuration.Timeout = .init(connect: .seconds(10), read: nil), dnsOverride: [String: String] = [:]
        ) -> AsyncHTTPClient.HTTPClient {
            var configuration = AsyncHTTPClient.HTTPClient.Configuration(redirectConfiguration: .disallow, decompression: .disabled)
            configuration.timeout = timeout
            configuration.connectionPool.retryConnectionEstablishment = false
            configuration.dnsOverride = dnsOverride
            return AsyncHTTPClient.HTTPClient(eventLoopGroup: group, configuration: configuration)
        }

        /// The event loops of every client made here: NIO's shared ones.
        static var group: any EventLoopGroup { AsyncHTTPClient.HTTPClient.defaultEventLoopGroup }

        /// A client of one hop's life on the same event loops (`HTTPClient.pinned`), unless
        /// this one has been shut down.
        func pinned(
            timeout: AsyncHTTPClient.HTTPClient.Configuration.Timeout, dnsOverride: [String: String]
        ) throws(TransportError) -> AsyncHTTPClient.HTTPClient {
            guard !state.withLock({ $0.closed }) else { throw .unreachable("the server is shutting down") }
            return Self.make(timeout: timeout, dnsOverride: dnsOverride)
        }

        /// A client never made is made now, to be shut down: a call after this (from a service
        /// still stopping, or the bucket's) then fails as it would had the client been in use,
        /// rather than opening a client nobody closes.
        func shutdown() async throws {
            let open = state.withLock { state -> AsyncHTTPClient.HTTPClient? in
                defer { state.closed = true }
                if state.closed { return nil }
                let client = state.client ?? Self.make()
                state.client = client
                return client
            }
            try await open?.shutdown()
        }

        deinit {
            // A client let go unclosed (a test's, a platform whose services never ran): closed
            // now, in the background; AsyncHTTPClient stops a debug build at an unclosed one.
            let open = state.withLock { $0.closed ? nil : $0.client }
            open?.shutdown { _ in }
        }
    }
}

/// When a stream's last piece came, shared by the pump and its watchdog.
final class Watch: Sendable {
    private let instant = Mutex(ContinuousClock.now)
    func touch() { instant.withLock { $0 = .now } }
    var last: ContinuousClock.Instant { instant.withLock { $0 } }
}
