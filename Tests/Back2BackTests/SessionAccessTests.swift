import Foundation
import JukeCore
import Testing

@testable import Back2Back

/// Who may see and end a session, what a new one is called, and which persona it takes:
/// the engine's rules, not the service's.
@Suite("Back2Back access, titles and persona choice", .timeLimit(.minutes(5)))
struct SessionAccessTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func onlyMembersSeeASessionAndOnlyTheHostEndsIt() throws {
        let host = UserID(), guest = UserID(), stranger = UserID()
        var session = DJSession(host: host, persona: PersonaID(), at: now)
        var generator = SplitMix64(seed: 1)
        _ = try session.apply(.join(guest), at: now, using: &generator)
        try session.requireViewer(host)
        try session.requireViewer(guest)
        #expect(throws: RuleRefusal.forbidden("Only the people in this session can see it; ask for its invite link.")) {
            try session.requireViewer(stranger)
        }
        try session.requireHost(host)
        #expect(throws: RuleRefusal.forbidden("Only the host can delete the session.")) { try session.requireHost(guest) }
    }

    @Test func aSessionIsCalledWhatTheHostSaysOrAfterTheHostAndTheDJ() throws {
        #expect(try DJSession.title("  Sunday set ", host: "Ann", persona: "Rare Groove Collector") == "Sunday set")
        #expect(try DJSession.title(nil, host: "Ann", persona: "Rare Groove Collector") == "Ann × Rare Groove Collector")
        #expect(try DJSession.title("   ", host: "Ann", persona: "Juke") == "Ann × Juke")
        #expect(throws: RuleRefusal.invalid("title", "A title has at most 100 characters.")) {
            try DJSession.title(String(repeating: "x", count: 101), host: "Ann", persona: "Juke")
        }
    }

    @Test func thePersonaAskedForElseTheLastElseTheRareGrooveCollector() throws {
        let owner = UserID()
        var personas = Persona.builtIns(at: now)
        for i in personas.indices {
            personas[i].id = PersonaID()
            personas[i].owner = owner
        }
        let groove = try #require(personas.first { $0.name == "Rare Groove Collector" })
        let other = try #require(personas.first { $0.name != "Rare Groove Collector" })
        #expect(try PersonaChoice.choose(requested: other.id, mine: personas, last: nil) == .persona(other))
        #expect(try PersonaChoice.choose(requested: nil, mine: personas, last: other.id) == .persona(other))
        #expect(try PersonaChoice.choose(requested: nil, mine: personas, last: PersonaID()) == .persona(groove))
        #expect(try PersonaChoice.choose(requested: nil, mine: [other], last: nil) == .persona(other))
        #expect(try PersonaChoice.choose(requested: nil, mine: [], last: nil) == .restoreBuiltIns)
        #expect(throws: RuleRefusal.notFound("No such persona of yours.")) {
            try PersonaChoice.choose(requested: PersonaID(), mine: personas, last: nil)
        }
    }
}
