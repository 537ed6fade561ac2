import Foundation
import MediaStorage

/// Where audio the media routes serve or hand to ffmpeg is: a file on this server's disk (a
/// library track, a demo) or one in Juke's media storage (an app's upload, download or cache).
enum MediaSource: Sendable {
    case file(String)
    case stored(StorageKey, any MediaStore)

    /// What names the source's current version for the transcode cache, and where ffmpeg
    /// reads it; nil when it is gone.
    struct Version: Sendable {
        var toolInput: String
        var size: Int64
        var modifiedMillis: Int64
        /// Set when `toolInput` differs from call to call (a presigned address): the stored
        /// file's key and ETag name it instead.
        var identity: String?
    }

    /// How long an address handed to ffmpeg stays good: longer than any transcode or cut runs.
    static let toolInputLifetime: Duration = .seconds(6 * 3600)

    func version() async throws -> Version? {
        switch self {
        case .file(let path):
            guard let stamp = FileStamp(path: path) else { return nil }
            return Version(toolInput: path, size: stamp.size, modifiedMillis: stamp.modifiedMillis)
        case .stored(let key, let store):
            if let path = store.localPath(key) { return try await MediaSource.file(path).version() }
            guard let object = try await store.info(key) else { return nil }
            let input = try await store.toolInput(key, lifetime: Self.toolInputLifetime)
            return Version(
                toolInput: input, size: object.size, modifiedMillis: Int64(object.modified.timeIntervalSince1970 * 1000),
                identity: "\(store.summary)\n\(key)\n\(object.etag)")
        }
    }
}
