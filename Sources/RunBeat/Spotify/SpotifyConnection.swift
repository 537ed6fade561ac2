/// RunBeat's connection to a runner's Spotify, as the original app's connection manager ran it:
/// one state (disconnected, authenticating, authenticated, connecting, connected) instead of
/// scattered flags, an intent that says how hard to try (training: keep the music going;
/// idle: no effort; background: nothing), and the phase's playlist started once, not again
/// on every reconnect or return to the page. A runner's pause pauses Spotify where it is and
/// their resume carries on from there: nothing restarts the playlist in between.
///
/// Events in (what the runner did, what Spotify answered, the clock), actions out (what the
/// server should ask Spotify next). Time is injected as seconds on any steady clock.
public struct SpotifyConnection: Sendable, Equatable {
    public enum State: String, Sendable, Equatable, Codable {
        case disconnected, authenticating, authenticated, connecting, connected
    }

    public enum Intent: String, Sendable, Equatable, Codable {
        /// A workout is running: its music must play, and recover after any failure.
        case training
        /// The page is open without a workout: keep the sign-in, start nothing.
        case idle
        /// The page is gone: no calls at all.
        case background
    }

    public enum Event: Sendable, Equatable {
        /// The runner chose to connect (sent to Spotify's authorisation).
        case authorizationStarted
        /// Tokens came back (from the code, or stored from before).
        case authorized
        /// The runner refused, or the code could not be exchanged.
        case authorizationFailed
        /// A call answered 401: the access token expired.
        case tokenExpired
        /// The refresh token worked.
        case refreshed
        /// The refresh token is no longer good: only the runner can fix it.
        case invalidGrant
        case intent(Intent)
        /// The phase wants this playlist (nil: no music for it).
        case wants(playlist: String?)
        /// Spotify's devices, and which is active.
        case devices(active: String?, available: [String])
        /// The playlist started on the device.
        case played(playlist: String, device: String)
        /// Spotify said no device is active.
        case noActiveDevice
        /// Spotify asked to wait (429).
        case rateLimited(seconds: Double)
        /// A call failed for a passing reason (a timeout, a 5xx).
        case failed
        case tick
        /// The runner paused (true) or resumed (false) the workout.
        case paused(Bool)
        /// Spotify paused where it was for the runner's pause.
        case suspended
        /// Spotify carried on from where the runner's pause stopped it.
        case resumed
        /// The runner disconnected Juke from Spotify.
        case disconnect
    }

    public enum Action: Sendable, Equatable {
        case refreshToken
        /// Ask the runner to connect again (invalid_grant).
        case reauthorize
        case listDevices
        case transfer(device: String)
        case play(playlist: String, device: String?)
        /// The phase wants no Spotify music (the library's, or silence) while a playlist plays.
        case pause
        /// The runner paused: Spotify pauses where it is (the playlist stays the phase's).
        case suspend
        /// The runner resumed: Spotify carries on from where it paused (not from the start).
        case resume(device: String?)
        /// Nothing to do before this time (a rate limit or a backoff).
        case waitUntil(Double)
    }

    public private(set) var state: State = .disconnected
    public private(set) var intent: Intent = .idle
    /// The playlist the current phase wants, and the one last started (on which device).
    public private(set) var wanted: String?
    public private(set) var playing: String?
    public private(set) var device: String?
    /// No call before this time; failures in a row (for the backoff).
    public private(set) var notBefore = 0.0
    public private(set) var failures = 0
    /// The runner has paused the workout: no playlist starts, no device is looked for.
    public private(set) var paused = false
    /// Spotify is paused for the runner's pause with `playing` where it stopped.
    public private(set) var held = false

    public init() {}

    /// The connection of a runner whose tokens are stored (authenticated without asking again).
    public static func restored() -> SpotifyConnection {
        var connection = SpotifyConnection()
        connection.state = .authenticated
        return connection
    }

    /// Backoff after `failures` failures in a row: 1, 2, 4… up to 60 seconds.
    public static func backoff(_ failures: Int) -> Double { min(60, Double(1 << min(max(failures - 1, 0), 6))) }

    public mutating func handle(_ event: Event, at now: Double) -> [Action] {
        switch event {
        case .authorizationStarted:
            state = .authenticating
            return []
        case .authorized, .refreshed:
            guard state != .disconnected || event == .authorized else { return [] }
            if state == .disconnected || state == .authenticating || state == .authenticated { state = .authenticated }
            failures = 0
            return next(at: now)
        case .authorizationFailed:
            state = .disconnected
            return []
        case .tokenExpired:
            guard state != .disconnected, state != .authenticating else { return [] }
            // Whatever was asked is asked again once refreshed: a device search starts over.
            if state == .connecting { state = .authenticated }
            return [.refreshToken]
        case .invalidGrant:
            state = .disconnected
            playing = nil
            held = false
            device = nil
            return intent == .background ? [] : [.reauthorize]
        case .intent(let new):
            intent = new
            if new == .background, state == .connected || state == .connecting { state = .authenticated }
            return next(at: now)
        case .wants(let playlist):
            wanted = playlist
            return next(at: now)
        case .devices(let active, let available):
            guard state == .connecting || state == .authenticated else { return [] }
            if let active {
                device = active
                state = .connected
                return next(at: now)
            }
            guard let first = available.first else {
                // No device at all: the runner must open Spotify somewhere; try again later.
                return fail(at: now)
            }
            device = first
            return [.transfer(device: first)]
        case .played(let playlist, let on):
            playing = playlist
            held = false
            device = on
            state = .connected
            failures = 0
            return next(at: now)
        case .noActiveDevice:
            // The device went away: the phase's playlist starts again on the next one.
            device = nil
            playing = nil
            held = false
            if state == .connected { state = .connecting }
            guard intent == .training, !paused else {
                // Looked for again once the runner resumes (or trains again).
                if state == .connecting { state = .authenticated }
                return []
            }
            return [.listDevices]
        case .rateLimited(let seconds):
            notBefore = max(notBefore, now + max(0, seconds))
            if state == .connecting { state = .authenticated }
            return [.waitUntil(notBefore)]
        case .failed:
            return fail(at: now)
        case .tick:
            return next(at: now)
        case .paused(let on):
            guard on != paused else { return [] }
            paused = on
            return next(at: now)
        case .suspended:
            held = true
            failures = 0
            return next(at: now)
        case .resumed:
            held = false
            failures = 0
            return next(at: now)
        case .disconnect:
            self = SpotifyConnection()
            return []
        }
    }

    /// What to do now: in training, get a device and start the wanted playlist once.
    private mutating func next(at now: Double) -> [Action] {
        guard intent == .training, state != .disconnected, state != .authenticating else { return [] }
        guard now >= notBefore else { return [] }
        switch state {
        case .authenticated:
            // Paused: nothing is to play, so no device is looked for until the runner resumes.
            guard !paused else { return [] }
            state = .connecting
            return [.listDevices]
        case .connecting:
            return []
        case .connected:
            if paused {
                // Paused once where it plays; ticks and returns to the page change nothing after.
                guard playing != nil, !held else { return [] }
                return [.suspend]
            }
            if held {
                // The phase is the one paused in: carry on from where it stopped (held until
                // Spotify says it did, so a failed resume is tried again).
                if let wanted, wanted == playing { return [.resume(device: device)] }
                // The phase changed meanwhile: Spotify is already quiet, or the new playlist starts.
                held = false
                if wanted == nil {
                    playing = nil
                    return []
                }
            }
            guard let wanted else {
                guard playing != nil else { return [] }
                playing = nil
                return [.pause]
            }
            guard wanted != playing else { return [] }
            return [.play(playlist: wanted, device: device)]
        case .disconnected, .authenticating:
            return []
        }
    }

    private mutating func fail(at now: Double) -> [Action] {
        failures += 1
        notBefore = now + Self.backoff(failures)
        if state == .connecting { state = .authenticated }
        return intent == .training ? [.waitUntil(notBefore)] : []
    }
}
