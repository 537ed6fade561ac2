public import JukeCore

/// Which library songs become a game's rounds, and where each clip starts: the seed's
/// auto-select (the game's decade, genres and artists) and the host's own picks alike.
public enum RoundPicker {
    /// Whether `track` fits the game's decade, genres and artists (each only when set;
    /// genres and artists match as case-insensitive parts, "rock" fitting "Folk Rock").
    public static func fits(_ track: Track, _ settings: Settings) -> Bool {
        if let years = settings.decade?.years, !(track.year.map(years.contains) ?? false) { return false }
        let genres = settings.genres
        if !genres.isEmpty, !genres.contains(where: { (track.genre ?? "").lowercased().contains($0) }) { return false }
        let artists = settings.artists.map { $0.lowercased() }
        if !artists.isEmpty, !artists.contains(where: { track.artist.lowercased().contains($0) }) { return false }
        return true
    }

    /// The songs that fill the game up to its number of songs: library songs with a length
    /// that are not in the game yet and fit its settings (any of them when none fits, so
    /// that a game always gets its songs), in random order, one per artist and title, so a
    /// game never plays the same song twice.
    public static func pick(for game: Game, from library: [Track], using random: inout some RandomNumberGenerator) -> [Track] {
        let wanted = game.settings.numSongs - game.rounds.count
        guard wanted > 0 else { return [] }
        let taken = Set(game.rounds.map(\.track))
        let all = library.filter { !taken.contains($0.id) && $0.duration > 0 }
        let fitting = all.filter { fits($0, game.settings) }
        var seen: Set<String> = []
        return (fitting.isEmpty ? all : fitting).shuffled(using: &random)
            .filter { seen.insert("\($0.artist.lowercased())|\($0.title.lowercased())").inserted }
            .prefix(wanted).map { $0 }
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
