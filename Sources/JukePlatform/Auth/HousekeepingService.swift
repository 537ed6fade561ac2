import Foundation
import JukeCore
import ServiceLifecycle
import Storage

/// Deletes what has expired: login tokens past their date and login failures older than the
/// rate-limit window, every hour while the server runs (and once at start).
struct HousekeepingService: Service {
    let users: UserStore
    let clock: WallClock
    let window: TimeInterval
    var interval: Duration = .seconds(3600)

    func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            let now = clock.now()
            try? await users.deleteExpiredTokens(now: now)
            try? await users.pruneLoginFailures(before: now.addingTimeInterval(-window))
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
        }
    }
}
