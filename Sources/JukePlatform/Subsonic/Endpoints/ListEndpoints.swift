import Foundation
import JukeCore
import Storage

/// Album and song lists: getAlbumList, getAlbumList2, getRandomSongs, getSongsByGenre.
enum ListEndpoints {
    /// A Subsonic list type as the catalog's album query, or what to answer instead: the
    /// catalog's orders serve every type but starred and highest, which stay empty until Juke
    /// keeps stars and ratings.
    enum AlbumList {
        case query(LibraryStore.AlbumQuery)
        case empty
    }

    static func albumList(_ parameters: SubsonicParameters) throws(SubsonicError) -> AlbumList {
        let type = try parameters.required("type")
        let size = try parameters.int("size", default: 10, in: 1...SubsonicLibrary.pageLimit) ?? 10
        let offset = try parameters.int("offset", default: 0, in: 0...1_000_000) ?? 0
        var query = LibraryStore.AlbumQuery(limit: size, offset: offset)
        switch type {
        case "random":
            query.order = .random
            query.offset = 0
            query.randomStart = UUID().uuidString.lowercased()
        case "newest": query.order = .newest
        case "frequent": query.order = .frequent
        case "recent": query.order = .recent
        case "alphabeticalByName": query.order = .name
        case "alphabeticalByArtist": query.order = .artist
        case "byYear":
            let from = try parameters.int("fromYear", in: 0...9999)
            let to = try parameters.int("toYear", in: 0...9999)
            guard let from else { throw SubsonicError.missing("fromYear") }
            guard let to else { throw SubsonicError.missing("toYear") }
            query.order = .year
            query.years = (from, to)
        case "byGenre":
            let genre = try parameters.required("genre")
            guard genre.unicodeScalars.count <= 100 else { throw SubsonicError.invalid("genre", "at most 100 characters.") }
            query.order = .name
            query.genre = genre
        case "starred", "highest": return .empty
        default: throw SubsonicError.invalid("type", "'\(type.prefix(40))' is not a list type.")
        }
        return .query(query)
    }

    static func all(platform: Platform) -> [SubsonicEndpoint] {
        let library = platform.library
        @Sendable func albums(_ call: SubsonicCall) async throws -> [LibraryStore.AlbumSummary] {
            guard case .query(let query) = try albumList(call.parameters) else { return [] }
            return try await library.albums(query).albums
        }
        return [
            SubsonicEndpoint("getAlbumList") { call in
                var list = SubsonicElement()
                list.add("album", list: try await albums(call).map(SubsonicItems.albumDirectory))
                return .element("albumList", list)
            },
            SubsonicEndpoint("getAlbumList2") { call in
                var list = SubsonicElement()
                list.add("album", list: try await albums(call).map(SubsonicItems.albumID3))
                return .element("albumList2", list)
            },
            SubsonicEndpoint("getRandomSongs") { call in
                let p = call.parameters
                let size = try p.int("size", default: 10, in: 1...SubsonicLibrary.pageLimit) ?? 10
                let genre = p.string("genre").flatMap { $0.isEmpty ? nil : $0 }
                let from = try p.int("fromYear", in: 0...9999)
                let to = try p.int("toYear", in: 0...9999)
                let years: ClosedRange<Int>? = from == nil && to == nil ? nil : min(from ?? 0, to ?? 9999)...max(from ?? 0, to ?? 9999)
                let tracks = try await library.randomTracks(limit: size, start: UUID().uuidString.lowercased(), genre: genre, years: years)
                var list = SubsonicElement()
                list.add("song", list: tracks.shuffled().map(SubsonicItems.song))
                return .element("randomSongs", list)
            },
            SubsonicEndpoint("getSongsByGenre") { call in
                let p = call.parameters
                let genre = try p.required("genre")
                guard genre.unicodeScalars.count <= 100 else { throw SubsonicError.invalid("genre", "at most 100 characters.") }
                let count = try p.int("count", default: 10, in: 1...SubsonicLibrary.pageLimit) ?? 10
                let offset = try p.int("offset", default: 0, in: 0...1_000_000) ?? 0
                let page = try await library.tracks(.init(filter: .init(genre: genre), limit: count, offset: offset))
                var list = SubsonicElement()
                list.add("song", list: page.tracks.map(SubsonicItems.song))
                return .element("songsByGenre", list)
            },
        ]
    }
}
