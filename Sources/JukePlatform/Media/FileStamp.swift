import Foundation

/// A file's size and modification time, read once: what names its version for an ETag and
/// for the transcode cache's key (a file changed on disk is a new version of both).
struct FileStamp: Sendable, Equatable {
    let size: Int64
    /// Milliseconds since 1970.
    let modifiedMillis: Int64

    /// The stamp of the file at `path`, or nil when there is none to read.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        size = Int64(info.st_size)
        modifiedMillis = Int64(info.st_mtim.tv_sec) * 1000 + Int64(info.st_mtim.tv_nsec) / 1_000_000
    }

    /// The time to the second, as Last-Modified says it.
    var modified: Date { Date(timeIntervalSince1970: TimeInterval(modifiedMillis / 1000)) }

    /// A strong validator: the size and the time, in hex.
    var etag: String { "\"\(String(size, radix: 16))-\(String(modifiedMillis, radix: 16))\"" }
}
