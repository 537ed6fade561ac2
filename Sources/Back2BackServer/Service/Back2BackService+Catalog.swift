import Back2Back
import Foundation
import JukeCore
import JukePlatform
import Matching
import Providers

/// Searching the outside catalog (Apple Music or iTunes Search) from a session: a person finds
/// a song by the name the world knows it by, and Juke says which library track it is. Juke
/// plays only its own files, so a result the library lacks is shown but cannot be picked.
extension Back2BackService {
    struct CatalogResult: Sendable {
        let song: CatalogSong
        /// The library track it resolved to, if any.
        let librarySong: Song?
    }

    struct CatalogResults: Sendable {
        let provider: String
        let results: [CatalogResult]
        let hasMore: Bool
    }

    func searchCatalog(_ term: String, limit: Int, offset: Int) async throws -> CatalogResults {
        guard let catalog else { throw APIError.notFound("outside catalog: none is configured, so Juke searches its library only") }
        let term = term.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !term.isEmpty, term.unicodeScalars.count <= 200 else { throw APIError.badRequest("q must have 1 to 200 characters.", field: "q") }
        guard (1...25).contains(limit) else { throw APIError.badRequest("limit must be between 1 and 25.", field: "limit") }
        guard (0...1_000).contains(offset) else { throw APIError.badRequest("offset must be between 0 and 1000.", field: "offset") }
        let page: CatalogPage
        do {
            page = try await catalog.search(term, limit: limit, offset: offset)
        } catch {
            throw Self.apiError(error, provider: catalog.name)
        }
        let (index, byID) = try await matchingIndex()
        let results = page.songs.map { song in
            let query = TrackResolver.Query(artist: song.artist, title: song.title, album: song.album, duration: song.duration, isrc: song.isrc)
            guard case .match(let scored) = index.resolve(query) else { return CatalogResult(song: song, librarySong: nil) }
            return CatalogResult(song: song, librarySong: byID[scored.candidate.id])
        }
        return CatalogResults(provider: catalog.name, results: results, hasMore: page.hasMore)
    }

    /// What a person is told when the catalog fails: a rate limit is worth waiting for (503
    /// with Retry-After); anything else is the catalog's failure, not the request's (502).
    static func apiError(_ error: CatalogError, provider: String) -> APIError {
        switch error {
        case .rateLimited(let retryAfter):
            var refusal = APIError(
                status: .serviceUnavailable, code: "catalog_busy", message: "\(provider) is limiting how often Juke may search; try again shortly.")
            // The catalog already refuses what is not a finite number of seconds; a minute at most here.
            refusal.retryAfter = Int(min(max(retryAfter ?? 5, 1), 60).rounded(.up))
            return refusal
        case .unauthorized(let detail), .invalidKey(let detail):
            return APIError(status: .badGateway, code: "catalog_refused", message: "\(provider) refused Juke's key: \(detail.prefix(200))")
        case .timeout:
            return APIError(status: .badGateway, code: "catalog_unavailable", message: "\(provider) did not answer in time.")
        case .unreachable(let detail):
            return APIError(status: .badGateway, code: "catalog_unavailable", message: "\(provider) cannot be reached: \(detail.prefix(200))")
        case .status(let code, _):
            return APIError(status: .badGateway, code: "catalog_unavailable", message: "\(provider) answered with status \(code).")
        case .malformed:
            return APIError(status: .badGateway, code: "catalog_unavailable", message: "\(provider) sent a reply Juke cannot read.")
        }
    }
}
