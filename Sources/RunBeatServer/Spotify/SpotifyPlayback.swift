import Foundation
import JukeCore
import JukePlatform
import Logging
import Providers
import RunBeat

/// Spotify's music for running workouts: each runner's `SpotifyConnection` (the engine's rules)
/// fed with what the workout does (the page connected, a phase began, the runner paused or
/// resumed, the page went away, the end) and with what Spotify answers, and its actions carried out against Spotify. Inputs come
/// in order through one stream; each runner's are handled one after another, runners at once.
actor SpotifyPlayback {
    enum Input: Sendable {
        /// The runner's page is connected to a running workout, in this phase; `listener`
        /// carries the status to the page.
        case training(UserID, WorkoutID, phase: PhaseKind?, listener: @Sendable (String) -> Void)
        case phase(UserID, WorkoutID, PhaseKind?)
        /// The runner paused (true) or resumed (false) the workout on the page.
        case paused(UserID, WorkoutID, Bool)
        case pageGone(UserID, WorkoutID)
        case finished(UserID, WorkoutID)
        case tick(UserID)
    }

    /// What the page and the status route show.
    struct Status: Sendable, Equatable {
        var state: SpotifyConnection.State
        var intent: SpotifyConnection.Intent
        var device: String?
        var playlist: String?
        var message: String?
        var paused = false
    }

    struct Runner {
        var workout: WorkoutID
        var machine: SpotifyConnection
        var music: [PhaseKind: MusicChoice]
        var phase: PhaseKind?
        var listener: (@Sendable (String) -> Void)?
        var preferredDevice: String?
        var deviceNames: [String: String] = [:]
        var lastDeviceCheck: Double
        var message: String?
        var reported: Status?

        var status: Status {
            let playlist = machine.playing.flatMap { id in music.values.first { $0.spotifyPlaylistID == id }?.spotifyPlaylist?.name ?? id }
            return Status(
                state: machine.state, intent: machine.intent, device: machine.device.map { deviceNames[$0] ?? $0 }, playlist: playlist,
                message: message, paused: machine.paused)
        }
    }

    let accounts: SpotifyAccountService
    let store: SpotifyStore
    let music: @Sendable (UserID) async throws -> [PhaseKind: MusicChoice]
    let clock: WallClock
    let logger: Logger
    private var runners: [UserID: Runner] = [:]
    /// Each runner's last queued work: the next waits for it.
    private var tails: [UserID: BackgroundJob] = [:]
    /// Where each input's calls to Spotify run (seconds with backoffs; stopped at shutdown).
    let background: BackgroundWork
    private var queued: [UserID: Int] = [:]
    private let inputs: AsyncStream<Input>.Continuation
    private let stream: AsyncStream<Input>

    /// How often a playing device is checked while training (a device gone: the phase's
    /// playlist resumes on the next).
    static let deviceCheckSeconds = 30.0
    /// The most calls one input may lead to (a token refused again and again stops here).
    static let maxSteps = 12

    init(
        accounts: SpotifyAccountService, store: SpotifyStore, music: @escaping @Sendable (UserID) async throws -> [PhaseKind: MusicChoice],
        clock: WallClock, background: BackgroundWork, logger: Logger
    ) {
        self.background = background
        self.accounts = accounts
        self.store = store
        self.music = music
        self.clock = clock
        self.logger = logger
        (stream, inputs) = AsyncStream<Input>.makeStream()
    }

    /// Queues an input (from the live connections, in their order).
    nonisolated func send(_ input: Input) { inputs.yield(input) }

    /// Handles inputs until the server stops (run by `SpotifyService`).
    func run() async {
        for await input in stream { enqueue(input) }
    }

    func stop() { inputs.finish() }

    /// Ticks every training runner whose last work is done (backoffs and rate limits end,
    /// devices are checked).
    func tickAll() {
        for (user, runner) in runners where runner.machine.intent == .training && queued[user] == nil { enqueue(.tick(user)) }
    }

    func status(of user: UserID) -> Status? { runners[user]?.status }

    private func enqueue(_ input: Input) {
        let user = Self.user(of: input)
        let previous = tails[user]
        queued[user, default: 0] += 1
        tails[user] = background.start("Spotify playback") {
            await previous?.wait()
            await self.handle(input)
            await self.handled(user)
        }
    }

    private func handled(_ user: UserID) {
        let left = (queued[user] ?? 1) - 1
        queued[user] = left > 0 ? left : nil
        if left <= 0 { tails[user] = nil }
    }

    static func user(of input: Input) -> UserID {
        switch input {
        case .training(let u, _, _, _), .phase(let u, _, _), .paused(let u, _, _), .pageGone(let u, _), .finished(let u, _), .tick(let u): u
        }
    }

    // MARK: One input

    private func handle(_ input: Input) async {
        let now = clock.now().timeIntervalSince1970
        switch input {
        case .training(let user, let workout, let phase, let listener):
            // A workout whose phases all play the library's music leaves Spotify alone.
            let choices = (try? await music(user)) ?? runners[user]?.music ?? [:]
            guard choices.values.contains(where: { $0.spotifyPlaylistID != nil }) else {
                runners[user] = nil
                return
            }
            guard var runner = await runner(for: user, workout: workout, now: now) else {
                listener(Self.message(Status(state: .disconnected, intent: .training, message: nil)))
                return
            }
            runner.listener = listener
            runner.music = choices
            runner.phase = phase
            runner.reported = nil  // a page that comes back hears where things are
            runners[user] = runner
            await apply([.intent(.training), .wants(playlist: wanted(runner))], for: user, now: now)
        case .phase(let user, let workout, let phase):
            guard var runner = runners[user], runner.workout == workout else { return }
            runner.phase = phase
            runners[user] = runner
            await apply([.wants(playlist: wanted(runner))], for: user, now: now)
        case .paused(let user, let workout, let on):
            guard runners[user]?.workout == workout else { return }
            await apply([.paused(on)], for: user, now: now)
        case .pageGone(let user, let workout):
            guard runners[user]?.workout == workout else { return }
            await apply([.intent(.background)], for: user, now: now)
            runners[user]?.listener = nil
        case .finished(let user, let workout):
            guard runners[user]?.workout == workout else { return }
            await apply([.wants(playlist: nil), .intent(.idle)], for: user, now: now)
            runners[user] = nil
        case .tick(let user):
            guard let runner = runners[user] else { return }
            var events: [SpotifyConnection.Event] = [.tick]
            // Paused: Spotify is quiet on purpose, and its device may go idle; nothing is checked
            // (or restarted) until the runner resumes.
            if runner.machine.state == .connected, runner.machine.playing != nil, !runner.machine.paused,
                now - runner.lastDeviceCheck >= Self.deviceCheckSeconds
            {
                runners[user]?.lastDeviceCheck = now
                // Playing nowhere any more (Spotify closed on that phone): the playlist resumes on the next device.
                if let devices = try? await accounts.devices(of: user), !devices.contains(where: \.isActive) { events.append(.noActiveDevice) }
            }
            await apply(events, for: user, now: now)
        }
    }

    /// The runner's connection for `workout`: kept while the same workout runs (no playlist
    /// started twice), made afresh for a new one from the stored account.
    private func runner(for user: UserID, workout: WorkoutID, now: Double) async -> Runner? {
        if let runner = runners[user], runner.workout == workout { return runner }
        let account: SpotifyStore.Account?
        do {
            account = try await accounts.account(of: user)
        } catch {
            // Not the same as "not connected": said in the log, and the next input tries again.
            logger.warning("runbeat: could not read a runner's Spotify account", metadata: ["user": "\(user)", "error": "\(error)"])
            return nil
        }
        guard let account, account.status == .connected else {
            runners[user] = nil
            return nil
        }
        var runner = Runner(
            workout: workout, machine: .restored(), music: [:], phase: nil, listener: nil, preferredDevice: account.deviceID,
            lastDeviceCheck: now)
        if let device = account.deviceID, let name = account.deviceName { runner.deviceNames[device] = name }
        if account.playingWorkout == workout.description, let playlist = account.playingPlaylist {
            // This workout's playlist was started before this server took over (a restart):
            // not again; the device check finds out whether it still plays.
            _ = runner.machine.handle(.played(playlist: playlist, device: account.deviceID ?? ""), at: now)
            runner.lastDeviceCheck = 0
        }
        return runner
    }

    private func wanted(_ runner: Runner) -> String? { runner.phase.flatMap { runner.music[$0]?.spotifyPlaylistID } }

    /// Feeds events to the runner's connection and carries out what it asks, one call after another.
    private func apply(_ events: [SpotifyConnection.Event], for user: UserID, now: Double) async {
        var queue: [SpotifyConnection.Action] = []
        for event in events {
            guard var runner = runners[user] else { return }
            queue += runner.machine.handle(event, at: now)
            runners[user] = runner
        }
        var steps = 0
        while !queue.isEmpty, steps < Self.maxSteps {
            steps += 1
            let action = queue.removeFirst()
            let answers = await execute(action, for: user)
            guard var runner = runners[user] else { return }
            let at = clock.now().timeIntervalSince1970
            for answer in answers { queue += runner.machine.handle(answer, at: at) }
            runners[user] = runner
        }
        report(user)
    }

    private func execute(_ action: SpotifyConnection.Action, for user: UserID) async -> [SpotifyConnection.Event] {
        guard let runner = runners[user] else { return [] }
        do {
            switch action {
            case .refreshToken:
                _ = try await accounts.accessToken(for: user, force: true)
                return [.refreshed]
            case .reauthorize:
                runners[user]?.message = "Spotify needs you to connect again: Connect Spotify on RunBeat's page."
                return []
            case .listDevices:
                let devices = try await accounts.devices(of: user)
                for device in devices { runners[user]?.deviceNames[device.id] = device.name }
                let ordered = devices.sorted { ($0.id == runner.preferredDevice ? 0 : 1) < ($1.id == runner.preferredDevice ? 0 : 1) }
                if devices.isEmpty { runners[user]?.message = "No Spotify device is open: open Spotify on your phone." }
                return [.devices(active: devices.first(where: \.isActive)?.id, available: ordered.map(\.id))]
            case .transfer(let device):
                try await accounts.transfer(to: device, for: user)
                return [.devices(active: device, available: [device])]
            case .play(let playlist, let known):
                // A device restored without its id (a restart) is Spotify's active one.
                let device = known.flatMap { $0.isEmpty ? nil : $0 }
                try await accounts.play(playlist, on: device, for: user)
                runners[user]?.message = nil
                runners[user]?.lastDeviceCheck = clock.now().timeIntervalSince1970
                await record(user, workout: runner.workout.description, playlist: playlist)
                return [.played(playlist: playlist, device: device ?? runner.machine.device ?? "")]
            case .pause:
                try await accounts.pause(for: user)
                await record(user, workout: runner.workout.description, playlist: nil)
                return []
            case .suspend:
                // The playlist stays the workout's (stored as playing): resuming carries on with it.
                try await accounts.pause(for: user)
                return [.suspended]
            case .resume(let known):
                let device = known.flatMap { $0.isEmpty ? nil : $0 }
                try await accounts.resume(on: device, for: user)
                runners[user]?.message = nil
                runners[user]?.lastDeviceCheck = clock.now().timeIntervalSince1970
                return [.resumed]
            case .waitUntil:
                return []
            }
        } catch SpotifyError.unauthorized {
            return [.tokenExpired]
        } catch SpotifyError.invalidGrant {
            return [.invalidGrant]
        } catch SpotifyError.rateLimited(let seconds) {
            runners[user]?.message = "Spotify asked Juke to wait \(seconds) s."
            return [.rateLimited(seconds: Double(seconds))]
        } catch SpotifyError.refused(403, _) where action == .suspend || Self.isResume(action) {
            // Spotify refuses (403, "Restriction violated") to pause what is paused and to
            // resume what plays: the runner did it on the phone, and it is as wanted.
            return action == .suspend ? [.suspended] : [.resumed]
        } catch SpotifyError.noActiveDevice {
            if case .pause = action { return [] }  // nothing plays: nothing to pause
            return [.noActiveDevice]
        } catch {
            runners[user]?.message = "\(error)"
            logger.notice("runbeat: a Spotify call failed", metadata: ["user": "\(user)", "error": "\(error)"])
            return [.failed]
        }
    }

    /// Stores what plays for the runner's workout: after a restart it is what keeps "each
    /// phase's playlist is started once" (a lost record starts the phase's playlist again
    /// over what the runner chose). Tried again briefly, since the runner's next inputs wait
    /// for it, then logged.
    private func record(_ user: UserID, workout: String?, playlist: String?) async {
        let (store, logger) = (store, logger)
        do {
            try await Retrying.backingOff(attempts: 3).run {
                try await store.playing(user, workout: workout, playlist: playlist)
            } failed: { error, attempt in
                logger.warning("runbeat: could not record what Spotify plays", metadata: ["user": "\(user)", "attempt": "\(attempt)", "error": "\(error)"])
            }
        } catch {
            logger.error(
                "runbeat: what Spotify plays is not recorded; after a restart its phase's playlist may start again",
                metadata: ["user": "\(user)", "error": "\(error)"])
        }
    }

    static func isResume(_ action: SpotifyConnection.Action) -> Bool {
        if case .resume = action { true } else { false }
    }

    /// Tells the runner's page when what it shows has changed.
    private func report(_ user: UserID) {
        guard let runner = runners[user] else { return }
        let status = runner.status
        guard status != runner.reported else { return }
        runners[user]?.reported = status
        runner.listener?(Self.message(status))
    }

    static func message(_ status: Status) -> String {
        var object: [String: Any] = ["type": "spotify", "state": status.state.rawValue, "intent": status.intent.rawValue]
        if let device = status.device { object["device"] = device }
        if let playlist = status.playlist { object["playlist"] = playlist }
        if let message = status.message { object["message"] = message }
        if status.paused { object["paused"] = true }
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])).flatMap { String(data: $0, encoding: .utf8) } ?? "{}"
    }
}
