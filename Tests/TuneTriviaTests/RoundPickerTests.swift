import Foundation
import JukeCore
import Testing

@testable import TuneTrivia

/// Which library songs fill a game (the seed's auto-select), decided by the engine.
@Suite(.timeLimit(.minutes(5))) struct RoundPickerTests {
    static func track(_ title: String, by artist: String, genre: String? = nil, year: Int? = nil, duration: Double = 180) -> Track {
        Track(
            id: TrackID(), folderID: LibraryFolderID(), path: "/music/\(title).mp3", fileSize: 1, modifiedMillis: 0, format: "mp3",
            title: title, artist: artist, album: "Album", albumArtist: artist, genre: genre, year: year, duration: duration,
            addedAt: Date(timeIntervalSince1970: 0))
    }

    static func game(songs: Int, decade: Settings.Decade? = nil, genre: String = "", artists: [String] = []) -> Game {
        var settings = Settings(title: "Quiz")
        settings.numSongs = songs
        settings.decade = decade
        settings.genre = genre
        settings.artists = artists
        return Game(id: SessionID(), host: UserID(), hostName: "Host", hostPlayer: PlayerID(), inviteCode: "ABC123", settings: settings, at: Date())
    }

    @Test func onlySongsThatFitTheDecadeGenresAndArtistsAreChosen() {
        let library = [
            Self.track("Old Rock", by: "The Band", genre: "Rock", year: 1975),
            Self.track("New Rock", by: "The Band", genre: "Rock", year: 2015),
            Self.track("Old Folk", by: "The Band", genre: "Folk", year: 1972),
            Self.track("Other Rock", by: "Someone Else", genre: "Folk Rock", year: 1978),
        ]
        var random = SplitMix64(seed: 1)
        let picked = RoundPicker.pick(for: Self.game(songs: 5, decade: .seventies, genre: "rock", artists: ["band"]), from: library, using: &random)
        #expect(picked.tracks.map(\.title) == ["Old Rock"])
        // Each setting finds songs on its own; together only one fits.
        #expect(picked.wanted == 5)
        #expect(picked.missing == ["more than 1 new song that fit the decade, genres and artists together"])
    }

    /// A decade, genre or artist the library lacks is named, and nothing else is slipped in
    /// unless the host asks for other songs.
    @Test func whatTheLibraryLacksIsSaidNotQuietlyReplaced() {
        let library = [Self.track("A", by: "X", genre: "Pop", year: 1990), Self.track("B", by: "Y", genre: "Rock", year: 1991)]
        var random = SplitMix64(seed: 2)
        let game = Self.game(songs: 5, decade: .sixties, genre: "rock, polka", artists: ["ABBA", "y"])
        let strict = RoundPicker.pick(for: game, from: library, using: &random)
        #expect(strict.tracks.isEmpty)
        #expect(strict.missing == ["songs from the 60s", "songs in the genre “polka”", "songs by “ABBA”"])
        let topped = RoundPicker.pick(for: game, from: library, others: true, using: &random)
        #expect(Set(topped.tracks.map(\.title)) == ["A", "B"])
        #expect(topped.missing == strict.missing)
        // A full game lacks nothing.
        let plain = RoundPicker.pick(for: Self.game(songs: 5), from: (0..<9).map { Self.track("S\($0)", by: "A\($0)") }, using: &random)
        #expect(plain.tracks.count == 5 && plain.missing.isEmpty)
    }

    @Test func theSameSongIsNeverPickedTwiceNorASongWithoutALength() {
        let library = [
            Self.track("Halo", by: "Beyoncé"), Self.track("halo", by: "BEYONCÉ"), Self.track("Silence", by: "Nobody", duration: 0),
        ]
        var random = SplitMix64(seed: 3)
        let picked = RoundPicker.pick(for: Self.game(songs: 5), from: library, using: &random).tracks
        #expect(picked.count == 1)
        #expect(picked.first?.title.lowercased() == "halo")
    }

    @Test func onlyAsManyAsTheGameStillNeedsAndNoneAlreadyInIt() throws {
        let library = (0..<20).map { Self.track("Song \($0)", by: "Artist \($0)") }
        var game = Self.game(songs: 5)
        for track in library.prefix(3) { try game.apply(.addRound(RoundPicker.round(for: track, clipStart: nil)), by: game.host, at: Date()) }
        var random = SplitMix64(seed: 4)
        let picked = RoundPicker.pick(for: game, from: library, using: &random).tracks
        #expect(picked.count == 2)
        #expect(Set(picked.map(\.id)).isDisjoint(with: library.prefix(3).map(\.id)))
    }

    @Test func aClipStartsAThirdInAndNeverInTheLastFiveSeconds() {
        #expect(RoundPicker.round(for: Self.track("A", by: "X", duration: 180), clipStart: nil).clipStart == 60)
        #expect(RoundPicker.round(for: Self.track("A", by: "X", duration: 180), clipStart: 178).clipStart == 175)
        #expect(RoundPicker.round(for: Self.track("A", by: "X", duration: 3), clipStart: nil).clipStart == 0)
    }
}
