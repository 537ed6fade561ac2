import MediaStorage
import ServiceLifecycle

/// Closes the media store (a bucket's HTTP client) when the server stops: after every other
/// service, so work still storing a file finishes first.
struct MediaStoreService: Service {
    let store: any MediaStore

    func run() async throws {
        try? await gracefulShutdown()
        try await store.shutdown()
    }
}
