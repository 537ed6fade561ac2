import Foundation
import JukeCore
import Providers
import RunBeat
import RunBeatAPI
import Workouts

/// RunBeat's values as the contract writes them, and back.
enum RunBeatMapping {
    typealias S = Components.Schemas

    static func zones(_ zones: HeartRateZones) -> [S.RunBeatZone] { zones.zones.map { .init(zone: $0.zone, low: $0.low, high: $0.high) } }

    static func rules(_ r: CueRules) -> S.RunBeatRules {
        .init(
            smoothingSeconds: r.smoothingSeconds, trimFraction: r.trimFraction, deadBand: r.deadBand, dwellSeconds: r.dwellSeconds,
            cooldownSeconds: r.cooldownSeconds, phaseGraceSeconds: r.phaseGraceSeconds, minimumGapSeconds: r.minimumGapSeconds,
            staleSampleSeconds: r.staleSampleSeconds, silentStrapSeconds: r.silentStrapSeconds, reminderSeconds: r.reminderSeconds)
    }

    static func rules(_ r: S.RunBeatRules) -> CueRules {
        CueRules(
            smoothingSeconds: r.smoothingSeconds, trimFraction: r.trimFraction, deadBand: r.deadBand, dwellSeconds: r.dwellSeconds,
            cooldownSeconds: r.cooldownSeconds, phaseGraceSeconds: r.phaseGraceSeconds, minimumGapSeconds: r.minimumGapSeconds,
            staleSampleSeconds: r.staleSampleSeconds, silentStrapSeconds: r.silentStrapSeconds, reminderSeconds: r.reminderSeconds)
    }

    static func music(_ choice: MusicChoice) -> S.RunBeatMusicChoice {
        .init(
            mode: S.RunBeatMusicChoice.ModePayload(rawValue: choice.mode.rawValue) ?? .auto, trackIds: choice.trackIDs.map(\.description),
            spotifyPlaylistId: choice.spotifyPlaylist?.id, spotifyPlaylistName: choice.spotifyPlaylist?.name)
    }

    static func music(_ choice: S.RunBeatMusicChoice) throws(RuleRefusal) -> MusicChoice {
        var ids: [TrackID] = []
        for text in choice.trackIds {
            guard let id = TrackID(text) else { throw .invalid("music", "track ids are UUIDs") }
            ids.append(id)
        }
        let mode = MusicChoice.Mode(rawValue: choice.mode.rawValue) ?? .auto
        if let name = choice.spotifyPlaylistName, name.count > 200 {
            throw .invalid("spotify_playlist_name", "a playlist's name is at most 200 characters")
        }
        if let id = choice.spotifyPlaylistId, !SpotifyPlaylistRef.isValid(id: id) {
            throw .invalid("spotify_playlist_id", "a Spotify playlist id is 1 to 64 letters and digits")
        }
        // A playlist is kept with any mode (switching a phase to the library and back keeps it).
        let playlist = choice.spotifyPlaylistId.map {
            SpotifyPlaylistRef(id: $0, name: TextRules.cleanedOrNil(choice.spotifyPlaylistName, limit: 200) ?? "Spotify playlist")
        }
        return MusicChoice(mode: mode, trackIDs: ids, spotifyPlaylist: playlist)
    }

    // MARK: Spotify

    static func spotifyStatus(configured: Bool, account: SpotifyStore.Account?, playback: SpotifyPlayback.Status?) -> S.RunBeatSpotifyStatus {
        let status: S.RunBeatSpotifyStatus.StatusPayload =
            switch account?.status {
            case nil: .disconnected
            case .pending?: .pending
            case .connected?: .connected
            case .reauthorize?: .reauthorize
            }
        return .init(
            configured: configured, status: status, scope: account?.scope, connectedAt: account?.connectedAt.map(millis),
            expiresAt: account?.expiresAt.map(millis), refreshedAt: account?.refreshedAt.map(millis), deviceId: account?.deviceID,
            deviceName: account?.deviceName, lastError: account?.lastError,
            playback: playback.map {
                .init(
                    state: .init(rawValue: $0.state.rawValue) ?? .disconnected, intent: .init(rawValue: $0.intent.rawValue) ?? .idle,
                    device: $0.device, playlist: $0.playlist, message: $0.message)
            })
    }

    static func spotifyPlaylist(_ p: SpotifyWebAPI.Playlist) -> S.RunBeatSpotifyPlaylist {
        .init(id: p.id, name: p.name, description: p.description, trackCount: p.trackCount, imageUrl: p.imageURL, owner: p.owner, _public: p.isPublic)
    }

    static func profile(_ settings: RunnerSettings) -> S.RunBeatProfile {
        let zones = settings.zones
        return .init(
            age: settings.profile.age, resting: settings.profile.resting, max: settings.profile.measuredMaximum,
            formula: settings.profile.formula == .tanaka ? .tanaka : .fox, maximum: settings.profile.maximum, zones: Self.zones(zones),
            manualZones: settings.manualBounds != nil,
            boundRanges: (0..<6).map { zones.range(ofBound: $0).map { [$0.lowerBound, $0.upperBound] } ?? [zones.bounds[$0], zones.bounds[$0]] },
            rules: rules(settings.rules),
            music: .init(
                warmup: music(settings.music(for: .warmup)), work: music(settings.music(for: .work)), recovery: music(settings.music(for: .recovery)),
                cooldown: music(settings.music(for: .cooldown))),
            warmupSeconds: settings.warmupSeconds, cooldownSeconds: settings.cooldownSeconds, setUp: settings.profileGiven == true)
    }

    static func apply(_ update: S.RunBeatProfileUpdate, to settings: inout RunnerSettings) throws(RuleRefusal) {
        settings.profile = HeartRateProfile(
            age: update.age, resting: update.resting, measuredMaximum: update.max, formula: update.formula == .tanaka ? .tanaka : .fox)
        settings.profileGiven = true
        if update.automaticZones == true {
            settings.manualBounds = nil
        } else if let bounds = update.zones {
            settings.manualBounds = bounds
        }
        if let warmup = update.warmupSeconds { settings.warmupSeconds = warmup }
        if let cooldown = update.cooldownSeconds { settings.cooldownSeconds = cooldown }
    }

    static func music(_ music: S.RunBeatMusic) throws(RuleRefusal) -> [PhaseKind: MusicChoice] {
        [
            .warmup: try Self.music(music.warmup), .work: try Self.music(music.work), .recovery: try Self.music(music.recovery),
            .cooldown: try Self.music(music.cooldown),
        ]
    }

    static func phase(_ phase: PlanPhase) -> S.RunBeatPhase {
        var kind: S.RunBeatPhase.TargetKindPayload?
        var low: Int?
        var high: Int?
        switch phase.target {
        case .percentOfMaximum(let l, let h)?: (kind, low, high) = (.percentOfMaximum, l, h)
        case .zones(let l, let h)?: (kind, low, high) = (.zones, l, h)
        case .heartRate(let l, let h)?: (kind, low, high) = (.heartRate, l, h)
        case nil: break
        }
        return .init(
            kind: S.RunBeatPhase.KindPayload(rawValue: phase.kind.rawValue) ?? .free, seconds: phase.seconds, targetKind: kind, targetLow: low,
            targetHigh: high)
    }

    static func phase(_ phase: S.RunBeatPhase) throws(RuleRefusal) -> PlanPhase {
        var target: PhaseTarget?
        if let kind = phase.targetKind, kind != ._empty_ {
            guard let low = phase.targetLow, let high = phase.targetHigh else {
                throw .unprocessable("target_low", "a target needs its low and high")
            }
            switch kind {
            case .percentOfMaximum: target = .percentOfMaximum(low: low, high: high)
            case .zones: target = .zones(low: low, high: high)
            case .heartRate: target = .heartRate(low: low, high: high)
            case ._empty_: target = nil
            }
        }
        return PlanPhase(kind: PhaseKind(rawValue: phase.kind.rawValue) ?? .free, seconds: phase.seconds, target: target)
    }

    static func mode(_ mode: TrainingMode) -> S.RunBeatPlan.ModePayload { S.RunBeatPlan.ModePayload(rawValue: mode.rawValue) ?? .free }

    static func plan(_ named: RunBeatService.NamedPlan) -> S.RunBeatPlan {
        .init(id: named.id, mode: mode(named.plan.mode), name: named.plan.name, phases: named.plan.phases.map(phase), totalSeconds: named.plan.totalSeconds)
    }

    static func summary(_ s: WorkoutSummary) -> S.RunBeatSummary {
        .init(
            seconds: s.seconds, samples: s.samples, averageHeartRate: s.averageHeartRate, peakHeartRate: s.peakHeartRate, zoneSeconds: s.zoneSeconds,
            belowZonesSeconds: s.belowZonesSeconds, aboveZonesSeconds: s.aboveZonesSeconds, noHeartRateSeconds: s.noHeartRateSeconds,
            droppedSamples: s.droppedSamples,
            intervals: s.intervals.map {
                .init(
                    phase: $0.phase, seconds: $0.seconds, averageHeartRate: $0.averageHeartRate, low: $0.low, high: $0.high,
                    inTargetSeconds: $0.inTargetSeconds, hit: $0.hit)
            }, intervalsHit: s.intervalsHit)
    }

    static func millis(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    static func workout(_ w: RunBeatStore.StoredWorkout, acked: Int64) -> S.RunBeatWorkout {
        let plan = w.setup.plan
        let starts = plan.phaseStarts
        let targets = w.setup.targets
        let phases: [S.RunBeatWorkoutPhase] = plan.phases.enumerated().map { index, phase in
            let interval = plan.intervalNumber(of: index)
            return .init(
                kind: S.RunBeatWorkoutPhase.KindPayload(rawValue: phase.kind.rawValue) ?? .free, start: starts[index], seconds: phase.seconds,
                low: targets[index]?.lowerBound, high: targets[index]?.upperBound, interval: interval?.number, intervals: interval?.of)
        }
        return .init(
            id: w.id.description, name: w.name, mode: S.RunBeatWorkout.ModePayload(rawValue: w.mode.rawValue) ?? .free,
            status: S.RunBeatWorkout.StatusPayload(rawValue: w.status.rawValue) ?? .ended, source: w.source == .import ? ._import : .live,
            startedAt: millis(w.startedAt), seconds: w.seconds, maximum: w.setup.maximum, zones: zones(w.setup.zones), rules: rules(w.setup.rules),
            phases: phases, summary: w.summary.map(summary), samples: w.samples, ackedSeq: acked, classCode: w.classCode, damage: w.damage,
            hasPositions: false)
    }

    static func track(_ t: Track) -> S.RunBeatMusicTrack {
        .init(id: t.id.description, title: t.title, artist: t.artist, tempo: t.bpm.flatMap { $0.isFinite ? $0 : nil }, duration: t.duration)
    }

    static func runner(_ r: RunnerState) -> S.RunBeatRunner {
        .init(
            workoutId: r.workoutID, runner: r.runner, bpm: r.bpm, zone: r.zone, phase: r.phase, phaseKind: r.phaseKind, elapsed: r.elapsed,
            status: S.RunBeatRunner.StatusPayload(rawValue: r.status) ?? .running, strapLive: r.strapLive, updatedAt: r.updatedAt,
            sampleAge: r.sampleAge)
    }
}
