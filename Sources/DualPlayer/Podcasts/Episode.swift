public import Feeds
public import Foundation
import JukeCore

/// One episode of a show, as its feed last described it.
public struct Episode: Sendable, Equatable {
    public var id: EpisodeID
    public var podcast: PodcastID
    /// The feed's own identity for it (see `EpisodeDetails.identity`).
    public var guid: String
    public var title: String
    public var published: Date?
    public var details: EpisodeDetails
    public var download: EpisodeDownload?

    public init(id: EpisodeID, podcast: PodcastID, guid: String, title: String, published: Date?, details: EpisodeDetails, download: EpisodeDownload? = nil) {
        self.id = id
        self.podcast = podcast
        self.guid = guid
        self.title = title
        self.published = published
        self.details = details
        self.download = download
    }
}

/// What an episode's feed item says beyond its title: where its audio is, how long it is, its
/// notes, and where its chapters and transcript are.
public struct EpisodeDetails: Sendable, Equatable, Codable {
    public var audioURL: String
    public var audioType: String?
    public var audioLength: Int64?
    public var duration: Double?
    public var summary: String?
    public var link: String?
    public var imageURL: String?
    public var episode: Int?
    public var season: Int?
    /// Podcasting 2.0 JSON chapters.
    public var chaptersURL: String?
    /// Podlove Simple Chapters, in the feed itself.
    public var inlineChapters: [FeedItem.SimpleChapter]
    /// The transcript Juke shows, picked from those offered (`preferredTranscript`).
    public var transcript: FeedItem.Transcript?

    public init(
        audioURL: String, audioType: String? = nil, audioLength: Int64? = nil, duration: Double? = nil, summary: String? = nil,
        link: String? = nil, imageURL: String? = nil, episode: Int? = nil, season: Int? = nil, chaptersURL: String? = nil,
        inlineChapters: [FeedItem.SimpleChapter] = [], transcript: FeedItem.Transcript? = nil
    ) {
        self.audioURL = audioURL
        self.audioType = audioType
        self.audioLength = audioLength
        self.duration = duration
        self.summary = summary
        self.link = link
        self.imageURL = imageURL
        self.episode = episode
        self.season = season
        self.chaptersURL = chaptersURL
        self.inlineChapters = inlineChapters
        self.transcript = transcript
    }

    /// An item of a feed as an episode: nil when it has no audio to play (a blog post in a
    /// mixed feed, a video-only item).
    public static func from(_ item: FeedItem) -> (guid: String, title: String, details: EpisodeDetails)? {
        guard let enclosure = item.enclosure, isPlayable(enclosure), let guid = identity(of: item) else { return nil }
        let title = item.title.flatMap { $0.isEmpty ? nil : $0 } ?? "Untitled episode"
        let details = EpisodeDetails(
            audioURL: enclosure.url, audioType: enclosure.type, audioLength: enclosure.length.flatMap { $0 > 0 ? $0 : nil },
            duration: item.duration.flatMap { $0 > 0 && $0.isFinite ? $0 : nil }, summary: item.summary, link: item.link, imageURL: item.image,
            episode: item.episode, season: item.season, chaptersURL: item.chapters?.url,
            inlineChapters: item.simpleChapters.sorted { $0.start < $1.start }, transcript: preferredTranscript(item.transcripts))
        return (guid, title, details)
    }

    /// Which item is which across refreshes: its guid, or where none is given its audio's
    /// address, or its title and date (as podcast apps do, so a feed without guids does not
    /// show each episode again at every refresh).
    public static func identity(of item: FeedItem) -> String? {
        if let guid = item.guid?.trimmingCharacters(in: .whitespaces), !guid.isEmpty { return String(guid.prefix(500)) }
        if let url = item.enclosure?.url, !url.isEmpty { return String(url.prefix(500)) }
        guard let title = item.title, !title.isEmpty else { return nil }
        return String((title + "|" + (item.published.map { String(Int($0.timeIntervalSince1970)) } ?? "")).prefix(500))
    }

    /// Audio (or a type a host left out or wrote as a generic one) that a browser may play;
    /// video-only and document enclosures are not episodes for the speech player.
    static func isPlayable(_ enclosure: FeedItem.Enclosure) -> Bool {
        // A path on Juke's own origin ("/…") is the demo show's.
        guard enclosure.url.hasPrefix("/") || WebAddress(enclosure.url) != nil else { return false }
        guard let type = enclosure.type?.lowercased(), !type.isEmpty else { return true }
        if type.hasPrefix("audio/") || type == "application/octet-stream" || type == "binary/octet-stream" { return true }
        // MP4 video podcasts still carry a sound track the speech player can play.
        return type == "video/mp4" || type == "video/x-m4v" || type == "video/quicktime"
    }

    /// WebVTT first (its timing is the most exact), then SRT, then Podcasting 2.0 JSON; a
    /// transcript marked as captions comes after one that is not. HTML and plain text have no
    /// timing to follow the audio by.
    static func preferredTranscript(_ offered: [FeedItem.Transcript]) -> FeedItem.Transcript? {
        func rank(_ t: FeedItem.Transcript) -> Int? {
            let type = (t.type ?? "").lowercased()
            let url = t.url.lowercased()
            if type.contains("vtt") || url.hasSuffix(".vtt") { return 0 }
            if type.contains("srt") || type.contains("subrip") || url.hasSuffix(".srt") { return 1 }
            if type.contains("json") || url.hasSuffix(".json") { return 2 }
            return nil
        }
        return offered.compactMap { t in rank(t).map { (t, $0) } }.min { $0.1 < $1.1 }?.0
    }
}

/// An episode's copy on the server: downloading, whole, or stopped with why.
public struct EpisodeDownload: Sendable, Equatable, Codable {
    public enum Status: String, Sendable, Codable {
        case downloading
        case ready
        case failed
    }

    public var status: Status
    public var bytes: Int64
    public var total: Int64?
    public var failure: String?
    /// The file's key in Juke's media storage, once whole (until then it is a part file in
    /// the downloading server's scratch folder).
    public var file: String
    public var finishedAt: Date?

    public init(status: Status, bytes: Int64, total: Int64? = nil, failure: String? = nil, file: String, finishedAt: Date? = nil) {
        self.status = status
        self.bytes = bytes
        self.total = total
        self.failure = failure
        self.file = file
        self.finishedAt = finishedAt
    }
}
