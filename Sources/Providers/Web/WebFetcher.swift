public import Foundation
import MediaFormats
import NIOCore

/// Fetches what a person points Juke's server at on the web (podcast feeds, episode files,
/// chapters, transcripts, articles) under the same rule as the radio relay: only addresses on
/// the internet, checked on the address connected to (`GuardedDialer`), so a feed at
/// http://192.168.1.1/ cannot make the server read the router's pages for anyone.
///
/// Redirects are followed (at most five, each checked) and reported: when every hop was
/// permanent (301, 308) the answer says where the resource now lives, for a subscription to
/// move. Conditional and range headers are the caller's (If-None-Match, If-Modified-Since,
/// Range). The body comes in pieces as it arrives, never whole, and is bounded.
public struct WebFetcher: Sendable {
    public let allowPrivateNetworks: Bool
    let userAgent: String
    let dialer: GuardedDialer
    static let maximumHops = 5

    public init(
        allowPrivateNetworks: Bool = false, userAgent: String = "Juke/1.0 (self-hosted music server; podcasts and articles)",
        connectTimeout: Duration = .seconds(8), idleTimeout: Duration = .seconds(20)
    ) {
        self.allowPrivateNetworks = allowPrivateNetworks
        self.userAgent = userAgent
        self.dialer = GuardedDialer(
            allowPrivateNetworks: allowPrivateNetworks, connectTimeout: TimeAmount(connectTimeout), idleTimeout: TimeAmount(idleTimeout))
    }

    /// A fetcher whose guard allows the policy's public addresses and those `alsoAllowed`
    /// (a test's host on loopback, so that a redirect from it can be followed and checked).
    init(alsoAllowing alsoAllowed: @escaping @Sendable ([UInt8]) -> Bool, idleTimeout: Duration = .seconds(20)) {
        self.allowPrivateNetworks = false
        self.userAgent = "Juke/1.0 (self-hosted music server; podcasts and articles)"
        var dialer = GuardedDialer(allowPrivateNetworks: false, connectTimeout: .seconds(8), idleTimeout: TimeAmount(idleTimeout))
        dialer.isAllowed = { NetworkAddressPolicy.isPublic($0) || alsoAllowed($0) }
        self.dialer = dialer
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
            let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
            do {
                target = try StreamTarget(current)
                channel = try await dialer.open(target)
            } catch let error as StreamRelayError {
                throw WebFetchError(error)
            }
            let extra = headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
            let step: Step = try await channel.executeThenClose { inbound, outbound in
                try await outbound.write(ByteBuffer(string: target.request(userAgent: userAgent, icy: false, extra: extra)))
                var reader = StreamReader(iterator: inbound.makeAsyncIterator())
                return try await read(from: &reader, target: target, limit: limit, accept: accept, body: body) { status, headers in
                    WebAnswer(status: status, headers: headers, url: target.url, movedPermanently: hop > 0 && permanent ? target.url : nil)
                }
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

    private func read(
        from reader: inout StreamReader, target: StreamTarget, limit: Int64, accept: @Sendable (WebAnswer) throws -> Void,
        body: @Sendable ([UInt8]) async throws -> Void, answer: (Int, [String: String]) -> WebAnswer
    ) async throws -> Step {
        let head: StreamResponseHead
        let pending: [UInt8]
        let length: Int
        do {
            (head, pending, length) = try await reader.head(from: target.host)
        } catch let error as StreamRelayError {
            throw WebFetchError(error)
        }
        if [301, 302, 303, 307, 308].contains(head.status) {
            guard let location = head.headers["location"], let next = URL(string: location, relativeTo: target.url)?.absoluteURL else {
                throw WebFetchError.malformed("a redirect without a Location")
            }
            return .redirect(next, permanent: head.status == 301 || head.status == 308)
        }
        let result = answer(head.status, head.headers)
        guard (200..<300).contains(head.status) else { return .answer(result) }
        try accept(result)
        if let declared = result.contentLength, declared > limit { throw WebFetchError.tooLarge(limit) }
        var decoder = StreamBodyDecoder(head: head)
        var received: Int64 = 0
        func pass(_ bytes: [UInt8]) async throws {
            let parts: [StreamPart]
            do { parts = try decoder.feed(bytes) } catch { throw WebFetchError(error) }
            let piece = parts.audioBytes
            guard !piece.isEmpty else { return }
            received += Int64(piece.count)
            if received > limit { throw WebFetchError.tooLarge(limit) }
            try await body(piece)
        }
        try await pass(Array(pending[length...]))
        while !decoder.isFinished, received < (result.contentLength ?? .max), let bytes = try await next(&reader) {
            try await pass(bytes)
        }
        if let declared = result.contentLength, received < declared {
            throw WebFetchError.unreachable("\(target.host) stopped after \(received) of \(declared) bytes")
        }
        return .answer(result)
    }

    private func next(_ reader: inout StreamReader) async throws -> [UInt8]? {
        do { return try await reader.next() } catch let error as StreamRelayError { throw WebFetchError(error) }
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
