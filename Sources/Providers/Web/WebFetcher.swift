import AsyncHTTPClient
public import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// Fetches what a person points Juke's server at on the web (podcast feeds, episode files,
/// chapters, transcripts, articles) under the same rule as the radio relay: only addresses on
/// the internet, checked on the address connected to, so a feed at http://192.168.1.1/ cannot
/// make the server read the router's pages for anyone.
///
/// Each hop is looked up once (`AddressGuard`: the addresses `NetworkAddressPolicy` allows),
/// then requested through AsyncHTTPClient pinned to a checked address (`HTTPClient.pinned`),
/// the URL's name kept for TLS and the Host header. Redirects are followed here (at most five,
/// each looked up and checked the same way) and reported: when every hop was permanent (301,
/// 308) the answer says where the resource now lives, for a subscription to move. Conditional
/// and range headers are the caller's (If-None-Match, If-Modified-Since, Range). The body
/// comes in pieces as it arrives, never whole, and is bounded.
public struct WebFetcher: Sendable {
    public let allowPrivateNetworks: Bool
    let userAgent: String
    /// The server's one outbound client: each hop's pinned client is made by it, on its event
    /// loops, and none is made once it has been shut down.
    let http: HTTPClient
    var addressGuard: AddressGuard
    let connectTimeout: TimeAmount
    /// The longest the server may stay silent: before answering, and between two pieces.
    let idleTimeout: TimeAmount
    static let maximumHops = 5
    /// Addresses of one name tried in turn when a connection cannot be made.
    static let addressesTried = 4

    public init(
        http: HTTPClient = HTTPClient(), allowPrivateNetworks: Bool = false,
        userAgent: String = "Juke/1.0 (self-hosted music server; podcasts and articles)", connectTimeout: Duration = .seconds(8),
        idleTimeout: Duration = .seconds(20)
    ) {
        self.allowPrivateNetworks = allowPrivateNetworks
        self.userAgent = userAgent
        self.http = http
        self.addressGuard = AddressGuard(allowPrivateNetworks: allowPrivateNetworks)
        self.connectTimeout = TimeAmount(connectTimeout)
        self.idleTimeout = TimeAmount(idleTimeout)
    }

    /// A fetcher whose guard allows the policy's public addresses and those `alsoAllowed`
    /// (a test's host on loopback, so that a redirect from it can be followed and checked).
    init(alsoAllowing alsoAllowed: @escaping @Sendable ([UInt8]) -> Bool, idleTimeout: Duration = .seconds(20)) {
        self.init(allowPrivateNetworks: false, idleTimeout: idleTimeout)
        addressGuard.isAllowed = { NetworkAddressPolicy.isPublic($0) || alsoAllowed($0) }
    }

    /// GETs `url` with `headers`. For a 2xx answer, `accept` sees the head first (and may throw
    /// to refuse it: a web page where a feed was expected), then `body` gets the body's pieces,
    /// at most `limit` bytes in all. Other statuses (304, 404, 410, 429, …) come back without
    /// their body read.
    @discardableResult
    public func get(
        _ url: URL, headers: [String: String] = [:], limit: Int64, accept: @Sendable (WebAnswer) throws -> Void = { _ in },
        body: @Sendable ([UInt8]) async throws -> Void
    ) async throws -> WebAnswer {
        var current = url
        var permanent = true
        for hop in 0...Self.maximumHops {
            let target: StreamTarget
            let addresses: [ResolvedAddresses.Address]
            do {
                target = try StreamTarget(current)
                addresses = try await addressGuard.allowedAddresses(host: target.host, port: target.port)
            } catch {
                throw WebFetchError(error)
            }
            let request = try outbound(target, headers: headers)
            let step = try await fetch(request, target: target, addresses: addresses, limit: limit, accept: accept, body: body) { status, headers in
                WebAnswer(status: status, headers: headers, url: target.url, movedPermanently: hop > 0 && permanent ? target.url : nil)
            }
            switch step {
            case .redirect(let next, let isPermanent):
                permanent = permanent && isPermanent
                current = next
            case .answer(let answer):
                return answer
            }
        }
        throw WebFetchError.tooManyRedirects
    }

    enum Step {
        case redirect(URL, permanent: Bool)
        case answer(WebAnswer)
    }

    /// A hop's request, and the name AsyncHTTPClient connects to for it, read from the request's
    /// address the way AsyncHTTPClient reads it: the pin is keyed by that name, so a name the
    /// two read differently is refused rather than looked up unchecked.
    struct Outbound {
        let request: HTTPClientRequest
        let host: String
        /// False when the host is an IP address, which AsyncHTTPClient connects to as it is.
        let needsPin: Bool
    }

    func outbound(_ target: StreamTarget, headers: [String: String]) throws(WebFetchError) -> Outbound {
        let authority = (target.host.contains(":") ? "[\(target.host)]" : target.host) + ":\(target.port)"
        let address = (target.isTLS ? "https://" : "http://") + authority + target.pathAndQuery
        guard var host = URL(string: address)?.host else { throw .invalidAddress("\(target.host) is not a host name Juke can check") }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard host.lowercased() == target.host.lowercased() else { throw .invalidAddress("\(target.host) is not a host name Juke can check") }
        var request = HTTPClientRequest(url: address)
        request.method = .GET
        request.headers.add(name: "User-Agent", value: userAgent)
        request.headers.add(name: "Accept", value: "*/*")
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) where !name.contains(where: \.isNewline) && !value.contains(where: \.isNewline) {
            request.headers.replaceOrAdd(name: name, value: value)
        }
        return Outbound(request: request, host: host, needsPin: (try? SocketAddress(ipAddress: host, port: target.port)) == nil)
    }

    /// One hop, to the first of the checked addresses that takes the connection.
    private func fetch(
        _ outbound: Outbound, target: StreamTarget, addresses: [ResolvedAddresses.Address], limit: Int64, accept: @Sendable (WebAnswer) throws -> Void,
        body: @Sendable ([UInt8]) async throws -> Void, answer: (Int, [String: String]) -> WebAnswer
    ) async throws -> Step {
        var failures: [String] = []
        for address in addresses.prefix(Self.addressesTried) {
            guard let ip = address.socket.ipAddress else { continue }
            let client: AsyncHTTPClient.HTTPClient
            do {
                client = try http.pinned(
                    host: outbound.host, to: outbound.needsPin ? ip : nil, connectTimeout: connectTimeout, readTimeout: idleTimeout)
            } catch {
                throw WebFetchError.unreachable("the server is shutting down")
            }
            do {
                let step = try await exchange(outbound.request, on: client, target: target, limit: limit, accept: accept, body: body, answer: answer)
                try? await client.shutdown()
                return step
            } catch let failure as ConnectionFailure {
                try? await client.shutdown()
                failures.append("\(ip): \(failure.error)")
            } catch {
                try? await client.shutdown()
                throw error
            }
        }
        throw WebFetchError.unreachable("could not connect to \(target.host): \(failures.joined(separator: "; "))")
    }

    /// A connection to one address could not be made: the next address is tried.
    struct ConnectionFailure: Error {
        let error: any Error
    }

    private func exchange(
        _ request: HTTPClientRequest, on client: AsyncHTTPClient.HTTPClient, target: StreamTarget, limit: Int64,
        accept: @Sendable (WebAnswer) throws -> Void, body: @Sendable ([UInt8]) async throws -> Void, answer: (Int, [String: String]) -> WebAnswer
    ) async throws -> Step {
        let response: HTTPClientResponse
        do {
            // No deadline: the connect timeout and the idle limit (the client's read timeout)
            // bound the wait, as they bound every piece of the body.
            response = try await client.execute(request, deadline: .distantFuture)
        } catch {
            if Self.isConnectionFailure(error) { throw ConnectionFailure(error: error) }
            throw Self.fetchError(error, host: target.host)
        }
        let status = Int(response.status.code)
        let headers = HTTPClient.headers(response.headers)
        if [301, 302, 303, 307, 308].contains(status) {
            guard let location = headers["location"], let next = URL(string: location, relativeTo: target.url)?.absoluteURL else {
                throw WebFetchError.malformed("a redirect without a Location")
            }
            return .redirect(next, permanent: status == 301 || status == 308)
        }
        let result = answer(status, headers)
        guard (200..<300).contains(status) else { return .answer(result) }
        try accept(result)
        if let declared = result.contentLength, declared > limit { throw WebFetchError.tooLarge(limit) }
        var received: Int64 = 0
        var pieces = response.body.makeAsyncIterator()
        while true {
            let piece: ByteBuffer?
            do {
                piece = try await pieces.next()
            } catch is HTTPParserError {
                // The connection closed before the body's end (as its length or chunks tell).
                throw WebFetchError.unreachable("\(target.host) stopped after \(received) bytes of the answer")
            } catch {
                throw Self.fetchError(error, host: target.host)
            }
            guard let piece else { break }
            guard piece.readableBytes > 0 else { continue }
            received += Int64(piece.readableBytes)
            if received > limit { throw WebFetchError.tooLarge(limit) }
            try await body(Array(piece.readableBytesView))
        }
        if let declared = result.contentLength, received < declared {
            throw WebFetchError.unreachable("\(target.host) stopped after \(received) of \(declared) bytes")
        }
        return .answer(result)
    }

    /// A connection that could not be made (refused, unreachable, not in time): another
    /// address of the name may take it.
    static func isConnectionFailure(_ error: any Error) -> Bool {
        switch error {
        case let error as HTTPClientError: error == .connectTimeout
        case is NIOConnectionError, is IOError: true
        default: false
        }
    }

    /// What went wrong, in `WebFetchError`'s words (cancellation stays cancellation).
    static func fetchError(_ error: any Error, host: String) -> any Error {
        switch error {
        case is WebFetchError, is CancellationError: return error
        case let error as HTTPClientError:
            switch error {
            case .readTimeout: return WebFetchError.unreachable("\(host) stopped answering")
            case .connectTimeout: return WebFetchError.unreachable("could not connect to \(host) in time")
            case .tlsHandshakeTimeout: return WebFetchError.unreachable("\(host)'s TLS handshake took too long")
            case .cancelled: return CancellationError()
            default: return WebFetchError.unreachable("\(host) could not be reached (\(error))")
            }
        case is HTTPParserError: return WebFetchError.malformed("\(error)")
        default: return WebFetchError.unreachable("\(host) could not be reached (\(error))")
        }
    }

    /// A bounded document read whole (a feed, a chapters or transcript file, an article).
    public func document(_ url: URL, headers: [String: String] = [:], limit: Int64, accept: @Sendable (WebAnswer) throws -> Void = { _ in })
        async throws -> (answer: WebAnswer, body: [UInt8])
    {
        let collected = Collected()
        let answer = try await get(url, headers: headers, limit: limit, accept: accept) { await collected.append($0) }
        return (answer, await collected.bytes)
    }
}

/// A body gathered piece by piece.
actor Collected {
    var bytes: [UInt8] = []
    func append(_ piece: [UInt8]) { bytes += piece }
}
