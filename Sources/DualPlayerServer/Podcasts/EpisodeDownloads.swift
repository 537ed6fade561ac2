import DualPlayer
import Foundation
import JukeCore
import JukePlatform
import Logging
import MediaStorage
import Providers
import Synchronization

/// Episodes copied to the server, so they play however the host fares: bytes go to a part
/// file in the downloading server's scratch folder as they come, an interrupted download goes
/// on from its last byte (Range; a host that ignores it starts again), the whole file is then
/// stored (the data folder or the bucket every server plays from), and progress is on the
/// episode for every subscriber to see. After each download the storage limit's cleanup
/// (`DownloadCleanup`) removes played episodes, oldest first.
actor EpisodeDownloads {
    let store: PodcastStore
    let fetcher: WebFetcher
    let media: EpisodeMedia
    /// Where downloads are kept, and where their part files are written first.
    let files: any MediaStore
    let scratch: String
    let limit: Int64
    let clock: WallClock
    let logger: Logger
    /// Where the downloads run, so shutdown stops them (a restart carries on from the part file).
    let background: BackgroundWork
    private var running: [EpisodeID: BackgroundJob] = [:]

    init(
        store: PodcastStore, fetcher: WebFetcher, media: EpisodeMedia, files: any MediaStore, scratch: String, limit: Int64, clock: WallClock,
        background: BackgroundWork,
        logger: Logger
    ) {
        self.background = background
        self.store = store
        self.fetcher = fetcher
        self.media = media
        self.files = files
        self.scratch = scratch
        self.limit = limit
        self.clock = clock
        self.logger = logger
    }

    /// Starts (or carries on) downloading `episode`; returns it as stored with its progress.
    func start(_ episode: Episode) async throws -> Episode {
        if let download = episode.download, download.status == .ready, let key = StorageKey(download.file), try await files.info(key) != nil {
            return episode
        }
        if running[episode.id] != nil, let current = try await store.episode(episode.id) { return current }
        let held = try await heldDownloads()
        guard DownloadCleanup.hasRoom(for: episode.details.audioLength ?? 0, held.filter { $0.id != episode.id }, limit: limit) else {
            throw RuleRefusal.conflict(
                "The server's podcast storage (\(limit / 1_000_000) MB) is full of unplayed episodes: play or remove some downloads first.")
        }
        let have = Self.size(partPath(episode))
        let download = EpisodeDownload(status: .downloading, bytes: have, total: episode.details.audioLength, file: try fileKey(episode).rawValue)
        try await store.setDownload(download, of: episode.id)
        var started = episode
        started.download = download
        launch(started)
        return started
    }

    /// Downloads a restart interrupted carry on.
    func resumeInterrupted() async {
        do {
            for (episode, _) in try await store.downloads() where episode.download?.status == .downloading && running[episode.id] == nil {
                launch(episode)
            }
        } catch {
            logger.error("could not resume episode downloads", metadata: ["error": "\(error)"])
        }
    }

    /// Stops a download and removes the server's copy.
    func remove(_ episode: Episode) async throws {
        running.removeValue(forKey: episode.id)?.cancel()
        try await files.delete(episode.download.flatMap { StorageKey($0.file) } ?? (try fileKey(episode)))
        try? FileManager.default.removeItem(atPath: partPath(episode))
        try await store.setDownload(nil, of: episode.id)
    }

    /// A removed show's download (its key, as stored on the episode): the stored file and any
    /// part file this server holds. A failure to remove is logged, not raised: the show is gone.
    func removeFiles(_ file: String) async {
        guard let key = StorageKey(file) else { return }
        do {
            try await files.delete(key)
        } catch {
            logger.warning("a removed show's episode file stays stored", metadata: ["file": "\(file)", "error": "\(error)"])
        }
        let episode = String(key.name.prefix { $0 != "." })
        try? FileManager.default.removeItem(atPath: "\(scratch)/podcasts/\(episode).part")
    }

    /// The episode's key in the media storage: `dual/podcasts/<show>/<episode>.<ext>`.
    func fileKey(_ episode: Episode) throws -> StorageKey {
        let kind = EpisodeMedia.type(episode)
        let ext = kind.contains("mp4") || kind.contains("m4a") ? "m4a" : kind.contains("ogg") ? "ogg" : "mp3"
        return try StorageKey(checking: "\(Self.prefix)/\(episode.podcast)/\(episode.id).\(ext)")
    }

    /// Where downloads are kept in the media storage.
    static let prefix = "dual/podcasts"

    /// The part file being written on this server (a restart carries on from it).
    func partPath(_ episode: Episode) -> String { "\(scratch)/podcasts/\(episode.id).part" }

    private func launch(_ episode: Episode) {
        running[episode.id] = background.start("episode download") { [weak self] in
            await self?.run(episode)
        }
    }

    private func finished(_ id: EpisodeID) { running.removeValue(forKey: id) }

    private func run(_ episode: Episode) async {
        let part = partPath(episode)
        do {
            let key = try fileKey(episode)
            try FileManager.default.createDirectory(atPath: (part as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            let bytes = try await fetch(episode, to: part, key: key)
            try await files.store(file: part, as: key, contentType: EpisodeMedia.type(episode))
            let done = EpisodeDownload(status: .ready, bytes: bytes, total: bytes, file: key.rawValue, finishedAt: clock.now())
            try await store.setDownload(done, of: episode.id)
            logger.info("episode downloaded", metadata: ["episode": "\(episode.id)", "bytes": "\(bytes)"])
            await cleanup()
        } catch is CancellationError {
            // Removed while downloading: nothing to record.
        } catch {
            let have = Self.size(part)
            let failed = EpisodeDownload(
                status: .failed, bytes: have, total: episode.details.audioLength, failure: FeedFetch.words(error),
                file: (try? fileKey(episode).rawValue) ?? "")
            logger.notice("episode download stopped", metadata: ["episode": "\(episode.id)", "error": "\(error)"])
            if !Task.isCancelled {
                // Unrecorded, the episode would show as downloading for good.
                do {
                    try await Retrying.backingOff(attempts: 5).run { try await store.setDownload(failed, of: episode.id) }
                } catch {
                    logger.error("an episode's stopped download is not recorded", metadata: ["episode": "\(episode.id)", "error": "\(error)"])
                }
            }
        }
        finished(episode.id)
    }

    /// The episode's bytes into its part file `part`; returns the file's size.
    private func fetch(_ episode: Episode, to part: String, key: StorageKey) async throws -> Int64 {
        if let local = media.demoFile(episode.details.audioURL) {
            // Juke's demo show: a copy of the server's own file.
            if FileManager.default.fileExists(atPath: part) { try FileManager.default.removeItem(atPath: part) }
            try FileManager.default.copyItem(atPath: local, toPath: part)
            return Self.size(part)
        }
        guard let url = URL(string: episode.details.audioURL) else { throw FeedFetch.Failure("the episode's audio address is not a web address") }
        let have = Self.size(part)
        if have == 0 { FileManager.default.createFile(atPath: part, contents: nil) }
        guard let handle = FileHandle(forWritingAtPath: part) else { throw FeedFetch.Failure("the server cannot write \(part)") }
        let writer = PartWriter(handle: handle, start: have)
        defer { try? handle.close() }
        let store = store
        let id = episode.id
        let total = episode.details.audioLength
        let answer = try await fetcher.get(
            url, headers: have > 0 ? ["Range": "bytes=\(have)-"] : [:], limit: EpisodeProxy.limit,
            accept: { answer in
                if let type = answer.contentType, type.contains("html") || type.hasPrefix("text/") || type.contains("json") {
                    throw FeedFetch.Failure("the host answered \(type), not audio")
                }
                try writer.begin(partial: answer.status == 206)
            }
        ) { bytes in
            if let progress = try writer.write(bytes) {
                try? await store.updateProgress(EpisodeDownload(status: .downloading, bytes: progress, total: total, file: key.rawValue), of: id)
            }
        }
        switch answer.status {
        case 200, 206: break
        case 416 where have > 0: break  // the part was already whole
        default: throw FeedFetch.Failure("the host answered HTTP \(answer.status)")
        }
        try handle.close()
        let size = Self.size(part)
        guard size > 0 else { throw FeedFetch.Failure("the host sent no audio") }
        return size
    }

    /// Removes played downloads while the total is over the limit.
    func cleanup() async {
        do {
            let held = try await heldDownloads()
            for id in DownloadCleanup.toRemove(held, limit: limit) {
                guard let episode = try await store.episode(id) else { continue }
                try await remove(episode)
                logger.info("played episode removed for space", metadata: ["episode": "\(id)"])
            }
        } catch {
            logger.error("podcast storage cleanup failed", metadata: ["error": "\(error)"])
        }
    }

    private func heldDownloads() async throws -> [DownloadCleanup.Held] {
        try await store.downloads().compactMap { episode, playedByAll in
            guard let download = episode.download else { return nil }
            // A stored download's size was recorded when it was whole (the bucket is not asked).
            let bytes = download.status == .ready ? download.bytes : max(download.bytes, download.total ?? 0)
            return DownloadCleanup.Held(id: episode.id, bytes: bytes, playedByAll: playedByAll && download.status == .ready, finishedAt: download.finishedAt)
        }
    }

    static func size(_ path: String) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
    }

    /// The part file being written, shared with the fetch's callbacks: where writing starts
    /// (after what an earlier attempt kept, or over it when the host sends the whole file again)
    /// and when progress is next worth recording.
    final class PartWriter: Sendable {
        let handle: FileHandle
        private let state: Mutex<(written: Int64, lastReport: ContinuousClock.Instant)>

        init(handle: FileHandle, start: Int64) {
            self.handle = handle
            state = Mutex((start, .now))
        }

        func begin(partial: Bool) throws {
            try state.withLock { state in
                if partial {
                    try handle.seek(toOffset: UInt64(state.written))
                } else {
                    // The whole file again: what was kept is dropped.
                    try handle.truncate(atOffset: 0)
                    state.written = 0
                }
            }
        }

        /// Writes a piece; returns the bytes on disk when a second has passed since the last report.
        func write(_ bytes: [UInt8]) throws -> Int64? {
            try state.withLock { state in
                try handle.write(contentsOf: bytes)
                state.written += Int64(bytes.count)
                guard ContinuousClock.now - state.lastReport > .seconds(1) else { return nil }
                state.lastReport = .now
                return state.written
            }
        }
    }
}
