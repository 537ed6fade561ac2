import Foundation
import JukeCore
import Testing

@testable import Back2Back

/// An idle member must not stall a shared session: a person's turn runs out and passes on,
/// the host can pass anyone's turn, and people who closed the session are skipped.
@Suite("Back2Back turn timeouts", .timeLimit(.minutes(5)))
struct TurnTimeoutTests {
    /// Host, guest and a third member; the guest's turn has just begun.
    static func guestsTurn() throws -> (Booth, guest: UserID, third: UserID) {
        var booth = Booth()
        let guest = UserID(), third = UserID()
        try booth.send(.join(guest))
        try booth.send(.join(third))
        try booth.send(.pick(song(1), by: booth.host))
        try booth.send(.aiPicked(try #require(booth.request?.task), song(2), rationale: "r"))
        try booth.send(.finished(try #require(booth.session.nowPlaying?.id)))
        #expect(booth.session.turn == .person(guest))
        return (booth, guest, third)
    }

    @Test func aTurnRunsOutAfterItsTimeAndPassesToTheNextPerson() throws {
        var (booth, guest, third) = try Self.guestsTurn()
        let started = try #require(booth.session.turnStartedAt)
        #expect(booth.session.turnEndsAt == started.addingTimeInterval(Double(DJSession.defaultTurnSeconds)))
        // Early, or for a turn that has moved on: nothing.
        try booth.send(.turnExpired(guest, startedAt: started))
        #expect(booth.session.turn == .person(guest))
        booth.now = started.addingTimeInterval(89)
        try booth.send(.turnExpired(guest, startedAt: started))  // (send adds a second: 90 s in)
        #expect(booth.session.turn == .person(third))
        let thirdsTurn = try #require(booth.session.turnStartedAt)
        #expect(thirdsTurn > started)
        // The old timer firing again is stale.
        booth.now += 500
        try booth.send(.turnExpired(guest, startedAt: started))
        #expect(booth.session.turn == .person(third))
        // The backup is still queued: the music goes on whoever picks.
        #expect(booth.statuses.contains(.queuedIfUserSkips) || booth.session.isAIThinking)
        try booth.send(.turnExpired(third, startedAt: thirdsTurn))
        #expect(booth.session.turn == .person(booth.host))
    }

    @Test func theHostPassesAnyonesTurnAndAPersonTheirOwn() throws {
        var (booth, guest, third) = try Self.guestsTurn()
        #expect(throws: SessionError.forbidden("Only the host can pass someone else's turn.")) { try booth.send(.passTurn(by: third)) }
        try booth.send(.passTurn(by: booth.host))
        #expect(booth.session.turn == .person(third))
        try booth.send(.passTurn(by: third))
        #expect(booth.session.turn == .person(booth.host))
        #expect(throws: SessionError.forbidden("Only the people in this session can do that.")) { try booth.send(.passTurn(by: UserID())) }
        _ = guest
    }

    @Test func peopleWhoClosedTheSessionAreSkipped() throws {
        var (booth, guest, third) = try Self.guestsTurn()
        // The guest closes the page on their turn: it passes at once.
        try booth.send(.presence(guest, online: false))
        #expect(booth.session.turn == .person(third) && !booth.session.isPresent(guest))
        // The turn goes round without them.
        try booth.send(.passTurn(by: third))
        #expect(booth.session.turn == .person(booth.host))
        try booth.send(.passTurn(by: booth.host))
        #expect(booth.session.turn == .person(third))
        try booth.send(.presence(guest, online: true))
        try booth.send(.passTurn(by: third))
        #expect(booth.session.turn == .person(booth.host))
        try booth.send(.passTurn(by: booth.host))
        #expect(booth.session.turn == .person(guest))
        // Alone, a turn does not run out, and there is nobody to pass it to.
        try booth.send(.presence(third, online: false))
        try booth.send(.presence(booth.host, online: false))
        #expect(booth.session.turnEndsAt == nil)
        #expect(throws: SessionError.conflict("Nobody else is here to take the turn.")) { try booth.send(.passTurn(by: guest)) }
        // Presence of strangers is ignored.
        try booth.send(.presence(UserID(), online: false))
    }

    @Test func turnsThatNeverRunOutAndTheAIsTurn() throws {
        var booth = Booth()
        booth.session = DJSession(host: booth.host, persona: PersonaID(), turnSeconds: 0, at: booth.now)
        try booth.send(.join(UserID()))
        #expect(booth.session.turnEndsAt == nil)
        try booth.send(.pick(song(1), by: booth.host))
        #expect(booth.session.turn == .ai && booth.session.turnStartedAt == nil && booth.session.turnEndsAt == nil)
    }

    /// Sessions stored before turns were timed decode, with the default limit.
    @Test func anOldStoredSessionStillDecodes() throws {
        let booth = Booth()
        var object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(booth.session)) as? [String: Any])
        for key in ["turnStartedAt", "turnSeconds", "away"] { object[key] = nil }
        let old = try JSONDecoder().decode(DJSession.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(old.turnLimit == DJSession.defaultTurnSeconds && old.turnEndsAt == nil && old.isPresent(booth.host))
    }

    /// After a failed pick, `.retryAI` asks again for what is missing; otherwise it does nothing.
    @Test func aStalledSessionAsksAgainWhenTold() throws {
        var booth = Booth()
        try booth.send(.retryAI)
        #expect(booth.request == nil, "nothing failed")
        try booth.send(.letAIStart(by: booth.host))
        try booth.send(.aiFailed(try #require(booth.request?.task), reason: "everything played lately"))
        #expect(booth.session.problem != nil && !booth.session.isAIThinking && booth.session.turn == .person(booth.host))
        try booth.send(.retryAI)
        let request = try #require(booth.request)
        #expect(request.purpose == .backup)
        try booth.send(.aiPicked(request.task, song(3), rationale: "fresh"))
        #expect(booth.session.nowPlaying?.song.title == "Song 3" && booth.session.problem == nil)
    }
}

@Suite("Back2Back turn lengths", .timeLimit(.minutes(5)))
struct TurnLengthTests {
    @Test func askedLengthsAreKeptWithinRange() throws {
        #expect(try DJSession.turnSeconds(asked: nil) == nil)
        #expect(try DJSession.turnSeconds(asked: 0) == 0)
        #expect(try DJSession.turnSeconds(asked: 5) == 15)
        #expect(try DJSession.turnSeconds(asked: 45) == 45)
        #expect(try DJSession.turnSeconds(asked: 600) == 600)
        #expect(throws: RuleRefusal.self) { try DJSession.turnSeconds(asked: 601) }
        #expect(throws: RuleRefusal.self) { try DJSession.turnSeconds(asked: -1) }
    }
}
