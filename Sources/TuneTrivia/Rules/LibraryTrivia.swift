import Foundation
public import JukeCore

/// Trivia Juke writes itself from what the library knows, for games with no AI configured
/// (and as the fallback when an AI's question fails its checks): the year, the album, the
/// composer, or another song by the same artist, with wrong options drawn from the library
/// so that they are plausible (years near the right one, albums and composers that exist).
public enum LibraryTrivia {
    /// What the library knows of a track.
    public struct Facts: Sendable {
        public let track: TrackID
        public let title: String
        public let artist: String
        public let album: String
        public let year: Int?
        public let composer: String?

        public init(track: TrackID, title: String, artist: String, album: String, year: Int?, composer: String?) {
            self.track = track
            self.title = title
            self.artist = artist
            self.album = album
            self.year = year
            self.composer = composer
        }
    }

    /// A question about `song`, or nil when the library knows too little to ask a fair one.
    /// The kinds are tried in an order the generator shuffles, so games vary.
    public static func question(about song: Facts, library: [Facts], using rng: inout some RandomNumberGenerator) -> Trivia? {
        for kind in Kind.allCases.shuffled(using: &rng) {
            let trivia: Trivia?
            switch kind {
            case .year: trivia = yearQuestion(song, library, &rng)
            case .album: trivia = albumQuestion(song, library, &rng)
            case .composer: trivia = composerQuestion(song, library, &rng)
            case .otherSong: trivia = otherSongQuestion(song, library, &rng)
            }
            if let trivia, trivia.check() == nil { return trivia }
        }
        return nil
    }

    enum Kind: CaseIterable { case year, album, composer, otherSong }

    static func yearQuestion(_ song: Facts, _ library: [Facts], _ rng: inout some RandomNumberGenerator) -> Trivia? {
        guard let year = song.year, year > 1000 else { return nil }
        // Wrong years close enough to be tempting, never the right one.
        var options: Set<Int> = [year]
        let spread = year < 1900 ? 25 : 4
        while options.count < 4 {
            let other = year + Int.random(in: -spread...spread, using: &rng)
            if other != year { options.insert(other) }
        }
        return Trivia(
            question: "In which year was \"\(song.title)\" by \(song.artist) released?",
            options: options.sorted().map(String.init), answer: String(year), source: "library")
    }

    static func albumQuestion(_ song: Facts, _ library: [Facts], _ rng: inout some RandomNumberGenerator) -> Trivia? {
        guard !song.album.isEmpty else { return nil }
        let others = distinct(library.map(\.album).filter { !$0.isEmpty && !same($0, song.album) })
        guard others.count >= 3 else { return nil }
        let options = (Array(others.shuffled(using: &rng).prefix(3)) + [song.album]).shuffled(using: &rng)
        return Trivia(question: "On which album is \"\(song.title)\"?", options: options, answer: song.album, source: "library")
    }

    static func composerQuestion(_ song: Facts, _ library: [Facts], _ rng: inout some RandomNumberGenerator) -> Trivia? {
        guard let composer = song.composer, !composer.isEmpty, !same(composer, song.artist) else { return nil }
        let others = distinct(library.compactMap(\.composer).filter { !$0.isEmpty && !same($0, composer) })
        guard others.count >= 3 else { return nil }
        let options = (Array(others.shuffled(using: &rng).prefix(3)) + [composer]).shuffled(using: &rng)
        return Trivia(question: "Who composed \"\(song.title)\"?", options: options, answer: composer, source: "library")
    }

    static func otherSongQuestion(_ song: Facts, _ library: [Facts], _ rng: inout some RandomNumberGenerator) -> Trivia? {
        let byArtist = library.filter { same($0.artist, song.artist) && !same($0.title, song.title) }
        let byOthers = distinct(library.filter { !same($0.artist, song.artist) }.map(\.title))
        guard let right = byArtist.randomElement(using: &rng)?.title, byOthers.count >= 3 else { return nil }
        let options = (Array(byOthers.filter { !same($0, right) }.shuffled(using: &rng).prefix(3)) + [right]).shuffled(using: &rng)
        return Trivia(question: "Which of these songs is also by \(song.artist)?", options: options, answer: right, source: "library")
    }

    static func same(_ a: String, _ b: String) -> Bool {
        a.lowercased().trimmingCharacters(in: .whitespaces) == b.lowercased().trimmingCharacters(in: .whitespaces)
    }

    /// Distinct by case-insensitive text, first spelling kept, sorted for determinism.
    static func distinct(_ values: [String]) -> [String] {
        var seen: Set<String> = []
        return values.sorted().filter { seen.insert($0.lowercased().trimmingCharacters(in: .whitespaces)).inserted }
    }
}
