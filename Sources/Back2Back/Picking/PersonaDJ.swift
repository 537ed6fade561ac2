import JukeCore
import Matching

/// Juke's own DJ: picks the next song from the library in a persona's style, with no AI and
/// no network. It weighs the persona's taste (genres, era, artists), the flow from the last
/// song, variety (no artist twice in a short run, no genre rut) and, when asked, a direction
/// change; then draws among the best with the persona's sense of adventure.
public struct PersonaDJ: Sendable {
    public struct Pick: Sendable, Equatable {
        public let song: Song
        public let rationale: String
        public let score: Double
        /// Whether the pick follows the direction change it was asked for: false when Juke's
        /// own DJ stood in for an AI whose direction it cannot read.
        public let followedDirection: Bool

        public init(song: Song, rationale: String, score: Double, followedDirection: Bool = true) {
            self.song = song
            self.rationale = rationale
            self.score = score
            self.followedDirection = followedDirection
        }
    }

    /// How many recent songs variety looks back at.
    static let memorySpan = 4

    public init() {}

    /// The next song after `recent` (oldest first), or nil when every song is excluded.
    public func pick(
        for persona: Persona, from library: [Song], after recent: [Song], excluding excluded: SongExclusions,
        direction: Direction? = nil, using generator: inout some RandomNumberGenerator
    ) -> Pick? {
        rank(for: persona, from: library, after: recent, excluding: excluded, direction: direction, limit: 1, using: &generator).first
    }

    /// The `limit` best songs to follow `recent`, best first (an AI DJ is shown these as the
    /// library it can choose from).
    public func rank(
        for persona: Persona, from library: [Song], after recent: [Song], excluding excluded: SongExclusions,
        direction: Direction? = nil, limit: Int, using generator: inout some RandomNumberGenerator
    ) -> [Pick] {
        let profile = TasteProfile(persona.taste)
        let last = recent.last
        let lastArtists = Set(recent.suffix(Self.memorySpan).map { GenreText.fold($0.artist) })
        let lastGenres = recent.suffix(3).map { GenreText.fold($0.genre ?? "") }
        let rut = lastGenres.count == 3 && Set(lastGenres).count == 1 && !(lastGenres.first ?? "").isEmpty
        var best: [(score: Double, song: Song, reasons: [String])] = []
        for song in library where !excluded.contains(song) {
            var score = 0.0
            var reasons: [String] = []
            let genre = GenreText.fold(song.genre ?? "")
            // Taste.
            if let rank = profile.genreRank(of: song.genre) {
                score += 1.0 - 0.08 * Double(rank)
                reasons.append(rank < 3 ? "right in \(persona.name)'s lane (\(song.genre ?? ""))" : "\(song.genre ?? "") from the wider crates")
            } else if profile.hasGenres {
                score += 0.1
            } else {
                score += 0.5
            }
            if let years = persona.taste.years, let year = song.year {
                let distance = year < years.lowerBound ? years.lowerBound - year : max(0, year - years.upperBound)
                score += distance == 0 ? 0.6 : max(0, 0.6 - Double(distance) / 100)
            }
            if profile.lovesArtist(song) {
                score += 0.6
                reasons.append("\(song.artist), one of \(persona.name)'s favourites")
            }
            // Flow from the last song.
            if let last {
                if !genre.isEmpty, genre == GenreText.fold(last.genre ?? "") {
                    score += rut ? -0.6 : 0.25
                    if !rut { reasons.append("keeps the \(song.genre ?? "") thread from \(last.title)") }
                } else if rut {
                    score += 0.3
                    reasons.append("a change of scene after three \(last.genre ?? "") songs")
                } else if let from = last.genre, !from.isEmpty, let to = song.genre, !to.isEmpty {
                    reasons.append("moves from \(from) to \(to)")
                }
                if let a = song.year, let b = last.year {
                    if abs(a - b) <= 15 {
                        score += 0.15
                        reasons.append("from the same years as \(last.title) (\(Era.name(of: a)))")
                    } else if Era.name(of: a) != Era.name(of: b) {
                        reasons.append("a leap from \(Era.name(of: b)) to \(Era.name(of: a))")
                    }
                }
                if let a = song.tempo, let b = last.tempo, b > 0 {
                    let change = (a - b) / b
                    if abs(change) <= 0.1 {
                        score += 0.1
                        reasons.append("\(Int(a.rounded())) BPM, close to \(last.title)'s \(Int(b.rounded()))")
                    } else {
                        reasons.append("\(change > 0 ? "lifts" : "eases") the pace from \(Int(b.rounded())) to \(Int(a.rounded())) BPM")
                    }
                }
                if let composer = song.composer, !composer.isEmpty, !GenreText.sameGenre(song.artist, composer) {
                    reasons.append(
                        GenreText.sameGenre(last.composer, composer)
                            ? "another \(composer) piece, like \(last.title)" : "written by \(composer)")
                }
                if !song.album.isEmpty, song.album == last.album { score -= 0.3 }
            }
            // Variety: an artist does not come back within a short run.
            if lastArtists.contains(GenreText.fold(song.artist)) { score -= 1.5 }
            // A direction change outweighs everything else.
            if let direction {
                if let toward = direction.towardGenre {
                    if GenreText.sameGenre(song.genre, toward) {
                        score += 3
                        reasons.insert("the turn toward \(toward) you asked for", at: 0)
                    } else {
                        score -= 0.5
                    }
                }
                if let years = direction.towardYears, let year = song.year {
                    if years.contains(year) {
                        score += 2
                        if direction.towardGenre == nil { reasons.insert("the jump to \(Era.name(of: year)) you asked for", at: 0) }
                    } else {
                        let distance = year < years.lowerBound ? years.lowerBound - year : year - years.upperBound
                        score -= min(2, Double(distance) / 50)
                    }
                }
                if let away = direction.awayFromGenre, GenreText.sameGenre(song.genre, away) { score -= 3 }
                if let pace = direction.towardTempo {
                    if let tempo = song.tempo, pace.contains(tempo) {
                        score += 3
                        reasons.insert("the change of pace you asked for (\(Int(tempo.rounded())) BPM)", at: 0)
                    } else if let tempo = song.tempo {
                        let distance = tempo < pace.lowerBound ? pace.lowerBound - tempo : tempo - pace.upperBound
                        score -= min(3, distance / 20)
                    } else {
                        score -= 1
                    }
                }
            }
            // Adventure: a little chance, so the same set does not come back every time.
            score += Double.random(in: 0..<(0.05 + persona.taste.adventure), using: &generator)
            best.append((score, song, reasons))
        }
        let top = limit == 1 ? best.max(by: { $0.score < $1.score }).map { [$0] } ?? [] : Array(best.sorted { $0.score > $1.score }.prefix(limit))
        return top.map {
            Pick(song: $0.song, rationale: Self.rationale(for: $0.song, reasons: $0.reasons, using: &generator), score: $0.score)
        }
    }

    /// One or two short sentences a person reads in the history: the strongest reason first
    /// (a direction asked for, the persona's lane), then one of the others, in one of several
    /// wordings, so a set reads like a DJ talking rather than a form filled in.
    static func rationale(for song: Song, reasons: [String], using generator: inout some RandomNumberGenerator) -> String {
        var what = "\(song.title) by \(song.artist)"
        if let year = song.year { what += " (\(year))" }
        guard let first = reasons.first else {
            // Nothing in its favour but chance: say what it is.
            let facts = [song.genre.map { "some \($0)" }, song.year.map { "from \(Era.name(of: $0))" }].compactMap { $0 }
            let about = facts.isEmpty ? "" : ", " + facts.joined(separator: " ")
            return what + about + ": a left turn to keep the set from settling."
        }
        let rest = Array(reasons.dropFirst())
        let second = rest.isEmpty ? nil : rest[Int.random(in: 0..<rest.count, using: &generator)]
        let frame = Int.random(in: 0..<3, using: &generator)
        switch (frame, second) {
        case (0, let second?): return "\(what): \(first), and \(second)."
        case (1, let second?): return "\(capitalized(first)); \(second). So: \(what)."
        case (_, let second?): return "Next, \(what): \(first), \(second)."
        case (0, nil): return "\(what): \(first)."
        case (1, nil): return "\(capitalized(first)): \(what)."
        case (_, nil): return "Next, \(what): \(first)."
        }
    }

    static func capitalized(_ text: String) -> String { text.prefix(1).uppercased() + text.dropFirst() }
}

/// Songs a pick must not be: this session's, and the persona's song memory.
public struct SongExclusions: Sendable {
    private var texts: Set<String> = []
    private var isrcs: Set<String> = []
    private var tracks: Set<TrackID> = []

    public init() {}

    public init(_ keys: [SongKey], songs: [Song] = []) {
        for key in keys { insert(key) }
        for song in songs { insert(song) }
    }

    public mutating func insert(_ key: SongKey) {
        texts.insert(key.text)
        if let isrc = key.isrc { isrcs.insert(isrc) }
    }

    public mutating func insert(_ song: Song) {
        insert(SongKey(song))
        tracks.insert(song.track)
    }

    public func contains(_ song: Song) -> Bool {
        if tracks.contains(song.track) { return true }
        let key = SongKey(song)
        if let isrc = key.isrc, isrcs.contains(isrc) { return true }
        return texts.contains(key.text)
    }

    public var count: Int { texts.count }
}

/// A persona's taste, folded once for a pick over a whole library.
struct TasteProfile {
    let genres: [String]
    let artists: Set<String>

    init(_ taste: Taste) {
        genres = taste.genres.map(GenreText.fold)
        artists = Set(taste.artists.map(GenreText.fold))
    }

    var hasGenres: Bool { !genres.isEmpty }

    func genreRank(of genre: String?) -> Int? {
        guard let genre, !genre.isEmpty else { return nil }
        let folded = GenreText.fold(genre)
        if let exact = genres.firstIndex(of: folded) { return exact }
        let words = Set(folded.split(separator: " "))
        return genres.firstIndex { !words.isDisjoint(with: $0.split(separator: " ")) }
    }

    func lovesArtist(_ song: Song) -> Bool {
        guard !artists.isEmpty else { return false }
        return artists.contains(GenreText.fold(song.artist)) || song.composer.map { artists.contains(GenreText.fold($0)) } == true
    }
}

/// Genres and names compared the way people mean them: accents, case and punctuation aside.
enum GenreText {
    static func fold(_ text: String) -> String {
        MusicTextNormalizer.fold(text).split(whereSeparator: { !$0.isLetter && !$0.isNumber }).joined(separator: " ")
    }

    static func sameGenre(_ a: String?, _ b: String) -> Bool {
        guard let a, !a.isEmpty else { return false }
        return fold(a) == fold(b)
    }
}

/// Names of eras for labels: centuries before 1900, decades after.
enum Era {
    static func name(of year: Int) -> String {
        year < 1900 ? "the \(year / 100 * 100)s" : "the \(year / 10 * 10)s"
    }
}
