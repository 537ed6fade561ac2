import Foundation
import JukeCore
import Storage

/// getPlaylists, getPlaylist, createPlaylist, updatePlaylist, deletePlaylist: each
/// account's own playlists, which only it changes, and everyone's public ones, which others
/// read. A playlist's id is `pl-` and its UUID. Another's private playlist is "not found",
/// so no one learns it is there; another's public one is readable, and changing it is 50.
enum PlaylistEndpoints {
    static let maxName = 200
    static let maxComment = 2_000

    static func playlistID(_ text: String) throws(SubsonicError) -> UUID {
        guard text.hasPrefix("pl-"), let id = UUID(uuidString: String(text.dropFirst(3))) else { throw SubsonicError.notFound("Playlist") }
        return id
    }

    static func text(_ parameters: SubsonicParameters, _ name: String, max: Int) throws(SubsonicError) -> String? {
        guard let value = parameters.string(name) else { return nil }
        guard value.unicodeScalars.count <= max else { throw SubsonicError.invalid(name, "at most \(max) characters.") }
        return value
    }

    /// Track ids a call names (`songId` or `songIdToAdd`), each one the library has.
    static func songs(_ parameters: SubsonicParameters, _ name: String, library: LibraryStore) async throws -> [String] {
        let texts = parameters.strings(name).filter { !$0.isEmpty }
        guard texts.count <= SubsonicPlaylistStore.maxSongs else { throw SubsonicError.invalid(name, "at most \(SubsonicPlaylistStore.maxSongs) songs.") }
        var ids: [TrackID] = []
        for text in texts {
            guard case .track(let id)? = SubsonicID(text) else { throw SubsonicError.notFound("Song '\(text.prefix(60))'") }
            ids.append(id)
        }
        let found = Set(try await library.tracks(ids: ids).map(\.id))
        if let missing = ids.first(where: { !found.contains($0) }) { throw SubsonicError.notFound("Song '\(SubsonicID.track(missing).text)'") }
        return ids.map(\.description)
    }

    /// A playlist as Subsonic's `Playlist`, with its songs as `entry` when asked for.
    static func element(_ list: SubsonicPlaylistStore.Playlist, reader: UserID, songs: [Track], withSongs: Bool) -> SubsonicElement {
        var e = SubsonicElement()
        e.add("id", "pl-" + list.id.uuidString.lowercased())
        e.add("name", list.name)
        e.add("comment", list.comment)
        e.add("owner", list.ownerName)
        e.add("public", list.isPublic)
        e.add("songCount", songs.count)
        e.add("duration", Int(songs.reduce(0) { $0 + $1.duration }.rounded()))
        e.add("created", SubsonicItems.date(list.createdAt))
        e.add("changed", SubsonicItems.date(list.changedAt))
        e.add("coverArt", songs.first { $0.artworkHash != nil }.map { SubsonicID.track($0.id).text })
        e.add("readonly", list.owner != reader)
        if withSongs { e.add("entry", list: songs.map(SubsonicItems.song)) }
        return e
    }

    /// The playlist's songs still in the library, in order.
    static func tracks(_ list: SubsonicPlaylistStore.Playlist, _ library: LibraryStore) async throws -> [Track] {
        try await library.tracks(ids: list.trackIDs.compactMap(TrackID.init))
    }

    static func refuse(_ outcome: SubsonicPlaylistStore.Outcome) throws(SubsonicError) {
        switch outcome {
        case .changed: return
        case .notFound: throw SubsonicError.notFound("Playlist")
        case .notOwner: throw SubsonicError(.notAuthorized, "Only the playlist's owner may change it.")
        case .badIndex(let i): throw SubsonicError.invalid("songIndexToRemove", "the playlist has no song at \(i).")
        case .tooLong: throw SubsonicError.invalid("songIdToAdd", "a playlist keeps at most \(SubsonicPlaylistStore.maxSongs) songs.")
        }
    }

    static func all(platform: Platform, store: SubsonicPlaylistStore) -> [SubsonicEndpoint] {
        let library = platform.library
        @Sendable func answer(_ id: UUID, reader: UserID) async throws -> SubsonicReply {
            guard let list = try await store.playlist(id: id, readableBy: reader) else { throw SubsonicError.notFound("Playlist") }
            return .element("playlist", element(list, reader: reader, songs: try await tracks(list, library), withSongs: true))
        }
        return [
            SubsonicEndpoint("getPlaylists") { call in
                let me = try call.user
                var owner: UserID?
                if let name = call.parameters.string("username"), !name.isEmpty, name.lowercased() != me.username.lowercased() {
                    // Another's playlists: an admin's question (Subsonic's rule), answered with
                    // that account's public ones: no one reads another's private playlists.
                    guard me.isAdmin else { throw SubsonicError.adminOnly }
                    guard let other = try await platform.users.user(username: name) else { throw SubsonicError.notFound("User") }
                    owner = other.id
                }
                var lists: [SubsonicElement] = []
                for list in try await store.playlists(readableBy: me.id, owner: owner) {
                    lists.append(element(list, reader: me.id, songs: try await tracks(list, library), withSongs: false))
                }
                var e = SubsonicElement()
                e.add("playlist", list: lists)
                return .element("playlists", e)
            },
            SubsonicEndpoint("getPlaylist") { call in
                try await answer(try playlistID(try call.parameters.required("id")), reader: try call.user.id)
            },
            SubsonicEndpoint("createPlaylist") { call in
                let me = try call.user
                let p = call.parameters
                let songIDs = try await songs(p, "songId", library: library)
                let now = platform.clock.now()
                if let existing = p.string("playlistId"), !existing.isEmpty {
                    // The update form: the songs given replace the playlist's (and the name, if given).
                    let id = try playlistID(existing)
                    var change = SubsonicPlaylistStore.Change()
                    change.name = try text(p, "name", max: maxName).flatMap { $0.isEmpty ? nil : $0 }
                    change.replaceSongs = songIDs
                    try refuse(try await store.change(id: id, owner: me.id, change, now: now))
                    return try await answer(id, reader: me.id)
                }
                guard let name = try text(p, "name", max: maxName), !name.trimmingCharacters(in: .whitespaces).isEmpty else {
                    throw SubsonicError.missing("name")
                }
                let id = UUID()
                try await store.create(id: id, owner: me.id, name: name, trackIDs: songIDs, now: now)
                return try await answer(id, reader: me.id)
            },
            SubsonicEndpoint("updatePlaylist") { call in
                let me = try call.user
                let p = call.parameters
                let id = try playlistID(try p.required("playlistId"))
                var change = SubsonicPlaylistStore.Change()
                if let name = try text(p, "name", max: maxName) {
                    guard !name.trimmingCharacters(in: .whitespaces).isEmpty else { throw SubsonicError.invalid("name", "a playlist needs a name.") }
                    change.name = name
                }
                change.comment = try text(p, "comment", max: maxComment)
                if let value = p.string("public"), !value.isEmpty {
                    guard ["true", "false", "1", "0"].contains(value.lowercased()) else { throw SubsonicError.invalid("public", "true or false.") }
                    change.isPublic = p.bool("public")
                }
                for text in p.strings("songIndexToRemove") {
                    guard let index = Int(text), index >= 0 else {
                        throw SubsonicError.invalid("songIndexToRemove", "'\(text.prefix(40))' is not a position in the playlist.")
                    }
                    change.removeIndexes.append(index)
                }
                change.addSongs = try await songs(p, "songIdToAdd", library: library)
                try refuse(try await store.change(id: id, owner: me.id, change, now: platform.clock.now()))
                return .empty
            },
            SubsonicEndpoint("deletePlaylist") { call in
                let id = try playlistID(try call.parameters.required("id"))
                try refuse(try await store.delete(id: id, owner: try call.user.id))
                return .empty
            },
        ]
    }
}
