import ExternalTools
import Foundation
import HTTPTypes
import HummingbirdTesting
import JukeCore
import JukePlatform
import JukeTestSupport
import Logging
import MediaFormats
import NIOCore
import Testing

/// Playing what a browser cannot: the rule that decides, the transcoder (ffmpeg, its slots,
/// its line, its cache), and the routes a page plays through.
@Suite(.timeLimit(.minutes(5))) struct TranscodingTests {
    static let hasFFmpeg = ExternalTool.locate("ffmpeg") != nil

    static func ffmpeg() throws -> ExternalTool { try #require(ExternalTool.locate("ffmpeg"), "ffmpeg is installed by Scripts/test.sh") }

    /// Runs ffmpeg to make a test's file (asynchronously: no thread of the cooperative pool
    /// waits for it).
    static func makeWithFFmpeg(_ arguments: [String]) async throws {
        try await ffmpeg().run(arguments)
    }

    /// A tagged tone of `seconds` in `codec` (ffmpeg's encoder name), written to `path`.
    static func tone(_ path: String, seconds: Int, codec: String, title: String, extra: [String] = []) async throws {
        try await makeWithFFmpeg(
            ["-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=\(seconds)", "-ac", "2", "-c:a", codec]
                + extra + ["-metadata", "title=\(title)", "-metadata", "artist=Tone Makers", path])
    }

    /// Waits until no ffmpeg runs or waits: every transcode has ended, and what it finished is
    /// in the cache (a job is moved there before its slot is given back).
    static func idle(_ transcoder: Transcoder) async -> Bool {
        await eventually {
            let counts = await transcoder.counts()
            return counts.running == 0 && counts.waiting == 0
        }
    }

    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("juke-transcode-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func theChoiceFollowsWhatTheBrowserPlays() {
        let chrome = BrowserPlays.parse("mp3,aac,flac,vorbis,opus,wav")
        let oldSafari = BrowserPlays.parse("mp3,aac,alac,flac,wav,aiff")
        #expect(PlaybackChoice.decide(format: "asf", codec: nil, plays: chrome, canTranscode: true) == .transcode(.opus))
        #expect(PlaybackChoice.decide(format: "asf", codec: nil, plays: oldSafari, canTranscode: true) == .transcode(.mp3))
        #expect(PlaybackChoice.decide(format: "mp4", codec: "alac", plays: chrome, canTranscode: true) == .transcode(.opus))
        #expect(PlaybackChoice.decide(format: "mp4", codec: "alac", plays: oldSafari, canTranscode: true) == .original)
        #expect(
            PlaybackChoice.decide(format: "mp4", codec: nil, plays: chrome, canTranscode: false) == .original, "MP4 read before codecs were told apart is AAC")
        #expect(PlaybackChoice.decide(format: "aiff", codec: nil, plays: oldSafari, canTranscode: false) == .original)
        #expect(PlaybackChoice.decide(format: "wavpack", codec: nil, plays: chrome, canTranscode: false) == .unplayable)
        #expect(PlaybackChoice.decide(format: "dsf", codec: nil, plays: nil, canTranscode: true) == .original, "no report: another player gets the file")
        #expect(PlaybackChoice.playable(format: "musepack", codec: nil, canTranscode: false) == false)
        #expect(PlaybackChoice.playable(format: "ogg_vorbis", codec: nil, canTranscode: false))
        #expect(PlaybackChoice.codec(format: "monkeys_audio", codec: nil) == "ape")
        #expect(BrowserPlays.parse("mp3,Opus") == nil, "codec names are lower case")
        #expect(BrowserPlays.parse("mp3,quux")?.codecs == ["mp3"], "unknown names are ignored")
        #expect(BrowserPlays.parse(String(repeating: "mp3,", count: 60)) == nil)
    }

    /// Reads the whole body of a follower.
    static func collect(_ output: Transcoder.Output) async throws -> [UInt8] {
        switch output {
        case .cached(let path): return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        case .streaming(let follower):
            var bytes: [UInt8] = []
            for try await chunk in follower { bytes += chunk.readableBytesView }
            return bytes
        }
    }

    static func request(_ path: String, _ target: TranscodeTarget = .opus, start: Int = 0) throws -> Transcoder.Request {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        let size = (attributes[.size] as? NSNumber)?.int64Value ?? 0
        let time = Int64(((attributes[.modificationDate] as? Date) ?? .distantPast).timeIntervalSince1970 * 1000)
        return Transcoder.Request(path: path, size: size, modifiedMillis: time, target: target, start: start)
    }

    @Test func aTranscodeStreamsThenComesFromTheCacheAndListenersShareOneFFmpeg() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let source = folder + "/tone.wma"
        try await Self.tone(source, seconds: 30, codec: "wmav2", title: "Tone")
        let cache = folder + "/cache"
        let transcoder = try Transcoder(
            ffmpeg: try Self.ffmpeg(), settings: .init(maxConcurrent: 2, cacheDirectory: cache, cacheLimit: 100_000_000), logger: Logger(label: "test"))
        let first = try await transcoder.open(try Self.request(source))
        guard case .streaming = first else { Issue.record("the first listener waits for a whole transcode"); return }
        // A second listener while the first is written follows the same ffmpeg.
        let second = try await transcoder.open(try Self.request(source))
        #expect(await transcoder.counts().running == 1)
        let (a, b) = try await (Self.collect(first), Self.collect(second))
        #expect(a == b && a.starts(with: Array("OggS".utf8)))
        let meta = try TagReader.read(MemorySource(a))
        #expect(meta.format == .opus && abs((meta.duration ?? 0) - 30) < 0.1, "\(meta.duration ?? -1)")
        // Finished: once its ffmpeg has ended, the next listener gets the cached file.
        #expect(await Self.idle(transcoder), "the transcode never ended")
        guard case .cached(let path) = try await transcoder.open(try Self.request(source)) else { Issue.record("a finished transcode was not cached"); return }
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == a)
        #expect(await transcoder.counts().running == 0)
        // From 20 s on: the last 10 seconds, as MP3.
        let tail = try await Self.collect(try await transcoder.open(try Self.request(source, .mp3, start: 20)))
        let tailMeta = try TagReader.read(MemorySource(tail))
        #expect(tailMeta.format == .mp3 && abs((tailMeta.duration ?? 0) - 10) < 0.2, "\(tailMeta.duration ?? -1)")
    }

    /// A listener who goes away before ffmpeg's first bytes lets go at once. The wait for those
    /// bytes was `try? await Task.sleep` in a loop: once cancelled, the sleep threw at once and
    /// the loop spun at full speed until ffmpeg wrote, taking the CPU from that very ffmpeg
    /// (then at idle priority): a stall of the whole test run, and of a busy server.
    @Test func aListenerGoneBeforeTheFirstBytesLetsGoAtOnce() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // An "ffmpeg" that writes nothing for 45 s, then ends.
        let silent = folder + "/silent-ffmpeg"
        try "#!/bin/sh\nexec sleep 45\n".write(toFile: silent, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: silent)
        let source = folder + "/song.wma"
        try Data(repeating: 1, count: 1000).write(to: URL(fileURLWithPath: source))
        let transcoder = try Transcoder(
            ffmpeg: ExternalTool(path: silent), settings: .init(maxConcurrent: 1, cacheDirectory: folder + "/cache", cacheLimit: 1_000_000),
            logger: Logger(label: "test"))
        let request = try Self.request(source)
        let opening = Task { _ = try await transcoder.open(request) }
        #expect(await eventually { await transcoder.counts().running == 1 }, "the transcode never started")
        opening.cancel()
        // Ended well inside the 45 s the program stays silent (the old loop spun all of them).
        let letGo = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                _ = await opening.result
                return true
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(20))
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        #expect(letGo, "the cancelled listener still waits for the first bytes")
    }

    /// The scheduling policy (0 the usual one, 5 SCHED_IDLE) of the ffmpeg reading `path`, found
    /// by its command line; nil while there is none.
    static func policy(ofFFmpegReading path: String) -> Int? {
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] where Int(entry) != nil {
            guard let command = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"),
                String(decoding: command, as: UTF8.self).contains(path),
                let stat = FileManager.default.contents(atPath: "/proc/\(entry)/stat"),
                let close = String(decoding: stat, as: UTF8.self).range(of: ")", options: .backwards)
            else { continue }
            // After the name: field 3 (state) onwards; the policy is field 41.
            let fields = String(decoding: stat, as: UTF8.self)[close.upperBound...].split(separator: " ")
            return fields.count > 38 ? Int(fields[38]) : nil
        }
        return nil
    }

    /// A transcode someone is reading runs at the server's own priority, so that a host kept
    /// busy by other work still serves it (idle priority from the start left a client's first
    /// byte waiting past its 10-second read timeout at load 20); once ffmpeg is a minute of
    /// audio ahead of its listener, it goes on at idle priority.
    @Test func aTranscodeRunsAtTheServersPriorityWhileItsListenerKeepsUpAndOnIdleTimeOnceAhead() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let source = folder + "/long.wv"
        try await Self.tone(source, seconds: 900, codec: "wavpack", title: "Long")
        let transcoder = try Transcoder(
            ffmpeg: try Self.ffmpeg(), settings: .init(maxConcurrent: 1, cacheDirectory: folder + "/cache", cacheLimit: 100_000_000),
            logger: Logger(label: "test"))
        guard case .streaming(let follower) = try await transcoder.open(try Self.request(source)) else {
            Issue.record("a new transcode came from the cache")
            return
        }
        var iterator = follower.makeAsyncIterator()
        // Reading as fast as it comes, like a client downloading the transcode: while the
        // first 300 KB come, ffmpeg keeps the usual policy.
        var read = 0
        var policies: Set<Int> = []
        while read < 300_000, let chunk = try await iterator.next() {
            read += chunk.readableBytes
            if let policy = Self.policy(ofFFmpegReading: source) { policies.insert(policy) }
        }
        #expect(policies == [0], "ffmpeg's policies while its listener kept up: \(policies)")
        // The listener stops reading (a player with its buffer full): a minute of audio (960 KB
        // of Opus) later, ffmpeg runs on idle time only.
        let idle = await eventually(limit: .seconds(60)) { Self.policy(ofFFmpegReading: source) == 5 }
        #expect(idle, "ffmpeg stayed at the usual priority with nobody waiting")
        _ = iterator
    }

    @Test func slotsAreBoundedTheLineIsShortAndTheCacheKeepsToItsSize() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let sources = (0..<7).map { folder + "/tone\($0).wv" }
        // Half-minute tones: a transcode ahead of its listener runs at idle priority, so on a machine saturated by
        // other work (two full runs at once and builds, load 25) five minute-long ones took this
        // test past its five minutes.
        for (i, path) in sources.enumerated() { try await Self.tone(path, seconds: 30, codec: "wavpack", title: "Tone \(i)") }
        let transcoder = try Transcoder(
            ffmpeg: try Self.ffmpeg(), settings: .init(maxConcurrent: 1, cacheDirectory: folder + "/cache", cacheLimit: 750_000),
            logger: Logger(label: "test"))
        let first = try await transcoder.open(try Self.request(sources[0]))
        // One slot: the next four wait in line (the line holds four per slot); a sixth is refused.
        let waiting = (1...4).map { i in Task { try await Self.collect(try await transcoder.open(try Self.request(sources[i]))) } }
        while await transcoder.counts().waiting < 4 { try await Task.sleep(for: .milliseconds(20)) }
        await #expect(throws: TranscodeError.busy) { try await transcoder.open(try Self.request(sources[5])) }
        #expect(await transcoder.counts().running == 1)
        let firstBytes = try await Self.collect(first)
        var sizes = [firstBytes.count]
        for task in waiting { sizes.append(try await task.value.count) }
        #expect(sizes.allSatisfy { $0 > 250_000 }, "\(sizes)")
        // Five transcodes of about 500 KB each, a 750 KB cache: the most recent one is kept.
        #expect(await Self.idle(transcoder), "the transcodes never ended")
        let counts = await transcoder.counts()
        #expect(counts.running == 0 && counts.waiting == 0)
        #expect(counts.cachedBytes <= 750_000 && counts.cachedBytes > 0, "\(counts)")
    }

    @Test func aSeekNobodyListensToIsStoppedAndAWholeTrackIsFinished() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let source = folder + "/long.wv"
        try await Self.tone(source, seconds: 240, codec: "wavpack", title: "Long")
        let transcoder = try Transcoder(
            ffmpeg: try Self.ffmpeg(), settings: .init(maxConcurrent: 2, cacheDirectory: folder + "/cache", cacheLimit: 100_000_000),
            logger: Logger(label: "test"))
        // A listener who seeks, takes the first bytes and goes (the next seek): its ffmpeg is
        // stopped, its slot given back, and nothing half made is kept.
        do {
            guard case .streaming(let follower) = try await transcoder.open(try Self.request(source, start: 30)) else {
                Issue.record("a new seek came from the cache")
                return
            }
            var iterator = follower.makeAsyncIterator()
            _ = try await iterator.next()
        }
        #expect(await Self.idle(transcoder))
        #expect(await transcoder.counts().cachedBytes == 0, "a stopped seek is not cached")
        // A whole track's transcode left by its listener runs on into the cache: it is the
        // one the next listener asks for. (A shorter track: at idle priority, where a transcode nobody follows runs, on a machine busy
        // with the rest of the run, four minutes of audio took longer than the wait.)
        let whole = folder + "/whole.wv"
        try await Self.tone(whole, seconds: 30, codec: "wavpack", title: "Whole")
        do {
            guard case .streaming(let follower) = try await transcoder.open(try Self.request(whole)) else {
                Issue.record("a whole track's first request came from the cache")
                return
            }
            var iterator = follower.makeAsyncIterator()
            _ = try await iterator.next()
        }
        _ = await Self.idle(transcoder)
        guard case .cached = try await transcoder.open(try Self.request(whole)) else {
            Issue.record("a whole track's transcode was not finished into the cache")
            return
        }
    }

    @Test func aFileFFmpegCannotReadFailsBeforeAnyByteIsSent() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let broken = folder + "/broken.wv"
        try Data("wvpk".utf8 + [UInt8](repeating: 0x5A, count: 4000)).write(to: URL(fileURLWithPath: broken))
        let transcoder = try Transcoder(
            ffmpeg: try Self.ffmpeg(), settings: .init(maxConcurrent: 1, cacheDirectory: folder + "/cache", cacheLimit: 1_000_000),
            logger: Logger(label: "test"))
        let request = try Self.request(broken)
        do {
            _ = try await transcoder.open(request)
            Issue.record("a damaged file was streamed")
        } catch {
            guard case .failed(let why) = error else { Issue.record("\(error)"); return }
            #expect(why.contains("ffmpeg"))
        }
        // Ended (its slot given back, which comes after anything it would cache): nothing is kept.
        #expect(await Self.idle(transcoder), "the slot was never given back")
        #expect(await transcoder.counts().cachedBytes == 0, "a failed transcode was cached")
    }
}

/// The routes a page plays through, with and without ffmpeg.
@Suite(.timeLimit(.minutes(5))) struct TranscodingAPITests {
    /// A WMA, a WavPack, an ALAC and an AAC track, scanned in; returns id by title.
    static func addTones(_ app: TestApp) async throws -> [String: String] {
        let folder = app.services.configuration.dataDirectory + "/music"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try await TranscodingTests.tone(folder + "/a.wma", seconds: 8, codec: "wmav2", title: "Windows Tone")
        try await TranscodingTests.tone(folder + "/b.wv", seconds: 8, codec: "wavpack", title: "Pack Tone")
        try await TranscodingTests.tone(folder + "/c.m4a", seconds: 8, codec: "alac", title: "Apple Tone")
        try await TranscodingTests.tone(folder + "/d.m4a", seconds: 8, codec: "aac", title: "Plain Tone")
        _ = try await app.services.platform.addFolder(path: folder)
        await app.services.platform.waitForScans()
        return [:]
    }

    static func tracks(_ client: any TestClientProtocol, _ token: String) async throws -> [String: [String: Any]] {
        let list = try await client.json(.get, "/api/v1/catalog/tracks", token: token)
        let items = try #require(list.json["items"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: items.map { ($0["title"] as? String ?? "", $0) })
    }

    @Test(arguments: TestBackend.available)
    func aBrowserGetsWhatItPlaysAndTheOriginalStaysDownloadable(backend: TestBackend) async throws {
        try await TestApp.run(backend) { app, client in
            let token = try await client.register("admin")
            _ = try await Self.addTones(app)
            let tracks = try await Self.tracks(client, token)
            #expect(tracks.count == 4)
            #expect(tracks["Windows Tone"]?["codec"] as? String == "wma" && tracks["Windows Tone"]?["format"] as? String == "asf")
            #expect(tracks["Pack Tone"]?["codec"] as? String == "wavpack")
            #expect(tracks["Apple Tone"]?["codec"] as? String == "alac" && tracks["Plain Tone"]?["codec"] as? String == "aac")
            #expect(tracks.values.allSatisfy { $0["playable"] as? Bool == true })
            let wma = try #require(tracks["Windows Tone"]?["id"] as? String)
            let auth: HTTPFields = [.authorization: "Bearer \(token)"]
            let original = try Data(contentsOf: URL(fileURLWithPath: app.services.configuration.dataDirectory + "/music/a.wma"))

            // HEAD says what a GET would get, and starts no ffmpeg for it.
            let head = try await client.execute(
                uri: "/api/v1/catalog/tracks/\(wma)/audio?plays=mp3,aac,flac,vorbis,opus,wav", method: .head, headers: auth, body: nil)
            #expect(head.status == .ok && head.headers[.contentType] == "audio/ogg; codecs=opus" && head.body.readableBytes == 0)
            let idle = try #require(await app.services.platform.transcoder?.counts())
            #expect(idle.running == 0 && idle.cachedBytes == 0)
            // Chrome's report: Opus.
            let opus = try await client.execute(
                uri: "/api/v1/catalog/tracks/\(wma)/audio?plays=mp3,aac,flac,vorbis,opus,wav", method: .get, headers: auth, body: nil)
            #expect(opus.status == .ok && opus.headers[.contentType] == "audio/ogg; codecs=opus")
            #expect(opus.headers[HTTPField.Name("X-Juke-Transcode")!] == "opus")
            #expect(Array(opus.body.readableBytesView).starts(with: Array("OggS".utf8)))
            // The cookie a page sets says the same; once finished, the transcode has Range.
            #expect(await TranscodingTests.idle(try #require(app.services.platform.transcoder)), "the transcode never ended")
            var cookie = auth
            cookie[.cookie] = "juke_plays=mp3,aac,flac,vorbis,opus,wav"
            cookie[.range] = "bytes=0-99"
            let ranged = try await client.execute(uri: "/api/v1/catalog/tracks/\(wma)/audio", method: .get, headers: cookie, body: nil)
            #expect(ranged.status == .partialContent && ranged.body.readableBytes == 100)
            #expect(Array(ranged.body.readableBytesView) == Array(opus.body.readableBytesView.prefix(100)))
            let cachedHead = try await client.execute(uri: "/api/v1/catalog/tracks/\(wma)/audio", method: .head, headers: cookie, body: nil)
            #expect(cachedHead.headers[.contentLength] == "100" && cachedHead.headers[.acceptRanges] == "bytes")
            // An older Safari (no Opus): MP3. ALAC it plays, so it gets the file.
            let mp3 = try await client.execute(uri: "/api/v1/catalog/tracks/\(wma)/audio?plays=mp3,aac,alac", method: .get, headers: auth, body: nil)
            #expect(mp3.status == .ok && mp3.headers[.contentType] == "audio/mpeg")
            let alac = try #require(tracks["Apple Tone"]?["id"] as? String)
            let asIs = try await client.execute(uri: "/api/v1/catalog/tracks/\(alac)/audio?plays=mp3,aac,alac", method: .get, headers: auth, body: nil)
            #expect(asIs.headers[.contentType] == "audio/mp4" && asIs.headers[HTTPField.Name("X-Juke-Transcode")!] == nil)
            // No report (another player, a script): the file as it is.
            let plain = try await client.execute(uri: "/api/v1/catalog/tracks/\(wma)/audio", method: .get, headers: auth, body: nil)
            #expect(Data(buffer: plain.body) == original && plain.headers[.contentType] == "audio/x-ms-wma")
            // A seek into a transcode; and what is refused.
            let later = try await client.execute(uri: "/api/v1/catalog/tracks/\(wma)/audio?plays=opus&start=6", method: .get, headers: auth, body: nil)
            let laterMeta = try TagReader.read(MemorySource(Array(later.body.readableBytesView)))
            #expect(later.status == .ok && abs((laterMeta.duration ?? 0) - 2) < 0.1, "\(laterMeta.duration ?? -1)")
            let late = try await client.json(.get, "/api/v1/catalog/tracks/\(wma)/audio?plays=opus&start=9", token: token)
            #expect(late.status == .unprocessableContent && late.json["field"] as? String == "start")
            #expect(try await client.json(.get, "/api/v1/catalog/tracks/\(wma)/audio?plays=opus&start=-1", token: token).status == .badRequest)
            #expect(try await client.json(.get, "/api/v1/catalog/tracks/\(wma)/audio?plays=MP3%3B", token: token).json["field"] as? String == "plays")
            // The original, to keep: exactly the file, named as it.
            let download = try await client.execute(uri: "/api/v1/catalog/tracks/\(wma)/download", method: .get, headers: auth, body: nil)
            #expect(download.status == .ok && Data(buffer: download.body) == original)
            #expect(download.headers[.contentDisposition]?.contains("filename=\"a.wma\"") == true)
            #expect(try await client.json(.get, "/api/v1/catalog/tracks/\(wma)/download").status == .unauthorized)
        }
    }

    @Test(arguments: TestBackend.available)
    func withoutFFmpegSuchTracksAreListedAsNotPlayableHere(backend: TestBackend) async throws {
        try await TestApp.run(backend, configure: { $0.transcoding = nil }) { app, client in
            let token = try await client.register("admin")
            _ = try await Self.addTones(app)
            let tracks = try await Self.tracks(client, token)
            #expect(tracks["Windows Tone"]?["playable"] as? Bool == false && tracks["Pack Tone"]?["playable"] as? Bool == false)
            #expect(tracks["Apple Tone"]?["playable"] as? Bool == false, "ALAC plays in Safari only")
            #expect(tracks["Plain Tone"]?["playable"] as? Bool == true)
            let wma = try #require(tracks["Windows Tone"]?["id"] as? String)
            let refused = try await client.json(.get, "/api/v1/catalog/tracks/\(wma)/audio?plays=mp3,aac,opus", token: token)
            #expect(refused.status == .notAcceptable && refused.json["error"] as? String == "not_playable_here")
            #expect(try await client.json(.get, "/api/v1/catalog/tracks/\(wma)/download", token: token).status == .ok)
        }
    }
}
