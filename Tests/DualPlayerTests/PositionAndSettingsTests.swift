import JukeCore
import Testing

@testable import DualPlayer

@Suite(.timeLimit(.minutes(5))) struct PositionAndSettingsTests {
    @Test func brokenNumbersNeverBecomePositions() {
        for bad in [Double.nan, .infinity, -.infinity, -3] { #expect(PositionGuard.sanitized(bad) == 0) }
        #expect(PositionGuard.sanitized(42.5) == 42.5)
        #expect(PositionGuard.sanitized(500, duration: 300) == 300)
        #expect(PositionGuard.sanitized(500, duration: .infinity) == 500, "a live stream's duration does not bound it")
        #expect(PositionGuard.sanitized(500, duration: .nan) == 500)
        #expect(SavedPosition(seconds: .nan, updatedAt: 1).seconds == 0)
    }

    @Test func theNewestPositionWinsAndATieKeepsTheStoredOne() {
        let stored = SavedPosition(seconds: 10, updatedAt: 1_000)
        #expect(SavedPosition.newest(stored: nil, incoming: stored) == stored)
        #expect(SavedPosition.newest(stored: stored, incoming: SavedPosition(seconds: 20, updatedAt: 2_000)).seconds == 20)
        #expect(SavedPosition.newest(stored: stored, incoming: SavedPosition(seconds: 5, updatedAt: 500)).seconds == 10)
        #expect(SavedPosition.newest(stored: stored, incoming: SavedPosition(seconds: 99, updatedAt: 1_000)).seconds == 10)
    }

    @Test func aClockFarInTheFutureDoesNotWinForever() {
        let now: Int64 = 1_000_000_000
        let future = SavedPosition(seconds: 3, updatedAt: now + 24 * 3600 * 1000)
        #expect(future.clamped(toServerNow: now).updatedAt == now)
        let slightlyAhead = SavedPosition(seconds: 3, updatedAt: now + 1000)
        #expect(slightlyAhead.clamped(toServerNow: now) == slightlyAhead)
    }

    @Test func settingsOutOfRangeAreRefusedByName() {
        var s = PlayerSettings.defaults(for: .speech)
        #expect(s.voiceEQ && s.mode == .quality && s.speed == 1)
        #expect(!PlayerSettings.defaults(for: .music).voiceEQ)
        #expect((try? s.validated()) == s)
        for (field, change) in [
            ("speed", { (x: inout PlayerSettings) in x.speed = 3.5 }), ("speed", { $0.speed = .nan }), ("volume", { $0.volume = 1.2 }),
            ("boostGainDB", { $0.boostGainDB = 13 }),
        ] as [(String, (inout PlayerSettings) -> Void)] {
            var bad = s
            change(&bad)
            #expect(throws: RuleRefusal.self) { try bad.validated() }
            do { _ = try bad.validated() } catch { if case .invalid(let name, _) = error { #expect(name == field) } else { Issue.record("\(error)") } }
        }
        s.speed = 0.5
        #expect((try? s.validated()) != nil)
    }

    @Test func boostAppliesOnlyWhereWebAudioCanHearTheSource() {
        #expect(AudioPath.choose(mode: .quality, source: .juke) == .plain)
        #expect(AudioPath.choose(mode: .boost, source: .juke) == .webAudio)
        #expect(AudioPath.choose(mode: .boost, source: .crossOriginAllowed) == .webAudio)
        guard case .plainBecause(let why) = AudioPath.choose(mode: .boost, source: .crossOriginOpaque) else {
            Issue.record("an opaque stream cannot be boosted")
            return
        }
        #expect(why.contains("Boost"))
    }

    @Test func duckingLowersMusicOnlyWhileSpeechTalks() {
        let on = Ducking(enabled: true, level: 0.25)
        #expect(on.musicGain(speechTalking: true) == 0.25)
        #expect(on.musicGain(speechTalking: false) == 1)
        #expect(Ducking.off.musicGain(speechTalking: true) == 1)
        #expect(Ducking(enabled: true, level: 7).musicGain(speechTalking: true) == 1)
    }
}
