import Logging
import MediaStorage
import ServiceLifecycle

/// The media store's upkeep while the server runs, and its close when it stops: every few
/// hours, the multipart uploads a bucket was left with when it went away mid-upload (and so
/// could not be told to abort them) are aborted once a day old; at shutdown, after every
/// other service, so work still storing a file finishes first, the store is closed.
struct MediaStoreService: Service {
    let store: any MediaStore
    let logger: Logger
    /// How old an unfinished upload must be to count as abandoned: far longer than any upload
    /// another server may have under way.
    var abandonedAfter: Duration = .seconds(24 * 3600)
    var every: Duration = .seconds(6 * 3600)

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    let aborted = try await store.abortAbandonedUploads(olderThan: abandonedAfter)
                    if aborted > 0 { logger.notice("aborted uploads the media store was left with", metadata: ["uploads": "\(aborted)"]) }
                } catch {
                    logger.warning("could not look for abandoned uploads in the media store", metadata: ["error": "\(error)"])
                }
                try? await Task.sleep(for: every)
            }
        }
        try await store.shutdown()
    }
}
