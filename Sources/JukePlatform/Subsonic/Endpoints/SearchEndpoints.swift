import Foundation
import JukeCore
import Storage

/// search2 and search3. An empty query (clients send nothing, or `""`, to sync a whole
/// library) pages through every artist, album and song in the catalog's order; a query
/// asks the search index for songs, and its artists and albums are those of the songs it
/// finds, best first.
enum SearchEndpoints {
    struct Paging {
        var artists: (count: Int, offset: Int)
        var albums: (count: Int, offset: Int)
        var songs: (count: Int, offset: Int)

        init(_ p: SubsonicParameters) throws(SubsonicError) {
            func read(_ name: String) throws(SubsonicError) -> (Int, Int) {
                (
                    try p.int(name + "Count", default: 20, in: 0...SubsonicLibrary.pageLimit) ?? 20,
                    try p.int(name + "Offset", default: 0, in: 0...1_000_000) ?? 0
                )
            }
            artists = try read("artist")
            albums = try read("album")
            songs = try read("song")
        }
    }

    /// The words searched for: quotes around the whole query (what several clients send)
    /// are taken off, and nothing left means "everything".
    static func words(_ query: String?) -> String {
        var text = (query ?? "").trimmingCharacters(in: .whitespaces)
        if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") { text = String(text.dropFirst().dropLast()) }
        return text.trimmingCharacters(in: .whitespaces)
    }

    struct Found {
        var artists: [LibraryStore.ArtistSummary] = []
        var albums: [LibraryStore.AlbumSummary] = []
        var songs: [Track] = []
    }

    static func search(_ call: SubsonicCall, platform: Platform) async throws -> Found {
        let query = words(call.parameters.string("query"))
        guard query.unicodeScalars.count <= 200 else { throw SubsonicError.invalid("query", "at most 200 characters.") }
        let paging = try Paging(call.parameters)
        let library = platform.library
        var found = Found()
        if query.isEmpty {
            if paging.artists.count > 0 { found.artists = try await library.artists(limit: paging.artists.count, offset: paging.artists.offset).artists }
            if paging.albums.count > 0 {
                found.albums = try await library.albums(.init(order: .artist, limit: paging.albums.count, offset: paging.albums.offset)).albums
            }
            if paging.songs.count > 0 { found.songs = try await library.tracks(.init(limit: paging.songs.count, offset: paging.songs.offset)).tracks }
            return found
        }
        if paging.songs.count > 0 {
            found.songs = try await platform.search.search(query, limit: paging.songs.count, offset: paging.songs.offset).tracks
        }
        if paging.artists.count > 0 || paging.albums.count > 0 {
            // The artists and albums of the best songs, each once, in the order first found.
            let best = try await platform.search.search(query, limit: SubsonicLibrary.pageLimit, offset: 0).tracks
            var artistIDs: [ArtistID] = []
            var albumIDs: [AlbumID] = []
            for track in best {
                if !artistIDs.contains(track.artistID) { artistIDs.append(track.artistID) }
                if !albumIDs.contains(track.albumID) { albumIDs.append(track.albumID) }
            }
            for id in artistIDs.dropFirst(paging.artists.offset).prefix(paging.artists.count) {
                if let artist = try await library.artist(id: id) { found.artists.append(artist) }
            }
            for id in albumIDs.dropFirst(paging.albums.offset).prefix(paging.albums.count) {
                if let album = try await library.album(id: id) { found.albums.append(album) }
            }
        }
        return found
    }

    static func all(platform: Platform) -> [SubsonicEndpoint] {
        [
            SubsonicEndpoint("search2") { call in
                let found = try await search(call, platform: platform)
                var result = SubsonicElement()
                result.add("artist", list: found.artists.map(SubsonicItems.artistDirectory))
                result.add("album", list: found.albums.map(SubsonicItems.albumDirectory))
                result.add("song", list: found.songs.map(SubsonicItems.song))
                return .element("searchResult2", result)
            },
            SubsonicEndpoint("search3") { call in
                let found = try await search(call, platform: platform)
                var result = SubsonicElement()
                result.add("artist", list: found.artists.map(SubsonicItems.artistID3))
                result.add("album", list: found.albums.map(SubsonicItems.albumID3))
                result.add("song", list: found.songs.map(SubsonicItems.song))
                return .element("searchResult3", result)
            },
        ]
    }
}
