import JukeCore
import Testing

@testable import TuneTrivia

/// Juke's own trivia over a whole game: the kinds vary and never repeat back to back when
/// another can be asked, and every answer is what the library's tags say (worked out here
/// from the tags, not from the generator).
@Suite(.timeLimit(.minutes(5))) struct LibraryTriviaGameTests {
    typealias F = LibraryTrivia.Facts

    /// A library like the demo's: albums of several artists under one album artist, track
    /// numbers, years from the 17th century to the 20th; and a pop album and a compilation.
    static let library: [F] = {
        var out: [F] = []
        func album(_ name: String, by albumArtist: String, genre: String, composer: String? = nil, _ songs: [(String, String, Int)]) {
            for (index, (title, artist, year)) in songs.enumerated() {
                out.append(
                    F(
                        track: TrackID(), title: title, artist: artist, album: name, year: year, composer: composer ?? artist, genre: genre,
                        duration: 150, albumArtist: albumArtist, trackNumber: index + 1))
            }
        }
        album(
            "Baroque Gems", by: "Juke Demo Ensemble", genre: "Baroque",
            [
                ("Canon in D", "Johann Pachelbel", 1680), ("Minuet in G Major", "Christian Petzold", 1725),
                ("Jesu, Joy of Man's Desiring", "Johann Sebastian Bach", 1723), ("Spring (La primavera), Allegro", "Antonio Vivaldi", 1724),
            ])
        album(
            "Classical Era Favourites", by: "Juke Demo Ensemble", genre: "Classical",
            [
                ("Eine kleine Nachtmusik", "Wolfgang Amadeus Mozart", 1787), ("Rondo alla Turca", "Wolfgang Amadeus Mozart", 1783),
                ("Für Elise", "Ludwig van Beethoven", 1810), ("Ode to Joy", "Ludwig van Beethoven", 1824),
            ])
        album(
            "Romantic Era Themes", by: "Juke Demo Ensemble", genre: "Romantic",
            [
                ("Bridal Chorus", "Richard Wagner", 1850), ("The Blue Danube", "Johann Strauss II", 1866), ("Habanera", "Georges Bizet", 1875),
                ("In the Hall of the Mountain King", "Edvard Grieg", 1876), ("Wiegenlied (Lullaby)", "Johannes Brahms", 1868),
            ])
        album(
            "Parlour & Ragtime", by: "Juke Demo Ensemble", genre: "Ragtime",
            [("The Entertainer", "Scott Joplin", 1902), ("Maple Leaf Rag", "Scott Joplin", 1899), ("Stars and Stripes Forever", "John Philip Sousa", 1897)])
        album(
            "Rumours", by: "Fleetwood Mac", genre: "Rock", composer: "Lindsey Buckingham",
            [("Second Hand News", "Fleetwood Mac", 1977), ("Dreams", "Fleetwood Mac", 1977), ("Never Going Back Again", "Fleetwood Mac", 1977)])
        return out
    }()

    /// Nil when `trivia` is right by the tags of `song` and `library`, or what is wrong.
    static func verify(_ trivia: Trivia, about song: F, in library: [F]) -> String? {
        if let problem = trivia.check() { return problem }
        guard trivia.source == "library", let raw = trivia.kind, let kind = LibraryTrivia.Kind(rawValue: raw) else { return "no kind" }
        let albumTracks = library.filter { $0.album == song.album && $0.albumArtist == song.albumArtist }
        func expect(_ answer: String?) -> String? { trivia.answer == answer ? nil : "\(raw): \(trivia.answer), not \(answer ?? "none")" }
        switch kind {
        case .year: return expect(song.year.map(String.init))
        case .era:
            guard let year = song.year else { return "no year" }
            return expect(year < 1900 ? "\(LibraryTrivia.ordinal((year - 1) / 100 + 1)) century" : "\(year / 10 * 10)s")
        case .album: return expect(song.album)
        case .opener:
            for option in trivia.options where !albumTracks.contains(where: { $0.title == option }) { return "\(option) is not on \(song.album)" }
            return expect(albumTracks.first { $0.trackNumber == 1 }?.title)
        case .trackNumber: return expect(song.trackNumber.map { "Track \($0)" })
        case .composer: return expect(song.composer)
        case .genre: return expect(song.genre)
        case .otherSong:
            guard library.contains(where: { $0.title == trivia.answer && $0.artist == song.artist && $0.title != song.title }) else {
                return "\(trivia.answer) is not another song by \(song.artist)"
            }
            for option in trivia.options where option != trivia.answer && library.contains(where: { $0.title == option && $0.artist == song.artist }) {
                return "\(option) is by \(song.artist) too"
            }
            return nil
        case .albumNeighbour:
            guard let named = albumTracks.first(where: { trivia.question.hasPrefix("\"\($0.title)\"") }) else { return "no song of the album named" }
            if named.artist == song.artist { return "the round's own artist asked for" }
            return expect(named.artist)
        case .oldest:
            let years = trivia.options.map { option in library.first { $0.title == option }?.year }
            guard years.allSatisfy({ $0 != nil }), Set(years).count == 4, trivia.options.contains(song.title) else { return "options \(trivia.options)" }
            return expect(zip(trivia.options, years).min { ($0.1 ?? 0) < ($1.1 ?? 0) }?.0)
        case .length: return expect(LibraryTrivia.clock(Int(song.duration.rounded())))
        }
    }

    /// Three rounds of five, as the background writer writes them: round after round, each
    /// seeing the questions of the rounds before.
    static func game(seed: UInt64, songs: [F]) -> [Trivia?] {
        var rng = SplitMix64(seed: seed)
        var questions = [Trivia?](repeating: nil, count: songs.count)
        for (index, song) in songs.enumerated() {
            questions[index] = LibraryTrivia.question(
                about: song, library: library, spread: LibraryTrivia.Spread(questions: questions, at: index), using: &rng)
        }
        return questions
    }

    @Test func aGameOfThreeRoundsOfFiveAsksManyKindsNeverTheSameTwiceInARow() throws {
        for seed in UInt64(1)...40 {
            var pick = SplitMix64(seed: seed &* 7919)
            let songs = Array(Self.library.shuffled(using: &pick).prefix(15))
            let questions = Self.game(seed: seed, songs: songs)
            let kinds = questions.map { $0?.kind ?? "none" }
            #expect(!kinds.contains("none"), "seed \(seed): \(kinds)")
            #expect(Set(kinds).count >= 6, "seed \(seed): \(kinds)")
            for (a, b) in zip(kinds, kinds.dropFirst()) { #expect(a != b, "seed \(seed): \(kinds)") }
            // No kind takes over: at most 3 of 15 (the seed's three albums of five were all one).
            let most = Dictionary(grouping: kinds, by: { $0 }).values.map(\.count).max() ?? 0
            #expect(most <= 3, "seed \(seed): \(kinds)")
            for (song, written) in zip(songs, questions) {
                let trivia = try #require(written)
                #expect(Self.verify(trivia, about: song, in: Self.library) == nil, "\(song.title): \(trivia)")
            }
        }
    }

    @Test func everyKindIsAskedSomewhereAndIsRight() throws {
        var seen: Set<String> = []
        for seed in UInt64(1)...30 {
            let questions = Self.game(seed: seed, songs: Self.library)
            for (song, written) in zip(Self.library, questions) {
                let trivia = try #require(written)
                #expect(Self.verify(trivia, about: song, in: Self.library) == nil, "\(song.title): \(trivia)")
                seen.insert(trivia.kind ?? "")
            }
        }
        #expect(seen == Set(LibraryTrivia.Kind.allCases.map(\.rawValue)))
    }

    /// A kind whose answer the tags do not hold is never asked.
    @Test func onlyKindsTheTagsSupport() {
        let bare = Self.library.map {
            F(track: $0.track, title: $0.title, artist: $0.artist, album: "", year: nil, composer: nil, duration: 200)
        }
        var rng = SplitMix64(seed: 4)
        for song in bare {
            let kind = LibraryTrivia.question(about: song, library: bare, using: &rng)?.kind
            #expect(kind == "other_song" || kind == "length", "\(song.title): \(kind ?? "none")")
        }
        // Track numbers of two discs start again at 1: neither the opener nor the place is asked.
        let twoDiscs = (1...8).map { n in
            F(
                track: TrackID(), title: "Song \(n)", artist: "Band", album: "Double", year: nil, composer: nil, albumArtist: "Band",
                trackNumber: (n - 1) % 4 + 1, discNumber: (n - 1) / 4 + 1)
        }
        for song in twoDiscs {
            for kind in [LibraryTrivia.Kind.opener, .trackNumber] {
                #expect(LibraryTrivia.question(kind, about: song, library: twoDiscs, using: &rng) == nil)
            }
        }
    }

    @Test func theSpreadReadsTheGamesKinds() {
        let year = Trivia(question: "In which year?", options: ["1", "2", "3", "4"], answer: "1", source: "library", kind: "year")
        let ai = Trivia(question: "An AI's question", options: ["1", "2", "3", "4"], answer: "1", source: "gpt")
        let spread = LibraryTrivia.Spread(questions: [year, nil, ai, year], at: 2)
        #expect(spread.used == [.year: 2])
        #expect(spread.beside == [.year])
    }
}
