import Foundation
import Logging
import MediaFormats
import NIOCore
import Providers
import Synchronization

/// One station's stream, relayed: a single connection to the station shared by every
/// listener on this server. The rules are `RelayFanOut`'s; this class carries them out (opens
/// and closes the station, queues chunks, ends responses) and holds what the station said
/// (its type, its ICY title).
final class StationRelay: Sendable {
    let url: URL
    private let connector: StreamConnector
    private let idleGrace: Duration
    private let logger: Logger
    /// Called once the station is let go, so the directory can forget this relay.
    private let onClose: @Sendable (StationRelay) -> Void

    enum Opening: Sendable {
        case connecting([CheckedContinuation<StreamOpening, any Error>])
        case open(StreamOpening)
        case failed(any Error)
    }

    private struct State {
        var fanOut: RelayFanOut<ByteBuffer>
        var outlets: [Int: ListenerOutlet] = [:]
        var nextListener = 0
        var opening = Opening.connecting([])
        var title: String?
        var chunker = RelayChunker(kind: .mpeg)
        var station: Task<Void, Never>?
        /// The latest idle check (a newer one replaces it; closing cancels it).
        var idleCheck: Task<Void, Never>?
        var closed = false
    }

    private let state: Mutex<State>

    init(
        url: URL, connector: StreamConnector, limits: RelayFanOut<ByteBuffer>.Limits, idleGrace: Duration, logger: Logger,
        onClose: @escaping @Sendable (StationRelay) -> Void
    ) {
        self.url = url
        self.connector = connector
        self.idleGrace = idleGrace
        self.logger = logger
        self.onClose = onClose
        self.state = Mutex(State(fanOut: RelayFanOut(limits: limits)))
    }

    /// What the station is playing (its latest ICY title), and how many listen here.
    var nowPlaying: (title: String?, listeners: Int, kind: StreamKind?) {
        state.withLock { state in
            if case .open(let opening) = state.opening { return (state.title, state.fanOut.listenerCount, opening.kind) }
            return (state.title, state.fanOut.listenerCount, nil)
        }
    }

    /// A new listener: nil when this relay was already let go (`RelayFull` when it is full). The station is opened
    /// for the first; every listener waits until it is known to be audio.
    func join(closeConnection: @escaping @Sendable () -> Void) async throws -> (StreamOpening, ListenerOutlet)? {
        let joined = try state.withLock { state throws -> (ListenerOutlet, [Effect])? in
            guard !state.closed else { return nil }
            let id = state.nextListener
            guard let actions = state.fanOut.join(id) else { throw RelayFull() }
            state.nextListener += 1
            let outlet = ListenerOutlet(id: id, closeConnection: closeConnection)
            state.outlets[id] = outlet
            return (outlet, Self.deliver(actions, in: &state))
        }
        guard let (outlet, actions) = joined else { return nil }
        perform(actions)
        do {
            return (try await opening(), outlet)
        } catch {
            leave(outlet.id)
            throw error
        }
    }

    func leave(_ listener: Int) {
        let actions = state.withLock { state -> [Effect] in
            state.outlets[listener] = nil
            return Self.deliver(state.fanOut.leave(listener), in: &state)
        }
        perform(actions)
    }

    func wrote(_ listener: Int, size: Int) {
        state.withLock { $0.fanOut.wrote(listener, size: size) }
    }

    private func opening() async throws -> StreamOpening {
        try await withCheckedThrowingContinuation { continuation in
            let known = state.withLock { state -> Result<StreamOpening, any Error>? in
                switch state.opening {
                case .open(let opening): return .success(opening)
                case .failed(let error): return .failure(error)
                case .connecting(let waiters):
                    state.opening = .connecting(waiters + [continuation])
                    return nil
                }
            }
            if let known { continuation.resume(with: known) }
        }
    }

    /// Queues the chunks of `send` actions while the state is locked, so that each listener's
    /// chunks keep the station's order; returns the other actions, to be carried out after.
    private static func deliver(_ actions: [RelayFanOut<ByteBuffer>.Action], in state: inout State) -> [Effect] {
        var effects: [Effect] = []
        for action in actions {
            switch action {
            case .send(let listener, let chunks): state.outlets[listener]?.push(chunks)
            case .drop(let listener): state.outlets.removeValue(forKey: listener).map { effects.append(.dropOutlet($0)) }
            case .end(let listener): state.outlets.removeValue(forKey: listener).map { effects.append(.endOutlet($0)) }
            case .openStation: effects.append(.openStation)
            case .checkIdleLater(let generation): effects.append(.checkIdleLater(generation: generation))
            case .closeStation: effects.append(.closeStation)
            }
        }
        return effects
    }

    /// What is left to do once the state is unlocked.
    private enum Effect {
        case openStation
        case dropOutlet(ListenerOutlet)
        case endOutlet(ListenerOutlet)
        case checkIdleLater(generation: Int)
        case closeStation
    }

    private func perform(_ effects: [Effect]) {
        for effect in effects {
            switch effect {
            case .openStation:
                let task = Task { await self.runStation() }
                state.withLock { $0.station = task }
            case .dropOutlet(let outlet):
                logger.info("radio relay: dropped a listener that fell behind", metadata: ["stream": "\(url.host ?? "")"])
                outlet.drop()
            case .endOutlet(let outlet):
                outlet.finish()
            case .checkIdleLater(let generation):
                let check = Task {
                    do { try await Task.sleep(for: idleGrace) } catch { return }
                    self.perform(self.state.withLock { Self.deliver($0.fanOut.idleCheck(generation: generation), in: &$0) })
                }
                state.withLock { state in
                    state.idleCheck?.cancel()
                    state.idleCheck = check
                }
            case .closeStation:
                let (station, check) = state.withLock { state in
                    state.closed = true
                    return (state.station, state.idleCheck)
                }
                check?.cancel()
                station?.cancel()
                onClose(self)
            }
        }
    }

    /// The server is stopping: closes the station's connection and waits for it to end (its
    /// listeners' responses end with it).
    func shutdown() async {
        let (station, check) = state.withLock { state in
            state.closed = true
            return (state.station, state.idleCheck)
        }
        check?.cancel()
        station?.cancel()
        await station?.value
    }

    /// The station's connection, for as long as anyone listens.
    private func runStation() async {
        var failure: (any Error)?
        do {
            let end = try await connector.stream(
                url,
                opened: { opening in
                    let waiters = self.state.withLock { state -> [CheckedContinuation<StreamOpening, any Error>] in
                        defer { state.opening = .open(opening) }
                        state.chunker = RelayChunker(kind: opening.kind)
                        if case .connecting(let waiters) = state.opening { return waiters }
                        return []
                    }
                    for waiter in waiters { waiter.resume(returning: opening) }
                },
                received: { parts in self.received(parts) })
            if case .hlsPlaylist(let url, _) = end { failure = StreamRelayError.hlsStation(url) }
        } catch {
            failure = error
        }
        let waiters = state.withLock { state -> [CheckedContinuation<StreamOpening, any Error>] in
            let reason = failure ?? StreamRelayError.unreachable("the station closed its stream")
            defer { state.opening = .failed(reason) }
            state.closed = true
            if case .connecting(let waiters) = state.opening { return waiters }
            return []
        }
        for waiter in waiters { waiter.resume(throwing: failure ?? StreamRelayError.unreachable("the station closed its stream")) }
        if let failure, !(failure is CancellationError) {
            logger.info("radio relay: the station's stream ended", metadata: ["stream": "\(url.host ?? "")", "reason": "\(failure)"])
        }
        perform(state.withLock { Self.deliver($0.fanOut.stationEnded(), in: &$0) })
        onClose(self)
    }

    private func received(_ parts: [StreamPart]) {
        var actions: [Effect] = []
        for part in parts {
            switch part {
            case .title(let title):
                state.withLock { $0.title = title }
            case .audio(let audio):
                actions += state.withLock { state in
                    var effects: [Effect] = []
                    for chunk in state.chunker.chunks(audio) {
                        let buffer = ByteBuffer(bytes: chunk.bytes)
                        effects += Self.deliver(state.fanOut.received(buffer, size: buffer.readableBytes, role: chunk.role), in: &state)
                    }
                    return effects
                }
            }
        }
        perform(actions)
    }
}
