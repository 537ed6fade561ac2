import Foundation
import JukeCore
import Testing

@testable import Back2Back

/// Whole sets played through the rules with Juke's own DJ answering every request, the way the
/// server runs a session with no AI: a person who sometimes picks, sometimes lets the backup
/// play, taps queued songs, skips and takes direction changes. Invariants are checked after
/// every step.
@Suite("Back2Back sets, simulated", .timeLimit(.minutes(5)))
struct DJSetSimulationTests {
    struct Run {
        var booth = Booth()
        var memory = SongMemory()
        var djGenerator: SplitMix64
        var person: SplitMix64
        var library = demoSongs
        let persona = Persona.builtIns(at: Date(timeIntervalSince1970: 0))[0]
        var pendingPicks: [AIRequest] = []
        var pendingDirections: [AITaskID] = []
        var silentFinishes = 0
        /// How often each kind of step ran, so the test shows it exercised them.
        var counts: [String: Int] = [:]

        init(seed: UInt64) {
            djGenerator = SplitMix64(seed: seed)
            person = SplitMix64(seed: seed &+ 1)
        }

        var recent: [Song] { booth.session.history.map(\.song) + (booth.session.nowPlaying.map { [$0.song] } ?? []) }

        mutating func handle(_ actions: [SessionAction]) {
            for action in actions {
                switch action {
                case .requestPick(let request): pendingPicks.append(request)
                case .requestDirection(let task): pendingDirections.append(task)
                case .remember(let song, _): memory.remember(song, persona: booth.session.persona, at: booth.now)
                case .hurry, .play, .preload: break
                }
            }
        }

        /// Answers the requests, oldest first; superseded ones get answered too, to prove they are dropped.
        mutating func answer() throws {
            while !pendingDirections.isEmpty {
                let task = pendingDirections.removeFirst()
                if let d = DirectionPlanner().suggest(after: recent, library: library, using: &djGenerator) {
                    handle(try booth.send(.directionSuggested(task, d)))
                }
            }
            while !pendingPicks.isEmpty {
                let request = pendingPicks.removeFirst()
                let excluded = SongExclusions(memory.recent(persona: persona.id, at: booth.now).map(\.key), songs: booth.session.entries.map(\.song))
                if let pick = PersonaDJ().pick(
                    for: persona, from: library, after: recent, excluding: excluded, direction: request.direction, using: &djGenerator)
                {
                    handle(try booth.send(.aiPicked(request.task, pick.song, rationale: pick.rationale)))
                } else {
                    handle(try booth.send(.aiFailed(request.task, reason: "Nothing left to play.")))
                }
            }
        }

        func check() {
            let s = booth.session
            // Never the same track twice among what is playing and queued.
            let live = s.queue.map(\.song.track) + (s.nowPlaying.map { [$0.song.track] } ?? [])
            #expect(Set(live).count == live.count)
            // At most one backup, only on a person's turn, and always last.
            let backups = s.queue.filter { $0.status == .queuedIfUserSkips }
            #expect(backups.count <= 1)
            if !backups.isEmpty {
                #expect(s.turn != .ai)
                #expect(s.queue.last?.status == .queuedIfUserSkips)
            }
            // The AI's turn pick waits only on the AI's turn.
            if s.queue.contains(where: { $0.pickedBy == .ai && $0.status == .upNext }) { #expect(s.turn == .ai) }
            // A direction is offered only on a person's turn.
            if s.direction != nil { #expect(s.turn != .ai) }
            #expect(s.history.allSatisfy { $0.status == .played })
            #expect(s.nowPlaying.map { $0.status == .playing } ?? true)
        }

        mutating func step() throws {
            try answer()
            check()
            let roll = Int.random(in: 0..<10, using: &person)
            let s = booth.session
            if case .person(let me) = s.turn, roll < 4 {
                let options = library.filter { song in !s.entries.contains { $0.song.track == song.track } }
                if let choice = options.randomElement(using: &person) {
                    handle(try booth.send(.pick(choice, by: me)))
                    counts["pick", default: 0] += 1
                }
            } else if case .person(let me) = s.turn, roll == 4, s.direction != nil {
                handle(try booth.send(.takeDirection(by: me)))
                counts["direction", default: 0] += 1
            } else if roll == 5, let target = s.queue.last {
                handle(try booth.send(.skipTo(target.id, by: booth.host)))
                counts["skipTo", default: 0] += 1
            } else if roll == 6, s.nowPlaying != nil {
                handle(try booth.send(.skip(by: booth.host)))
                counts["skip", default: 0] += 1
            } else if let playing = s.nowPlaying {
                handle(try booth.send(.progress(playing.id, fraction: 0.95)))
                try answer()
                handle(try booth.send(.finished(playing.id)))
                if booth.session.nowPlaying == nil { silentFinishes += 1 }
                counts["finished", default: 0] += 1
            }
            try answer()
            check()
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func aLongSetKeepsEveryRuleAndTheMusicNeverStops(seed: UInt64) throws {
        var run = Run(seed: seed)
        run.handle(try run.booth.send(.pick(demoSongs[0], by: run.booth.host)))
        for _ in 0..<30 { try run.step() }  // the demo library has 47 songs
        // Every finished song found another ready: the backup or the AI's pick was always there.
        #expect(run.silentFinishes == 0)
        #expect(run.counts["pick", default: 0] > 0 && run.counts["finished", default: 0] > 0)
        #expect(run.counts["skip", default: 0] + run.counts["skipTo", default: 0] > 0)
        #expect(run.booth.session.history.count >= 12)
        // Both sides picked, and the AI explained each of its picks.
        let entries = run.booth.session.entries
        #expect(entries.contains { $0.pickedBy == .ai } && entries.contains { $0.pickedBy == .person(run.booth.host) })
        #expect(entries.filter { $0.pickedBy == .ai }.allSatisfy { !($0.rationale ?? "").isEmpty })
        // The persona did not repeat itself.
        let aiTracks = entries.filter { $0.pickedBy == .ai }.map(\.song.track)
        #expect(Set(aiTracks).count == aiTracks.count)
    }
}
