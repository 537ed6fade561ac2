import Foundation
import Logging
import MediaFormats
import NIOCore
import Providers
import Synchronization

/// Every station relayed by this server, one `StationRelay` per stream address, so that a
/// room of phones on one station costs one connection to it.
final class RadioRelays: Sendable {
    let connector: StreamConnector
    let limits: RelayFanOut<ByteBuffer>.Limits
    let idleGrace: Duration
    let logger: Logger

    private struct State {
        var relays: [String: StationRelay] = [:]
        /// The stream each station id was last played from, for its now-playing title.
        var stations: [String: String] = [:]
        /// The hosts an HLS station's playlists named: the only ones its relayed playlist
        /// and segment addresses may point at (the relay is no open proxy).
        var hlsHosts: [String: Set<String>] = [:]
    }

    /// Bounds on what is remembered of HLS stations.
    static let maximumHLSStations = 1000
    static let maximumHLSHosts = 50

    private let state = Mutex(State())

    init(connector: StreamConnector, limits: RelayFanOut<ByteBuffer>.Limits = .init(), idleGrace: Duration = .seconds(10), logger: Logger) {
        self.connector = connector
        self.limits = limits
        self.idleGrace = idleGrace
        self.logger = logger
    }

    /// A listener of `station`'s stream at `url`: waits until the station answers with audio.
    func listen(station: String, url: URL, closeConnection: @escaping @Sendable () -> Void) async throws -> (
        StreamOpening, ListenerOutlet, StationRelay
    ) {
        // A relay let go between lookup and join refuses the listener: look again (twice at most).
        for _ in 0..<3 {
            let relay = state.withLock { state -> StationRelay in
                state.stations[station] = url.absoluteString
                if let relay = state.relays[url.absoluteString] { return relay }
                let relay = StationRelay(
                    url: url, connector: connector, limits: limits, idleGrace: idleGrace, logger: logger,
                    onClose: { [weak self] closed in self?.forget(closed) })
                state.relays[url.absoluteString] = relay
                return relay
            }
            if let (opening, outlet) = try await relay.join(closeConnection: closeConnection) { return (opening, outlet, relay) }
            forget(relay)
        }
        throw RelayFull()
    }

    /// What `station` is playing on this server's relay, if it is relayed here now.
    func nowPlaying(station: String) -> (title: String?, listeners: Int, kind: StreamKind?)? {
        let relay = state.withLock { state in state.stations[station].flatMap { state.relays[$0] } }
        return relay?.nowPlaying
    }

    /// Lets `station`'s relayed HLS addresses point at `hosts` (its playlist's, and those its
    /// playlists name).
    func allowHLS(station: String, hosts: [String]) {
        state.withLock { state in
            if state.hlsHosts[station] == nil, state.hlsHosts.count >= Self.maximumHLSStations { state.hlsHosts.removeAll() }
            var allowed = state.hlsHosts[station] ?? []
            for host in hosts.map({ $0.lowercased() }) where allowed.count < Self.maximumHLSHosts { allowed.insert(host) }
            state.hlsHosts[station] = allowed
        }
    }

    func isAllowedHLS(station: String, url: URL) -> Bool {
        guard let host = url.host?.lowercased(), ["http", "https"].contains(url.scheme?.lowercased() ?? "") else { return false }
        return state.withLock { $0.hlsHosts[station]?.contains(host) ?? false }
    }

    /// The server is stopping: every station's connection closed, and waited for.
    func shutdown() async {
        let relays = state.withLock { Array($0.relays.values) }
        await withDiscardingTaskGroup { group in
            for relay in relays { group.addTask { await relay.shutdown() } }
        }
    }

    private func forget(_ relay: StationRelay) {
        state.withLock { state in
            if state.relays[relay.url.absoluteString] === relay { state.relays[relay.url.absoluteString] = nil }
        }
    }
}

/// The relay has as many listeners as it takes.
struct RelayFull: Error {}
