import Foundation
import JukeCore
import NIOCore
import TuneTrivia
import TuneTriviaAPI

/// One version of a game, ready to push: the standings and the players' shared view are
/// built and encoded once, and each player's message is that encoding followed by their own
/// parts. The message is the same JSON as GET /api/v1/tunetrivia/sessions/{id} gives that
/// viewer, with the scoreboard, the viewer's guess and their seat's ID as its last members.
///
/// A message is a head shared by every viewer, the same bytes for all, and a tail of the
/// viewer's own (`writeTail` writes the tail and hands back the head): a push writes the
/// two together, with one sendmsg(2), and copies nothing of the head. At a reveal, copying five kilobytes of the
/// crowd's JSON for each of ten thousand players was most of a message's cost.
///
/// A class, shared rather than copied: at a reveal both event loops hand it to thousands of
/// connections at once, and a copy of a struct this size retains each of its arrays and
/// strings, on counters both loops' cores keep taking from each other.
final class TriviaFrame: Sendable {
    let version: Int
    let screen: GameScreen
    /// The game's host, looked at for every connection a frame goes to.
    let host: UserID
    /// The crowd's JSON up to the scoreboard's leaders and through them:
    /// `{...,"players":[` and the leaders. Most viewers' messages start with it.
    private let crowdHead: ByteBuffer
    /// The same up to the scoreboard's opening bracket, for the few viewers listed among the
    /// leaders: their own entry (which shows that they answered) takes its place in the list.
    private let bareHead: ByteBuffer
    /// The leaders, encoded, in list order.
    private let leaders: [(id: PlayerID, json: String)]
    /// A viewer's tail is about this long at most, unless they are among the leaders.
    let typicalTailSize = 1024

    init(game: Game, version: Int) throws {
        self.version = version
        screen = GameScreen(game)
        host = game.host
        leaders = screen.crowd.players.map { ($0.id, $0.jsonText) }
        var shell = TriviaMapping.session(screen.crowd)
        shell.players = []
        shell.guesses = []
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var base = String(decoding: try encoder.encode(shell), as: UTF8.self)
        // A quote inside a string value is always escaped, so these markers can only be the
        // object's own keys. Each goes with the comma that joined it to its neighbour.
        for marker in [#""guesses":[]"#, #""players":[]"#] {
            guard let range = base.range(of: marker) else { throw TriviaFrameError.unexpectedShape(marker) }
            if base[range.upperBound...].hasPrefix(",") {
                base.removeSubrange(range.lowerBound...range.upperBound)
            } else if range.lowerBound > base.startIndex, base[base.index(before: range.lowerBound)] == "," {
                base.removeSubrange(base.index(before: range.lowerBound)..<range.upperBound)
            } else {
                base.removeSubrange(range)
            }
        }
        guard base.hasSuffix("}"), base != "{}" else { throw TriviaFrameError.unexpectedShape("}") }
        base.removeLast()
        base += #","players":["#
        bareHead = ByteBuffer(string: base)
        crowdHead = ByteBuffer(string: base + leaders.map(\.json).joined(separator: ","))
    }

    var game: Game { screen.game }

    /// The message for `viewer`: the host's whole view (with who is online), or the crowd's
    /// view with the viewer's own parts.
    func message(for viewer: UserID, online: Set<UserID>?) throws -> String {
        if viewer == host { return String(buffer: try hostMessage(online: online)) }
        var tail = ByteBuffer()
        var head = writeTail(for: viewer, into: &tail)
        head.writeBuffer(&tail)
        return String(buffer: head)
    }

    /// The host's message: every answer ranked, and who is online (when known).
    func hostMessage(online: Set<UserID>?) throws -> ByteBuffer {
        ByteBuffer(data: try JSONEncoder().encode(TriviaMapping.session(screen.view(for: host), online: online)))
    }

    /// Writes the end of a player's message into `buffer`, and returns the head that goes
    /// before it (shared, not to be written to). Not for the host (`hostMessage`).
    func writeTail(for viewer: UserID, into buffer: inout ByteBuffer) -> ByteBuffer {
        let mine = screen.personal(for: viewer)
        let head: ByteBuffer
        if let own = mine.seat, mine.isListed {
            head = bareHead
            for (n, leader) in leaders.enumerated() {
                if n > 0 { buffer.writeStaticString(",") }
                if leader.id == own.id { own.writeJSON(into: &buffer) } else { buffer.writeString(leader.json) }
            }
        } else {
            head = crowdHead
            if let own = mine.seat {
                if !leaders.isEmpty { buffer.writeStaticString(",") }
                own.writeJSON(into: &buffer)
            }
        }
        buffer.writeStaticString(#"],"guesses":["#)
        if let guess = mine.guess { guess.writeJSON(into: &buffer) }
        buffer.writeStaticString("]")
        if let seat = mine.seat {
            buffer.writeStaticString(#","you":"#)
            buffer.writeJSONString(seat.id)
        }
        buffer.writeStaticString("}")
        return head
    }
}

enum TriviaFrameError: Error {
    /// The contract's session object no longer has a key the frame writes into.
    case unexpectedShape(String)
}
