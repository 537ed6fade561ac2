import RunBeat
import Testing

/// The Spotify connection's rules (the original app's connection manager and its hard-won
/// fixes): one state, intents, no duplicate playlist starts, no restart when the runner comes
/// back, the phase's playlist resumed after a reconnect, refresh on 401, re-authorisation on
/// invalid_grant, and waiting out 429s and failures.
@Suite(.timeLimit(.minutes(5))) struct SpotifyConnectionTests {
    @Test func aTrainingConnectsFindsADeviceAndStartsEachPhaseOnce() {
        var c = SpotifyConnection()
        #expect(c.handle(.authorizationStarted, at: 0).isEmpty && c.state == .authenticating)
        #expect(c.handle(.authorized, at: 1).isEmpty && c.state == .authenticated)  // idle: nothing started
        #expect(c.handle(.wants(playlist: "work"), at: 2).isEmpty)
        #expect(c.handle(.intent(.training), at: 3) == [.listDevices])
        #expect(c.state == .connecting)
        #expect(c.handle(.devices(active: "phone", available: ["phone", "laptop"]), at: 4) == [.play(playlist: "work", device: "phone")])
        #expect(c.handle(.played(playlist: "work", device: "phone"), at: 5).isEmpty)
        #expect(c.state == .connected)
        // The same phase again, a tick, the runner back on the page: no second start.
        #expect(c.handle(.wants(playlist: "work"), at: 6).isEmpty)
        #expect(c.handle(.tick, at: 7).isEmpty)
        #expect(c.handle(.intent(.training), at: 8).isEmpty)
        // The next phase switches the playlist.
        #expect(c.handle(.wants(playlist: "recovery"), at: 9) == [.play(playlist: "recovery", device: "phone")])
    }

    @Test func noActiveDeviceIsMetByATransferAndThePhaseResumes() {
        var c = SpotifyConnection.restored()
        _ = c.handle(.wants(playlist: "work"), at: 0)
        #expect(c.handle(.intent(.training), at: 0) == [.listDevices])
        // No device active: playback moves to the first available one.
        #expect(c.handle(.devices(active: nil, available: ["laptop"]), at: 1) == [.transfer(device: "laptop")])
        #expect(c.handle(.devices(active: "laptop", available: ["laptop"]), at: 2) == [.play(playlist: "work", device: "laptop")])
        _ = c.handle(.played(playlist: "work", device: "laptop"), at: 3)
        // The device goes away mid-workout: find one again and resume the phase's playlist.
        #expect(c.handle(.noActiveDevice, at: 4) == [.listDevices])
        #expect(c.handle(.devices(active: "phone", available: ["phone"]), at: 5) == [.play(playlist: "work", device: "phone")])
        // No device anywhere: wait, with backoff, then look again.
        var d = SpotifyConnection.restored()
        _ = d.handle(.intent(.training), at: 0)
        #expect(d.handle(.devices(active: nil, available: []), at: 10) == [.waitUntil(11)])
        #expect(d.handle(.tick, at: 10.5).isEmpty)
        #expect(d.handle(.tick, at: 11) == [.listDevices])
    }

    @Test func tokensAreRefreshedOn401AndInvalidGrantAsksTheRunner() {
        var c = SpotifyConnection.restored()
        _ = c.handle(.intent(.training), at: 0)
        _ = c.handle(.devices(active: "phone", available: ["phone"]), at: 0)
        #expect(c.handle(.tokenExpired, at: 1) == [.refreshToken])
        #expect(c.handle(.refreshed, at: 2).isEmpty)  // connected, nothing wanted yet
        #expect(c.handle(.invalidGrant, at: 3) == [.reauthorize])
        #expect(c.state == .disconnected && c.playing == nil)
        // Disconnected: nothing is tried until the runner connects again.
        #expect(c.handle(.wants(playlist: "work"), at: 4).isEmpty)
        #expect(c.handle(.tokenExpired, at: 5).isEmpty)
    }

    @Test func aPhaseWithoutSpotifyMusicPausesThePlaylistOnce() {
        var c = SpotifyConnection.restored()
        _ = c.handle(.intent(.training), at: 0)
        _ = c.handle(.devices(active: "phone", available: ["phone"]), at: 0)
        #expect(c.handle(.wants(playlist: "work"), at: 1) == [.play(playlist: "work", device: "phone")])
        _ = c.handle(.played(playlist: "work", device: "phone"), at: 1)
        #expect(c.handle(.wants(playlist: nil), at: 2) == [.pause])
        #expect(c.handle(.tick, at: 3).isEmpty)
        #expect(c.handle(.wants(playlist: "work"), at: 4) == [.play(playlist: "work", device: "phone")])
    }

    @Test func aDeviceSearchCutShortBy401Or429StartsAgain() {
        var c = SpotifyConnection.restored()
        #expect(c.handle(.intent(.training), at: 0) == [.listDevices])
        #expect(c.handle(.tokenExpired, at: 1) == [.refreshToken])
        #expect(c.handle(.refreshed, at: 2) == [.listDevices])
        #expect(c.handle(.rateLimited(seconds: 5), at: 3) == [.waitUntil(8)])
        #expect(c.handle(.tick, at: 7).isEmpty)
        #expect(c.handle(.tick, at: 8) == [.listDevices])
    }

    @Test func rateLimitsAndFailuresAreWaitedOutWithBackoff() {
        var c = SpotifyConnection.restored()
        _ = c.handle(.intent(.training), at: 0)
        _ = c.handle(.devices(active: "phone", available: ["phone"]), at: 0)
        #expect(c.handle(.rateLimited(seconds: 30), at: 10) == [.waitUntil(40)])
        #expect(c.handle(.wants(playlist: "work"), at: 20).isEmpty)  // not before 40
        #expect(c.handle(.tick, at: 40) == [.play(playlist: "work", device: "phone")])
        #expect(c.handle(.failed, at: 41) == [.waitUntil(42)])
        #expect(c.handle(.failed, at: 42) == [.waitUntil(44)])
        #expect(c.handle(.failed, at: 44) == [.waitUntil(48)])
        #expect(SpotifyConnection.backoff(20) == 60)
        #expect(c.handle(.tick, at: 48) == [.play(playlist: "work", device: "phone")])
        _ = c.handle(.played(playlist: "work", device: "phone"), at: 49)
        #expect(c.failures == 0)
    }

    @Test func thePausePausesSpotifyOnceAndTheResumeCarriesOnWithoutARestart() {
        var c = SpotifyConnection.restored()
        _ = c.handle(.wants(playlist: "work"), at: 0)
        _ = c.handle(.intent(.training), at: 0)
        #expect(c.handle(.devices(active: "phone", available: ["phone"]), at: 1) == [.play(playlist: "work", device: "phone")])
        _ = c.handle(.played(playlist: "work", device: "phone"), at: 2)
        #expect(c.handle(.paused(true), at: 3) == [.suspend])
        #expect(c.handle(.suspended, at: 3).isEmpty && c.held)
        // Paused: ticks, the same phase, the page going and coming back, a second pause start nothing.
        #expect(c.handle(.tick, at: 100).isEmpty)
        #expect(c.handle(.wants(playlist: "work"), at: 101).isEmpty)
        #expect(c.handle(.intent(.background), at: 102).isEmpty)
        #expect(c.handle(.intent(.training), at: 103).isEmpty)
        #expect(c.handle(.paused(true), at: 104).isEmpty)
        // Spotify's device went idle while paused: nothing is looked for until the resume.
        #expect(c.handle(.devices(active: "phone", available: ["phone"]), at: 105).isEmpty)
        // Resumed where it stopped (no context: the playlist is not started from the top).
        #expect(c.handle(.paused(false), at: 106) == [.resume(device: "phone")])
        #expect(c.handle(.resumed, at: 107).isEmpty && !c.held && c.playing == "work")
        #expect(c.handle(.tick, at: 108).isEmpty)
        // A resume that fails is tried again after the backoff; one with no device left starts the playlist on the next.
        _ = c.handle(.paused(true), at: 110)
        _ = c.handle(.suspended, at: 110)
        #expect(c.handle(.paused(false), at: 111) == [.resume(device: "phone")])
        #expect(c.handle(.failed, at: 111) == [.waitUntil(112)])
        #expect(c.handle(.tick, at: 112) == [.resume(device: "phone")])
        #expect(c.handle(.noActiveDevice, at: 112) == [.listDevices])
        #expect(c.handle(.devices(active: "laptop", available: ["laptop"]), at: 113) == [.play(playlist: "work", device: "laptop")])
    }

    @Test func aPhaseChangedDuringThePauseIsPlayedOnResume() {
        var c = SpotifyConnection.restored()
        _ = c.handle(.wants(playlist: "work"), at: 0)
        _ = c.handle(.intent(.training), at: 0)
        _ = c.handle(.devices(active: "phone", available: ["phone"]), at: 1)
        _ = c.handle(.played(playlist: "work", device: "phone"), at: 2)
        _ = c.handle(.paused(true), at: 3)
        _ = c.handle(.suspended, at: 3)
        #expect(c.handle(.wants(playlist: "recovery"), at: 4).isEmpty)
        #expect(c.handle(.paused(false), at: 5) == [.play(playlist: "recovery", device: "phone")])
        // Paused before anything played: nothing to pause, and the device search waits for the resume.
        var d = SpotifyConnection.restored()
        _ = d.handle(.wants(playlist: "work"), at: 0)
        #expect(d.handle(.paused(true), at: 0).isEmpty)
        #expect(d.handle(.intent(.training), at: 0).isEmpty)
        #expect(d.handle(.paused(false), at: 1) == [.listDevices])
    }

    @Test func idleAndBackgroundIntentsMakeNoCalls() {
        var c = SpotifyConnection.restored()
        _ = c.handle(.wants(playlist: "work"), at: 0)
        #expect(c.handle(.tick, at: 1).isEmpty)
        #expect(c.handle(.failed, at: 2).isEmpty)
        _ = c.handle(.intent(.training), at: 3)
        _ = c.handle(.devices(active: "phone", available: ["phone"]), at: 4)
        _ = c.handle(.played(playlist: "work", device: "phone"), at: 5)
        #expect(c.handle(.intent(.background), at: 6).isEmpty)
        #expect(c.state == .authenticated)
        #expect(c.handle(.invalidGrant, at: 7).isEmpty)  // nobody to ask in the background
        #expect(c.handle(.disconnect, at: 8).isEmpty && c == SpotifyConnection())
    }
}
