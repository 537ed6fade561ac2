public import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
public import Synchronization

/// A local podcast host for the feed fetcher's and the podcast service's tests, answering what
/// real hosts answer: a feed with ETag and Last-Modified (304 when unchanged), episode files with
/// Range, Podcasting 2.0 chapters and a WebVTT transcript, and the ways hosts fail.
///
/// Paths: `/feed.xml` (the show; `publish()` adds an episode and changes its ETag), `/moved.xml`
/// (301 to /feed.xml), `/temporary.xml` (302 to /feed.xml), `/new-home.xml` (a feed whose
/// `itunes:new-feed-url` names /feed.xml), `/gone.xml` (410), `/missing.xml` (404),
/// `/limited.xml` (429, Retry-After 120), `/unavailable.xml` (503, Retry-After as an HTTP date),
/// `/slow.xml` (the feed after 3 s), `/page.html` (a web page that links its feed),
/// `/broken.xml` (a document that is no feed), `/image.png` (a feed address answering an image),
/// `/episodes/N.mp3` (bytes with Range; `dropAfter` cuts the first answer short),
/// `/episodes/N.json` (chapters), `/episodes/N.vtt` (transcript); and for articles read aloud,
/// `/article.html` (a news page with a menu and comments) and `/notes.txt` (plain text).
public final class FakePodcastHost: Sendable {
    /// Episodes published, newest last.
    public let episodes = Mutex(2)
    /// Requests seen: path and request headers (lower-cased names).
    public let requests = Mutex<[(path: String, headers: [String: String])]>([])
    /// When set, the next episode download answers only this many bytes and closes.
    public let dropAfter = Mutex<Int?>(nil)
    /// When set, /feed.xml answers this status instead (a host failing).
    public let failWith = Mutex<Int?>(nil)
    /// When true, /feed.xml answers a damaged document (a truncated, broken feed).
    public let damaged = Mutex(false)
    /// The show's title in the feed, as written into the XML (a host may put anything there).
    public let title = Mutex("The Fake Show")
    /// Bytes in each episode file.
    public static let episodeSize = 200_000

    public init() {}

    public func publish() { episodes.withLock { $0 += 1 } }

    public func requests(to path: String) -> [[String: String]] {
        requests.withLock { $0.filter { $0.path == path }.map(\.headers) }
    }

    /// Episode `n`'s file: an MP3 frame header repeated, so anything that sniffs it sees audio.
    public static func episodeBytes(_ n: Int) -> [UInt8] {
        (0..<episodeSize).map { i in
            switch i % 417 {
            case 0: 0xFF
            case 1: 0xFB
            case 2: 0x90
            case 3: 0x64
            default: UInt8(truncatingIfNeeded: i &* 31 &+ n)
            }
        }
    }

    public func feed(base: String, newFeedURL: String? = nil) -> String {
        let count = episodes.withLock { $0 }
        let items = (1...count).reversed().map { n in
            """
            <item>
              <title>Episode \(n): the fake &amp; its tests</title>
              <guid isPermaLink="false">fake-episode-\(n)</guid>
              <pubDate>\(["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][n % 7]), 0\(n % 9 + 1) Jan 2024 10:00:00 GMT</pubDate>
              <enclosure url="episodes/\(n).mp3" type="audio/mpeg" length="\(Self.episodeSize)"/>
              <itunes:duration>12:3\(n % 10)</itunes:duration>
              <itunes:episode>\(n)</itunes:episode>
              <description>&lt;p&gt;Show notes of episode \(n).&lt;/p&gt;</description>
              <podcast:chapters url="episodes/\(n).json" type="application/json+chapters"/>
              <podcast:transcript url="episodes/\(n).vtt" type="text/vtt"/>
            </item>
            """
        }.joined(separator: "\n")
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:podcast="https://podcastindex.org/namespace/1.0">
            <channel>
              <title>\(title.withLock { $0 })</title>
              <link>\(base)/</link>
              <language>en</language>
              <description>A podcast host that lives in a test.</description>
              <itunes:author>Juke's tests</itunes:author>
              <itunes:image href="\(base)/image.png"/>
              \(newFeedURL.map { "<itunes:new-feed-url>\($0)</itunes:new-feed-url>" } ?? "")
              \(items)
            </channel>
            </rss>
            """
    }

    func etag() -> String { "\"v\(episodes.withLock { $0 })\"" }

    func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.middlewares.add(Recorder(host: self))
        let lastModified = "Sat, 06 Jan 2024 10:00:00 GMT"
        router.get("/feed.xml") { request, context -> Response in
            if let status = self.failWith.withLock({ $0 }) { return Response(status: .init(code: status)) }
            if self.damaged.withLock({ $0 }) { return Self.text("<?xml version=\"1.0\"?><html><body>Oops", type: "application/rss+xml") }
            let tag = self.etag()
            if request.headers[.ifNoneMatch] == tag {
                return Response(status: .notModified, headers: [.eTag: tag])
            }
            return Self.text(
                self.feed(base: Self.base(request)), type: "application/rss+xml; charset=utf-8", headers: [.eTag: tag, .lastModified: lastModified])
        }
        router.get("/moved.xml") { _, _ in Response(status: .movedPermanently, headers: [.location: "/feed.xml"]) }
        // A redirect to wherever the test says (`?to=`): into a private network, for the guard.
        router.get("/redirect") { request, _ in
            Response(status: .found, headers: [.location: request.uri.queryParameters.get("to") ?? "/feed.xml"])
        }
        router.get("/temporary.xml") { _, _ in Response(status: .found, headers: [.location: "/feed.xml"]) }
        router.get("/new-home.xml") { request, _ in
            let base = Self.base(request)
            return Self.text(self.feed(base: base, newFeedURL: base + "/feed.xml"), type: "application/xml")
        }
        router.get("/gone.xml") { _, _ in Response(status: .gone) }
        router.get("/missing.xml") { _, _ in Self.text("<html><body>Not found</body></html>", type: "text/html", status: .notFound) }
        router.get("/limited.xml") { _, _ in Response(status: .tooManyRequests, headers: [.retryAfter: "120"]) }
        router.get("/unavailable.xml") { _, _ in
            Response(status: .serviceUnavailable, headers: [.retryAfter: "Fri, 01 Jan 2100 00:00:00 GMT"])
        }
        router.get("/slow.xml") { request, _ in
            try await Task.sleep(for: .seconds(3))
            return Self.text(self.feed(base: Self.base(request)), type: "application/rss+xml")
        }
        router.get("/page.html") { _, _ in
            Self.text(
                """
                <!doctype html><html><head><title>The Fake Show</title>
                <link rel="alternate" type="application/rss+xml" title="The Fake Show" href="/feed.xml"></head>
                <body><h1>The Fake Show</h1></body></html>
                """, type: "text/html; charset=utf-8")
        }
        router.get("/article.html") { _, _ in
            Self.text(
                """
                <!doctype html><html><head><meta charset="utf-8"><title>A Quiet Storm | The Fake Times</title>
                <meta name="author" content="Ann Writer"></head><body>
                <nav><a href="/">Home</a> <a href="/world">World</a></nav>
                <article><h1>A Quiet Storm</h1>
                <p>The storm came in the night, quietly, as storms rarely do. Nobody heard it arrive, and nobody saw it go.</p>
                <p>By morning the streets were wet, the gutters full, and the town was talking of nothing else at all.</p>
                <h2>The morning after</h2>
                <p>Mr. Jones said it was the quietest storm in fifty years. Dr. Smith agreed, and added that it would not be the last.</p>
                </article>
                <div class="comments"><p>Great article, thanks for writing it, I read it twice and will read it again tomorrow.</p></div>
                </body></html>
                """, type: "text/html; charset=utf-8")
        }
        router.get("/notes.txt") { _, _ in
            Self.text("Field Notes\n\nIt rained all day.\nThen it stopped.\n\nCHAPTER TWO\n\nThe sun came out.\n", type: "text/plain")
        }
        router.get("/broken.xml") { _, _ in Self.text("{\"this is\": \"json, not a feed\"}", type: "application/xml") }
        router.get("/image.png") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "image/png"], body: .init(byteBuffer: ByteBuffer(bytes: [0x89, 0x50, 0x4E, 0x47, 13, 10, 26, 10])))
        }
        router.get("/episodes/:file") { request, context -> Response in
            let file = context.parameters.get("file") ?? ""
            guard let n = Int(file.split(separator: ".").first ?? ""), n >= 1 else { return Response(status: .notFound) }
            if file.hasSuffix(".json") {
                let chapters =
                    "{\"version\": \"1.2.0\", \"chapters\": [{\"startTime\": 0, \"title\": \"Hello\"}, {\"startTime\": 361.5, \"title\": \"Goodbye\"}]}"
                return Self.text(chapters, type: "application/json+chapters")
            }
            if file.hasSuffix(".vtt") {
                return Self.text(
                    "WEBVTT\n\n00:00.000 --> 00:04.000\nHello and welcome.\n\n00:04.000 --> 00:09.500\n<v Host>This is episode \(n).\n", type: "text/vtt")
            }
            guard file.hasSuffix(".mp3") else { return Response(status: .notFound) }
            let bytes = Self.episodeBytes(n)
            var start = 0
            var status = HTTPResponse.Status.ok
            var headers: HTTPFields = [.contentType: "audio/mpeg", .acceptRanges: "bytes"]
            if let range = request.headers[.range], range.hasPrefix("bytes="), let from = Int(range.dropFirst(6).split(separator: "-").first ?? "") {
                guard from < bytes.count else { return Response(status: .rangeNotSatisfiable, headers: [.contentRange: "bytes */\(bytes.count)"]) }
                start = from
                status = .partialContent
                headers[.contentRange] = "bytes \(from)-\(bytes.count - 1)/\(bytes.count)"
            }
            let body = Array(bytes[start...])
            if let cut = self.dropAfter.withLock({ value -> Int? in
                defer { value = nil }
                return value
            }) {
                // A connection that breaks part-way: the length promised, fewer bytes sent.
                headers[.contentLength] = String(body.count)
                let partial = Array(body.prefix(cut))
                return Response(
                    status: status, headers: headers,
                    body: ResponseBody { writer in
                        try await writer.write(ByteBuffer(bytes: partial))
                        throw CancellationError()
                    })
            }
            return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
        return router
    }

    static func base(_ request: Request) -> String {
        "http://\(request.head.authority ?? "127.0.0.1")"
    }

    static func text(_ text: String, type: String, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = type
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// Runs the host on a free loopback port; `body` gets its base address (http://127.0.0.1:port).
    public func run(_ body: @escaping @Sendable (URL) async throws -> Void) async throws {
        let app = Application(router: router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            guard let port = client.port, let url = URL(string: "http://127.0.0.1:\(port)") else { throw FakeServerError.notStarted }
            try await body(url)
        }
    }

    /// Notes every request's path and headers.
    struct Recorder: RouterMiddleware {
        let host: FakePodcastHost

        func handle(_ request: Request, context: BasicRequestContext, next: (Request, BasicRequestContext) async throws -> Response) async throws
            -> Response
        {
            var headers: [String: String] = [:]
            for field in request.headers { headers[field.name.canonicalName] = field.value }
            host.requests.withLock { $0.append((request.uri.path, headers)) }
            return try await next(request, context)
        }
    }
}
