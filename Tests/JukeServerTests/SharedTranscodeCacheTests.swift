import ExternalTools
import Foundation
import JukePlatform
import JukeTestSupport
import Logging
import MediaStorage
import Testing

/// Servers sharing a bucket share the transcode cache: what one made, another copies rather
/// than running ffmpeg, and the shared entries keep to the limit across every server.
/// (The shared store here is a folder standing in for the bucket; the bucket's own tests
/// are MediaStorageTests' against SeaweedFS, and the two-server tests use it.)
@Suite(.timeLimit(.minutes(3))) struct SharedTranscodeCacheTests {
    @Test func anotherServerCopiesWhatOneMadeAndTheLimitCountsEveryEntry() async throws {
        let folder = try TranscodingTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let source = folder + "/tone.flac"
        try await TranscodingTests.tone(source, seconds: 3, codec: "flac", title: "Shared Tone")
        let bucket = LocalFolderStore(folder: folder + "/bucket")
        let first = try Transcoder(
            ffmpeg: try TranscodingTests.ffmpeg(), settings: .init(maxConcurrent: 1, cacheDirectory: folder + "/a", cacheLimit: 10_000_000),
            shared: bucket, logger: Logger(label: "test"))
        // The second server's ffmpeg fails whatever it is given: it can only copy.
        let second = try Transcoder(
            ffmpeg: ExternalTool(path: "/bin/false"), settings: .init(maxConcurrent: 1, cacheDirectory: folder + "/b", cacheLimit: 10_000_000),
            shared: bucket, logger: Logger(label: "test"))

        let clip = ClipRequest.whole(path: source, size: 1, modifiedMillis: 1, container: .flac, identity: "book-key\n\"etag\"")
        let made = try await first.clip(clip)
        #expect(try await bucket.list(prefix: "cache/").count == 1, "the clip is shared")
        // The same source under another presigned address: the identity names it, not the path.
        var elsewhere = clip
        elsewhere.path = "http://bucket.invalid/book?X-Amz-Signature=other"
        let copied = try await second.clip(elsewhere)
        #expect(copied.hasPrefix(folder + "/b/"))
        #expect(FileManager.default.contentsEqual(atPath: made, andPath: copied))

        // A transcode too: streamed on the first, then shared once finished.
        guard case .streaming = try await first.open(try TranscodingTests.request(source, .mp3)) else {
            Issue.record("the first transcode was not streamed")
            return
        }
        #expect(await TranscodingTests.idle(first))
        #expect(await eventually { (try? await bucket.list(prefix: "cache/").count) == 2 })
        guard case .cached = try await second.open(try TranscodingTests.request(source, .mp3)) else {
            Issue.record("the second server ran its own transcode")
            return
        }

        // A third server with a small limit: sharing its entry evicts the oldest shared ones.
        let entries = try await bucket.list(prefix: "cache/")
        let small = try Transcoder(
            ffmpeg: try TranscodingTests.ffmpeg(),
            settings: .init(maxConcurrent: 1, cacheDirectory: folder + "/c", cacheLimit: entries.map(\.size).max() ?? 0),
            shared: bucket, logger: Logger(label: "test"))
        _ = try await small.clip(ClipRequest.whole(path: source, size: 2, modifiedMillis: 2, container: .flac))
        let left = try await bucket.list(prefix: "cache/")
        #expect(left.reduce(0) { $0 + $1.size } <= entries.map(\.size).max() ?? 0, "\(left)")
    }

    @Test func aStoredFilesAddressIsInNoFailure() async throws {
        let folder = try TranscodingTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let transcoder = try Transcoder(
            ffmpeg: try TranscodingTests.ffmpeg(), settings: .init(maxConcurrent: 1, cacheDirectory: folder + "/cache", cacheLimit: 1_000_000),
            logger: Logger(label: "test"))
        // What a bucket's presigned address looks like, on a port where nothing answers.
        let address = "http://127.0.0.1:1/juke/dual/books/b.mp3?X-Amz-Credential=AKID&X-Amz-Signature=0123456789abcdef"
        let clip = ClipRequest(path: address, size: 1, modifiedMillis: 1, start: 1, end: 2, container: .mp3, identity: "bucket\ndual/books/b.mp3\n\"e\"")
        do {
            _ = try await transcoder.clip(clip)
            Issue.record("a clip of nothing was cut")
        } catch {
            guard case .failed(let why) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(!why.contains("X-Amz-Signature") && !why.contains("0123456789abcdef"), "\(why)")
        }
        #expect(Transcoder.redacting("\(address): Connection refused", input: address, identity: "b\nk.mp3\ne") == "the stored file k.mp3: Connection refused")
        #expect(Transcoder.redacting("/srv/a.mp3: bad", input: "/srv/a.mp3", identity: nil) == "/srv/a.mp3: bad", "a path on disk stays")
    }
}

/// What a stopped server left in its scratch folder: loose working copies go, resumable work stays.
@Suite(.timeLimit(.minutes(1))) struct ScratchFolderTests {
    @Test func looseFilesGoAndFoldersStay() throws {
        let folder = try TranscodingTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        FileManager.default.createFile(atPath: folder + "/0a1b.mp3", contents: Data("half an upload".utf8))
        FileManager.default.createFile(atPath: folder + "/article-1.mp3", contents: Data())
        try FileManager.default.createDirectory(atPath: folder + "/podcasts", withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: folder + "/podcasts/e1.part", contents: Data("resumable".utf8))
        #expect(ScratchFolder.clearLeftovers(in: folder) == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["podcasts"])
        #expect(FileManager.default.fileExists(atPath: folder + "/podcasts/e1.part"))
        #expect(ScratchFolder.clearLeftovers(in: folder + "/missing") == 0)
    }
}
