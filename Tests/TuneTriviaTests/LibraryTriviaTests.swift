import JukeCore
import Testing

@testable import TuneTrivia

/// Juke's own trivia, from library facts: always usable, always right.
@Suite(.timeLimit(.minutes(5))) struct LibraryTriviaTests {
    typealias F = LibraryTrivia.Facts
    static let library: [F] = [
        F(
            track: TrackID(), title: "Ode to Joy", artist: "Ludwig van Beethoven", album: "Symphony No. 9", year: 1824, composer: "Ludwig van Beethoven",
            genre: "Symphony"),
        F(
            track: TrackID(), title: "Für Elise", artist: "Ludwig van Beethoven", album: "Bagatelles", year: 1810, composer: "Ludwig van Beethoven",
            genre: "Piano"),
        F(track: TrackID(), title: "The Entertainer", artist: "Scott Joplin", album: "Rags", year: 1902, composer: "Scott Joplin", genre: "Ragtime"),
        F(track: TrackID(), title: "Maple Leaf Rag", artist: "Scott Joplin", album: "Rags", year: 1899, composer: "Scott Joplin"),
        F(track: TrackID(), title: "Greensleeves", artist: "Traditional", album: "Folk Songs", year: nil, composer: nil, genre: "Folk"),
        F(track: TrackID(), title: "Scarborough Fair", artist: "Traditional", album: "Folk Songs", year: 1670, composer: "Traditional"),
        F(track: TrackID(), title: "Canon in D", artist: "Demo Ensemble", album: "Baroque", year: 1680, composer: "Johann Pachelbel"),
        F(track: TrackID(), title: "Spring", artist: "Demo Ensemble", album: "The Four Seasons", year: 1725, composer: "Antonio Vivaldi"),
    ]

    @Test func everyQuestionIsUsableAndItsAnswerIsTheLibrarys() throws {
        var rng = SplitMix64(seed: 5)
        var kinds: Set<String> = []
        for _ in 0..<20 {
            for song in Self.library {
                let trivia = try #require(LibraryTrivia.question(about: song, library: Self.library, using: &rng), "\(song.title)")
                // Each kind's answer, worked out from the tags (LibraryTriviaGameTests.verify).
                #expect(LibraryTriviaGameTests.verify(trivia, about: song, in: Self.library) == nil, "\(song.title): \(trivia)")
                kinds.insert(trivia.kind ?? "")
            }
        }
        // What these tags hold: no track numbers, no album of several artists.
        #expect(kinds == ["year", "era", "album", "composer", "other_song", "genre", "oldest"])
    }

    /// "Also by Traditional?" reads as if Traditional were a band: placeholder artists are
    /// never named as one, and a traditional song's sibling is asked about as traditional.
    @Test func placeholderArtistsAreNeverNamedAsAnAuthor() throws {
        var rng = SplitMix64(seed: 3)
        var askedAboutSibling = false
        for _ in 0..<60 {
            for song in Self.library where song.artist == "Traditional" {
                let trivia = try #require(LibraryTrivia.question(about: song, library: Self.library, using: &rng))
                #expect(!trivia.question.contains("by Traditional"), "\(trivia.question)")
                #expect(trivia.answer != "Traditional")
                if trivia.question.contains("traditional song") {
                    askedAboutSibling = true
                    #expect(Self.library.contains { $0.title == trivia.answer && $0.artist == "Traditional" && $0.title != song.title })
                }
            }
        }
        #expect(askedAboutSibling)
        let old = F(track: TrackID(), title: "Air", artist: "Johann Sebastian Bach", album: "Suite", year: 1730, composer: nil)
        var seeded = SplitMix64(seed: 1)
        let year = try #require(LibraryTrivia.yearQuestion(old, Self.library, &seeded))
        #expect(year.question == "In which year was \"Air\" by Johann Sebastian Bach written?")
    }

    /// Trivia on means a question every round: a song the library knows nothing else about
    /// is asked about by its length, which every track has.
    @Test func aSongWithOnlyALengthStillGetsAQuestion() throws {
        var rng = SplitMix64(seed: 2)
        let bare = F(track: TrackID(), title: "Untitled 4", artist: "Unknown", album: "", year: nil, composer: nil, duration: 187.4)
        for _ in 0..<50 {
            let trivia = try #require(LibraryTrivia.question(about: bare, library: [bare], using: &rng))
            #expect(trivia.check() == nil)
            #expect(trivia.answer == "3:07")
            #expect(trivia.question == "How long is this recording of \"Untitled 4\"?")
            let seconds = trivia.options.map { option in option.split(separator: ":").compactMap { Int($0) }.reduce(0) { $0 * 60 + $1 } }
            #expect(seconds == seconds.sorted())
            #expect(zip(seconds, seconds.dropFirst()).allSatisfy { pair in pair.1 - pair.0 >= 10 })
        }
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
