public import JukeCore

/// Which library songs become a game's rounds, and where each clip starts: the seed's
/// auto-select (the game's decade, genres and artists) and the host's own picks alike.
public enum RoundPicker {
    /// Whether `track` fits the game's decade, genres and artists (each only when set;
    /// genres and artists match as case-insensitive parts, "rock" fitting "Folk Rock").
    public static func fits(_ track: Track, _ settings: Settings) -> Bool {
        fitsDecade(track, settings.decade) && fitsGenre(track, settings.genres) && fitsArtist(track, settings.artists)
    }

    static func fitsDecade(_ track: Track, _ decade: Settings.Decade?) -> Bool {
        guard let years = decade?.years else { return true }
        return track.year.map(years.contains) ?? false
    }

    static func fitsGenre(_ track: Track, _ genres: [String]) -> Bool {
        genres.isEmpty || genres.contains { (track.genre ?? "").lowercased().contains($0) }
    }

    static func fitsArtist(_ track: Track, _ artists: [String]) -> Bool {
        artists.isEmpty || artists.contains { !$0.isEmpty && track.artist.lowercased().contains($0.lowercased()) }
    }

    /// The songs chosen, and what the library lacks for the game's settings.
    public struct Pick: Sendable {
        public var tracks: [Track]
        /// How many songs the game still needed.
        public var wanted: Int
        /// Each thing the library has no song for ("songs from the 60s"), or, when it has
        /// each on its own, that too few fit them all together; empty when the game is full.
        public var missing: [String]
    }

    /// The songs that fill the game up to its number of songs: library songs with a length
    /// that are not in the game yet and fit its settings, in random order, one per artist and
    /// title, so a game never plays the same song twice.
    ///
    /// When too few fit, the pick says what the library lacks instead of quietly playing
    /// something else; `others` (the host's "fill the rest anyway") then tops the game up with
    /// songs that do not fit.
    public static func pick(
        for game: Game, from library: [Track], others: Bool = false, using random: inout some RandomNumberGenerator
    ) -> Pick {
        let settings = game.settings
        let wanted = settings.numSongs - game.rounds.count
        guard wanted > 0 else { return Pick(tracks: [], wanted: 0, missing: []) }
        let taken = Set(game.rounds.map(\.track))
        let takenKeys = Set(game.rounds.map { key($0.answer.artist, $0.answer.title) })
        var seen = takenKeys
        let playable = library.filter { !taken.contains($0.id) && $0.duration > 0 }
        let fitting = playable.filter { fits($0, settings) }.shuffled(using: &random).filter { seen.insert(key($0.artist, $0.title)).inserted }
        var tracks = Array(fitting.prefix(wanted))
        let missing = tracks.count < wanted ? shortfall(settings, library: library, found: tracks.count, wanted: wanted) : []
        if others, tracks.count < wanted {
            let rest = playable.filter { !fits($0, settings) }.shuffled(using: &random).filter { seen.insert(key($0.artist, $0.title)).inserted }
            tracks += rest.prefix(wanted - tracks.count)
        }
        return Pick(tracks: tracks, wanted: wanted, missing: missing)
    }

    static func key(_ artist: String, _ title: String) -> String { "\(artist.lowercased())|\(title.lowercased())" }

    /// What the library has no song for, one phrase each; when each setting finds songs on
    /// its own, that too few fit them together (or that the library has too few songs).
    static func shortfall(_ settings: Settings, library: [Track], found: Int, wanted: Int) -> [String] {
        var missing: [String] = []
        if let decade = settings.decade, decade != .mix, !library.contains(where: { fitsDecade($0, decade) }) {
            missing.append("songs from the \(decade.rawValue)")
        }
        for genre in settings.genres where !library.contains(where: { fitsGenre($0, [genre]) }) {
            missing.append("songs in the genre “\(genre)”")
        }
        for artist in settings.artists where !artist.isEmpty && !library.contains(where: { fitsArtist($0, [artist]) }) {
            missing.append("songs by “\(artist)”")
        }
        if missing.isEmpty {
            let filtered = settings.decade.map { $0 != .mix } ?? false || !settings.genres.isEmpty || !settings.artists.isEmpty
            missing.append(
                filtered
                    ? "more than \(found) new \(found == 1 ? "song" : "songs") that fit the decade, genres and artists together"
                    : "more than \(found) new \(found == 1 ? "song" : "songs")")
        }
        return missing
    }

    /// The round that plays `track`, its clip starting at `clipStart` or, by default, a
    /// third of the way in (past the intro, before the end), and never in the last 5 s.
    public static func round(for track: Track, clipStart: Double?) -> Round {
        let start = clipStart ?? (track.duration > 0 ? (track.duration / 3).rounded(.down) : 0)
        return Round(
            id: RoundID(), track: track.id, number: 0,
            answer: Answer(title: track.title, artist: track.artist, album: track.album, year: track.year),
            clipStart: max(0, min(start, max(0, track.duration - 5))))
    }
}
