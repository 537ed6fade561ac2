import ServiceLifecycle

/// Beside the server: LibriVox downloads that a restart interrupted carry on where they were.
struct LibriVoxResumeService: Service {
    let libriVox: LibriVoxService

    func run() async throws {
        await libriVox.resumeUnfinished()
        // A service that returns would stop the whole group: wait for the server to stop.
        try? await gracefulShutdown()
    }
}
