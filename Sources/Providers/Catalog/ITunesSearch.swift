public import Foundation
import JukeCore

/// Apple's iTunes Search API (no account needed): `GET /search?term=&media=music&entity=song`
/// for songs, `media=podcast&entity=podcast` for podcasts.
/// Its paging is `limit` and `offset`; results come as `{"resultCount", "results": [...]}`
/// with `trackName`, `artistName`, `collectionName`, `trackTimeMillis`, `releaseDate`,
/// `primaryGenreName` and `artworkUrl100`. It has no ISRCs.
public struct ITunesSearch: MusicCatalog {
    public let baseURL: URL
    public var country: String
    public var timeout: TimeInterval
    /// The server's one outbound client (`Platform.http`).
    let http: HTTPClient

    public init(http: HTTPClient, baseURL: URL, country: String = "US", timeout: TimeInterval = 10) {
        self.http = http
        self.baseURL = baseURL
        self.country = country
        self.timeout = timeout
    }

    public var name: String { "iTunes Search" }

    public func search(_ term: String, limit: Int, offset: Int) async throws(CatalogError) -> CatalogPage {
        let body = try await get(term: term, media: "music", entity: "song", limit: limit, offset: offset)
        return try Self.parse(body, limit: limit)
    }

    /// Podcasts by name or author (`media=podcast`), for subscribing: each with its feed's
    /// address. Shows the directory lists without a feed address cannot be subscribed to and
    /// are left out.
    public func podcasts(_ term: String, limit: Int) async throws(CatalogError) -> [PodcastShow] {
        let body = try await get(term: term, media: "podcast", entity: "podcast", limit: limit, offset: 0)
        return try Self.parseShows(body)
    }

    /// One search's answer body; the API's refusals as `CatalogError`.
    private func get(term: String, media: String, entity: String, limit: Int, offset: Int) async throws(CatalogError) -> Data {
        var components = URLComponents(url: baseURL.appendingPathComponent("search"), resolvingAgainstBaseURL: false)
        components?.queryItems = [
            URLQueryItem(name: "term", value: term), URLQueryItem(name: "media", value: media), URLQueryItem(name: "entity", value: entity),
            URLQueryItem(name: "country", value: country), URLQueryItem(name: "limit", value: String(max(1, min(200, limit)))),
            URLQueryItem(name: "offset", value: String(max(0, offset))),
        ]
        guard let url = components?.url else { throw .malformed("bad search term") }
        let reply = try await http.send(OutboundRequest(url: url), timeout: timeout, failingAs: CatalogError.self)
        switch reply.status {
        case 200: return reply.body
        case 403, 429: throw .rateLimited(retryAfter: RetryAfter.seconds(reply.headers["retry-after"]))
        default:
            let message = ((try? JSONSerialization.jsonObject(with: reply.body)) as? [String: Any])?["errorMessage"] as? String
            throw .status(reply.status, message ?? "HTTP \(reply.status)")
        }
    }

    static func parseShows(_ data: Data) throws(CatalogError) -> [PodcastShow] {
        guard let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any], let results = root["results"] as? [[String: Any]] else {
            throw .malformed("not an iTunes Search result")
        }
        return results.compactMap { r -> PodcastShow? in
            guard r["kind"] as? String == "podcast" || r["wrapperType"] as? String == "track",
                let title = r["collectionName"] as? String ?? r["trackName"] as? String,
                let feed = (r["feedUrl"] as? String).flatMap({ WebAddress($0) })?.text
            else { return nil }
            let id = (r["collectionId"] as? Int).map(String.init) ?? (r["collectionId"] as? String) ?? feed
            return PodcastShow(
                id: id, title: title, author: r["artistName"] as? String, feedURL: feed,
                artworkURL: r["artworkUrl600"] as? String ?? r["artworkUrl100"] as? String, episodeCount: r["trackCount"] as? Int,
                genre: r["primaryGenreName"] as? String, latest: r["releaseDate"] as? String)
        }
    }

    static func parse(_ data: Data, limit: Int) throws(CatalogError) -> CatalogPage {
        guard let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any], let results = root["results"] as? [[String: Any]] else {
            throw .malformed("not an iTunes Search result")
        }
        let songs = results.compactMap { r -> CatalogSong? in
            guard r["kind"] as? String == "song" || r["wrapperType"] as? String == "track",
                let title = r["trackName"] as? String, let artist = r["artistName"] as? String
            else { return nil }
            let id = (r["trackId"] as? Int).map(String.init) ?? (r["trackId"] as? String) ?? "\(artist) - \(title)"
            return CatalogSong(
                id: id, title: title, artist: artist, album: r["collectionName"] as? String,
                duration: (r["trackTimeMillis"] as? Double).map { $0 / 1000 } ?? (r["trackTimeMillis"] as? Int).map { Double($0) / 1000 },
                year: yearOf(r["releaseDate"] as? String), genre: r["primaryGenreName"] as? String, artworkURL: r["artworkUrl100"] as? String,
                url: r["trackViewUrl"] as? String)
        }
        return CatalogPage(songs: songs, hasMore: results.count >= limit)
    }
}
