public import Foundation

/// The Apple Music API's catalog search: `GET /v1/catalog/{storefront}/search?term=&types=songs`
/// with a developer token (a JWT signed with ES256 by a MusicKit .p8 key, see
/// `AppleMusicToken`). Songs come under `results.songs.data[].attributes` with `name`,
/// `artistName`, `albumName`, `durationInMillis`, `isrc`, `releaseDate`, `genreNames` and
/// `artwork.url` (a template with {w} and {h}); `results.songs.next` means more pages.
/// Errors are `{"errors": [{"status", "code", "title", "detail"}]}`.
public struct AppleMusic: MusicCatalog {
    public let baseURL: URL
    public var storefront: String
    public var timeout: TimeInterval
    let token: AppleMusicToken
    /// The server's one outbound client (`Platform.http`).
    let http: HTTPClient
    let now: @Sendable () -> Date

    public init(
        http: HTTPClient,
        baseURL: URL, token: AppleMusicToken, storefront: String = "us", timeout: TimeInterval = 10, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.http = http
        self.baseURL = baseURL
        self.token = token
        self.storefront = storefront
        self.timeout = timeout
        self.now = now
    }

    public var name: String { "Apple Music" }

    public func search(_ term: String, limit: Int, offset: Int) async throws(CatalogError) -> CatalogPage {
        let path = "catalog/\(storefront.lowercased().filter { $0.isLetter })/search"
        var components = URLComponents(url: baseURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)
        components?.queryItems = [
            URLQueryItem(name: "term", value: term), URLQueryItem(name: "types", value: "songs"),
            URLQueryItem(name: "limit", value: String(max(1, min(25, limit)))), URLQueryItem(name: "offset", value: String(max(0, offset))),
        ]
        guard let url = components?.url else { throw .malformed("bad search term") }
        var request = OutboundRequest(url: url)
        request.setValue("Bearer \(try token.jwt(at: now()))", forHTTPHeaderField: "Authorization")
        let reply = try await http.send(request, timeout: timeout, failingAs: CatalogError.self)
        switch reply.status {
        case 200: return try Self.parse(reply.body)
        case 401, 403: throw .unauthorized(Self.errorMessage(reply.body) ?? "the developer token was refused")
        case 429: throw .rateLimited(retryAfter: RetryAfter.seconds(reply.headers["retry-after"]))
        default: throw .status(reply.status, Self.errorMessage(reply.body) ?? "HTTP \(reply.status)")
        }
    }

    static func errorMessage(_ data: Data) -> String? {
        guard let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
            let first = (root["errors"] as? [[String: Any]])?.first
        else { return nil }
        return [first["title"] as? String, first["detail"] as? String].compactMap { $0 }.joined(separator: ": ")
    }

    static func parse(_ data: Data) throws(CatalogError) -> CatalogPage {
        guard let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any], let results = root["results"] as? [String: Any] else {
            throw .malformed("not an Apple Music search result")
        }
        // No songs for the term: Apple Music leaves the key out.
        guard let songs = results["songs"] as? [String: Any] else { return CatalogPage(songs: [], hasMore: false) }
        let items = (songs["data"] as? [[String: Any]] ?? []).compactMap { item -> CatalogSong? in
            guard let id = item["id"] as? String, let a = item["attributes"] as? [String: Any], let title = a["name"] as? String,
                let artist = a["artistName"] as? String
            else { return nil }
            let artwork = (a["artwork"] as? [String: Any])?["url"] as? String
            return CatalogSong(
                id: id, title: title, artist: artist, album: a["albumName"] as? String,
                duration: (a["durationInMillis"] as? Double).map { $0 / 1000 } ?? (a["durationInMillis"] as? Int).map { Double($0) / 1000 },
                isrc: a["isrc"] as? String, year: yearOf(a["releaseDate"] as? String), genre: (a["genreNames"] as? [String])?.first,
                artworkURL: artwork?.replacingOccurrences(of: "{w}", with: "300").replacingOccurrences(of: "{h}", with: "300"), url: a["url"] as? String)
        }
        return CatalogPage(songs: items, hasMore: songs["next"] is String)
    }
}
