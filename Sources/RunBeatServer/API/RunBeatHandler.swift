import Foundation
import JukeCore
import JukePlatform
import OpenAPIRuntime
import Providers
import RunBeat
import RunBeatAPI
import Workouts

/// RunBeat's operations from the contract: read the input, call the service, map.
struct RunBeatHandler: APIProtocol {
    let service: RunBeatService
    let live: LiveTraining
    let store: RunBeatStore
    let spotify: RunBeatSpotify?

    /// The most a workout file may be (a day of one-second records in TCX).
    static let fileLimit = WorkoutFile.maxBytes

    func getRunBeatProfile(_ input: Operations.GetRunBeatProfile.Input) async throws -> Operations.GetRunBeatProfile.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            return .ok(.init(body: .json(RunBeatMapping.profile(try await service.settings(of: user.id)))))
        }
    }

    func updateRunBeatProfile(_ input: Operations.UpdateRunBeatProfile.Input) async throws -> Operations.UpdateRunBeatProfile.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            guard case .json(let body) = input.body else { throw APIError.badRequest("Send JSON.") }
            let settings = try await service.updateSettings(of: user.id) { (settings: inout RunnerSettings) throws(RuleRefusal) in
                try RunBeatMapping.apply(body, to: &settings)
            }
            return .ok(.init(body: .json(RunBeatMapping.profile(settings))))
        }
    }

    func updateRunBeatRules(_ input: Operations.UpdateRunBeatRules.Input) async throws -> Operations.UpdateRunBeatRules.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            guard case .json(let body) = input.body else { throw APIError.badRequest("Send JSON.") }
            let settings = try await service.updateSettings(of: user.id) { (settings: inout RunnerSettings) throws(RuleRefusal) in
                settings.rules = RunBeatMapping.rules(body)
            }
            return .ok(.init(body: .json(RunBeatMapping.profile(settings))))
        }
    }

    func updateRunBeatMusic(_ input: Operations.UpdateRunBeatMusic.Input) async throws -> Operations.UpdateRunBeatMusic.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            guard case .json(let body) = input.body else { throw APIError.badRequest("Send JSON.") }
            let music = try RunBeatMapping.music(body)
            let settings = try await service.updateSettings(of: user.id) { (settings: inout RunnerSettings) throws(RuleRefusal) in
                settings.music = music
            }
            return .ok(.init(body: .json(RunBeatMapping.profile(settings))))
        }
    }

    func listRunBeatPlans(_ input: Operations.ListRunBeatPlans.Input) async throws -> Operations.ListRunBeatPlans.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            return .ok(.init(body: .json(.init(plans: try await service.plans(of: user.id).map(RunBeatMapping.plan)))))
        }
    }

    func createRunBeatPlan(_ input: Operations.CreateRunBeatPlan.Input) async throws -> Operations.CreateRunBeatPlan.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            guard case .json(let body) = input.body else { throw APIError.badRequest("Send JSON.") }
            var steps: [WorkoutStep] = []
            for step in body.steps {
                var phases: [PlanPhase] = []
                for phase in step.phases { phases.append(try RunBeatMapping.phase(phase)) }
                steps.append(WorkoutStep(repeats: step.repeats, phases: phases))
            }
            return .created(.init(body: .json(RunBeatMapping.plan(try await service.createPlan(for: user.id, name: body.name, steps: steps)))))
        }
    }

    func deleteRunBeatPlan(_ input: Operations.DeleteRunBeatPlan.Input) async throws -> Operations.DeleteRunBeatPlan.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            // A built-in plan (free, vo2max_4x4) is nobody's to remove.
            guard let id = PlanID(input.path.planId) else { throw RuleRefusal.notFound("no workout plan of yours has the id \(input.path.planId)") }
            try await service.deletePlan(id, of: user.id)
            return .noContent(.init())
        }
    }

    func startRunBeatWorkout(_ input: Operations.StartRunBeatWorkout.Input) async throws -> Operations.StartRunBeatWorkout.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            guard case .json(let body) = input.body else { throw APIError.badRequest("Send JSON.") }
            let workout = try await service.start(for: user.id, planID: body.planId, classCode: body.classCode)
            return .created(.init(body: .json(RunBeatMapping.workout(workout, acked: -1))))
        }
    }

    func getRunningRunBeatWorkout(_ input: Operations.GetRunningRunBeatWorkout.Input) async throws -> Operations.GetRunningRunBeatWorkout.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            let workout = try await service.running(of: user.id)
            return .ok(.init(body: .json(RunBeatMapping.workout(workout, acked: try await store.contiguousSeq(of: workout.id)))))
        }
    }

    func listRunBeatWorkouts(_ input: Operations.ListRunBeatWorkouts.Input) async throws -> Operations.ListRunBeatWorkouts.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            let paging = try Paging(limit: input.query.limit, offset: input.query.offset)
            let page = try await service.workouts(of: user.id, limit: paging.limit, offset: paging.offset)
            return .ok(.init(body: .json(.init(workouts: page.workouts.map { RunBeatMapping.workout($0, acked: Int64($0.samples) - 1) }, total: page.total))))
        }
    }

    func getRunBeatWorkout(_ input: Operations.GetRunBeatWorkout.Input) async throws -> Operations.GetRunBeatWorkout.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            let workout = try await service.workout(try parseID(input.path.workoutId, field: "workout_id"), of: user.id)
            let samples = try await service.samples(of: workout.id)
            let acked = workout.status == .running ? try await store.contiguousSeq(of: workout.id) : Int64(samples.count) - 1
            return .ok(
                .init(
                    body: .json(
                        .init(
                            value1: RunBeatMapping.workout(workout, acked: acked),
                            value2: .init(heartRate: samples.map { .init(t: $0.time, bpm: $0.bpm) })))))
        }
    }

    func exportRunBeatGPX(_ input: Operations.ExportRunBeatGPX.Input) async throws -> Operations.ExportRunBeatGPX.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            let workout = try await service.workout(try parseID(input.path.workoutId, field: "workout_id"), of: user.id)
            let bytes = try WorkoutExportRoutes.gpx(try await service.export(workout))
            return .ok(.init(body: .applicationGpxXml(HTTPBody(bytes))))
        }
    }

    func deleteRunBeatWorkout(_ input: Operations.DeleteRunBeatWorkout.Input) async throws -> Operations.DeleteRunBeatWorkout.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            try await service.delete(try parseID(input.path.workoutId, field: "workout_id"), of: user.id)
            return .noContent(.init())
        }
    }

    func restoreRunBeatWorkout(_ input: Operations.RestoreRunBeatWorkout.Input) async throws -> Operations.RestoreRunBeatWorkout.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            let workout = try await service.restore(try parseID(input.path.workoutId, field: "workout_id"), of: user.id)
            return .ok(.init(body: .json(RunBeatMapping.workout(workout, acked: Int64(workout.samples) - 1))))
        }
    }

    func uploadRunBeatSamples(_ input: Operations.UploadRunBeatSamples.Input) async throws -> Operations.UploadRunBeatSamples.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            guard case .json(let body) = input.body else { throw APIError.badRequest("Send JSON.") }
            let workout = try await service.workout(try parseID(input.path.workoutId, field: "workout_id"), of: user.id)
            guard body.samples.count <= 5000 else { throw RuleRefusal.invalid("samples", "at most 5000 samples a request") }
            var samples: [RunBeatStore.Sample] = []
            for s in body.samples {
                guard (0...1_000_000).contains(s.seq), s.t.isFinite, (0...172_800).contains(s.t), (1...254).contains(s.bpm) else {
                    throw RuleRefusal.invalid("samples", "a sample has seq 0 to 1,000,000, t 0 to 172,800 s and bpm 1 to 254")
                }
                samples.append(RunBeatStore.Sample(seq: s.seq, time: s.t, bpm: s.bpm))
            }
            let acked = try await service.store(samples: samples, in: workout)
            await live.heard(samples, in: workout.id)
            let count = try await store.workout(workout.id)?.samples ?? 0
            return .ok(.init(body: .json(.init(ackedSeq: acked, samples: count))))
        }
    }

    func endRunBeatWorkout(_ input: Operations.EndRunBeatWorkout.Input) async throws -> Operations.EndRunBeatWorkout.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            guard case .json(let body) = input.body else { throw APIError.badRequest("Send JSON.") }
            guard body.elapsed.isFinite, (0...172_800).contains(body.elapsed) else { throw RuleRefusal.invalid("elapsed", "elapsed is 0 to 172,800 seconds") }
            let id: WorkoutID = try parseID(input.path.workoutId, field: "workout_id")
            let workout = try await live.end(id, user: user.id, runner: user.displayName, at: body.elapsed)
            return .ok(.init(body: .json(RunBeatMapping.workout(workout, acked: Int64(workout.samples) - 1))))
        }
    }

    func importRunBeatWorkout(_ input: Operations.ImportRunBeatWorkout.Input) async throws -> Operations.ImportRunBeatWorkout.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            guard case .binary(let body) = input.body else { throw APIError.badRequest("Send the file's bytes (application/octet-stream).") }
            guard input.query.filename.unicodeScalars.count <= 255 else { throw RuleRefusal.invalid("filename", "a file name is at most 255 characters") }
            let bytes = try await [UInt8](collecting: body, upTo: Self.fileLimit)
            let imported = try await service.importWorkout(bytes, filename: input.query.filename, for: user.id)
            var answer = RunBeatMapping.workout(imported.workout, acked: Int64(imported.workout.samples) - 1)
            answer.existing = imported.existing
            return imported.existing ? .ok(.init(body: .json(answer))) : .created(.init(body: .json(answer)))
        }
    }

    func readRunBeatRecording(_ input: Operations.ReadRunBeatRecording.Input) async throws -> Operations.ReadRunBeatRecording.Output {
        try await respond {
            _ = try CurrentRequest.requireUser()
            guard case .binary(let body) = input.body else { throw APIError.badRequest("Send the file's bytes (application/octet-stream).") }
            let recorded = try await service.recording(try await [UInt8](collecting: body, upTo: Self.fileLimit))
            return .ok(
                .init(
                    body: .json(
                        .init(
                            format: Components.Schemas.RunBeatRecording.FormatPayload(rawValue: recorded.format.rawValue) ?? .fit,
                            start: recorded.start.map(RunBeatMapping.millis), seconds: recorded.duration, sport: recorded.sport,
                            heartRate: recorded.offsets().filter { PlausibleHeartRate.contains($0.bpm) }.map { .init(t: max(0, $0.time), bpm: $0.bpm) },
                            damage: recorded.damage))))
        }
    }

    func getRunBeatMusic(_ input: Operations.GetRunBeatMusic.Input) async throws -> Operations.GetRunBeatMusic.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            let limit = try Paging(limit: input.query.limit, offset: nil, defaultLimit: 40, maxLimit: 200).limit
            let phase = PhaseKind(rawValue: input.path.phase.rawValue) ?? .free
            let music = try await service.music(for: phase, of: user.id, limit: limit)
            return .ok(
                .init(
                    body: .json(
                        .init(
                            phase: phase.rawValue, mode: Components.Schemas.RunBeatMusicList.ModePayload(rawValue: music.choice.mode.rawValue) ?? .auto,
                            spotifyPlaylistId: music.choice.spotifyPlaylistID,
                            spotifyPlaylistName: music.choice.spotifyPlaylistID.flatMap { _ in music.choice.spotifyPlaylist?.name },
                            tracks: music.tracks.map(RunBeatMapping.track)))))
        }
    }

    func createRunBeatClass(_ input: Operations.CreateRunBeatClass.Input) async throws -> Operations.CreateRunBeatClass.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            guard case .json(let body) = input.body else { throw APIError.badRequest("Send JSON.") }
            let stored = try await service.createClass(named: body.name, coach: user.id)
            return .created(.init(body: .json(.init(code: stored.code, name: stored.name, createdAt: RunBeatMapping.millis(stored.createdAt)))))
        }
    }

    func getRunBeatClass(_ input: Operations.GetRunBeatClass.Input) async throws -> Operations.GetRunBeatClass.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            let stored = try await service.class(input.path.code, coach: user.id)
            var runners = await live.runners(in: stored.code)
            // Runners whose workouts run on another server and have not been heard of here yet.
            let known = Set(runners.map(\.workoutID))
            for (workout, name) in try await store.running(inClass: stored.code) where !known.contains(workout.id.description) {
                runners.append(
                    RunnerState(
                        workoutID: workout.id.description, runner: name, bpm: nil, zone: nil, phase: 0,
                        phaseKind: workout.setup.plan.phases.first?.kind.rawValue ?? "free",
                        elapsed: workout.seconds, status: workout.status.rawValue, strapLive: false, updatedAt: RunBeatMapping.millis(workout.startedAt),
                        lastSampleAt: workout.seconds > 0 ? RunBeatMapping.millis(workout.startedAt.addingTimeInterval(workout.seconds)) : nil
                    ).aged(at: service.clock.now()))
            }
            return .ok(.init(body: .json(.init(code: stored.code, name: stored.name, runners: runners.map(RunBeatMapping.runner)))))
        }
    }

    // MARK: Spotify

    /// RunBeat's Spotify, or the refusal of a server without it.
    private func requireSpotify() throws -> RunBeatSpotify {
        guard let spotify else { throw RuleRefusal.notFound("Spotify is not set up on this server (its admin starts Juke with --spotify-client-id).") }
        return spotify
    }

    private func spotifyStatus(of user: UserID) async throws -> Components.Schemas.RunBeatSpotifyStatus {
        guard let spotify else { return RunBeatMapping.spotifyStatus(configured: false, account: nil, playback: nil) }
        return RunBeatMapping.spotifyStatus(
            configured: true, account: try await spotify.accounts.account(of: user), playback: await spotify.playback.status(of: user))
    }

    func getRunBeatSpotify(_ input: Operations.GetRunBeatSpotify.Input) async throws -> Operations.GetRunBeatSpotify.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            return .ok(.init(body: .json(try await spotifyStatus(of: user.id))))
        }
    }

    func disconnectRunBeatSpotify(_ input: Operations.DisconnectRunBeatSpotify.Input) async throws -> Operations.DisconnectRunBeatSpotify.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            try await spotify?.accounts.disconnect(user.id)
            return .noContent(.init())
        }
    }

    func connectRunBeatSpotify(_ input: Operations.ConnectRunBeatSpotify.Input) async throws -> Operations.ConnectRunBeatSpotify.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            guard let session = CurrentRequest.tokenHash else { throw APIError.unauthorized }
            let spotify = try requireSpotify()
            guard await spotify.accounts.accountsReachable() else {
                throw APIError(
                    status: .badGateway, code: "spotify_unreachable",
                    message: "Spotify cannot be reached from Juke right now: connecting needs the internet. Try again when the network is back.")
            }
            let url = try await spotify.accounts.authorizationURL(for: user.id, session: session)
            return .ok(.init(body: .json(.init(authorizeUrl: url.absoluteString))))
        }
    }

    func listRunBeatSpotifyPlaylists(_ input: Operations.ListRunBeatSpotifyPlaylists.Input) async throws -> Operations.ListRunBeatSpotifyPlaylists.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            let paging = try Paging(limit: input.query.limit, offset: input.query.offset, maxLimit: 50, maxOffset: 100_000)
            let page = try await requireSpotify().accounts.playlists(of: user.id, limit: paging.limit, offset: paging.offset)
            return .ok(
                .init(
                    body: .json(
                        .init(playlists: page.playlists.map(RunBeatMapping.spotifyPlaylist), total: page.total, offset: paging.offset, more: page.more))))
        }
    }

    func listRunBeatSpotifyDevices(_ input: Operations.ListRunBeatSpotifyDevices.Input) async throws -> Operations.ListRunBeatSpotifyDevices.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            let devices = try await requireSpotify().accounts.devices(of: user.id)
            return .ok(.init(body: .json(.init(devices: devices.map { .init(id: $0.id, name: $0.name, _type: $0.type, active: $0.isActive) }))))
        }
    }

    func chooseRunBeatSpotifyDevice(_ input: Operations.ChooseRunBeatSpotifyDevice.Input) async throws -> Operations.ChooseRunBeatSpotifyDevice.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            guard case .json(let body) = input.body else { throw APIError.badRequest("Send JSON.") }
            if let id = body.deviceId, id.isEmpty || id.count > 200 { throw RuleRefusal.invalid("device_id", "a device id is 1 to 200 characters") }
            _ = try await requireSpotify().accounts.chooseDevice(body.deviceId, for: user.id)
            return .ok(.init(body: .json(try await spotifyStatus(of: user.id))))
        }
    }

    private func spotifyAdmin() async throws -> Components.Schemas.RunBeatSpotifyAdmin {
        guard let spotify else {
            return .init(configured: false, connected: 0, pending: 0, reauthorize: 0, periodSeconds: Int(SpotifyRefresher.period), recentFailures: [])
        }
        let counts = try await spotify.store.counts()
        let run = await spotify.refresher.lastRun
        let seconds = await spotify.refresher.lastRunSeconds
        return .init(
            configured: true, connected: counts[.connected] ?? 0, pending: counts[.pending] ?? 0, reauthorize: counts[.reauthorize] ?? 0,
            periodSeconds: Int(SpotifyRefresher.period), nextRunAt: await spotify.refresher.nextRunAt.map(RunBeatMapping.millis),
            lastRun: run.map {
                .init(
                    at: RunBeatMapping.millis($0.at), checked: $0.checked, refreshed: $0.refreshed, reauthorize: $0.reauthorize, failed: $0.failed,
                    seconds: seconds)
            },
            lastFailure: await spotify.refresher.lastFailure,
            recentFailures: try await spotify.store.recentFailures(limit: 20).map {
                .init(runner: $0.runner, status: $0.status.rawValue, error: $0.error, at: RunBeatMapping.millis($0.at))
            })
    }

    func getRunBeatSpotifyAdmin(_ input: Operations.GetRunBeatSpotifyAdmin.Input) async throws -> Operations.GetRunBeatSpotifyAdmin.Output {
        try await respond {
            _ = try CurrentRequest.requireAdmin()
            return .ok(.init(body: .json(try await spotifyAdmin())))
        }
    }

    func refreshRunBeatSpotifyTokens(_ input: Operations.RefreshRunBeatSpotifyTokens.Input) async throws -> Operations.RefreshRunBeatSpotifyTokens.Output {
        try await respond {
            _ = try CurrentRequest.requireAdmin()
            let spotify = try requireSpotify()
            await spotify.refresher.runNow()
            return .ok(.init(body: .json(try await spotifyAdmin())))
        }
    }
}
