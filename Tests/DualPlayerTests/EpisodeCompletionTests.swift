import Testing

@testable import DualPlayer

/// An episode heard to its last seconds counts as played.
@Suite(.timeLimit(.minutes(5))) struct EpisodeCompletionTests {
    @Test func theLastSecondsCountAsTheEnd() {
        #expect(EpisodeCompletion.isHeard(position: 1800, duration: 1800))
        #expect(EpisodeCompletion.isHeard(position: 1799, duration: 1800), "one second left: \"0:00 left\"")
        #expect(EpisodeCompletion.isHeard(position: 1795, duration: 1800))
        #expect(!EpisodeCompletion.isHeard(position: 1790, duration: 1800))
        #expect(EpisodeCompletion.isHeard(position: 2000, duration: 1800), "past a feed's duration that was short")
    }

    @Test func aShortEpisodeKeepsAShortMargin() {
        #expect(EpisodeCompletion.isHeard(position: 19, duration: 20))
        #expect(!EpisodeCompletion.isHeard(position: 15, duration: 20))
        #expect(EpisodeCompletion.margin(duration: 4) == 1)
    }

    @Test func anUnknownOrBrokenDurationOrNoPositionSaysNothing() {
        #expect(!EpisodeCompletion.isHeard(position: 100, duration: nil))
        #expect(!EpisodeCompletion.isHeard(position: 100, duration: 0))
        #expect(!EpisodeCompletion.isHeard(position: 100, duration: .infinity))
        #expect(!EpisodeCompletion.isHeard(position: .nan, duration: 3))
        #expect(!EpisodeCompletion.isHeard(position: 0, duration: 0.5))
    }
}
