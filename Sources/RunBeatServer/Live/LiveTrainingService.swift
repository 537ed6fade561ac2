import Foundation
import LiveUpdates
import Logging
import ServiceLifecycle

/// What runs beside the server for RunBeat: the live samples written in batches (four times a
/// second), the coaches' screens refreshed (once a second), deleted workouts past their undo
/// window removed for good (every 30 seconds), and the other servers' runner states heard
/// over the relay.
struct LiveTrainingService: Service {
    let live: LiveTraining
    let relay: Relay
    let logger: Logger

    func run() async throws {
        let listener = relay.listener(logger: logger) { message in
            guard let state = try? JSONDecoder().decode(RunnerState.self, from: Data(message.detail.utf8)) else { return }
            await live.remoteState(state, in: message.subject)
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await listener.run() }
            group.addTask {
                var tick = 0
                while !Task.isCancelled && !Task.isShuttingDownGracefully {
                    try await Task.sleep(for: .milliseconds(250))
                    await live.flush()
                    tick += 1
                    if tick % 4 == 0 {
                        await live.pushClasses()
                        await live.sweep()
                    }
                    if tick % 120 == 0 {
                        do {
                            try await live.service.purgeDeleted()
                        } catch {
                            logger.warning("runbeat: deleted workouts not purged", metadata: ["error": "\(error)"])
                        }
                    }
                }
                await live.flush()
            }
            _ = try await group.next()
            group.cancelAll()
        }
    }
}
