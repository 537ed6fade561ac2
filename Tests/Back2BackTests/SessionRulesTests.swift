import Foundation
import JukeCore
import Testing

@testable import Back2Back

/// A session driven by events with an injected clock and a seeded generator.
struct Booth {
    var session: DJSession
    let host = UserID()
    var now = Date(timeIntervalSince1970: 1_800_000_000)
    var generator = SplitMix64(seed: 7)
    var last: [SessionAction] = []
    /// Every song the rules asked to keep in the persona's memory, in order.
    var remembered: [Song] = []

    init() {
        session = DJSession(host: host, persona: PersonaID(), at: now)
    }

    @discardableResult
    mutating func send(_ event: SessionEvent) throws -> [SessionAction] {
        now += 1
        last = try session.apply(event, at: now, using: &generator)
        remembered += last.compactMap { if case .remember(let song, _) = $0 { return song } else { return nil } }
        return last
    }

    /// The pick request among the last actions.
    var request: AIRequest? {
        last.lazy.compactMap { if case .requestPick(let r) = $0 { return r } else { return nil } }.first
    }

    var directionTask: AITaskID? {
        last.lazy.compactMap { if case .requestDirection(let t) = $0 { return t } else { return nil } }.first
    }

    var played: [SessionEntry] {
        last.compactMap { if case .play(let e) = $0 { return e } else { return nil } }
    }

    var statuses: [QueueStatus] { session.queue.map(\.status) }
}

func song(_ n: Int, artist: String? = nil, genre: String = "Funk", year: Int = 1972) -> Song {
    Song(track: TrackID(), title: "Song \(n)", artist: artist ?? "Artist \(n)", album: "Album \(n)", duration: 200, genre: genre, year: year)
}

@Suite("Back2Back turns and queue states", .timeLimit(.minutes(5)))
struct SessionRulesTests {
    @Test func aPersonsFirstPickPlaysAtOnceAndTheTurnPassesToTheAI() throws {
        var booth = Booth()
        #expect(booth.session.turn == .person(booth.host))
        let a = song(1)
        try booth.send(.pick(a, by: booth.host))
        #expect(booth.played.map(\.song) == [a])
        #expect(booth.session.nowPlaying?.status == .playing)
        #expect(booth.session.turn == .ai)
        #expect(booth.request?.purpose == .turn)
        #expect(booth.session.isAIThinking)
    }

    @Test func theAIsOwnPickIsUpNextAndTheTurnComesBackWhenItStarts() throws {
        var booth = Booth()
        let a = song(1)
        try booth.send(.pick(a, by: booth.host))
        let task = try #require(booth.request?.task)
        let b = song(2)
        let actions = try booth.send(.aiPicked(task, b, rationale: "Groove continues"))
        #expect(actions.isEmpty, "remembered when it plays, not when it is picked: \(actions)")
        #expect(booth.statuses == [.upNext])
        #expect(booth.session.turn == .ai)  // not yet: its song has not started
        #expect(!booth.session.isAIThinking)
        // A person cannot pick while the AI's pick waits.
        #expect(throws: SessionError.self) { try booth.send(.pick(song(3), by: booth.host)) }

        let first = try #require(booth.session.nowPlaying)
        let started = try booth.send(.finished(first.id))
        #expect(started.contains(.remember(b, persona: booth.session.persona)))
        #expect(booth.played.map(\.song) == [b])
        #expect(booth.session.turn == .person(booth.host))
        // The AI keeps a backup ready at once, and a direction change is prepared.
        #expect(booth.request?.purpose == .backup)
        #expect(booth.directionTask != nil)
        #expect(booth.session.history.map(\.song) == [a])
        #expect(booth.session.history.first?.status == .played)
        #expect(booth.session.nowPlaying?.rationale == "Groove continues")
    }

    /// Plays up to the person's turn with the AI's pick playing and its backup queued.
    static func personsTurnWithBackup() throws -> (Booth, backup: Song) {
        var booth = Booth()
        try booth.send(.pick(song(1), by: booth.host))
        try booth.send(.aiPicked(try #require(booth.request?.task), song(2), rationale: "r"))
        try booth.send(.finished(try #require(booth.session.nowPlaying?.id)))
        let backup = song(3)
        try booth.send(.aiPicked(try #require(booth.request?.task), backup, rationale: "backup"))
        #expect(booth.statuses == [.queuedIfUserSkips])
        return (booth, backup)
    }

    @Test func aPersonsPickReplacesTheBackupAndHandsTheTurnToTheAI() throws {
        var (booth, backup) = try Self.personsTurnWithBackup()
        let mine = song(4)
        try booth.send(.pick(mine, by: booth.host))
        #expect(booth.session.queue.map(\.song) == [mine])
        #expect(booth.statuses == [.upNext])
        #expect(booth.session.turn == .ai)
        #expect(booth.request?.purpose == .turn)
        #expect(booth.session.direction == nil)
        // The AI's pick that played is in the persona's memory; the backup, dropped
        // unplayed, is not (it used to be kept out of the AI's picks for a day).
        try booth.send(.finished(try #require(booth.session.nowPlaying?.id)))
        #expect(booth.remembered.map(\.title) == ["Song 2"], "\(booth.remembered.map(\.title))")
        #expect(!booth.remembered.contains(backup))
    }

    @Test func aBackupThatPlaysLeavesTheTurnWithThePerson() throws {
        var (booth, backup) = try Self.personsTurnWithBackup()
        try booth.send(.finished(try #require(booth.session.nowPlaying?.id)))
        #expect(booth.session.nowPlaying?.song == backup)
        #expect(booth.session.turn == .person(booth.host))
        #expect(booth.request?.purpose == .backup)  // and a new backup is on its way
    }

    @Test func aBackupAnsweredAfterThePersonPickedIsDropped() throws {
        var booth = Booth()
        try booth.send(.pick(song(1), by: booth.host))
        try booth.send(.aiPicked(try #require(booth.request?.task), song(2), rationale: "r"))
        try booth.send(.finished(try #require(booth.session.nowPlaying?.id)))
        let backupTask = try #require(booth.request?.task)
        // The person picks before the backup arrives; the late backup must not appear.
        try booth.send(.pick(song(4), by: booth.host))
        let turnTask = try #require(booth.request?.task)
        #expect(turnTask != backupTask)
        let before = booth.session
        #expect(try booth.send(.aiPicked(backupTask, song(9), rationale: "late")) == [])
        #expect(booth.session == before)
        try booth.send(.aiPicked(turnTask, song(5), rationale: "mine"))
        #expect(booth.session.queue.map(\.song.title) == ["Song 4", "Song 5"])
        #expect(booth.statuses == [.upNext, .upNext])
    }

    @Test func aDirectionChangeReplacesTheBackupAndTheTurnStays() throws {
        var (booth, _) = try Self.personsTurnWithBackup()
        let suggestionTask = try #require(booth.session.directionTask)
        let direction = Direction(label: "West Coast vibes", prompt: "West Coast psychedelic rock", towardGenre: "Psychedelic")
        // A suggestion for an old task is dropped; the current one is shown.
        try booth.send(.directionSuggested(AITaskID(), Direction(label: "Old idea here", prompt: "old")))
        #expect(booth.session.direction == nil)
        try booth.send(.directionSuggested(suggestionTask, direction))
        #expect(booth.session.direction == direction)

        try booth.send(.takeDirection(by: booth.host))
        #expect(booth.session.queue.isEmpty)  // the old backup is gone
        #expect(booth.session.turn == .person(booth.host))
        let request = try #require(booth.request)
        #expect(request.purpose == .backup && request.direction == direction)
        #expect(booth.directionTask != nil && booth.session.direction == nil)  // a fresh label is on its way
        let pick = song(7, genre: "Psychedelic")
        try booth.send(.aiPicked(request.task, pick, rationale: "west"))
        #expect(booth.session.queue.first?.direction == "West Coast vibes")
        #expect(booth.statuses == [.queuedIfUserSkips])
        // Without a suggestion on offer, there is nothing to take.
        #expect(throws: SessionError.conflict("No direction change is on offer yet.")) { try booth.send(.takeDirection(by: booth.host)) }
    }

    /// Juke's own DJ covering for an AI whose direction it could not follow: its pick plays,
    /// without the direction's label.
    @Test func aPickThatIgnoredTheDirectionDoesNotWearItsLabel() throws {
        var (booth, _) = try Self.personsTurnWithBackup()
        try booth.send(.directionSuggested(try #require(booth.session.directionTask), Direction(label: "Moody late night", prompt: "moody")))
        try booth.send(.takeDirection(by: booth.host))
        let request = try #require(booth.request)
        try booth.send(.aiPicked(request.task, song(8), rationale: "stand-in", followedDirection: false))
        #expect(booth.session.queue.first?.song.title == "Song 8" && booth.session.queue.first?.direction == nil)
    }

    @Test func labelsThatDoNotFitAButtonAreNotOffered() throws {
        var (booth, _) = try Self.personsTurnWithBackup()
        let task = try #require(booth.session.directionTask)
        try booth.send(.directionSuggested(task, Direction(label: "A label that is far too long for a button", prompt: "p")))
        #expect(booth.session.direction == nil)
    }

    @Test func tappingAQueuedSongPlaysItAndPassesOverTheOnesBefore() throws {
        var booth = Booth()
        try booth.send(.pick(song(1), by: booth.host))
        try booth.send(.aiPicked(try #require(booth.request?.task), song(2), rationale: "r"))
        try booth.send(.finished(try #require(booth.session.nowPlaying?.id)))  // AI's song plays; my turn
        try booth.send(.pick(song(3), by: booth.host))
        try booth.send(.aiPicked(try #require(booth.request?.task), song(4), rationale: "r"))
        #expect(booth.session.queue.map(\.song.title) == ["Song 3", "Song 4"])
        let aiPick = try #require(booth.session.queue.last?.id)
        try booth.send(.skipTo(aiPick, by: booth.host))
        #expect(booth.session.nowPlaying?.song.title == "Song 4")
        // My own pick, passed over, is in the history as skipped and never started: it used
        // to vanish without a trace.
        #expect(booth.session.history.map(\.song.title) == ["Song 1", "Song 2", "Song 3"])
        #expect(booth.session.history.suffix(2).allSatisfy { $0.skipped })
        #expect(booth.session.history.last?.startedAt == nil && booth.session.history[1].startedAt != nil)
        #expect(booth.session.turn == .person(booth.host))  // the AI's own pick started
        #expect(throws: SessionError.notFound("That song is not in the queue.")) { try booth.send(.skipTo(EntryID(), by: booth.host)) }
    }

    @Test func skipPlaysTheNextSong() throws {
        var (booth, backup) = try Self.personsTurnWithBackup()
        try booth.send(.skip(by: booth.host))
        #expect(booth.session.nowPlaying?.song == backup)
        #expect(booth.session.history.last?.skipped == true)
    }

    @Test func nearTheEndTheNextSongIsLoadedOrHurried() throws {
        var booth = Booth()
        try booth.send(.pick(song(1), by: booth.host))
        let playing = try #require(booth.session.nowPlaying?.id)
        let task = try #require(booth.request?.task)
        #expect(try booth.send(.progress(playing, fraction: 0.5)) == [])
        // 95% with the AI still choosing: it is hurried (Juke's own picker answers at once).
        #expect(try booth.send(.progress(playing, fraction: 0.95)) == [.hurry(task)])
        #expect(try booth.send(.progress(playing, fraction: 0.97)) == [])
        #expect(try booth.send(.progress(playing, fraction: 0.99)) == [.hurry(task)])
        // The answer arrives late: loaded at once, since the song is near its end.
        let actions = try booth.send(.aiPicked(task, song(2), rationale: "r"))
        #expect(actions.contains(.preload(try #require(booth.session.queue.first))))
        #expect(throws: SessionError.self) { try booth.send(.progress(playing, fraction: 1.5)) }
        #expect(throws: SessionError.self) { try booth.send(.progress(playing, fraction: .nan)) }
    }

    @Test func nearTheEndWithSomethingQueuedItIsPreloadedOnce() throws {
        var (booth, _) = try Self.personsTurnWithBackup()
        let playing = try #require(booth.session.nowPlaying?.id)
        let next = try #require(booth.session.queue.first)
        #expect(try booth.send(.progress(playing, fraction: 0.96)) == [.preload(next)])
        #expect(try booth.send(.progress(playing, fraction: 0.98)) == [])
    }

    @Test func aRepeatedOrStaleEndReportChangesNothing() throws {
        var (booth, _) = try Self.personsTurnWithBackup()
        let playing = try #require(booth.session.nowPlaying?.id)
        try booth.send(.finished(playing))
        let after = booth.session
        #expect(try booth.send(.finished(playing)) == [])
        #expect(booth.session == after)
    }

    @Test func onlyMembersActAndOnlyOnTheirTurn() throws {
        var booth = Booth()
        let stranger = UserID()
        #expect(throws: SessionError.forbidden("Only the people in this session can do that.")) {
            try booth.send(.pick(song(1), by: stranger))
        }
        #expect(throws: SessionError.forbidden("Only the people in this session can do that.")) { try booth.send(.skip(by: stranger)) }
        #expect(throws: SessionError.conflict("Nothing is playing.")) { try booth.send(.skip(by: booth.host)) }
        #expect(throws: SessionError.forbidden("Only the host chooses the DJ persona.")) {
            try booth.send(.changePersona(PersonaID(), by: stranger))
        }
    }

    @Test func theAIMayStartTheSession() throws {
        var booth = Booth()
        try booth.send(.letAIStart(by: booth.host))
        #expect(booth.session.turn == .ai)
        let first = song(1)
        try booth.send(.aiPicked(try #require(booth.request?.task), first, rationale: "opener"))
        #expect(booth.session.nowPlaying?.song == first)
        #expect(booth.session.turn == .person(booth.host))
        #expect(throws: SessionError.self) { try booth.send(.letAIStart(by: booth.host)) }
    }

    @Test func whenTheAIFailsItsTurnPassesToAPerson() throws {
        var booth = Booth()
        try booth.send(.pick(song(1), by: booth.host))
        try booth.send(.aiFailed(try #require(booth.request?.task), reason: "Nothing in the library fits."))
        #expect(booth.session.turn == .person(booth.host))
        #expect(booth.session.problem == "Nothing in the library fits.")
        #expect(!booth.session.isAIThinking)
        try booth.send(.pick(song(2), by: booth.host))
        #expect(booth.session.problem == nil)
    }

    @Test func anAIPickAlreadyQueuedIsAskedForAgain() throws {
        var booth = Booth()
        let a = song(1)
        try booth.send(.pick(a, by: booth.host))
        let task = try #require(booth.request?.task)
        let actions = try booth.send(.aiPicked(task, a, rationale: "again"))
        let retry = try #require(booth.request)
        #expect(retry.task != task && retry.purpose == .turn)
        #expect(actions == [.requestPick(retry)])
        #expect(booth.session.queue.isEmpty)
    }

    @Test func changingThePersonaAsksTheNewOneForThePendingPick() throws {
        var booth = Booth()
        try booth.send(.pick(song(1), by: booth.host))
        let old = try #require(booth.request?.task)
        let persona = PersonaID()
        try booth.send(.changePersona(persona, by: booth.host))
        #expect(booth.session.persona == persona)
        let new = try #require(booth.request)
        #expect(new.task != old && new.purpose == .turn)
        #expect(try booth.send(.aiPicked(old, song(2), rationale: "old persona")) == [])
    }

    @Test func peopleInOneSessionTakeTurnsWithTheAIInJoinOrder() throws {
        var booth = Booth()
        let guest = UserID()
        try booth.send(.join(guest))
        #expect(booth.session.members == [booth.host, guest])
        var pickers: [Picker] = []
        for n in 0..<3 {
            guard case .person(let who) = booth.session.turn else { Issue.record("expected a person's turn"); return }
            pickers.append(.person(who))
            #expect(throws: SessionError.conflict("It is someone else's turn.")) {
                var copy = booth
                try copy.send(.pick(song(100 + n), by: who == guest ? booth.host : guest))
            }
            try booth.send(.pick(song(2 * n), by: who))
            try booth.send(.aiPicked(try #require(booth.request?.task), song(2 * n + 1), rationale: "r"))
            pickers.append(.ai)
            // Play until the AI's pick starts and the turn moves on.
            while booth.session.turn == .ai, let id = booth.session.nowPlaying?.id { try booth.send(.finished(id)) }
        }
        #expect(pickers == [.person(booth.host), .ai, .person(guest), .ai, .person(booth.host), .ai])
    }

    @Test func someoneLeavingOnTheirTurnPassesItOn() throws {
        var booth = Booth()
        let guest = UserID()
        try booth.send(.join(guest))
        try booth.send(.pick(song(1), by: booth.host))
        try booth.send(.aiPicked(try #require(booth.request?.task), song(2), rationale: "r"))
        try booth.send(.finished(try #require(booth.session.nowPlaying?.id)))
        #expect(booth.session.turn == .person(guest))
        try booth.send(.leave(guest))
        #expect(booth.session.turn == .person(booth.host))
        #expect(throws: SessionError.conflict("The host cannot leave their own session.")) { try booth.send(.leave(booth.host)) }
    }

    @Test func aSessionHoldsAtMostTwentyPeople() throws {
        var booth = Booth()
        for _ in 1..<DJSession.memberLimit { try booth.send(.join(UserID())) }
        #expect(throws: SessionError.self) { try booth.send(.join(UserID())) }
    }

    @Test func refusedEventsChangeNothing() throws {
        var booth = Booth()
        let before = booth.session
        _ = try? booth.send(.skip(by: booth.host))
        _ = try? booth.send(.takeDirection(by: booth.host))
        #expect(booth.session == before)
    }
}
