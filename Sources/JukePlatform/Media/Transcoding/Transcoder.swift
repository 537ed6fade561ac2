import Crypto
import ExternalTools
import Foundation
import JukeCore
import Logging
import MediaStorage

/// Transcodes what browsers cannot play (WMA, WavPack, Monkey's Audio, Musepack, DSD, ALAC,
/// AIFF) with ffmpeg, as it is asked for: the first bytes go out as soon as ffmpeg writes
/// them, each ffmpeg takes one of the server's tool slots (`ToolSlots`: more requests wait
/// their turn in a short line, then are told to come back), two listeners of the same transcode share one ffmpeg, and finished
/// transcodes are kept in a cache of bounded size, least recently played evicted first.
///
/// When several servers share a bucket (`shared`), what one server made is put there too
/// (under `cache/`), and another server copies it from there instead of running ffmpeg again;
/// the bucket's cache keeps to the same size limit, counted across every server's entries,
/// oldest first (a bucket keeps no time of last use).
public actor Transcoder {
    public struct Settings: Sendable {
        public var maxConcurrent: Int
        public var cacheDirectory: String
        /// The most bytes the finished transcodes may take on disk.
        public var cacheLimit: Int64

        public init(maxConcurrent: Int, cacheDirectory: String, cacheLimit: Int64) {
            self.maxConcurrent = max(1, maxConcurrent)
            self.cacheDirectory = cacheDirectory
            self.cacheLimit = max(0, cacheLimit)
        }
    }

    /// What to transcode: the file as it is now (its size and time name the cache entry, so
    /// an edited file is transcoded again), the target, and the whole second to start at.
    public struct Request: Sendable {
        public var path: String
        public var size: Int64
        public var modifiedMillis: Int64
        public var target: TranscodeTarget
        public var start: Int
        /// What names the source in the cache when `path` does not (an address that changes
        /// from call to call, such as a bucket's presigned one).
        public var identity: String?

        public init(path: String, size: Int64, modifiedMillis: Int64, target: TranscodeTarget, start: Int = 0, identity: String? = nil) {
            self.path = path
            self.identity = identity
            self.size = size
            self.modifiedMillis = modifiedMillis
            self.target = target
            self.start = start
        }
    }

    public enum Output: Sendable {
        /// A finished transcode: served as a file, with Range.
        case cached(path: String)
        /// One being written: its bytes as they come.
        case streaming(TranscodeFollower)
    }

    let ffmpeg: ExternalTool
    public let settings: Settings
    /// The slots every outside program takes one of (the server's, shared with clips' and
    /// cover blurs' ffmpeg, speech and PDF reads).
    let slots: ToolSlots
    let logger: Logger
    /// The cache every server shares (a bucket); nil: this server's folder is the only one.
    let shared: (any MediaStore)?
    /// Where the shared cache's entries are in the bucket.
    static let sharedPrefix = "cache/"
    private var jobs: [String: TranscodeJob] = [:]
    /// Seconds of audio a transcode runs ahead of its closest listener at the server's
    /// priority, before it goes on at idle priority: a player's buffer and then some, so
    /// that a listener on a host kept busy by other work plays a minute before a stall.
    static let listenerLead: Int64 = 60
    /// Clips being cut, so that two asking for the same one share one ffmpeg.
    private var cutting: [String: Task<String, any Error>] = [:]

    /// Counts for the status page and tests: the tool slots taken and waited for (every
    /// program's, when the slots are the server's), and the bytes in the cache.
    public struct Counts: Sendable, Equatable {
        public var running: Int
        public var waiting: Int
        public var cachedBytes: Int64
    }

    /// `slots`: the server's tool slots; without them, slots of its own (`maxConcurrent`, four
    /// per slot in line).
    public init(ffmpeg: ExternalTool, settings: Settings, shared: (any MediaStore)? = nil, slots: ToolSlots? = nil, logger: Logger) throws {
        self.ffmpeg = ffmpeg
        self.settings = settings
        self.slots = slots ?? ToolSlots(size: settings.maxConcurrent, waiting: settings.maxConcurrent * 4)
        self.shared = shared
        self.logger = logger
        try FileManager.default.createDirectory(atPath: settings.cacheDirectory, withIntermediateDirectories: true)
        // What a stopped server left half written is of no use.
        for name in (try? FileManager.default.contentsOfDirectory(atPath: settings.cacheDirectory)) ?? [] where name.contains(".partial") {
            try? FileManager.default.removeItem(atPath: (settings.cacheDirectory as NSString).appendingPathComponent(name))
        }
    }

    /// The finished transcode of `request` in the cache, without starting one.
    public func cached(_ request: Request) -> String? {
        cachedPath(Self.key(request), request.target.fileExtension)
    }

    /// The finished clip of `request` in the cache, without cutting it.
    public func cached(_ request: ClipRequest) -> String? {
        cachedPath(Self.key(request), request.container.fileExtension)
    }

    /// The transcode asked for: from the cache, joined while another listener's is written,
    /// or started (after waiting for a slot). Throws `.busy` when the line is full, and
    /// `.failed` when ffmpeg gives up before writing anything (a damaged file).
    public func open(_ request: Request) async throws(TranscodeError) -> Output {
        let key = Self.key(request)
        if let cached = cachedPath(key, request.target.fileExtension) { return .cached(path: cached) }
        if let job = jobs[key] { return .streaming(TranscodeFollower(source: try .init(job: job))) }
        if let copied = await copyShared(key, request.target.fileExtension) { return .cached(path: copied) }
        try await takeSlot()
        // While waiting, another listener may have had it made.
        if let cached = cachedPath(key, request.target.fileExtension) {
            releaseSlot()
            return .cached(path: cached)
        }
        if let job = jobs[key] {
            releaseSlot()
            return .streaming(TranscodeFollower(source: try .init(job: job)))
        }
        let base = (settings.cacheDirectory as NSString).appendingPathComponent(key)
        let job = TranscodeJob(
            key: key, partialPath: base + ".partial", finalPath: base + "." + request.target.fileExtension, stopsWhenUnread: request.start > 0,
            lead: Self.listenerLead * request.target.bytesPerSecond)
        // The file exists before any follower opens it; the job writes into this same file.
        guard FileManager.default.createFile(atPath: job.partialPath, contents: nil) else {
            releaseSlot()
            throw .failed("the transcode cache at \(settings.cacheDirectory) cannot be written")
        }
        jobs[key] = job
        var arguments = ["-nostdin", "-hide_banner", "-loglevel", "error"]
        if request.start > 0 { arguments += ["-ss", String(request.start)] }
        arguments += ["-i", request.path, "-map", "0:a:0", "-vn", "-sn", "-dn", "-map_metadata", "-1"]
        arguments += request.target.encoderArguments + ["pipe:1"]
        // This listener follows the job before ffmpeg starts: a job nobody follows yet would
        // go to idle CPU time at once.
        let source: TranscodeFollower.Source
        do {
            source = try TranscodeFollower.Source(job: job)
        } catch {
            jobs[key] = nil
            releaseSlot()
            throw error
        }
        job.start(ffmpeg: ffmpeg, arguments: arguments) { [weak self] in
            await self?.ended(job, named: key + "." + request.target.fileExtension, input: request.path, identity: request.identity)
        }
        // Wait for ffmpeg's first bytes, or its failure: a file it cannot read is an error
        // the route can still answer, not a response cut off.
        while true {
            let state = job.snapshot
            if state.written > 0 || state.phase == .finished { break }
            if case .failed(let why) = state.phase { throw .failed(Self.redacting(why, input: request.path, identity: request.identity)) }
            // A request gone away stops looking (the job goes on for its other listeners). A
            // `try?` here spun at full speed once cancelled, and took the CPU from the ffmpeg it
            // waited for (then at idle priority): a stall that never ended.
            do { try await Task.sleep(for: TranscodeFollower.pollInterval) } catch { break }
        }
        return .streaming(TranscodeFollower(source: source))
    }

    /// The clip asked for, from the cache or cut now into it. Copying a stretch takes about
    /// as long as reading it, so the answer waits for the whole clip (and for a slot, as a
    /// transcode does): a finished file is what gives the player its length and Range.
    public func clip(_ request: ClipRequest) async throws(TranscodeError) -> String {
        let key = Self.key(request)
        if let cached = cachedPath(key, request.container.fileExtension) { return cached }
        if let copied = await copyShared(key, request.container.fileExtension) { return copied }
        let cut: Task<String, any Error>
        if let running = cutting[key] {
            cut = running
        } else {
            cut = Task { try await self.cut(request, key: key) }
            cutting[key] = cut
        }
        do {
            return try await cut.value
        } catch let failure as TranscodeError {
            throw failure
        } catch {
            throw .failed("\(error)")
        }
    }

    private func cut(_ request: ClipRequest, key: String) async throws -> String {
        defer { cutting[key] = nil }
        try await takeSlot()
        defer {
            releaseSlot()
            evict()
        }
        let base = (settings.cacheDirectory as NSString).appendingPathComponent(key)
        let partial = base + ".partial." + request.container.fileExtension
        let final = base + "." + request.container.fileExtension
        var arguments = ["-nostdin", "-hide_banner", "-loglevel", "error", "-y"]
        if request.start > 0 || request.end.isFinite { arguments += ["-ss", String(format: "%.3f", request.start)] }
        if request.end.isFinite { arguments += ["-to", String(format: "%.3f", request.end)] }
        arguments += ["-i", request.path]
        // The audio alone (no cover picture), no tags, no chapters, and no "encoder" tag of
        // ffmpeg's own (bitexact): nothing in the bytes but the sound.
        arguments += ["-map", "0:a:0", "-vn", "-sn", "-dn", "-c:a", "copy", "-map_metadata", "-1", "-map_chapters", "-1", "-fflags", "+bitexact"]
        arguments += request.container.muxerArguments + [partial]
        let (ffmpeg, command) = (self.ffmpeg, arguments)
        do {
            try await ffmpeg.run(command, limits: .init(deadline: .seconds(600)))
            try FileManager.default.moveItem(atPath: partial, toPath: final)
            await share(final, named: key + "." + request.container.fileExtension)
        } catch {
            try? FileManager.default.removeItem(atPath: partial)
            let why = Self.redacting(String(describing: error), input: request.path, identity: request.identity)
            logger.warning(
                "a clip could not be cut",
                metadata: ["source": "\(Self.redacting(request.path, input: request.path, identity: request.identity))", "error": "\(why)"])
            throw TranscodeError.failed(why)
        }
        return final
    }

    public func counts() -> Counts {
        Counts(running: slots.running, waiting: slots.waiting, cachedBytes: cacheEntries().reduce(0) { $0 + $1.size })
    }

    private func takeSlot() async throws(TranscodeError) {
        do {
            try await slots.take()
        } catch {
            throw .busy
        }
    }

    private func releaseSlot() { slots.give() }

    private func ended(_ job: TranscodeJob, named name: String, input: String, identity: String?) async {
        jobs[job.key] = nil
        releaseSlot()
        switch job.snapshot.phase {
        case .failed(let why): logger.warning("transcode failed", metadata: ["reason": "\(Self.redacting(why, input: input, identity: identity))"])
        case .finished: await share(job.finalPath, named: name)
        case .running: break
        }
        evict()
    }

    /// Another server's finished entry, copied from the shared cache into this server's;
    /// nil when there is none (or no shared cache, or it cannot be read: ffmpeg runs then).
    private func copyShared(_ key: String, _ fileExtension: String) async -> String? {
        guard let shared, let stored = StorageKey(Self.sharedPrefix + key + "." + fileExtension) else { return nil }
        let base = (settings.cacheDirectory as NSString).appendingPathComponent(key)
        let copy = base + ".partial-shared-\(UUID().uuidString.lowercased())"
        do {
            guard try await shared.info(stored) != nil else { return nil }
            try await shared.download(stored, to: copy)
            let final = base + "." + fileExtension
            guard rename(copy, final) == 0 else { throw MediaStoreError.unavailable("cannot keep \(final)") }
            evict()
            return final
        } catch {
            try? FileManager.default.removeItem(atPath: copy)
            logger.warning("a shared transcode could not be copied here: making it again", metadata: ["entry": "\(stored)", "error": "\(error)"])
            return nil
        }
    }

    /// Puts a finished entry in the shared cache for the other servers (a copy: this
    /// server's stays), then keeps the shared cache within the limit. A failure is logged:
    /// the other servers make their own.
    private func share(_ path: String, named name: String) async {
        guard let shared, let stored = StorageKey(Self.sharedPrefix + name) else { return }
        let copy = path + ".partial-sharing-\(UUID().uuidString.lowercased())"
        do {
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            try await shared.store(file: copy, as: stored, contentType: "application/octet-stream")
            try await evictShared(shared)
        } catch {
            try? FileManager.default.removeItem(atPath: copy)
            logger.warning("a transcode could not be shared with the other servers", metadata: ["entry": "\(stored)", "error": "\(error)"])
        }
    }

    /// Removes the shared cache's oldest entries until all of them, every server's, fit the limit.
    private func evictShared(_ shared: any MediaStore) async throws {
        var entries = try await shared.list(prefix: Self.sharedPrefix).sorted { $0.modified < $1.modified }
        var total = entries.reduce(0) { $0 + $1.size }
        while total > settings.cacheLimit, !entries.isEmpty {
            let oldest = entries.removeFirst()
            try await shared.delete(oldest.key)
            total -= oldest.size
        }
    }

    /// The finished transcode for `key`, marked as just used (the eviction order). Its access
    /// time says so, not its modification time: that one names the file's ETag, which must
    /// stay the same for a browser's If-Range and If-None-Match to hold.
    private func cachedPath(_ key: String, _ fileExtension: String) -> String? {
        let path = (settings.cacheDirectory as NSString).appendingPathComponent(key + "." + fileExtension)
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var times = [now, info.st_mtim]
        _ = utimensat(AT_FDCWD, path, &times, 0)
        return path
    }

    private func cacheEntries() -> [(path: String, size: Int64, used: Date)] {
        let folder = settings.cacheDirectory
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).compactMap { name in
            guard !name.contains(".partial") else { return nil }
            let path = (folder as NSString).appendingPathComponent(name)
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            let used = Date(timeIntervalSince1970: TimeInterval(info.st_atim.tv_sec) + TimeInterval(info.st_atim.tv_nsec) / 1e9)
            return (path, Int64(info.st_size), used)
        }
    }

    /// Removes the least recently used transcodes until the cache is within its limit (a
    /// listener still reading a removed file keeps it until done).
    private func evict() {
        var entries = cacheEntries().sorted { $0.used < $1.used }
        var total = entries.reduce(0) { $0 + $1.size }
        while total > settings.cacheLimit, !entries.isEmpty {
            let oldest = entries.removeFirst()
            try? FileManager.default.removeItem(atPath: oldest.path)
            total -= oldest.size
        }
    }

    /// `text` without the address ffmpeg read a stored file from: a presigned address lets
    /// whoever holds it read the file for hours, so it is named by the stored file instead
    /// (in the logs, and in the answer a failure gives the browser). A path on this server's
    /// disk (no `identity`) is left as it is.
    public static func redacting(_ text: String, input: String, identity: String?) -> String {
        guard let identity, !input.isEmpty else { return text }
        let name = identity.split(separator: "\n").dropFirst().first.map { "the stored file \($0)" } ?? "the stored file"
        return text.replacingOccurrences(of: input, with: name)
    }

    /// The cache entry's name: the file's path, size and time, the target and the start.
    static func key(_ request: Request) -> String {
        let text = "\(request.identity ?? request.path)\n\(request.size)\n\(request.modifiedMillis)\n\(request.target.rawValue)\n\(request.start)"
        return Hex.string(SHA256.hash(data: Data(text.utf8))).prefix(40).description
    }

    /// A clip's entry: the file, the stretch and the container (a clip is never a transcode's).
    static func key(_ request: ClipRequest) -> String {
        let text =
            "clip\n\(request.identity ?? request.path)\n\(request.size)\n\(request.modifiedMillis)\n\(request.start)\n\(request.end)\n\(request.container.rawValue)"
        return Hex.string(SHA256.hash(data: Data(text.utf8))).prefix(40).description
    }
}
