import Foundation
import JukeCore
import Testing

@testable import Back2Back

/// "Switch to Baroque" was still offered after the switch: a direction change is offered
/// only toward somewhere the session is not already going.
@Suite("Back2Back offers only directions not current", .timeLimit(.minutes(5)))
struct DirectionOfferTests {
    static let baroque = Direction(label: "Switch to Baroque", prompt: "Play Baroque.", towardGenre: "Baroque", awayFromGenre: "Funk")

    /// The host's turn, a direction change being asked for.
    func asking() throws -> (Booth, AITaskID) {
        var booth = Booth()
        try booth.send(.pick(song(1), by: booth.host))
        let turn = try #require(booth.request?.task)
        try booth.send(.aiPicked(turn, song(2), rationale: "r"))
        try booth.send(.finished(try #require(booth.session.nowPlaying?.id)))  // the AI's pick plays: the host's turn
        return (booth, try #require(booth.directionTask))
    }

    /// The host's turn with a direction on offer: "Switch to Baroque".
    func offered() throws -> Booth {
        var (booth, task) = try asking()
        try booth.send(.directionSuggested(task, Self.baroque))
        #expect(booth.session.direction == Self.baroque)
        return booth
    }

    @Test func theDirectionTakenIsNotOfferedAgainWhileItsPickIsComing() throws {
        var booth = try offered()
        try booth.send(.takeDirection(by: booth.host))
        let next = try #require(booth.directionTask)
        let backup = try #require(booth.request)
        #expect(backup.direction == Self.baroque)
        // The same direction, again (or worded otherwise, toward the same genre): not offered.
        try booth.send(.directionSuggested(next, Self.baroque))
        #expect(booth.session.direction == nil)
        #expect(booth.session.isCurrent(Direction(label: "Baroque detour", prompt: "p", towardGenre: "baroque")))
        // Once the Baroque pick is queued, still current; another way is offered.
        try booth.send(.aiPicked(backup.task, song(3, genre: "Baroque", year: 1720), rationale: "r"))
        #expect(booth.session.queue.last?.direction == "Switch to Baroque")
        #expect(booth.session.isCurrent(Self.baroque))
        let elsewhere = Direction(label: "Into Ragtime territory", prompt: "p", towardGenre: "Ragtime")
        #expect(!booth.session.isCurrent(elsewhere))
    }

    @Test func aDirectionTowardTheGenrePlayingIsNotOffered() throws {
        var (booth, task) = try asking()
        booth.session.nowPlaying?.song.genre = "Baroque"
        try booth.send(.directionSuggested(task, Self.baroque))
        #expect(booth.session.direction == nil)
    }

    @Test func thePlannerProposesSomewhereElse() throws {
        let library =
            (0..<4).map { song(10 + $0, genre: "Baroque", year: 1700 + $0) } + (0..<4).map { song(20 + $0, genre: "Ragtime", year: 1900 + $0) }
            + (0..<4).map { song(30 + $0, genre: "Funk", year: 1972) }
        let funk = Array(library.suffix(4))
        var generator = SplitMix64(seed: 3)
        for _ in 0..<20 {
            let direction = try #require(DirectionPlanner().suggest(after: funk, library: library, avoiding: [Self.baroque], using: &generator))
            #expect(direction.towardGenre == "Ragtime", "\(direction.label)")
        }
        // Unconstrained, Baroque (the farthest in time) is what it proposes.
        #expect(DirectionPlanner().suggest(after: funk, library: library, using: &generator)?.towardGenre == "Baroque")
    }
}
