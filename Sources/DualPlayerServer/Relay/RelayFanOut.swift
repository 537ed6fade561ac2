/// One relayed radio stream's listeners, as a pure state machine: who listens, how far behind
/// each one is, what a newcomer hears first, and when the station is opened and let go.
///
/// The rules that make the relay safe to share:
/// - One station connection serves every listener; it opens with the first and closes
///   `idleGrace` after the last leaves (a page reload rejoins without reconnecting).
/// - Every chunk goes to every listener's own queue at once; nothing waits for a listener.
///   A listener whose unwritten backlog would pass `backlogBytes` is dropped, so a stalled
///   phone costs at most its backlog and never slows the others.
/// - A newcomer first gets the stream's header pages (Ogg needs them to decode anything),
///   then the last `burstBytes` of audio, so playback starts at once.
struct RelayFanOut<Chunk: Sendable>: Sendable {
    struct Limits: Sendable, Equatable {
        /// About 32 s of a 128 kbit/s stream.
        var backlogBytes = 512 * 1024
        /// About 4 s of a 128 kbit/s stream: Icecast's default burst.
        var burstBytes = 64 * 1024
        var maximumListeners = 500
    }

    enum Action: Sendable {
        case openStation
        case send(listener: Int, chunks: [Chunk])
        /// Dropped for falling behind: its connection is closed.
        case drop(listener: Int)
        /// The station's stream ended: the listener's response ends.
        case end(listener: Int)
        /// Ask again after the grace period whether anyone is listening.
        case checkIdleLater(generation: Int)
        case closeStation
    }

    let limits: Limits
    /// Each listener's bytes sent to its queue and not yet written to its connection.
    private(set) var backlogs: [Int: Int] = [:]
    private var burst: [(chunk: Chunk, size: Int)] = []
    private var burstSize = 0
    private var headers: [(chunk: Chunk, size: Int)] = []
    private(set) var stationOpen = false
    /// Bumped on every join and leave: an idle check from before it is stale.
    private(set) var generation = 0

    init(limits: Limits = Limits()) { self.limits = limits }

    var listenerCount: Int { backlogs.count }

    /// A newcomer: refused (nil) when the relay is full.
    mutating func join(_ listener: Int) -> [Action]? {
        guard backlogs.count < limits.maximumListeners, backlogs[listener] == nil else { return nil }
        generation += 1
        var actions: [Action] = []
        if !stationOpen {
            stationOpen = true
            actions.append(.openStation)
        }
        let intro = headers + burst
        backlogs[listener] = intro.reduce(0) { $0 + $1.size }
        if !intro.isEmpty { actions.append(.send(listener: listener, chunks: intro.map(\.chunk))) }
        return actions
    }

    mutating func leave(_ listener: Int) -> [Action] {
        guard backlogs.removeValue(forKey: listener) != nil else { return [] }
        generation += 1
        return backlogs.isEmpty && stationOpen ? [.checkIdleLater(generation: generation)] : []
    }

    /// The grace period after the last listener left has passed.
    mutating func idleCheck(generation asked: Int) -> [Action] {
        guard asked == generation, backlogs.isEmpty, stationOpen else { return [] }
        stationOpen = false
        burst = []
        burstSize = 0
        headers = []
        return [.closeStation]
    }

    /// A listener's connection took `size` bytes.
    mutating func wrote(_ listener: Int, size: Int) {
        if let backlog = backlogs[listener] { backlogs[listener] = max(0, backlog - size) }
    }

    /// A chunk from the station, for everyone now listening.
    mutating func received(_ chunk: Chunk, size: Int, role: RelayRole = .audio) -> [Action] {
        switch role {
        case .firstHeader:
            headers = [(chunk, size)]
            burst = []
            burstSize = 0
        case .header:
            if headers.count < 16 { headers.append((chunk, size)) }
        case .audio:
            burst.append((chunk, size))
            burstSize += size
            while burstSize > limits.burstBytes, burst.count > 1 { burstSize -= burst.removeFirst().size }
        }
        var actions: [Action] = []
        actions.reserveCapacity(backlogs.count)
        for (listener, backlog) in backlogs {
            if backlog + size > limits.backlogBytes {
                backlogs[listener] = nil
                actions.append(.drop(listener: listener))
            } else {
                backlogs[listener] = backlog + size
                actions.append(.send(listener: listener, chunks: [chunk]))
            }
        }
        if backlogs.isEmpty, stationOpen, actions.contains(where: { if case .drop = $0 { true } else { false } }) {
            generation += 1
            actions.append(.checkIdleLater(generation: generation))
        }
        return actions
    }

    /// The station closed its stream (or could not be opened): everyone's response ends.
    mutating func stationEnded() -> [Action] {
        let actions = backlogs.keys.sorted().map { Action.end(listener: $0) }
        backlogs = [:]
        stationOpen = false
        burst = []
        burstSize = 0
        headers = []
        generation += 1
        return actions
    }
}

/// How a chunk takes part in the stream: most are audio; Ogg's header pages are kept for
/// newcomers, and a first page starts a new set of headers (a chained stream).
enum RelayRole: Sendable {
    case audio
    case header
    case firstHeader
}
