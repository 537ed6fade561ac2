import Foundation
import JukeAPI
import JukeCore
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
    }

    var game: Game { screen.game }

    /// The message for `viewer`: the host's whole view (with who is online), or the crowd's
    /// view with the viewer's own parts.
    func message(for viewer: UserID, online: Set<UserID>?) throws -> String {
        if viewer == game.host {
            let encoder = JSONEncoder()
            return String(decoding: try encoder.encode(TriviaMapping.session(screen.view(for: viewer), online: online)), as: UTF8.self)
        }
        let mine = screen.personal(for: viewer)
        var out = ""
        out.reserveCapacity(pieces.reduce(0) { $0 + $1.utf8.count } + 2048)
        for (i, hole) in holes.enumerated() {
            out += pieces[i]
            switch hole {
            case .guesses:
                if let guess = mine.guess { out += TriviaMapping.guess(guess).jsonText }
            case .players:
                let own = mine.seat.map { TriviaMapping.player($0).jsonText }
                if let own, mine.isListed {
                    out += leaders.map { $0.id == mine.seat?.id ? own : $0.json }.joined(separator: ",")
                } else {
                    out += leadersJoined
                    if let own { out += (leaders.isEmpty ? "" : ",") + own }
                }
            case .you:
                if let seat = mine.seat { out += #","you":"# + "\"\(seat.id)\"" }
            }
        }
        out += pieces[holes.count]
        return out
    }
}

enum TriviaFrameError: Error {
    /// The contract's session object no longer has a key the frame writes into.
    case unexpectedShape(String)
}
