import Foundation
import JukePlatform
import ServiceLifecycle

/// Beside the server: every minute, the shows whose feeds are due are fetched (FeedSchedule
/// decides when: every 30 minutes by default, later after failures). Several servers on one
/// database share the work: each show is claimed before it is fetched.
struct PodcastRefresher: Service {
    let podcasts: PodcastService
    let every: Duration

    func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                _ = try await podcasts.refreshDue()
            } catch {
                podcasts.logger.error("podcast refreshes failed", metadata: ["error": "\(error)"])
            }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: every) }
        }
    }
}

/// Beside the server: episode downloads that a restart interrupted carry on from their last byte.
struct PodcastDownloadsResume: Service {
    let downloads: EpisodeDownloads

    func run() async throws {
        await downloads.resumeInterrupted()
        try? await gracefulShutdown()
    }
}
