import DualPlayer
import Feeds
import Foundation
import Providers
import Synchronization

/// One fetch of a show's feed, as FeedSchedule asks for it: conditional (ETag,
/// Last-Modified), read as it arrives into Juke's own parser, and turned into the outcome the
/// schedule applies. Juke's demo show is read from the server's own folder, with no network.
struct FeedFetch: Sendable {
    let fetcher: WebFetcher
    /// Juke's demo show's feed file; nil when it has not been made.
    let demoFeedPath: @Sendable () -> String?
    static let limit: Int64 = 64 * 1024 * 1024
    /// A refresh keeps this many items of a feed (they come newest first in nearly every feed).
    static let maxItems = 3000

    struct Result: Sendable {
        var outcome: FeedSchedule.Outcome
        var info: FeedInfo?
        var items: [FeedItem]
        /// The page's own feed, when the address was a web page that names one (subscribing).
        var discovered: String?
    }

    /// Why a feed could not be read, for the person subscribing (the refresher records it).
    struct Failure: Error, CustomStringConvertible {
        let description: String
        let retryAfter: TimeInterval?
        let gone: Bool

        init(_ description: String, retryAfter: TimeInterval? = nil, gone: Bool = false) {
            self.description = description
            self.retryAfter = retryAfter
            self.gone = gone
        }
    }

    /// Fetches `schedule.url`. Failures come back as the schedule's `.failed` or `.gone`.
    func run(_ schedule: FeedSchedule, conditional: Bool = true, now: Date) async -> Result {
        do {
            return try await fetch(schedule, conditional: conditional, now: now)
        } catch let failure as Failure {
            return Result(outcome: failure.gone ? .gone : .failed(reason: failure.description, retryAfter: failure.retryAfter), info: nil, items: [])
        } catch {
            return Result(outcome: .failed(reason: Self.words(error), retryAfter: nil), info: nil, items: [])
        }
    }

    func fetch(_ schedule: FeedSchedule, conditional: Bool, now: Date) async throws -> Result {
        if schedule.url == Podcast.demoFeed { return try demo() }
        guard let url = URL(string: schedule.url) else { throw Failure("\(schedule.url) is not a web address") }
        var headers: [String: String] = ["Accept": "application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.5"]
        if conditional, let etag = schedule.etag { headers["If-None-Match"] = etag }
        if conditional, let lastModified = schedule.lastModified { headers["If-Modified-Since"] = lastModified }
        let reading = Reading()
        let answer = try await fetcher.get(
            url, headers: headers, limit: Self.limit,
            accept: { answer in
                if let type = answer.contentType, type.hasPrefix("image/") || type.hasPrefix("audio/") || type.hasPrefix("video/") {
                    throw Failure("the address answers \(type), not a feed")
                }
                reading.start(base: answer.url.absoluteString, charset: answer.charset, isHTML: answer.contentType?.contains("html") ?? false)
            }
        ) { piece in try reading.read(piece) }
        switch answer.status {
        case 200...299:
            let (info, items, page) = try reading.finish()
            if let page {
                // A web page: the feed it names, if any (a subscriber gave the show's site).
                guard let feed = FeedDiscovery.feeds(inHTML: page, base: answer.url.absoluteString).first else {
                    throw Failure("the address is a web page that names no podcast feed")
                }
                return Result(outcome: .failed(reason: "a web page, not a feed", retryAfter: nil), info: nil, items: [], discovered: feed)
            }
            return Result(
                outcome: .fetched(
                    etag: answer.headers["etag"], lastModified: answer.headers["last-modified"],
                    permanentlyMovedTo: answer.movedPermanently?.absoluteString, newFeedURL: info.newFeedURL),
                info: info, items: items)
        case 304: return Result(outcome: .notModified, info: nil, items: [])
        case 410: throw Failure("the feed is gone (HTTP 410)", gone: true)
        case 404: throw Failure("the host has no feed at this address (HTTP 404)")
        case 401, 403: throw Failure("the host refuses to give the feed (HTTP \(answer.status)); a private feed needs its own address with its key")
        case 429, 503: throw Failure("the host is busy (HTTP \(answer.status))", retryAfter: answer.retryAfter(now: now))
        default: throw Failure("the host answered HTTP \(answer.status)", retryAfter: answer.retryAfter(now: now))
        }
    }

    /// Juke's demo show, from the file the server made.
    func demo() throws -> Result {
        guard let path = demoFeedPath(), let data = FileManager.default.contents(atPath: path) else {
            throw Failure("Juke's demo show has not been made on this server (it needs espeak-ng and ffmpeg)")
        }
        let feed = try FeedReader.parse(data)
        return Result(
            outcome: .fetched(etag: nil, lastModified: nil, permanentlyMovedTo: nil, newFeedURL: nil), info: feed.info,
            items: Array(feed.items.prefix(Self.maxItems)))
    }

    static func words(_ error: any Error) -> String {
        switch error {
        case let error as WebFetchError: error.description
        case let error as FeedError: error.description
        case let error as Failure: error.description
        default: "\(error)"
        }
    }

    /// A feed read as its bytes arrive (the parser is not Sendable; the lock keeps it to one
    /// piece at a time). A page served as HTML is kept (bounded) for its feed links instead.
    final class Reading: Sendable {
        struct State {
            var reader: FeedReader?
            var box: ItemBox?
            var page: [UInt8]?
        }

        let state = Mutex(State())

        func start(base: String, charset: String?, isHTML: Bool) {
            state.withLock { state in
                if isHTML {
                    state.page = []
                    return
                }
                let box = ItemBox()
                state.reader = FeedReader(base: base, httpCharset: charset) { item in
                    if box.items.count < FeedFetch.maxItems { box.items.append(item) }
                }
                state.box = box
            }
        }

        func read(_ piece: [UInt8]) throws {
            try state.withLock { state in
                if state.page != nil {
                    if (state.page?.count ?? 0) < 512 * 1024 { state.page? += piece }
                    return
                }
                do {
                    try state.reader?.read(piece)
                } catch let error as FeedError {
                    // Served as XML or text but it is a page after all: keep it for its links.
                    guard case .notAFeed(let root) = error, root.lowercased() == "html" else { throw error }
                    state.page = piece
                }
            }
        }

        func finish() throws -> (FeedInfo, [FeedItem], page: [UInt8]?) {
            try state.withLock { state in
                if let page = state.page { return (FeedInfo(), [], page) }
                guard let reader = state.reader else { throw FeedError.empty }
                let info = try reader.finish()
                return (info, state.box?.items ?? [], nil)
            }
        }
    }

    /// Where the reader puts items as they close.
    final class ItemBox {
        var items: [FeedItem] = []
    }
}
