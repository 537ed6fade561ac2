import Foundation
import JukeCore
import Logging
import ServiceLifecycle

/// What runs beside the server for RunBeat's Spotify: the playback's inputs handled, its
/// runners ticked every two seconds (backoffs and rate limits end, devices are checked), and
/// the token job every 15 minutes.
struct SpotifyJobsService: Service {
    let playback: SpotifyPlayback
    let refresher: SpotifyRefresher
    let clock: WallClock

    func run() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await playback.run() }
            group.addTask {
                while !Task.isCancelled && !Task.isShuttingDownGracefully {
                    try await Task.sleep(for: .seconds(2))
                    await playback.tickAll()
                }
            }
            group.addTask {
                while !Task.isCancelled && !Task.isShuttingDownGracefully {
                    await refresher.runNow()
                    await refresher.scheduled(at: clock.now().addingTimeInterval(SpotifyRefresher.period))
                    try await Task.sleep(for: .seconds(SpotifyRefresher.period))
                }
            }
            try await gracefulShutdown()
            await playback.stop()
            group.cancelAll()
        }
    }
}
