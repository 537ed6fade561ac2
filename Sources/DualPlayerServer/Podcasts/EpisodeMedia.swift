import DualPlayer
import Feeds
import Foundation
import MediaFormats
import MediaStorage
import Providers

/// Where an episode's audio, chapters and transcript are read from: the server's downloaded
/// copy, Juke's demo show's folder, or the podcast host (through the web fetcher's address
/// policy, like every fetch the server makes for a person).
struct EpisodeMedia: Sendable {
    let fetcher: WebFetcher
    /// The demo show's folder on this server.
    let demoFolder: String
    /// Where downloaded episodes are kept.
    let files: any MediaStore
    /// Where a downloaded episode is copied to read its chapters, when it is in a bucket.
    let scratch: String

    enum AudioSource: Equatable {
        case stored(StorageKey, type: String)
        case file(path: String, type: String)
        case remote(URL, type: String?)
    }

    /// A downloaded copy first, then the demo's file, then the host's.
    func audio(of episode: Episode) async throws -> AudioSource {
        if let download = episode.download, download.status == .ready, let key = StorageKey(download.file), try await files.info(key) != nil {
            return .stored(key, type: Self.type(episode))
        }
        if let local = demoFile(episode.details.audioURL) { return .file(path: local, type: Self.type(episode)) }
        guard let url = URL(string: episode.details.audioURL) else { throw FeedFetch.Failure("the episode's audio address is not a web address") }
        return .remote(url, type: episode.details.audioType)
    }

    static func type(_ episode: Episode) -> String {
        if let type = episode.details.audioType?.lowercased(), type.hasPrefix("audio/") || type.hasPrefix("video/") { return type }
        let path = episode.details.audioURL.lowercased().split(separator: "?").first.map(String.init) ?? ""
        if path.hasSuffix(".m4a") || path.hasSuffix(".mp4") { return "audio/mp4" }
        if path.hasSuffix(".ogg") || path.hasSuffix(".opus") { return "audio/ogg" }
        return "audio/mpeg"
    }

    /// The demo folder's file for a server path such as /dual/demo-podcast/1.mp3; nil for
    /// anything else (and for names that would leave the folder).
    func demoFile(_ address: String) -> String? {
        let prefix = DemoPodcastMaker.webPath + "/"
        guard address.hasPrefix(prefix) else { return nil }
        let name = String(address.dropFirst(prefix.count))
        guard Self.isPlainName(name) else { return nil }
        return (demoFolder as NSString).appendingPathComponent(name)
    }

    static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 100 && !name.hasPrefix(".") && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
    }

    /// The chapters to show: the feed's Podcasting 2.0 JSON, its Podlove chapters, or the
    /// downloaded file's own (M4B/ID3); each ending where the next starts.
    func chapters(of episode: Episode) async throws -> (source: String, chapters: [Book.Chapter]) {
        let duration = episode.details.duration
        if let address = episode.details.chaptersURL {
            let listed = try JSONChapters.read(try await document(address, limit: 2_000_000)).filter(\.listed)
            return ("podcast", Self.ranges(listed.map { ($0.start, $0.title, $0.end) }, duration: duration))
        }
        if !episode.details.inlineChapters.isEmpty {
            return ("podlove", Self.ranges(episode.details.inlineChapters.map { ($0.start, $0.title, nil) }, duration: duration))
        }
        if let list = try await fileChapters(of: episode), !list.chapters.isEmpty {
            return (list.source.rawValue, list.chapters.map { Book.Chapter(title: $0.title, start: $0.start, end: $0.end) })
        }
        return ("none", [])
    }

    /// The chapters in the episode's own file (downloaded, or the demo's); nil when there is
    /// no file or it cannot be read. A file in a bucket is copied to this server to be read.
    func fileChapters(of episode: Episode) async throws -> ChapterList? {
        switch try await audio(of: episode) {
        case .file(let path, _):
            return try? ChapterReader.read(path: path)
        case .stored(let key, _):
            if let path = files.localPath(key) { return try? ChapterReader.read(path: path) }
            try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
            let copy = scratch + "/chapters-\(UUID().uuidString.lowercased())"
            defer { try? FileManager.default.removeItem(atPath: copy) }
            try await files.download(key, to: copy)
            return try? ChapterReader.read(path: copy)
        case .remote:
            return nil
        }
    }

    /// The episode's transcript, in time order; nil when the feed offers none with timing.
    func transcript(of episode: Episode) async throws -> Transcript? {
        guard let offered = episode.details.transcript else { return nil }
        return try TranscriptReader.read(try await document(offered.url, limit: 5_000_000), type: offered.type)
    }

    /// Chapters in time order with their ends: the next one's start, or the episode's end.
    static func ranges(_ list: [(start: Double, title: String, end: Double?)], duration: Double?) -> [Book.Chapter] {
        let sorted = list.filter { $0.start.isFinite && $0.start >= 0 }.sorted { $0.start < $1.start }
        return sorted.enumerated().map { index, chapter in
            let next = index + 1 < sorted.count ? sorted[index + 1].start : nil
            let end = next ?? chapter.end ?? duration ?? chapter.start
            return Book.Chapter(title: chapter.title.isEmpty ? "Chapter \(index + 1)" : chapter.title, start: chapter.start, end: max(end, chapter.start))
        }
    }

    /// A small document the feed names: from the demo folder, or fetched.
    func document(_ address: String, limit: Int64) async throws -> [UInt8] {
        if let local = demoFile(address) {
            guard let data = FileManager.default.contents(atPath: local) else { throw FeedFetch.Failure("the demo show's file is missing") }
            return Array(data)
        }
        guard let url = URL(string: address) else { throw FeedFetch.Failure("\(address) is not a web address") }
        let (answer, body) = try await fetcher.document(url, limit: limit)
        guard (200..<300).contains(answer.status) else { throw FeedFetch.Failure("the host answered HTTP \(answer.status)") }
        return body
    }
}
