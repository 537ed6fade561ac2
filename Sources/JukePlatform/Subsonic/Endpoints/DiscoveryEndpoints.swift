import Foundation
import JukeCore
import Storage

/// getTopSongs, getSimilarSongs, getSimilarSongs2, getArtistInfo, getArtistInfo2,
/// getAlbumInfo, getAlbumInfo2: what other servers ask an outside service (last.fm) for,
/// answered from what Juke's catalog knows, so nothing leaves the server. Top songs are an
/// artist's most played here; similar songs are the same artist's, then the same genre's,
/// then the same years'; similar artists are those sharing the most songs' genres.
enum DiscoveryEndpoints {
    /// Songs near a seed: the seed artist's own songs (the seed song left out), then songs of
    /// the same genre by others, then of the same years, each once, shuffled within each
    /// circle so an "artist radio" differs from one call to the next, at most `count`.
    static func similarSongs(to id: SubsonicID, count: Int, library: LibraryStore) async throws -> [Track] {
        let artist: ArtistID
        var genres: [String] = []
        var year: Int?
        var seedTrack: TrackID?
        switch id {
        case .track(let t):
            guard let track = try await library.track(id: t) else { throw SubsonicError.notFound("Song") }
            artist = track.artistID
            genres = track.genre.map { [$0] } ?? []
            year = track.year
            seedTrack = t
        case .album(let a):
            guard let album = try await library.album(id: a) else { throw SubsonicError.notFound("Album") }
            artist = StableID.artist(named: album.artist)
            genres = album.genre.map { [$0] } ?? []
            year = album.year
        case .artist(let a):
            guard try await library.artist(id: a) != nil else { throw SubsonicError.notFound("Artist") }
            artist = a
        }
        let own = try await library.tracks(filter: .init(artistID: artist), limit: SubsonicLibrary.pageLimit, offset: 0).tracks
        if genres.isEmpty {
            // An artist's genres: those of its songs, the most frequent first.
            var counts: [String: Int] = [:]
            for track in own { if let g = track.genre { counts[g, default: 0] += 1 } }
            genres = counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(3).map(\.key)
        }
        if year == nil { year = own.compactMap(\.year).sorted().dropFirst(own.compactMap(\.year).count / 2).first }
        var chosen: [Track] = []
        var seen: Set<TrackID> = seedTrack.map { [$0] } ?? []
        func take(_ tracks: [Track]) {
            for track in tracks.shuffled() where chosen.count < count && !seen.contains(track.id) {
                seen.insert(track.id)
                chosen.append(track)
            }
        }
        take(own)
        // Each circle is read from a random point for as many songs as are missing plus those
        // already chosen or the seed, which it may hold: a read of just the missing number could
        // come back all seen (the seed and its artist's songs are in its genre) and leave the
        // answer short while the circle had more.
        for genre in genres where chosen.count < count {
            take(try await library.randomTracks(limit: count - chosen.count + seen.count, start: UUID().uuidString.lowercased(), genre: genre))
        }
        if let year, chosen.count < count {
            take(
                try await library.randomTracks(
                    limit: count - chosen.count + seen.count, start: UUID().uuidString.lowercased(), years: (year - 5)...(year + 5)))
        }
        return chosen
    }

    /// The artist an artist, album or song id names (getArtistInfo takes any of the three).
    static func artist(of id: SubsonicID, library: LibraryStore) async throws -> LibraryStore.ArtistSummary {
        let artistID: ArtistID
        switch id {
        case .artist(let a): artistID = a
        case .album(let a):
            guard let album = try await library.album(id: a) else { throw SubsonicError.notFound("Album") }
            artistID = StableID.artist(named: album.artist)
        case .track(let t):
            guard let track = try await library.track(id: t) else { throw SubsonicError.notFound("Song") }
            artistID = track.artistID
        }
        guard let artist = try await library.artist(id: artistID) else { throw SubsonicError.notFound("Artist") }
        return artist
    }

    /// An artist's info: no biography or pictures (no outside service is asked), the
    /// artists sharing its genres as similar ones.
    static func artistInfo(_ call: SubsonicCall, library: LibraryStore, entry: (LibraryStore.ArtistSummary) -> SubsonicElement) async throws
        -> SubsonicElement
    {
        let artist = try await artist(of: try SubsonicID.read(call.parameters), library: library)
        let count = try call.parameters.int("count", default: 20, in: 0...SubsonicLibrary.pageLimit) ?? 20
        _ = call.parameters.bool("includeNotPresent")  // Juke knows only artists that are present.
        var e = SubsonicElement()
        e.add("similarArtist", list: count == 0 ? [] : try await library.artistsSharingGenres(with: artist.id, limit: count).map(entry))
        return e
    }

    /// An album's info: Juke keeps no notes and asks no outside service; the album's
    /// MusicBrainz id is not among its tags. An empty info, once the album is known.
    static func albumInfo(_ call: SubsonicCall, library: LibraryStore) async throws -> SubsonicElement {
        switch try SubsonicID.read(call.parameters) {
        case .album(let a): guard try await library.album(id: a) != nil else { throw SubsonicError.notFound("Album") }
        case .track(let t): guard try await library.track(id: t) != nil else { throw SubsonicError.notFound("Song") }
        case .artist: throw SubsonicError.notFound("Album")
        }
        return SubsonicElement()
    }

    static func all(platform: Platform) -> [SubsonicEndpoint] {
        let library = platform.library
        return [
            SubsonicEndpoint("getTopSongs") { call in
                let p = call.parameters
                let count = try p.int("count", default: 50, in: 0...SubsonicLibrary.pageLimit) ?? 50
                // `id` first (the topSongsByArtistId extension), else the artist's name; an
                // artist Juke does not know has no top songs.
                let artistID: ArtistID
                if let text = p.string("id"), !text.isEmpty {
                    guard case .artist(let a)? = SubsonicID(text), try await library.artist(id: a) != nil else { throw SubsonicError.notFound("Artist") }
                    artistID = a
                } else {
                    let name = try p.required("artist")
                    guard name.unicodeScalars.count <= 500 else { throw SubsonicError.invalid("artist", "at most 500 characters.") }
                    artistID = StableID.artist(named: name)
                }
                var e = SubsonicElement()
                e.add("song", list: count == 0 ? [] : try await library.mostPlayedTracks(artistID: artistID, limit: count).map(SubsonicItems.song))
                return .element("topSongs", e)
            },
            SubsonicEndpoint("getSimilarSongs") { call in
                let count = try call.parameters.int("count", default: 50, in: 0...SubsonicLibrary.pageLimit) ?? 50
                var e = SubsonicElement()
                e.add("song", list: try await similarSongs(to: try SubsonicID.read(call.parameters), count: count, library: library).map(SubsonicItems.song))
                return .element("similarSongs", e)
            },
            SubsonicEndpoint("getSimilarSongs2") { call in
                let count = try call.parameters.int("count", default: 50, in: 0...SubsonicLibrary.pageLimit) ?? 50
                // The ID3 form takes an artist's id (an album's or song's is accepted too).
                var e = SubsonicElement()
                e.add("song", list: try await similarSongs(to: try SubsonicID.read(call.parameters), count: count, library: library).map(SubsonicItems.song))
                return .element("similarSongs2", e)
            },
            SubsonicEndpoint("getArtistInfo") { call in
                .element(
                    "artistInfo",
                    try await artistInfo(call, library: library, entry: SubsonicItems.artistDirectory))
            },
            SubsonicEndpoint("getArtistInfo2") { call in
                .element("artistInfo2", try await artistInfo(call, library: library, entry: SubsonicItems.artistID3))
            },
            SubsonicEndpoint("getAlbumInfo") { call in .element("albumInfo", try await albumInfo(call, library: library)) },
            SubsonicEndpoint("getAlbumInfo2") { call in .element("albumInfo", try await albumInfo(call, library: library)) },
        ]
    }
}
