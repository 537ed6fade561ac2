import Foundation

/// How a game is played, as the host set it up. The seed's choices and defaults, checked by
/// `validate()`, plus a speed bonus that is off unless the host turns it on.
public struct Settings: Sendable, Codable, Equatable {
    public enum Mode: String, Sendable, Codable, CaseIterable {
        /// The host scores each player by tapping; players need no phone or account.
        case host
        /// Players join from their phones and type their guesses.
        case party
    }

    public enum Decade: String, Sendable, Codable, CaseIterable {
        case sixties = "60s", seventies = "70s", eighties = "80s", nineties = "90s", noughties = "00s", tens = "10s", twenties = "20s"
        case mix

        /// The years the decade covers; nil for a mix.
        public var years: ClosedRange<Int>? {
            switch self {
            case .sixties: 1960...1969
            case .seventies: 1970...1979
            case .eighties: 1980...1989
            case .nineties: 1990...1999
            case .noughties: 2000...2009
            case .tens: 2010...2019
            case .twenties: 2020...2029
            case .mix: nil
            }
        }
    }

    public var title: String
    public var mode: Mode = .party
    public var numSongs = 10
    public var secondsPerSong = 30
    public var triviaEnabled = false
    public var autoSelect = false
    public var decade: Decade?
    /// Comma-separated genres, as in the seed ("rock,pop").
    public var genre: String?
    public var artists: [String] = []
    public var pointsArtist = 1
    public var pointsSong = 1
    public var pointsTrivia = 1
    /// Extra points for a correct field answered in the first half of the clip. Off by
    /// default: a party game should not reward the fastest typist.
    public var speedBonus = 0
    /// How similar (0-100) a typed guess of a several-word answer must be to count: the seed's 80%.
    public var matchThreshold = 80

    public init(title: String) { self.title = title }

    public static let songs = 5...50
    public static let seconds = 10...30
    public static let points = 0...100
    public static let titleLength = 1...200
    public static let textLength = 100

    /// The first problem with these settings, as (field, message).
    public func validate() throws(GameError) {
        // Lengths in Unicode scalars, as the API's JSON Schema counts them; blank is refused.
        let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, Self.titleLength.contains(title.unicodeScalars.count) else {
            throw .invalid("title", "A title has 1 to 200 characters.")
        }
        guard Self.songs.contains(numSongs) else { throw .invalid("num_songs", "A game has 5 to 50 songs.") }
        guard Self.seconds.contains(secondsPerSong) else { throw .invalid("seconds_per_song", "A clip lasts 10 to 30 seconds.") }
        for (field, value) in [("points_artist", pointsArtist), ("points_song", pointsSong), ("points_trivia", pointsTrivia), ("speed_bonus", speedBonus)]
        where !Self.points.contains(value) {
            throw .invalid(field, "Points are between 0 and 100.")
        }
        guard (50...100).contains(matchThreshold) else { throw .invalid("match_threshold", "The match threshold is between 50 and 100.") }
        if let genre, genre.unicodeScalars.count > Self.textLength { throw .invalid("genre", "Genres have at most 100 characters.") }
        guard artists.count <= 20 else { throw .invalid("artists", "At most 20 artists.") }
        if artists.contains(where: { $0.unicodeScalars.count > Self.textLength }) { throw .invalid("artists", "An artist has at most 100 characters.") }
    }

    /// The genres named, trimmed and lower-cased.
    public var genres: [String] {
        (genre ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
    }
}
