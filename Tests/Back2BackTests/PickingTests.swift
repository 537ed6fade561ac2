import Foundation
import JukeCore
import Library
import Testing

@testable import Back2Back

/// The demo library as songs, the way the server hands them to the DJ.
let demoSongs: [Song] = DemoCatalog.pieces.map { piece in
    Song(
        track: TrackID(), title: piece.title, artist: piece.composer, album: piece.album, duration: 25, genre: piece.genre,
        year: piece.year, composer: piece.composer, tempo: piece.tempo)
}

@Suite("Back2Back song memory", .timeLimit(.minutes(5)))
struct SongMemoryTests {
    let persona = PersonaID()
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func aSongIsRememberedForTwentyFourHours() {
        var memory = SongMemory()
        let s = Song(track: TrackID(), title: "Let It Be", artist: "The Beatles", duration: 240)
        memory.remember(s, persona: persona, at: t0)
        #expect(memory.recalls(SongKey(s), persona: persona, at: t0 + 23 * 3600))
        #expect(!memory.recalls(SongKey(s), persona: persona, at: t0 + 24 * 3600))
        #expect(!memory.recalls(SongKey(s), persona: PersonaID(), at: t0))  // per persona
    }

    @Test func theSameSongByAnyNameIsRecalled() {
        var memory = SongMemory()
        memory.remember(Song(track: TrackID(), title: "Let It Be", artist: "The Beatles", duration: 240), persona: persona, at: t0)
        let variants = [
            SongKey(artist: "Beatles", title: "Let It Be (Remastered 2009)"),
            SongKey(artist: "THE BEATLES", title: "Let it be"),
            SongKey(artist: "The Beatles", title: "Let It Be - Live"),
        ]
        for key in variants { #expect(memory.recalls(key, persona: persona, at: t0 + 60)) }
        #expect(!memory.recalls(SongKey(artist: "The Beatles", title: "Let It Go"), persona: persona, at: t0))
        // Parts are different songs.
        memory.remember(Song(track: TrackID(), title: "Another Brick in the Wall, Pt. 1", artist: "Pink Floyd", duration: 200), persona: persona, at: t0)
        #expect(!memory.recalls(SongKey(artist: "Pink Floyd", title: "Another Brick in the Wall, Pt. 2"), persona: persona, at: t0))
    }

    @Test func anISRCMatchesWhateverTheNames() {
        var memory = SongMemory()
        memory.remember(Song(track: TrackID(), title: "Title", artist: "Artist", duration: 1, isrc: "us-rc1-76-07839"), persona: persona, at: t0)
        #expect(memory.recalls(SongKey(artist: "Other", title: "Other", isrc: "USRC17607839"), persona: persona, at: t0))
        #expect(SongKey(artist: "a", title: "b", isrc: "short").isrc == nil)
    }

    @Test func recentListsNewestFirstAndPruneForgetsTheOld() {
        var memory = SongMemory()
        for n in 0..<3 { memory.remember(song(n), persona: persona, at: t0 + Double(n) * 3600 * 12) }
        let now = t0 + 30 * 3600
        #expect(memory.recent(persona: persona, at: now).map(\.title) == ["Song 2", "Song 1"])
        memory.prune(at: now)
        #expect(memory.songs[persona]?.count == 2)
        memory.clear(persona: persona)
        #expect(memory.songs.isEmpty)
    }
}

@Suite("Back2Back's own DJ and direction changes", .timeLimit(.minutes(5)))
struct PersonaDJTests {
    let collector = Persona.builtIns(at: Date(timeIntervalSince1970: 0))[0]
    let electronic = Persona.builtIns(at: Date(timeIntervalSince1970: 0))[1]

    /// Offline, the DJ's reasons name the songs: how a pick follows the last one (its title,
    /// genre, era, tempo in BPM, composer), worded several ways, not one template.
    @Test func itsReasonsNameConcreteThingsInVariedWords() throws {
        var generator = SplitMix64(seed: 7)
        var set: [Song] = []
        var excluded = SongExclusions()
        var rationales: [String] = []
        for _ in 0..<20 {
            let pick = try #require(PersonaDJ().pick(for: collector, from: demoSongs, after: set, excluding: excluded, using: &generator))
            if let last = set.last {
                // Something concrete about this song or the one before it.
                let facts =
                    [last.title, pick.song.genre, pick.song.composer, pick.song.year.map { Era.name(of: $0) }].compactMap { $0 }
                    + [pick.song.tempo.map { "\(Int($0.rounded())) BPM" }].compactMap { $0 }
                #expect(facts.contains { pick.rationale.contains($0) }, "\(pick.rationale)")
            }
            rationales.append(pick.rationale)
            set.append(pick.song)
            excluded.insert(pick.song)
        }
        let frames = Set(rationales.map { r in r.hasPrefix("Next, ") ? "next" : r.contains(" So: ") ? "so" : "plain" })
        #expect(frames.count >= 2, "\(rationales)")
        #expect(rationales.contains { $0.contains("BPM") } && rationales.contains { $0.contains(" the 1") })
        #expect(!rationales.allSatisfy { $0.hasSuffix("a left turn to keep the set from settling.") })
    }

    @Test func itPlaysAVariedSetFromTheDemoLibraryWithoutRepeats() throws {
        var generator = SplitMix64(seed: 42)
        var set: [Song] = []
        var excluded = SongExclusions()
        for _ in 0..<20 {
            let pick = try #require(PersonaDJ().pick(for: collector, from: demoSongs, after: set, excluding: excluded, using: &generator))
            #expect(!pick.rationale.isEmpty && pick.rationale.count < 300)
            set.append(pick.song)
            excluded.insert(pick.song)
        }
        #expect(Set(set.map(\.track)).count == 20)
        // No artist twice within four songs ("Traditional" has many songs, so it is the test).
        for window in 0..<(set.count - 3) {
            let artists = set[window..<window + 4].map(\.artist)
            #expect(Set(artists).count == 4, "\(artists)")
        }
        // The collector leans to its own genres first.
        let favourites: Set<String> = ["Ragtime", "Spiritual", "Americana", "Folk", "World"]
        #expect(set.prefix(6).filter { favourites.contains($0.genre ?? "") }.count >= 4)
    }

    @Test func personasPlayDifferentSets() throws {
        func firstFive(_ persona: Persona) -> [String] {
            var generator = SplitMix64(seed: 1)
            var set: [Song] = []
            var excluded = SongExclusions()
            for _ in 0..<5 {
                guard let pick = PersonaDJ().pick(for: persona, from: demoSongs, after: set, excluding: excluded, using: &generator) else { break }
                set.append(pick.song)
                excluded.insert(pick.song)
            }
            return set.map(\.title)
        }
        #expect(firstFive(collector) != firstFive(electronic))
        // The electronic DJ reaches for the baroque pieces electronic music borrowed from.
        #expect(Set(firstFive(electronic)).isSubset(of: Set(demoSongs.filter { ["Baroque", "Classical"].contains($0.genre ?? "") }.map(\.title))))
    }

    @Test func exclusionsAreNeverPicked() {
        var generator = SplitMix64(seed: 3)
        let allButOne = SongExclusions([], songs: Array(demoSongs.dropLast()))
        let pick = PersonaDJ().pick(for: collector, from: demoSongs, after: [], excluding: allButOne, using: &generator)
        #expect(pick?.song == demoSongs.last)
        let everything = SongExclusions([], songs: demoSongs)
        #expect(PersonaDJ().pick(for: collector, from: demoSongs, after: [], excluding: everything, using: &generator) == nil)
        // By name too: the song memory holds names, not library IDs.
        let byName = SongExclusions(demoSongs.dropLast().map { SongKey(artist: $0.artist, title: $0.title) })
        #expect(PersonaDJ().pick(for: collector, from: demoSongs, after: [], excluding: byName, using: &generator)?.song == demoSongs.last)
    }

    @Test func aDirectionChangeIsFollowed() throws {
        var generator = SplitMix64(seed: 5)
        let recent = demoSongs.filter { $0.genre == "Romantic" }.prefix(4).map { $0 }
        let direction = Direction(label: "Switch to Ragtime", prompt: "p", towardGenre: "Ragtime", awayFromGenre: "Romantic")
        let pick = try #require(
            PersonaDJ().pick(
                for: electronic, from: demoSongs, after: recent, excluding: SongExclusions([], songs: recent), direction: direction, using: &generator))
        #expect(pick.song.genre == "Ragtime")
        #expect(pick.rationale.contains("Ragtime"))
        let era = Direction(label: "Back to the 1600s", prompt: "p", towardYears: 1600...1699)
        let old = try #require(PersonaDJ().pick(for: collector, from: demoSongs, after: recent, excluding: SongExclusions(), direction: era, using: &generator))
        #expect((1600...1699).contains(old.song.year ?? 0))
    }

    @Test func theDirectionPlannerProposesAContrastWithAShortLabel() throws {
        var generator = SplitMix64(seed: 11)
        let romantic = demoSongs.filter { $0.genre == "Romantic" }.prefix(5).map { $0 }
        for _ in 0..<20 {
            let direction = try #require(DirectionPlanner().suggest(after: romantic, library: demoSongs, using: &generator))
            #expect(Direction.isUsableLabel(direction.label), "\(direction.label)")
            if let pace = direction.towardTempo {
                // The demo pieces carry their tempo, so a change of pace competes with genre.
                #expect(direction.towardGenre == nil && direction.prompt.contains("BPM"))
                #expect(demoSongs.filter { pace.contains($0.tempo ?? 0) }.count >= 2)
            } else {
                #expect(direction.awayFromGenre == "Romantic")
                #expect(direction.towardGenre != nil && direction.towardGenre != "Romantic")
                #expect(direction.prompt.contains("Romantic"))
            }
        }
        #expect(DirectionPlanner().suggest(after: [], library: demoSongs, using: &generator) == nil)
    }

    @Test func aSlowSetOfOneGenreIsOfferedAChangeOfPaceAndTheDJFollowsIt() throws {
        var generator = SplitMix64(seed: 4)
        func paced(_ n: Int, _ bpm: Double) -> Song {
            var s = song(n, genre: "Soul", year: 1970 + n)
            s.tempo = bpm
            return s
        }
        let slow = [paced(1, 72), paced(2, 76), paced(3, 70)]
        let library = slow + [paced(4, 128), paced(5, 124), paced(6, 80), paced(7, 132)]
        let direction = try #require(DirectionPlanner().suggest(after: slow, library: library, using: &generator))
        #expect(direction.towardTempo == 102...400)
        #expect(["Pick up the pace", "Faster and brighter", "Turn up the tempo"].contains(direction.label))
        for seed in 0..<20 as Range<UInt64> {
            var g = SplitMix64(seed: seed)
            let pick = try #require(
                PersonaDJ().pick(
                    for: collector, from: library, after: slow, excluding: SongExclusions([], songs: slow), direction: direction, using: &g))
            #expect((pick.song.tempo ?? 0) >= 102, "seed \(seed)")
            #expect(pick.rationale.contains("change of pace"))
        }
        // A set whose songs mostly have no tempo gets no change of pace.
        let unknown = [song(1, genre: "Soul"), song(2, genre: "Soul"), paced(3, 70)]
        #expect(DirectionPlanner.paceContrast(unknown, library: library, using: &generator) == nil)
    }

    @Test func withOneGenreTheContrastIsAnEra() throws {
        var generator = SplitMix64(seed: 2)
        let library = [song(1, genre: "Funk", year: 1972), song(2, genre: "Funk", year: 1974), song(3, genre: "Funk", year: 2015)]
        let direction = try #require(DirectionPlanner().suggest(after: Array(library.prefix(2)), library: library, using: &generator))
        #expect(direction.label == "Forward to the 2010s")
        #expect(direction.towardYears == 2010...2019)
    }

    @Test func builtInPersonasHaveFixedIDsAndValidTexts() {
        let a = Persona.builtIns(at: Date())
        let b = Persona.builtIns(at: Date(timeIntervalSince1970: 0))
        #expect(a.map(\.id) == b.map(\.id))
        #expect(a.map(\.name) == ["Rare Groove Collector", "Modern Electronic DJ"])
        for p in a { #expect(Persona.problem(name: p.name, description: p.description, styleGuide: p.styleGuide) == nil) }
        #expect(Persona.problem(name: "  ", description: "", styleGuide: "")?.field == "name")
        #expect(Persona.problem(name: "x", description: String(repeating: "d", count: 2_001), styleGuide: "")?.field == "description")
    }
}
