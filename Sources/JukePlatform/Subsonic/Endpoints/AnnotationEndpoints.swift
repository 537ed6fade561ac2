import Foundation
import JukeCore
import Storage

/// Media annotation: star, unstar, setRating, getStarred, getStarred2; and scrobble and
/// getNowPlaying. Stars and ratings are each account's own (SubsonicAnnotationStore); a play
/// a player submits is a play of the track in the library's history, the same one the
/// apps' plays and the "frequent" and "recent" lists are made of.
enum AnnotationEndpoints {
    /// The most items starred or scrobbled in one call, and listed of each kind by getStarred.
    static let maxItems = 500

    /// The ids of `star`/`unstar` (`id`, `albumId`, `artistId`, each repeatable), each one the
    /// library has: an unknown one is 70 and nothing is starred.
    static func items(_ call: SubsonicCall, library: LibraryStore) async throws -> [String] {
        let p = call.parameters
        var ids: [SubsonicID] = []
        for (name, kind) in [("id", ""), ("albumId", "al-"), ("artistId", "ar-")] {
            for text in p.strings(name) where !text.isEmpty {
                guard let id = SubsonicID(text), kind.isEmpty || text.hasPrefix(kind) else { throw SubsonicError.notFound("'\(text.prefix(60))'") }
                ids.append(id)
            }
        }
        guard !ids.isEmpty else { throw SubsonicError.missing("id") }
        guard ids.count <= maxItems else { throw SubsonicError.invalid("id", "at most \(maxItems) at once.") }
        for id in ids { try await exists(id, library) }
        return ids.map(\.text)
    }

    static func exists(_ id: SubsonicID, _ library: LibraryStore) async throws {
        switch id {
        case .artist(let a): if try await library.artist(id: a) == nil { throw SubsonicError.notFound("Artist") }
        case .album(let a): if try await library.album(id: a) == nil { throw SubsonicError.notFound("Album") }
        case .track(let t): if try await library.track(id: t) == nil { throw SubsonicError.notFound("Song") }
        }
    }

    /// The caller's starred artists, albums and songs still in the library, latest first.
    static func starred(_ user: UserID, _ store: SubsonicAnnotationStore, _ library: LibraryStore) async throws -> (
        artists: [LibraryStore.ArtistSummary], albums: [LibraryStore.AlbumSummary], songs: [Track]
    ) {
        var artists: [LibraryStore.ArtistSummary] = []
        for item in try await store.starred(user: user, kind: "ar-", limit: maxItems, offset: 0) {
            if case .artist(let id)? = SubsonicID(item.item), let artist = try await library.artist(id: id) { artists.append(artist) }
        }
        var albums: [LibraryStore.AlbumSummary] = []
        for item in try await store.starred(user: user, kind: "al-", limit: maxItems, offset: 0) {
            if case .album(let id)? = SubsonicID(item.item), let album = try await library.album(id: id) { albums.append(album) }
        }
        let songIDs = try await store.starred(user: user, kind: "tr-", limit: maxItems, offset: 0).compactMap { item -> TrackID? in
            if case .track(let id)? = SubsonicID(item.item) { return id }
            return nil
        }
        return (artists, albums, try await library.tracks(ids: songIDs))
    }

    static func all(platform: Platform, store: SubsonicAnnotationStore, nowPlaying: SubsonicNowPlaying) -> [SubsonicEndpoint] {
        let library = platform.library
        return [
            SubsonicEndpoint("star") { call in
                let ids = try await items(call, library: library)
                try await store.setStarred(ids, user: try call.user.id, starred: true, now: platform.clock.now())
                return .empty
            },
            SubsonicEndpoint("unstar") { call in
                let ids = try await items(call, library: library)
                try await store.setStarred(ids, user: try call.user.id, starred: false, now: platform.clock.now())
                return .empty
            },
            SubsonicEndpoint("setRating") { call in
                let id = try SubsonicID.read(call.parameters)
                guard call.parameters.string("rating")?.isEmpty == false else { throw SubsonicError.missing("rating") }
                let rating = try call.parameters.int("rating", in: 0...5) ?? 0
                try await exists(id, library)
                try await store.setRating(id.text, rating: rating == 0 ? nil : rating, user: try call.user.id)
                return .empty
            },
            SubsonicEndpoint("getStarred") { call in
                let found = try await starred(try call.user.id, store, library)
                var e = SubsonicElement()
                e.add("artist", list: found.artists.map(SubsonicItems.artistDirectory))
                e.add("album", list: found.albums.map(SubsonicItems.albumDirectory))
                e.add("song", list: found.songs.map(SubsonicItems.song))
                return .element("starred", e)
            },
            SubsonicEndpoint("getStarred2") { call in
                let found = try await starred(try call.user.id, store, library)
                var e = SubsonicElement()
                e.add("artist", list: found.artists.map(SubsonicItems.artistID3))
                e.add("album", list: found.albums.map(SubsonicItems.albumID3))
                e.add("song", list: found.songs.map(SubsonicItems.song))
                return .element("starred2", e)
            },
            SubsonicEndpoint("scrobble") { call in
                let p = call.parameters
                let user = try call.user
                let texts = p.strings("id").filter { !$0.isEmpty }
                guard !texts.isEmpty else { throw SubsonicError.missing("id") }
                guard texts.count <= maxItems else { throw SubsonicError.invalid("id", "at most \(maxItems) at once.") }
                let now = platform.clock.now()
                // `time` is milliseconds since 1970, one per id where given; a play cannot be
                // in the future (a day's leeway for a player's clock) or before 1970.
                let times = try p.strings("time").map { text throws(SubsonicError) -> Date in
                    guard let millis = Int64(text), millis >= 0, Double(millis) / 1000 <= now.timeIntervalSince1970 + 86_400 else {
                        throw SubsonicError.invalid("time", "'\(text.prefix(40))' is not a time in milliseconds since 1970 up to now.")
                    }
                    return Date(timeIntervalSince1970: Double(millis) / 1000)
                }
                var tracks: [Track] = []
                for text in texts {
                    guard case .track(let id)? = SubsonicID(text), let track = try await library.track(id: id) else {
                        throw SubsonicError.notFound("Song '\(text.prefix(60))'")
                    }
                    tracks.append(track)
                }
                if p.bool("submission") ?? true {
                    try await library.recordPlays(
                        tracks.enumerated().map { i, track in CatalogPlays.Play(track: track.id, at: i < times.count ? times[i] : now) })
                } else if let track = tracks.last {
                    await nowPlaying.playing(
                        user: user.id, username: user.username, player: p.string("c") ?? "", track: track.id, duration: track.duration, at: now)
                }
                return .empty
            },
            SubsonicEndpoint("getNowPlaying") { _ in
                let now = platform.clock.now()
                let entries = await nowPlaying.current(at: now)
                let tracks = try await library.tracks(ids: entries.map(\.track))
                var list: [SubsonicElement] = []
                for entry in entries {
                    guard let track = tracks.first(where: { $0.id == entry.track }) else { continue }
                    var e = SubsonicItems.song(track)
                    e.add("username", entry.username)
                    e.add("minutesAgo", max(0, Int(now.timeIntervalSince(entry.since) / 60)))
                    e.add("playerId", entry.playerID)
                    e.add("playerName", entry.player.isEmpty ? nil : entry.player)
                    list.append(e)
                }
                var e = SubsonicElement()
                e.add("entry", list: list)
                return .element("nowPlaying", e)
            },
        ]
    }
}
