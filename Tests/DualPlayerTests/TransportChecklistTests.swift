import Foundation
import Testing

@testable import DualPlayer

/// Every row of the seed's lock-screen and interruption checklist, from the table the web
/// client's copy of these rules is tested against too.
@Suite(.timeLimit(.minutes(5))) struct TransportChecklistTests {
    struct Table: Decodable {
        let rows: [Row]
    }

    struct Row: Decodable, CustomTestStringConvertible {
        struct Given: Decodable {
            let music: String
            let speech: String
            let wasPlaying: [String]?
        }
        struct Expect: Decodable {
            let shown: String
            let playing: Bool
            let music: String
            let speech: String
            let actions: [String]
        }
        let check: String
        let given: Given
        let events: [String]
        let expect: Expect
        var testDescription: String { check }
    }

    static let rows: [Row] = {
        guard let url = Bundle.module.url(forResource: "Fixtures/transport-checklist", withExtension: "json"),
            let data = try? Data(contentsOf: url), let table = try? JSONDecoder().decode(Table.self, from: data)
        else { return [] }
        return table.rows
    }()

    static func player(_ word: String) -> Transport.Player {
        Transport.Player(hasMedia: word != "empty", isPlaying: word == "playing")
    }

    static func word(_ player: Transport.Player) -> String { !player.hasMedia ? "empty" : player.isPlaying ? "playing" : "paused" }

    static func event(_ text: String) throws -> TransportEvent {
        let parts = text.split(separator: " ").map(String.init)
        let kind = parts.count > 1 ? PlayerKind(rawValue: parts[1]) : nil
        switch (parts[0], kind) {
        case ("loaded", .some(let k)): return .loaded(k)
        case ("unloaded", .some(let k)): return .unloaded(k)
        case ("userPlay", .some(let k)): return .userPlay(k)
        case ("userPause", .some(let k)): return .userPause(k)
        case ("interrupted", .some(let k)): return .interrupted(k)
        case ("finished", .some(let k)): return .finished(k)
        case ("mediaToggle", nil): return .mediaToggle
        case ("mediaPlay", nil): return .mediaPlay
        case ("mediaPause", nil): return .mediaPause
        default: throw RowError(text: text)
        }
    }

    struct RowError: Error { let text: String }

    static func describe(_ action: TransportAction) -> String {
        switch action {
        case .play(let k): "play \(k.rawValue)"
        case .pause(let k): "pause \(k.rawValue)"
        }
    }

    @Test func theTableHasEveryChecklistRow() {
        #expect(Self.rows.count >= 20)
        let checks = Self.rows.map(\.check).joined(separator: "\n")
        for phrase in [
            "Play music only", "Play speech only", "Play both", "Pause while both play", "Pause music only", "Pause speech only",
            "Tap the headset while both play", "Tap the headset again", "Phone call", "Voice assistant", "Unplug headphones", "After a reload",
        ] {
            #expect(checks.contains(phrase), "missing: \(phrase)")
        }
    }

    @Test(arguments: rows)
    func row(_ row: Row) throws {
        let wasPlaying =
            row.given.wasPlaying.map(Set.init) ?? Set(["music", "speech"].filter { ($0 == "music" ? row.given.music : row.given.speech) == "playing" })
        var state = Transport(
            music: Self.player(row.given.music), speech: Self.player(row.given.speech),
            musicWasPlaying: wasPlaying.contains("music"), speechWasPlaying: wasPlaying.contains("speech"))
        var actions: [String] = []
        for text in row.events {
            let (next, done) = TransportRules.apply(try Self.event(text), to: state)
            state = next
            actions += done.map(Self.describe)
        }
        let shown = NowPlaying.decide(state)
        #expect(shown.shown.rawValue == row.expect.shown)
        #expect(shown.isPlaying == row.expect.playing)
        #expect(Self.word(state.music) == row.expect.music)
        #expect(Self.word(state.speech) == row.expect.speech)
        #expect(actions == row.expect.actions)
    }

    @Test func theLockScreenButtonsMoveTheRightPlayer() {
        #expect(NowPlaying(shown: .combined, isPlaying: true).seekTarget() == .speech)
        #expect(NowPlaying(shown: .combined, isPlaying: true).trackTarget() == .music)
        #expect(NowPlaying(shown: .music, isPlaying: false).seekTarget() == .music)
        #expect(NowPlaying(shown: .speech, isPlaying: false).trackTarget() == .speech)
        #expect(NowPlaying(shown: .nothing, isPlaying: false).seekTarget() == nil)
        #expect(NowPlaying.combinedTitle(music: "Clair de Lune", speech: "Chapter 3") == "Clair de Lune + Chapter 3")
    }
}
