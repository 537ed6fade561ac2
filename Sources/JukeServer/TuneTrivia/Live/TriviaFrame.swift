import Foundation
import JukeAPI
import JukeCore
import NIOCore
import TuneTrivia

/// One version of a game, ready to push: the standings and the players' shared view are
/// built and encoded once, and each player's message is that encoding with their own seat,
/// guess and ID written into it. The message is the same JSON as
/// GET /api/v1/tunetrivia/sessions/{id} gives that viewer.
struct TriviaFrame: Sendable {
    let version: Int
    let screen: GameScreen
    /// The crowd's JSON cut where each viewer's own parts go.
    private let pieces: [String]
    private let holes: [Hole]
    /// The leaders, encoded, in list order; and joined, for the many viewers not among them.
    private let leaders: [(id: PlayerID, json: String)]
    private let leadersJoined: String
    /// A player's message is about this long: the buffer is made this big at once.
    let typicalSize: Int

    private enum Hole { case guesses, players, you }

    init(game: Game, version: Int) throws {
        self.version = version
        screen = GameScreen(game)
        leaders = screen.crowd.players.map { ($0.id, TriviaMapping.player($0).jsonText) }
        leadersJoined = leaders.map(\.json).joined(separator: ",")
        var shell = TriviaMapping.session(screen.crowd)
        shell.players = []
        shell.guesses = []
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let base = String(decoding: try encoder.encode(shell), as: UTF8.self)
        // A quote inside a string value is always escaped, so these markers can only be the
        // object's own keys.
        var marks: [(range: Range<String.Index>, hole: Hole)] = []
        for (marker, hole) in [(#""guesses":[]"#, Hole.guesses), (#""players":[]"#, Hole.players)] {
            guard let range = base.range(of: marker) else { throw TriviaFrameError.unexpectedShape(marker) }
            marks.append((range, hole))
        }
        marks.sort { $0.range.lowerBound < $1.range.lowerBound }
        var pieces: [String] = []
        var holes: [Hole] = []
        var cursor = base.startIndex
        for mark in marks {
            let key = base[mark.range].dropLast()  // `"guesses":[`
            pieces.append(String(base[cursor..<mark.range.lowerBound]) + key)
            holes.append(mark.hole)
            cursor = base.index(before: mark.range.upperBound)  // the closing `]`
        }
        guard base.hasSuffix("}") else { throw TriviaFrameError.unexpectedShape("}") }
        pieces.append(String(base[cursor..<base.index(before: base.endIndex)]))
        holes.append(.you)
        pieces.append("}")
        self.pieces = pieces
        self.holes = holes
        typicalSize = pieces.reduce(0) { $0 + $1.utf8.count } + leadersJoined.utf8.count + 1024
    }

    var game: Game { screen.game }

    /// The message for `viewer`: the host's whole view (with who is online), or the crowd's
    /// view with the viewer's own parts.
    func message(for viewer: UserID, online: Set<UserID>?) throws -> String {
        var buffer = ByteBuffer()
        try write(for: viewer, online: online, into: &buffer)
        return String(buffer: buffer)
    }

    /// The host's message: every answer ranked, and who is online (when known).
    func hostMessage(online: Set<UserID>?) throws -> ByteBuffer {
        ByteBuffer(data: try JSONEncoder().encode(TriviaMapping.session(screen.view(for: game.host), online: online)))
    }

    /// `message(for:online:)`, written into `buffer`.
    func write(for viewer: UserID, online: Set<UserID>?, into buffer: inout ByteBuffer) throws {
        if viewer == game.host {
            var host = try hostMessage(online: online)
            buffer.writeBuffer(&host)
            return
        }
        let mine = screen.personal(for: viewer)
        for (i, hole) in holes.enumerated() {
            buffer.writeString(pieces[i])
            switch hole {
            case .guesses:
                if let guess = mine.guess { TriviaMapping.guess(guess).writeJSON(into: &buffer) }
            case .players:
                let own = mine.seat.map { TriviaMapping.player($0) }
                if let own, mine.isListed {
                    for (n, leader) in leaders.enumerated() {
                        if n > 0 { buffer.writeStaticString(",") }
                        if leader.id == mine.seat?.id { own.writeJSON(into: &buffer) } else { buffer.writeString(leader.json) }
                    }
                } else {
                    buffer.writeString(leadersJoined)
                    if let own {
                        if !leaders.isEmpty { buffer.writeStaticString(",") }
                        own.writeJSON(into: &buffer)
                    }
                }
            case .you:
                if let seat = mine.seat {
                    buffer.writeStaticString(#","you":""#)
                    buffer.writeString(seat.id.description)
                    buffer.writeStaticString("\"")
                }
            }
        }
        buffer.writeString(pieces[holes.count])
    }
}

enum TriviaFrameError: Error {
    /// The contract's session object no longer has a key the frame writes into.
    case unexpectedShape(String)
}
