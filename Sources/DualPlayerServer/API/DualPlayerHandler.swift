import DualPlayer
import DualPlayerAPI
import Foundation
import JukeCore
import JukePlatform
import Providers

/// Dual Player's operations from the contract: read the input, call the service, map.
struct DualPlayerHandler: APIProtocol {
    let service: DualPlayerService
    let radio: RadioService
    let libriVox: LibriVoxService
    let songs: SongService
    let podcasts: PodcastService
    let episodeMedia: EpisodeMedia
    let articles: ArticleService

    func getDualState(_ input: Operations.GetDualState.Input) async throws -> Operations.GetDualState.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            let players = try await service.players(of: user.id)
            let settings = try await service.settings(of: user.id)
            return .ok(
                .init(
                    body: .json(
                        .init(
                            music: players[.music].map { DualPlayerMapping.state($0.snapshot, updatedAt: $0.updatedAt) },
                            speech: players[.speech].map { DualPlayerMapping.state($0.snapshot, updatedAt: $0.updatedAt) },
                            settings: DualPlayerMapping.settings(settings)))))
        }
    }

    func saveDualPlayer(_ input: Operations.SaveDualPlayer.Input) async throws -> Operations.SaveDualPlayer.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            guard case .json(let body) = input.body else { throw APIError.badRequest("Send JSON.") }
            let kind: PlayerKind = input.path.player == .music ? .music : .speech
            let (kept, updatedAt) = try await service.save(DualPlayerMapping.snapshot(body), updatedAt: body.updatedAt, player: kind, of: user.id)
            return .ok(.init(body: .json(DualPlayerMapping.state(kept, updatedAt: updatedAt))))
        }
    }

    func saveDualSettings(_ input: Operations.SaveDualSettings.Input) async throws -> Operations.SaveDualSettings.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            guard case .json(let body) = input.body else { throw APIError.badRequest("Send JSON.") }
            let saved = try await service.save(DualPlayerMapping.settings(body), of: user.id)
            return .ok(.init(body: .json(DualPlayerMapping.settings(saved))))
        }
    }

    func getDualPositions(_ input: Operations.GetDualPositions.Input) async throws -> Operations.GetDualPositions.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            let query = input.query.items
            guard query.count <= DualPlayerService.maxItemsQuery,
                query.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._:#,-".contains($0)) })
            else {
                throw RuleRefusal.invalid(
                    "items", "the item list is keys of letters, digits and . _ : # - separated by commas, at most \(DualPlayerService.maxItemsQuery) characters"
                )
            }
            let items = input.query.items.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            return .ok(.init(body: .json(DualPlayerMapping.positions(try await service.positions(of: user.id, items: items)))))
        }
    }

    func saveDualPositions(_ input: Operations.SaveDualPositions.Input) async throws -> Operations.SaveDualPositions.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            guard case .json(let body) = input.body else { throw APIError.badRequest("Send JSON.") }
            guard body.positions.count <= DualPlayerService.maxPositions else {
                throw RuleRefusal.invalid("positions", "send at most \(DualPlayerService.maxPositions) positions at once")
            }
            var positions: [String: SavedPosition] = [:]
            for p in body.positions {
                let incoming = try SavedPosition.validated(seconds: p.seconds, updatedAt: p.updatedAt, field: "seconds")
                positions[p.item] = SavedPosition.newest(stored: positions[p.item], incoming: incoming)
            }
            let kept = try await service.save(positions, of: user.id)
            try await podcasts.markHeard(kept, by: user.id)
            return .ok(.init(body: .json(DualPlayerMapping.positions(kept))))
        }
    }

    func listDualBooks(_ input: Operations.ListDualBooks.Input) async throws -> Operations.ListDualBooks.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            let listened = try await service.listened(by: user.id)
            let books = try await service.books(visibleTo: user.id)
            return .ok(.init(body: .json(.init(items: books.map { DualPlayerMapping.book($0, viewer: user.id, listened: listened[$0.id]) }))))
        }
    }

    func uploadDualBook(_ input: Operations.UploadDualBook.Input) async throws -> Operations.UploadDualBook.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            guard case .binary(let body) = input.body else { throw APIError.badRequest("Send the file's bytes (application/octet-stream).") }
            let (book, created) = try await service.upload(body, filename: input.query.filename, share: input.query.share ?? false, by: user)
            let json = DualPlayerMapping.book(book, viewer: user.id)
            // The same file again: the book already on the shelf.
            return created ? .created(.init(body: .json(json))) : .ok(.init(body: .json(json)))
        }
    }

    func deleteDualBook(_ input: Operations.DeleteDualBook.Input) async throws -> Operations.DeleteDualBook.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            let book = try await service.delete(try parseID(input.path.bookId, field: "book_id"), by: user)
            if book.origin == .librivox { await libriVox.removed(book) }
            return .noContent(.init())
        }
    }

    func listDualSongs(_ input: Operations.ListDualSongs.Input) async throws -> Operations.ListDualSongs.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            return .ok(
                .init(
                    body: .json(
                        .init(
                            items: try await songs.songs(visibleTo: user.id).map {
                                DualPlayerMapping.song($0, viewer: user.id, canTranscode: songs.canTranscode)
                            }))))
        }
    }

    func uploadDualSong(_ input: Operations.UploadDualSong.Input) async throws -> Operations.UploadDualSong.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            guard case .binary(let body) = input.body else { throw APIError.badRequest("Send the file's bytes (application/octet-stream).") }
            let (song, created) = try await songs.upload(body, filename: input.query.filename, share: input.query.share ?? false, by: user)
            let json = DualPlayerMapping.song(song, viewer: user.id, canTranscode: songs.canTranscode)
            // The same file again: the song already in the list.
            return created ? .created(.init(body: .json(json))) : .ok(.init(body: .json(json)))
        }
    }

    func deleteDualSong(_ input: Operations.DeleteDualSong.Input) async throws -> Operations.DeleteDualSong.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            try await songs.delete(try parseID(input.path.songId, field: "song_id"), by: user)
            return .noContent(.init())
        }
    }

    func resumeDualBookDownload(_ input: Operations.ResumeDualBookDownload.Input) async throws -> Operations.ResumeDualBookDownload.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            let book = try await libriVox.resume(try parseID(input.path.bookId, field: "book_id"), for: user.id)
            return .accepted(.init(body: .json(DualPlayerMapping.book(book, viewer: user.id))))
        }
    }

    func searchDualLibriVox(_ input: Operations.SearchDualLibriVox.Input) async throws -> Operations.SearchDualLibriVox.Output {
        try await respond {
            _ = try CurrentRequest.requireUser()
            let q = input.query
            let page = try Paging(limit: q.limit, offset: nil, defaultLimit: 20, maxLimit: 100)
            let found = try await libriVox.search(title: q.title, author: q.author, limit: page.limit)
            return .ok(.init(body: .json(.init(items: found.map(DualPlayerMapping.libriVoxBook)))))
        }
    }

    func addDualLibriVoxBook(_ input: Operations.AddDualLibriVoxBook.Input) async throws -> Operations.AddDualLibriVoxBook.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            let (book, created) = try await libriVox.add(librivoxID: input.path.librivoxId, for: user.id)
            let body = DualPlayerMapping.book(book, viewer: user.id)
            return created ? .accepted(.init(body: .json(body))) : .ok(.init(body: .json(body)))
        }
    }

    func searchDualRadio(_ input: Operations.SearchDualRadio.Input) async throws -> Operations.SearchDualRadio.Output {
        try await respond {
            _ = try CurrentRequest.requireUser()
            let q = input.query
            let page = try Paging(limit: q.limit, offset: nil)
            let stations = try await radio.search(
                RadioQuery(name: q.name, tag: q.tag, country: q.country, language: q.language, limit: page.limit))
            return .ok(.init(body: .json(.init(items: stations.map(DualPlayerMapping.station)))))
        }
    }

    func getDualRadioNowPlaying(_ input: Operations.GetDualRadioNowPlaying.Input) async throws -> Operations.GetDualRadioNowPlaying.Output {
        try await respond {
            _ = try CurrentRequest.requireUser()
            let id = try RadioService.validated(stationID: input.path.stationId)
            let now = radio.nowPlaying(id)
            return .ok(
                .init(
                    body: .json(
                        .init(
                            relayed: now != nil, title: now?.title, listeners: now?.listeners ?? 0,
                            format: now?.kind.flatMap { Components.Schemas.DualNowPlaying.FormatPayload(rawValue: $0.rawValue) }))))
        }
    }

    func listDualRadioFavorites(_ input: Operations.ListDualRadioFavorites.Input) async throws -> Operations.ListDualRadioFavorites.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            return .ok(.init(body: .json(.init(items: try await radio.favorites(of: user.id).map(DualPlayerMapping.station)))))
        }
    }

    func addDualRadioFavorite(_ input: Operations.AddDualRadioFavorite.Input) async throws -> Operations.AddDualRadioFavorite.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            guard case .json(let body) = input.body else { throw APIError.badRequest("Send JSON.") }
            // The address names the station; the body describes it.
            var station = DualPlayerMapping.station(body)
            _ = try RadioService.validated(stationID: body.id)
            station.id = try RadioService.validated(stationID: input.path.stationId)
            let kept = try await radio.addFavorite(station, for: user.id)
            return .ok(.init(body: .json(DualPlayerMapping.station(kept))))
        }
    }

    func removeDualRadioFavorite(_ input: Operations.RemoveDualRadioFavorite.Input) async throws -> Operations.RemoveDualRadioFavorite.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            try await radio.removeFavorite(input.path.stationId, for: user.id)
            return .noContent(.init())
        }
    }

    func getDualTrackChapters(_ input: Operations.GetDualTrackChapters.Input) async throws -> Operations.GetDualTrackChapters.Output {
        try await respond {
            _ = try CurrentRequest.requireUser()
            let track: TrackID = try parseID(input.path.trackId, field: "track_id")
            return .ok(.init(body: .json(DualPlayerMapping.chapters(try await service.chapters(of: track)))))
        }
    }
}
