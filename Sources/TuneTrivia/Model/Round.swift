public import Foundation
public import JukeCore

/// One song of a game: the track, the clip to play, the answer, the trivia, and where the
/// round stands.
public struct Round: Sendable, Codable, Equatable, Identifiable {
    public enum Phase: String, Sendable, Codable {
        /// Not played yet.
        case pending
        /// The clip plays and guesses are taken.
        case playing
        /// The answer is shown; trivia, if any, is open for answers.
        case revealed
        /// The trivia answer is shown too; the round is over.
        case closed
    }

    public let id: RoundID
    public let track: TrackID
    public var number: Int
    public let answer: Answer
    /// Where the clip starts in the track, in seconds.
    public var clipStart: Double
    public var trivia: Trivia?
    public var phase: Phase = .pending
    public var startedAt: Date?
    public var revealedAt: Date?
    /// Seconds the game stood paused while this round's clip played (nil: none), so that
    /// the countdown everyone sees resumes where it stopped.
    public var pausedFor: Double?

    public init(id: RoundID, track: TrackID, number: Int, answer: Answer, clipStart: Double, trivia: Trivia? = nil) {
        self.id = id
        self.track = track
        self.number = number
        self.answer = answer
        self.clipStart = clipStart
        self.trivia = trivia
    }

    public var isRevealed: Bool { phase == .revealed || phase == .closed }

    /// When the clip of `seconds` ends, while it plays: its start plus the time paused.
    public func clipEndsAt(seconds: Int) -> Date? {
        guard phase == .playing, let startedAt else { return nil }
        return startedAt.addingTimeInterval(Double(seconds) + (pausedFor ?? 0))
    }
}

/// What the players must name, kept with the round so that judging never needs the library.
public struct Answer: Sendable, Codable, Equatable {
    public var title: String
    public var artist: String
    public var album: String
    public var year: Int?
    /// Other accepted spellings of the title or artist ("I Need U" for "I Need You").
    public var titleAliases: [String] = []
    public var artistAliases: [String] = []

    public init(title: String, artist: String, album: String, year: Int? = nil, titleAliases: [String] = [], artistAliases: [String] = []) {
        self.title = title
        self.artist = artist
        self.album = album
        self.year = year
        self.titleAliases = titleAliases
        self.artistAliases = artistAliases
    }
}

/// A multiple-choice question shown after the reveal.
public struct Trivia: Sendable, Codable, Equatable {
    public var question: String
    public var options: [String]
    public var answer: String
    /// "library" for Juke's own questions, otherwise the model that worded it.
    public var source: String
    /// What Juke's own question asks about (`LibraryTrivia.Kind`: "year", "album", ...), so a
    /// game spreads its kinds; nil for an AI's and for questions stored before it was kept.
    public var kind: String?

    public init(question: String, options: [String], answer: String, source: String, kind: String? = nil) {
        self.question = question
        self.options = options
        self.answer = answer
        self.source = source
        self.kind = kind
    }

    /// Four distinct options, the answer among them, and the answer not given away in the
    /// question: what any trivia, Juke's or an AI's, must satisfy to be used.
    public func check() -> String? {
        let folded = options.map { $0.lowercased().trimmingCharacters(in: .whitespacesAndNewlines) }
        if question.trimmingCharacters(in: .whitespacesAndNewlines).count < 10 { return "the question is too short" }
        if options.count != 4 { return "there must be 4 options" }
        if Set(folded).count != 4 || folded.contains("") { return "the options must be 4 distinct answers" }
        if !options.contains(answer) { return "the answer is not among the options" }
        let a = answer.lowercased()
        if a.count >= 3, question.lowercased().contains(a) { return "the question gives the answer away" }
        return nil
    }
}
