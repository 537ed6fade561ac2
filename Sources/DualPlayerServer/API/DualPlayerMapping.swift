import DualPlayer
import DualPlayerAPI
import JukeCore
import JukePlatform
import MediaFormats
import Providers

/// Dual Player values as the contract's JSON (and back): only shapes, no rules.
enum DualPlayerMapping {
    typealias S = Components.Schemas

    static func settings(_ s: DualSettings) -> S.DualSettings {
        S.DualSettings(music: player(s.music), speech: player(s.speech), ducking: .init(enabled: s.ducking.enabled, level: s.ducking.level))
    }

    static func player(_ p: PlayerSettings) -> S.DualPlayerSettings {
        S.DualPlayerSettings(speed: p.speed, volume: p.volume, mode: p.mode == .boost ? .boost : .quality, boostGainDb: p.boostGainDB, voiceEq: p.voiceEQ)
    }

    static func settings(_ s: S.DualSettings) -> DualSettings {
        DualSettings(music: player(s.music), speech: player(s.speech), ducking: Ducking(enabled: s.ducking.enabled, level: s.ducking.level))
    }

    static func player(_ p: S.DualPlayerSettings) -> PlayerSettings {
        PlayerSettings(speed: p.speed, volume: p.volume, mode: p.mode == .boost ? .boost : .quality, boostGainDB: p.boostGainDb, voiceEQ: p.voiceEq)
    }

    static func state(_ snapshot: PlayerSnapshot, updatedAt: Int64) -> S.DualPlayerState {
        S.DualPlayerState(
            item: snapshot.item.map {
                S.DualPlayerState.ItemPayload(
                    kind: S.DualPlayerState.ItemPayload.KindPayload(rawValue: $0.kind) ?? .track, id: $0.id, showId: $0.showID, title: $0.title,
                    subtitle: $0.subtitle,
                    artworkUrl: $0.artworkURL,
                    audioUrl: $0.audioURL, chapter: $0.chapter)
            }, position: snapshot.position, playing: snapshot.playing, updatedAt: updatedAt)
    }

    static func snapshot(_ state: S.DualPlayerState) -> PlayerSnapshot {
        PlayerSnapshot(
            item: state.item.map {
                PlayerSnapshot.Item(
                    kind: $0.kind.rawValue, id: $0.id, title: $0.title, subtitle: $0.subtitle, artworkURL: $0.artworkUrl, audioURL: $0.audioUrl,
                    chapter: $0.chapter, showID: $0.showId)
            }, position: state.position, playing: state.playing)
    }

    static func positions(_ positions: [String: SavedPosition]) -> S.DualPositions {
        S.DualPositions(
            positions: positions.sorted { $0.key < $1.key }.map { S.DualPosition(item: $0.key, seconds: $0.value.seconds, updatedAt: $0.value.updatedAt) })
    }

    static func source(_ source: ChapterSource) -> S.DualChapters.SourcePayload {
        switch source {
        case .quicktime: .quicktime
        case .nero: .nero
        case .id3: .id3
        case .none: S.DualChapters.SourcePayload.none
        }
    }

    static func book(_ book: Book, viewer: UserID, listened: SavedPosition? = nil) -> S.DualBook {
        S.DualBook(
            id: book.id.description, shared: book.owner == nil, yours: book.owner == viewer, title: book.title, author: book.author,
            origin: S.DualBook.OriginPayload(rawValue: book.origin.rawValue) ?? .upload, duration: book.duration,
            chapterSource: S.DualBook.ChapterSourcePayload(rawValue: book.chapterSource) ?? S.DualBook.ChapterSourcePayload.none,
            chapters: book.chapters.map { S.DualChapter(title: $0.title, start: $0.start, end: $0.end) },
            audioUrl: "/api/v1/dual/books/\(book.id)/audio", status: S.DualBook.StatusPayload(rawValue: book.status.rawValue) ?? .ready,
            download: book.download.map {
                S.DualBook.DownloadPayload(
                    sectionsDone: $0.sectionsDone, sectionsTotal: $0.sectionsTotal, bytes: $0.bytes, failure: $0.failure)
            },
            coverUrl: book.coverFile == nil ? nil : "/api/v1/dual/books/\(book.id)/cover",
            listened: listened.map { S.DualBook.ListenedPayload(position: min(max(0, $0.seconds), book.duration), updatedAt: $0.updatedAt) })
    }

    static func song(_ song: Song, viewer: UserID, canTranscode: Bool) -> S.DualSong {
        S.DualSong(
            id: song.id.description, title: song.title, artist: song.artist, album: song.album,
            format: S.DualSong.FormatPayload(rawValue: song.format) ?? .mp3, codec: PlaybackChoice.codec(format: song.format, codec: song.codec),
            playable: PlaybackChoice.playable(format: song.format, codec: song.codec, canTranscode: canTranscode), duration: song.duration,
            audioUrl: "/api/v1/dual/songs/\(song.id)/audio", artworkUrl: song.hasArtwork ? "/api/v1/dual/songs/\(song.id)/artwork" : nil,
            shared: song.owner == nil, yours: song.owner == viewer)
    }

    static func libriVoxBook(_ b: LibriVoxBook) -> S.DualLibriVoxBook {
        S.DualLibriVoxBook(
            id: b.id, title: b.title, authors: b.authors, description: b.description, language: b.language, totalSeconds: b.totalSeconds,
            coverUrl: b.coverURL, librivoxUrl: b.librivoxURL,
            sections: b.sections.map { .init(number: $0.number, title: $0.title, seconds: $0.seconds, readers: $0.readers) })
    }

    static func station(_ s: RadioStation) -> S.DualStation {
        S.DualStation(
            id: s.id, name: s.name, streamUrl: s.streamURL, homepage: s.homepage, favicon: s.favicon, tags: s.tags, country: s.country,
            countryCode: s.countryCode, languages: s.languages, codec: s.codec, bitrate: s.bitrate, hls: s.isHLS, votes: s.votes,
            clickCount: s.clickCount)
    }

    static func station(_ s: S.DualStation) -> RadioStation {
        RadioStation(
            id: s.id, name: s.name, streamURL: s.streamUrl, homepage: s.homepage, favicon: s.favicon, tags: s.tags ?? [], country: s.country,
            countryCode: s.countryCode, languages: s.languages ?? [], codec: s.codec, bitrate: s.bitrate ?? 0, isHLS: s.hls ?? false,
            votes: s.votes ?? 0, clickCount: s.clickCount ?? 0)
    }

    static func chapters(_ list: ChapterList) -> S.DualChapters {
        S.DualChapters(
            duration: list.duration, source: source(list.source),
            chapters: list.chapters.map { S.DualChapter(title: $0.title, start: $0.start, end: $0.end) })
    }
}
