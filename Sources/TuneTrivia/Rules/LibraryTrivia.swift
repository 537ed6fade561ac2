import Foundation
public import JukeCore

/// Trivia Juke writes itself from what the library knows, for games with no AI configured
/// (and as the fallback when an AI's question fails its checks): the year or era, the album,
/// the song that opens it and the song's place on it, the composer, the genre, another song by
/// the same artist, who recorded a song beside it on its album, and which of a few songs is
/// the oldest. Wrong options are drawn from the library so that they are plausible (years near
/// the right one, albums, songs and artists that exist). A kind is asked only when the
/// library holds its answer. When it knows none of those, the length of the recording is
/// asked: every track has one, so a game with trivia on gets a question every round.
///
/// A game spreads its kinds (`Spread`): the kinds its other rounds ask least come first, and
/// never the kind of the round before or after when another can be asked (three rounds of
/// five were "On which album is X?").
public enum LibraryTrivia {
    /// What the library knows of a track.
    public struct Facts: Sendable {
        public let track: TrackID
        public let title: String
        public let artist: String
        public let album: String
        /// The album's artist ("Various Artists" on a compilation); the artist when untagged.
        public let albumArtist: String
        public let year: Int?
        public let composer: String?
        public let genre: String?
        /// Seconds; 0 when unknown.
        public let duration: Double
        public let trackNumber: Int?
        public let discNumber: Int?

        public init(
            track: TrackID, title: String, artist: String, album: String, year: Int?, composer: String?, genre: String? = nil, duration: Double = 0,
            albumArtist: String? = nil, trackNumber: Int? = nil, discNumber: Int? = nil
        ) {
            self.track = track
            self.title = title
            self.artist = artist
            self.album = album
            self.albumArtist = albumArtist.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 } ?? artist
            self.year = year
            self.composer = composer
            self.genre = genre
            self.duration = duration
            self.trackNumber = trackNumber
            self.discNumber = discNumber
        }

        public init(_ track: Track) {
            self.init(
                track: track.id, title: track.title, artist: track.artist, album: track.album, year: track.year, composer: track.composer,
                genre: track.genre, duration: track.duration, albumArtist: track.albumArtist, trackNumber: track.trackNumber,
                discNumber: track.discNumber)
        }
    }

    /// What a question asks about; its raw value is kept in `Trivia.kind`.
    public enum Kind: String, Sendable, CaseIterable {
        case year, era, album, opener, trackNumber = "track_number", composer, otherSong = "other_song", genre
        case albumNeighbour = "album_neighbour", oldest
        /// Not among `allCases`: asked only when no other kind can be.
        case length

        public static var allCases: [Kind] { [.year, .era, .album, .opener, .trackNumber, .composer, .otherSong, .genre, .albumNeighbour, .oldest] }
    }

    /// The kinds a game already asks: how often each, and those of the rounds either side.
    public struct Spread: Sendable, Equatable {
        public var used: [Kind: Int] = [:]
        public var beside: Set<Kind> = []

        public init() {}

        /// From the game's rounds' questions in order, for the round at `index`.
        public init(questions: [Trivia?], at index: Int) {
            for (position, trivia) in questions.enumerated() where position != index {
                guard let kind = trivia?.kind.flatMap(Kind.init(rawValue:)) else { continue }
                used[kind, default: 0] += 1
                if abs(position - index) == 1 { beside.insert(kind) }
            }
        }
    }

    /// A question about `song`, or nil when the library knows too little to ask a fair one.
    /// The kinds are tried least used in the game first, those of the neighbouring rounds
    /// last, ties in an order the generator shuffles, so games vary; the length of the
    /// recording is the last resort.
    public static func question(about song: Facts, library: [Facts], spread: Spread = Spread(), using rng: inout some RandomNumberGenerator)
        -> Trivia?
    {
        let shuffled = Kind.allCases.shuffled(using: &rng)
        let order = shuffled.enumerated().sorted { a, b in
            let keyA = (spread.beside.contains(a.element) ? 1 : 0, spread.used[a.element] ?? 0, a.offset)
            let keyB = (spread.beside.contains(b.element) ? 1 : 0, spread.used[b.element] ?? 0, b.offset)
            return keyA < keyB
        }.map(\.element)
        for kind in order + [.length] {
            if var trivia = question(kind, about: song, library: library, using: &rng), trivia.check() == nil {
                trivia.kind = kind.rawValue
                return trivia
            }
        }
        return nil
    }

    /// A question of one kind, or nil when the library does not hold its answer.
    static func question(_ kind: Kind, about song: Facts, library: [Facts], using rng: inout some RandomNumberGenerator) -> Trivia? {
        switch kind {
        case .year: yearQuestion(song, library, &rng)
        case .era: eraQuestion(song, library, &rng)
        case .album: albumQuestion(song, library, &rng)
        case .opener: openerQuestion(song, library, &rng)
        case .trackNumber: trackNumberQuestion(song, library, &rng)
        case .composer: composerQuestion(song, library, &rng)
        case .otherSong: otherSongQuestion(song, library, &rng)
        case .genre: genreQuestion(song, library, &rng)
        case .albumNeighbour: albumNeighbourQuestion(song, library, &rng)
        case .oldest: oldestQuestion(song, library, &rng)
        case .length: lengthQuestion(song, &rng)
        }
    }

    /// Names that stand for no one in particular: a question must not read "also by Traditional?".
    static let placeholderArtists: Set<String> = [
        "traditional", "trad.", "trad", "anonymous", "anon.", "unknown", "unknown artist", "[unknown]", "various", "various artists", "va",
    ]

    static func isPlaceholder(_ artist: String) -> Bool {
        placeholderArtists.contains(artist.lowercased().trimmingCharacters(in: .whitespaces)) || artist.trimmingCharacters(in: .whitespaces).isEmpty
    }

    /// " by Artist", or nothing when the artist is a placeholder.
    static func byline(_ song: Facts) -> String { isPlaceholder(song.artist) ? "" : " by \(song.artist)" }

    static func yearQuestion(_ song: Facts, _ library: [Facts], _ rng: inout some RandomNumberGenerator) -> Trivia? {
        guard let year = song.year, year > 1000 else { return nil }
        // Wrong years close enough to be tempting, never the right one.
        var options: Set<Int> = [year]
        let spread = year < 1900 ? 25 : 4
        while options.count < 4 {
            let other = year + Int.random(in: -spread...spread, using: &rng)
            if other != year { options.insert(other) }
        }
        // Before records, a piece was written (or first printed), not released.
        let verb = year < 1900 ? "written" : "released"
        return Trivia(
            question: "In which year was \"\(song.title)\"\(byline(song)) \(verb)?",
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
        guard let composer = song.composer, !isPlaceholder(composer), !same(composer, song.artist) else { return nil }
        let others = distinct(library.compactMap(\.composer).filter { !isPlaceholder($0) && !same($0, composer) })
        guard others.count >= 3 else { return nil }
        let options = (Array(others.shuffled(using: &rng).prefix(3)) + [composer]).shuffled(using: &rng)
        return Trivia(question: "Who composed \"\(song.title)\"?", options: options, answer: composer, source: "library")
    }

    static func otherSongQuestion(_ song: Facts, _ library: [Facts], _ rng: inout some RandomNumberGenerator) -> Trivia? {
        let traditional = same(song.artist, "Traditional")
        // "Unknown" or "Various Artists" are not one author: two of their songs share nothing.
        guard traditional || !isPlaceholder(song.artist) else { return nil }
        let byArtist = library.filter { same($0.artist, song.artist) && !same($0.title, song.title) }
        let byOthers = distinct(library.filter { !same($0.artist, song.artist) }.map(\.title))
        guard let right = byArtist.randomElement(using: &rng)?.title, byOthers.count >= 3 else { return nil }
        let options = (Array(byOthers.filter { !same($0, right) }.shuffled(using: &rng).prefix(3)) + [right]).shuffled(using: &rng)
        let question =
            traditional ? "Which of these is also a traditional song, with no known composer?" : "Which of these songs is also by \(song.artist)?"
        return Trivia(question: question, options: options, answer: right, source: "library")
    }

    static func genreQuestion(_ song: Facts, _ library: [Facts], _ rng: inout some RandomNumberGenerator) -> Trivia? {
        guard let genre = song.genre?.trimmingCharacters(in: .whitespaces), !genre.isEmpty else { return nil }
        let others = distinct(library.compactMap(\.genre).filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty && !same($0, genre) })
        guard others.count >= 3 else { return nil }
        let options = (Array(others.shuffled(using: &rng).prefix(3)) + [genre]).shuffled(using: &rng)
        return Trivia(
            question: "Which genre is \"\(song.title)\"\(byline(song)) filed under here?", options: options, answer: genre, source: "library")
    }

    /// How long the recording plays: options 20 to 60 s apart, so it is a guess of feel,
    /// not of the second.
    static func lengthQuestion(_ song: Facts, _ rng: inout some RandomNumberGenerator) -> Trivia? {
        guard song.duration >= 30, song.duration.isFinite else { return nil }
        let length = Int(song.duration.rounded())
        var options: Set<Int> = [length]
        while options.count < 4 {
            let step = Int.random(in: 20...60, using: &rng)
            let other = length + (Bool.random(using: &rng) ? step : -step) * Int.random(in: 1...2, using: &rng)
            // Distinct as shown (m:ss), never the right one.
            if other >= 15, !options.contains(where: { abs($0 - other) < 10 }) { options.insert(other) }
        }
        return Trivia(
            question: "How long is this recording of \"\(song.title)\"?", options: options.sorted().map(clock), answer: clock(length),
            source: "library")
    }

    static func clock(_ seconds: Int) -> String { "\(seconds / 60):\(String(format: "%02d", seconds % 60))" }

    static func same(_ a: String, _ b: String) -> Bool {
        a.lowercased().trimmingCharacters(in: .whitespaces) == b.lowercased().trimmingCharacters(in: .whitespaces)
    }

    /// Distinct by case-insensitive text, first spelling kept, sorted for determinism.
    static func distinct(_ values: [String]) -> [String] {
        var seen: Set<String> = []
        return values.sorted().filter { seen.insert($0.lowercased().trimmingCharacters(in: .whitespaces)).inserted }
    }
}
