public import Foundation

/// When a round stops taking answers: when its clip ends by the server's clock, plus a
/// moment for an answer sent in the last second to cross the network. A guess sent long
/// after the clip (25 seconds later, from a phone that kept the form open) was accepted and
/// scored, which is unfair to the room that heard the clip end.
extension Game {
    /// Seconds after the clip's end that a guess still counts: a phone's request on a busy
    /// venue Wi-Fi, sent as the countdown showed 0, arrives within this.
    public static let answerGrace: TimeInterval = 3

    /// The last moment a guess of the current round counts; nil when no clip is playing.
    public var answersCloseAt: Date? {
        guard let round, status == .active else { return nil }
        return round.clipEndsAt(seconds: settings.secondsPerSong)?.addingTimeInterval(Self.answerGrace)
    }

    /// Refuses a guess of the current round made after its time ran out.
    func requireAnswerTime(at now: Date) throws(GameError) {
        if let closes = answersCloseAt, now > closes {
            throw .tooLate("Time is up: answers for this song closed when the clip ended.")
        }
    }
}
