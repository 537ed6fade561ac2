import JukeCore
import Testing

@testable import TuneTrivia

/// Juke's own trivia, from library facts: always usable, always right.
@Suite(.timeLimit(.minutes(5))) struct LibraryTriviaTests {
    typealias F = LibraryTrivia.Facts
    static let library: [F] = [
        F(track: TrackID(), title: "Ode to Joy", artist: "Ludwig van Beethoven", album: "Symphony No. 9", year: 1824, composer: "Ludwig van Beethoven"),
        F(track: TrackID(), title: "Für Elise", artist: "Ludwig van Beethoven", album: "Bagatelles", year: 1810, composer: "Ludwig van Beethoven"),
        F(track: TrackID(), title: "The Entertainer", artist: "Scott Joplin", album: "Rags", year: 1902, composer: "Scott Joplin"),
        F(track: TrackID(), title: "Maple Leaf Rag", artist: "Scott Joplin", album: "Rags", year: 1899, composer: "Scott Joplin"),
        F(track: TrackID(), title: "Greensleeves", artist: "Traditional", album: "Folk Songs", year: nil, composer: nil),
        F(track: TrackID(), title: "Canon in D", artist: "Demo Ensemble", album: "Baroque", year: 1680, composer: "Johann Pachelbel"),
        F(track: TrackID(), title: "Spring", artist: "Demo Ensemble", album: "The Four Seasons", year: 1725, composer: "Antonio Vivaldi"),
    ]

    @Test func everyQuestionIsUsableAndItsAnswerIsTheLibrarys() throws {
        var rng = SplitMix64(seed: 5)
        var kinds: Set<String> = []
        for _ in 0..<20 {
            for song in Self.library {
                let trivia = try #require(LibraryTrivia.question(about: song, library: Self.library, using: &rng), "\(song.title)")
                #expect(trivia.check() == nil)
                #expect(trivia.source == "library")
                if trivia.question.hasPrefix("In which year") {
                    #expect(trivia.answer == song.year.map(String.init))
                    kinds.insert("year")
                } else if trivia.question.hasPrefix("On which album") {
                    #expect(trivia.answer == song.album)
                    kinds.insert("album")
                } else if trivia.question.hasPrefix("Who composed") {
                    #expect(trivia.answer == song.composer)
                    kinds.insert("composer")
                } else {
                    let byArtist = Self.library.filter { $0.artist == song.artist && $0.title != song.title }.map(\.title)
                    #expect(byArtist.contains(trivia.answer))
                    // The wrong options are by someone else.
                    for option in trivia.options where option != trivia.answer {
                        #expect(!Self.library.contains { $0.title == option && $0.artist == song.artist })
                    }
                    kinds.insert("other song")
                }
            }
        }
        #expect(kinds == ["year", "album", "composer", "other song"])
    }

    @Test func aLibraryTooSmallGetsNoQuestion() {
        var rng = SplitMix64(seed: 1)
        let lonely = F(track: TrackID(), title: "Only Song", artist: "Nobody", album: "", year: nil, composer: nil)
        #expect(LibraryTrivia.question(about: lonely, library: [lonely], using: &rng) == nil)
    }

    @Test func theSameSeedAsksTheSameQuestion() {
        var a = SplitMix64(seed: 9), b = SplitMix64(seed: 9)
        #expect(
            LibraryTrivia.question(about: Self.library[0], library: Self.library, using: &a)
                == LibraryTrivia.question(about: Self.library[0], library: Self.library, using: &b))
    }
}
