import Foundation
import JukeCore
import Logging

/// The server's token job, as the original app's backend ran it: every 15 minutes, every
/// runner's Spotify token that would run out before the next run (with a margin) is
/// refreshed, so music started by a phone that is away never meets an expired token. Its
/// last run is what the admin's status shows.
actor SpotifyRefresher {
    static let period: TimeInterval = 15 * 60
    /// Tokens running out within this are refreshed: the period and five minutes to spare.
    static let horizon: TimeInterval = period + 5 * 60

    let accounts: SpotifyAccountService
    let clock: WallClock
    let logger: Logger
    private(set) var lastRun: SpotifyAccountService.RefreshRun?
    private(set) var lastRunSeconds: Double?
    private(set) var nextRunAt: Date?
    private(set) var lastFailure: String?

    init(accounts: SpotifyAccountService, clock: WallClock, logger: Logger) {
        self.accounts = accounts
        self.clock = clock
        self.logger = logger
    }

    /// One run now (the job's, or an admin's "refresh now").
    @discardableResult
    func runNow() async -> SpotifyAccountService.RefreshRun? {
        let started = ContinuousClock.now
        do {
            let run = try await accounts.refreshExpiring(horizon: Self.horizon)
            lastRun = run
            lastFailure = nil
            let elapsed = ContinuousClock.now - started
            lastRunSeconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            if run.checked > 0 {
                logger.info(
                    "runbeat: Spotify tokens refreshed",
                    metadata: ["checked": "\(run.checked)", "refreshed": "\(run.refreshed)", "reauthorize": "\(run.reauthorize)", "failed": "\(run.failed)"])
            }
            return run
        } catch {
            lastFailure = "\(error)"
            logger.error("runbeat: the Spotify token job failed", metadata: ["error": "\(error)"])
            return nil
        }
    }

    func scheduled(at date: Date) { nextRunAt = date }
}
