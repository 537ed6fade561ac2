import Foundation
import NIOCore

/// The sockets of one event loop, which jobs on that loop write to (`TriviaSocket.push`).
struct SocketGroup: Sendable {
    let loop: any EventLoop
    var handlers: [NIOLoopBound<TriviaPushHandler>] = []
}

/// A room's player sockets, kept sorted by event loop as connections come and go, so that a
/// change for everyone (a reveal) hands each loop its share at once. Collecting ten thousand
/// sockets from the watchers and sorting them at the reveal itself took 5-15 ms on a 2-core
/// machine, all of it before the first write.
struct SocketGroups: Sendable {
    private(set) var groups: [SocketGroup] = []
    /// Each group's connection tokens, in the order of its handlers.
    private var tokens: [[UUID]] = []
    /// Where each connection's handler is: its group, and its index there.
    private var places: [UUID: (group: Int, index: Int)] = [:]

    var count: Int { places.count }

    mutating func insert(_ socket: TriviaSocket, for token: UUID) {
        guard places[token] == nil else { return }
        let loop = ObjectIdentifier(socket.eventLoop)
        let group: Int
        if let found = groups.firstIndex(where: { ObjectIdentifier($0.loop) == loop }) {
            group = found
        } else {
            groups.append(SocketGroup(loop: socket.eventLoop))
            tokens.append([])
            group = groups.count - 1
        }
        places[token] = (group, groups[group].handlers.count)
        groups[group].handlers.append(socket.handler)
        tokens[group].append(token)
    }

    /// Moves the group's last socket into the gap: order within a group means nothing.
    mutating func remove(_ token: UUID) {
        guard let (group, index) = places.removeValue(forKey: token) else { return }
        let last = groups[group].handlers.count - 1
        if index != last {
            groups[group].handlers[index] = groups[group].handlers[last]
            tokens[group][index] = tokens[group][last]
            places[tokens[group][index]] = (group, index)
        }
        groups[group].handlers.removeLast()
        tokens[group].removeLast()
    }
}
