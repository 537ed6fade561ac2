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
        guard let catalog else { throw RuleRefusal.notFound("No such outside catalog: none is configured, so Juke searches its library only.") }
        let term = term.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !term.isEmpty, term.unicodeScalars.count <= 200 else { throw RuleRefusal.invalid("q", "q must have 1 to 200 characters.") }
        let page: CatalogPage
        do {
            page = try await catalog.search(term, limit: limit, offset: offset)
        } catch {
            throw CatalogFailure(provider: catalog.name, error: error)
        }
        let (index, byID) = try await matchingIndex()
        let results = page.songs.map { song in
            let query = TrackResolver.Query(artist: song.artist, title: song.title, album: song.album, duration: song.duration, isrc: song.isrc)
            guard case .match(let scored) = index.resolve(query) else { return CatalogResult(song: song, librarySong: nil) }
            return CatalogResult(song: song, librarySong: byID[scored.candidate.id])
        }
        return CatalogResults(provider: catalog.name, results: results, hasMore: page.hasMore)
    }
}
