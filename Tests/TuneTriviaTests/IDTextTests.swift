import Foundation
import JukeCore
import Testing
import TuneTrivia

/// IDs are written by hand (`UUID.lowercasedString`): the same text as Foundation's.
@Suite(.timeLimit(.minutes(5))) struct IDTextTests {
    @Test func anIDIsWrittenAsFoundationWritesItLowercased() {
        var generator = SystemRandomNumberGenerator()
        var uuids = (0..<2000).map { _ in UUID() } + [UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))]
        uuids.append(UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255)))
        for uuid in uuids {
            #expect(uuid.lowercasedString == uuid.uuidString.lowercased())
        }
        let player = PlayerID.random(using: &generator)
        #expect(player.description == player.rawValue.uuidString.lowercased())
        #expect(PlayerID(player.description) == player)
    }
}
