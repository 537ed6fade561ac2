import Testing

@testable import Matching

@Suite(.timeLimit(.minutes(5))) struct TrackResolverTests {
    typealias C = TrackResolver.Candidate<Int>
    static let library: [C] = [
        C(id: 1, artist: "Queen", title: "Bohemian Rhapsody", album: "A Night at the Opera", duration: 354),
        C(id: 2, artist: "Queen", title: "Bohemian Rhapsody - Live at Wembley '86", duration: 360),
        C(id: 3, artist: "Karaoke Hits Band", title: "Bohemian Rhapsody (Karaoke Version)", duration: 355),
        C(id: 4, artist: "Pink Floyd", title: "Another Brick in the Wall, Pt. 1", duration: 190),
        C(id: 5, artist: "Pink Floyd", title: "Another Brick in the Wall, Pt. 2", duration: 239, isrc: "GBN9Y1100088"),
        C(id: 6, artist: "Beyoncé", title: "Crazy in Love (feat. Jay-Z)", duration: 236),
        C(id: 7, artist: "The Beatles", title: "Yesterday - Remastered 2009", duration: 125),
        C(id: 8, artist: "Queen", title: "Bohemian Rhapsody - Remastered 2011", duration: 355),
        C(id: 9, artist: "Boyz II Men", title: "Yesterday", duration: 184),
    ]

    func resolve(_ artist: String, _ title: String, duration: Double? = nil, isrc: String? = nil) -> TrackResolver.Result<Int> {
        TrackResolver().resolve(.init(artist: artist, title: title, duration: duration, isrc: isrc), in: Self.library)
    }

    func matchedID(_ r: TrackResolver.Result<Int>) -> Int? {
        if case .match(let m) = r { return m.candidate.id }
        return nil
    }

    @Test func prefersTheOriginalOverLiveAndKaraoke() {
        let id = matchedID(resolve("Queen", "Bohemian Rhapsody"))
        #expect(id == 1 || id == 8, "the studio recording, remastered or not")
        #expect(matchedID(resolve("Queen", "Bohemian Rhapsody (Live)")) == 2)
    }

    @Test func usesTheDurationToBreakTies() {
        #expect(matchedID(resolve("Queen", "Bohemian Rhapsody", duration: 355)) == 8)
        #expect(matchedID(resolve("Queen", "Bohemian Rhapsody", duration: 353)) == 1)
    }

    @Test func needsBothArtistAndTitle() {
        // The same title by someone else is not a match.
        guard case .noMatch(let nearest) = resolve("Elvis Presley", "Bohemian Rhapsody") else {
            Issue.record("matched a song by another artist")
            return
        }
        #expect(!nearest.isEmpty)
        #expect(nearest.first?.candidate.title.hasPrefix("Bohemian Rhapsody") == true)
        #expect(matchedID(resolve("The Beatles", "Yesterday")) == 7)
        #expect(matchedID(resolve("Boyz II Men", "Yesterday")) == 9)
    }

    @Test func keepsPartsApartAndTrustsISRC() {
        #expect(matchedID(resolve("Pink Floyd", "Another Brick in the Wall Part 2")) == 5)
        #expect(matchedID(resolve("Pink Floyd", "Another Brick in the Wall (Part I)")) == 4)
        #expect(matchedID(resolve("Someone", "Something", isrc: "gbn9y1100088")) == 5)
    }

    @Test func forgivesSpellingAndFeaturedCredits() {
        #expect(matchedID(resolve("Beyonce", "Crazy In Love")) == 6)
        #expect(matchedID(resolve("Beyoncé feat. Jay-Z", "Crazy in Love")) == 6)
        #expect(matchedID(resolve("Pink Floid", "Another Brick in the Wall, Part 2")) == 5)
    }

    @Test func acceptsWhatAQuizJudgeAccepts() {
        #expect(matchedID(resolve("Floyd", "Another Brick in the Wall Pt 2")) == 5)
        #expect(matchedID(resolve("Beatles", "Yesterday")) == 7)
    }

    @Test func saysNoMatchForSongsNotInTheLibrary() {
        guard case .noMatch(let nearest) = resolve("Daft Punk", "Get Lucky") else {
            Issue.record("invented a match")
            return
        }
        #expect(nearest.count == 3)
        #expect(nearest.allSatisfy { $0.confidence < 0.85 })
    }
}
