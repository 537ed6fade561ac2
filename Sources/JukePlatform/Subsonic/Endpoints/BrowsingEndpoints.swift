import Foundation
import JukeCore
import Storage

/// Browsing: getMusicFolders, getIndexes, getMusicDirectory, getArtists, getArtist,
/// getAlbum, getSong, getGenres; and getScanStatus/startScan.
enum SubsonicLibrary {
    /// Juke's library is one collection whatever folders it is scanned from: one music folder.
    static let musicFolderID = 1
    /// The most rows any list answers at once; a client pages on with offsets.
    static let pageLimit = 500

    static func allArtists(_ library: LibraryStore) async throws -> [LibraryStore.ArtistSummary] {
        var artists: [LibraryStore.ArtistSummary] = []
        var after: CatalogCursor?
        repeat {
            let page = try await library.artists(limit: pageLimit, after: after)
            artists += page.artists
            after = page.next
        } while after != nil
        return artists
    }

    static func albums(of artist: ArtistID, _ library: LibraryStore) async throws -> [LibraryStore.AlbumSummary] {
        var albums: [LibraryStore.AlbumSummary] = []
        var offset = 0
        while true {
            let page = try await library.albums(.init(order: .year, artistID: artist, limit: pageLimit, offset: offset))
            albums += page.albums
            offset += page.albums.count
            if page.albums.count < pageLimit || offset >= page.total { return albums }
        }
    }

    static func tracks(of album: AlbumID, _ library: LibraryStore) async throws -> [Track] {
        var tracks: [Track] = []
        var after: CatalogCursor?
        repeat {
            let page = try await library.tracks(.init(filter: .init(albumID: album), limit: pageLimit, after: after))
            tracks += page.tracks
            after = page.next
        } while after != nil
        return tracks
    }

    /// Artists under their index letters, in name order.
    static func indexes(_ artists: [LibraryStore.ArtistSummary], _ entry: (LibraryStore.ArtistSummary) -> SubsonicElement) -> [SubsonicElement] {
        var groups: [(letter: String, artists: [SubsonicElement])] = []
        for artist in artists {
            let letter = SubsonicItems.indexLetter(artist.name)
            if let i = groups.firstIndex(where: { $0.letter == letter }) {
                groups[i].artists.append(entry(artist))
            } else {
                groups.append((letter, [entry(artist)]))
            }
        }
        return groups.sorted { ($0.letter == "#" ? "~" : $0.letter) < ($1.letter == "#" ? "~" : $1.letter) }.map { group in
            var index = SubsonicElement()
            index.add("name", group.letter)
            index.add("artist", list: group.artists)
            return index
        }
    }
}

enum BrowsingEndpoints {
    static func all(platform: Platform) -> [SubsonicEndpoint] {
        let library = platform.library
        return [
            SubsonicEndpoint("getMusicFolders") { _ in
                var folder = SubsonicElement()
                folder.add("id", SubsonicLibrary.musicFolderID)
                folder.add("name", "Music")
                var folders = SubsonicElement()
                folders.add("musicFolder", list: [folder])
                return .element("musicFolders", folders)
            },
            SubsonicEndpoint("getIndexes") { _ in
                var indexes = SubsonicElement()
                indexes.add("lastModified", Int(platform.clock.now().timeIntervalSince1970 * 1000))
                indexes.add("ignoredArticles", SubsonicItems.ignoredArticles)
                indexes.add(
                    "index",
                    list: SubsonicLibrary.indexes(try await SubsonicLibrary.allArtists(library)) { artist in
                        var e = SubsonicItems.artistDirectory(artist)
                        e.add("albumCount", artist.albumCount)
                        return e
                    })
                return .element("indexes", indexes)
            },
            SubsonicEndpoint("getArtists") { _ in
                var artists = SubsonicElement()
                artists.add("ignoredArticles", SubsonicItems.ignoredArticles)
                artists.add("index", list: SubsonicLibrary.indexes(try await SubsonicLibrary.allArtists(library), SubsonicItems.artistID3))
                return .element("artists", artists)
            },
            SubsonicEndpoint("getMusicDirectory") { call in
                var directory = SubsonicElement()
                switch try SubsonicID.read(call.parameters) {
                case .artist(let id):
                    guard let artist = try await library.artist(id: id) else { throw SubsonicError.notFound("Artist") }
                    directory.add("id", SubsonicID.artist(id).text)
                    directory.add("name", artist.name)
                    directory.add("child", list: try await SubsonicLibrary.albums(of: id, library).map(SubsonicItems.albumDirectory))
                case .album(let id):
                    guard let album = try await library.album(id: id) else { throw SubsonicError.notFound("Album") }
                    directory.add("id", SubsonicID.album(id).text)
                    directory.add("parent", SubsonicItems.albumArtistID(album).text)
                    directory.add("name", album.title)
                    directory.add("child", list: try await SubsonicLibrary.tracks(of: id, library).map(SubsonicItems.song))
                case .track:
                    throw SubsonicError.notFound("Directory")
                }
                return .element("directory", directory)
            },
            SubsonicEndpoint("getArtist") { call in
                guard case .artist(let id) = try SubsonicID.read(call.parameters), let artist = try await library.artist(id: id) else {
                    throw SubsonicError.notFound("Artist")
                }
                var e = SubsonicItems.artistID3(artist)
                e.add("album", list: try await SubsonicLibrary.albums(of: id, library).map(SubsonicItems.albumID3))
                return .element("artist", e)
            },
            SubsonicEndpoint("getAlbum") { call in
                guard case .album(let id) = try SubsonicID.read(call.parameters), let album = try await library.album(id: id) else {
                    throw SubsonicError.notFound("Album")
                }
                var e = SubsonicItems.albumID3(album)
                e.add("song", list: try await SubsonicLibrary.tracks(of: id, library).map(SubsonicItems.song))
                return .element("album", e)
            },
            SubsonicEndpoint("getSong") { call in
                guard case .track(let id) = try SubsonicID.read(call.parameters), let track = try await library.track(id: id) else {
                    throw SubsonicError.notFound("Song")
                }
                return .element("song", SubsonicItems.song(track))
            },
            SubsonicEndpoint("getGenres") { _ in
                let albums = try await library.albumCountsByGenre()
                var genres = SubsonicElement()
                genres.add(
                    "genre",
                    list: try await library.facet(.genre).map { facet in
                        var e = SubsonicElement()
                        e.add("songCount", facet.count)
                        e.add("albumCount", albums[facet.value] ?? 0)
                        e.text = facet.value
                        return e
                    })
                return .element("genres", genres)
            },
            SubsonicEndpoint("getScanStatus") { _ in .element("scanStatus", try await scanStatus(platform)) },
            SubsonicEndpoint("startScan", access: .admin) { _ in
                try await platform.scans.startAll()
                return .element("scanStatus", try await scanStatus(platform))
            },
        ]
    }

    static func scanStatus(_ platform: Platform) async throws -> SubsonicElement {
        let progress = await platform.scans.snapshot()
        var e = SubsonicElement()
        e.add("scanning", progress.contains { $0.phase != .done && $0.phase != .failed })
        e.add("count", try await platform.library.trackCount())
        return e
    }
}
