import DualPlayer
import Foundation
import JukePlatform
import Providers

/// Dual Player's things as Subsonic's elements: a book or an episode as a `Child` a player
/// plays with `stream` (their IDs, `DualSubsonicID`, reach it through `SubsonicMedia`), a
/// show as a `PodcastChannel`, an episode as a `PodcastEpisode`, a favourite station as an
/// `internetRadioStation`.
enum DualSubsonicItems {
    static func date(_ date: Date?) -> String? { date?.formatted(.iso8601) }

    static func date(millis: Int64) -> String { Date(timeIntervalSince1970: Double(millis) / 1000).formatted(.iso8601) }

    /// The file's extension as players name formats ("m4b", "mp3").
    static func suffix(of path: String) -> String? {
        let ext = (path.split(separator: "?").first.map(String.init) ?? path).split(separator: ".").last.map { $0.lowercased() }
        guard let ext, ext.count <= 5, ext.allSatisfy({ $0.isLetter || $0.isNumber }), ext != path.lowercased() else { return nil }
        return ext
    }

    static func book(_ book: Book) -> SubsonicElement {
        var e = SubsonicElement()
        let id = DualSubsonicID.book(book.id).text
        e.add("id", id)
        e.add("isDir", false)
        e.add("title", book.title)
        e.add("album", book.title)
        e.add("artist", book.author)
        e.add("coverArt", book.coverFile == nil ? nil : id)
        e.add("contentType", AudioMIME.type(format: book.format))
        e.add("suffix", suffix(of: book.file))
        e.add("duration", Int(book.duration.rounded()))
        e.add("created", date(book.addedAt))
        e.add("type", "audiobook")
        e.add("mediaType", "song")
        e.add("isVideo", false)
        return e
    }

    /// What Subsonic calls an episode's status is its copy on the server: none yet ("new",
    /// it still streams from its host through Juke), coming, whole, or failed.
    static func status(_ download: EpisodeDownload?) -> String {
        switch download?.status {
        case nil: "new"
        case .downloading: "downloading"
        case .ready: "completed"
        case .failed: "error"
        }
    }

    static func episode(_ episode: Episode, show: Podcast?) -> SubsonicElement {
        var e = SubsonicElement()
        let id = DualSubsonicID.episode(episode.id).text
        let channel = DualSubsonicID.channel(episode.podcast).text
        e.add("id", id)
        e.add("parent", channel)
        e.add("isDir", false)
        e.add("title", episode.title)
        e.add("album", show?.title)
        e.add("artist", show?.author)
        e.add("year", episode.published.map { Calendar(identifier: .gregorian).component(.year, from: $0) })
        e.add("coverArt", episode.details.imageURL != nil || show?.imageURL != nil ? id : nil)
        e.add("size", episode.details.audioLength.map { Int($0) })
        e.add("contentType", EpisodeMedia.type(episode))
        e.add("suffix", suffix(of: episode.details.audioURL))
        e.add("duration", episode.details.duration.map { Int($0.rounded()) })
        e.add("created", date(episode.published))
        e.add("type", "podcast")
        e.add("mediaType", "song")
        e.add("isVideo", false)
        // Every episode plays, downloaded or not: the server passes the host's audio on.
        e.add("streamId", id)
        e.add("channelId", channel)
        e.add("description", episode.details.summary)
        e.add("status", status(episode.download))
        e.add("publishDate", date(episode.published))
        return e
    }

    static func channel(_ podcast: Podcast, episodes: [Episode]?) -> SubsonicElement {
        var e = SubsonicElement()
        let id = DualSubsonicID.channel(podcast.id).text
        e.add("id", id)
        e.add("url", podcast.feedURL)
        e.add("title", podcast.title)
        e.add("description", podcast.summary)
        e.add("coverArt", podcast.imageURL == nil ? nil : id)
        e.add("originalImageUrl", podcast.imageURL)
        // A feed that failed its last fetches says so; it is still fetched again later.
        let failing = podcast.schedule.failures > 0 || podcast.schedule.gone
        e.add("status", failing ? "error" : "completed")
        e.add("errorMessage", failing ? (podcast.schedule.gone ? "The feed is gone: its host took it down." : podcast.schedule.lastError) : nil)
        if let episodes { e.add("episode", list: episodes.map { Self.episode($0, show: podcast) }) }
        return e
    }

    static func station(_ station: RadioStation, streamURL: String) -> SubsonicElement {
        var e = SubsonicElement()
        e.add("id", station.id)
        e.add("name", station.name)
        e.add("streamUrl", streamURL)
        e.add("homePageUrl", station.homepage)
        return e
    }
}
