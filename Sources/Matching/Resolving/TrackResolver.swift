/// Resolves an "Artist - Title" (from an AI DJ, a playlist, a search) to a library track,
/// for Back2Back. It must never queue the wrong song: both the artist and the title have to
/// match; the original recording wins over live, remix, karaoke and cover versions unless
/// one was asked for; a duration within 3 seconds breaks ties; an ISRC match is certain.
/// When nothing is good enough it says so, with the nearest candidates.
public struct TrackResolver: Sendable {
    /// A library track as the resolver needs it.
    public struct Candidate<ID: Hashable & Sendable>: Sendable {
        public let id: ID
        public let artist: String
        public let title: String
        public let album: String?
        public let duration: Double?
        public let isrc: String?

        public init(id: ID, artist: String, title: String, album: String? = nil, duration: Double? = nil, isrc: String? = nil) {
            self.id = id
            self.artist = artist
            self.title = title
            self.album = album
            self.duration = duration
            self.isrc = isrc
        }
    }

    public struct Query: Sendable {
        public let artist: String
        public let title: String
        public let album: String?
        public let duration: Double?
        public let isrc: String?

        public init(artist: String, title: String, album: String? = nil, duration: Double? = nil, isrc: String? = nil) {
            self.artist = artist
            self.title = title
            self.album = album
            self.duration = duration
            self.isrc = isrc
        }
    }

    public struct Scored<ID: Hashable & Sendable>: Sendable {
        public let candidate: Candidate<ID>
        /// 0...1: the lower of the artist and title similarities, adjusted for version and duration.
        public let confidence: Double
        public let artistScore: Double
        public let titleScore: Double
        public let note: String
        /// The unclamped score used for ordering: tie-breakers may lift it past 1.
        let rankScore: Double
    }

    public enum Result<ID: Hashable & Sendable>: Sendable {
        case match(Scored<ID>)
        case noMatch(nearest: [Scored<ID>])
    }

    /// The confidence a match needs (both fields at least this similar).
    public var minimumConfidence: Double

    public init(minimumConfidence: Double = 0.85) {
        self.minimumConfidence = minimumConfidence
    }

    public func resolve<ID>(_ query: Query, in candidates: [Candidate<ID>], nearest count: Int = 3) -> Result<ID> {
        if let isrc = Self.isrcKey(query.isrc), let exact = candidates.first(where: { Self.isrcKey($0.isrc) == isrc }) {
            return .match(Scored(candidate: exact, confidence: 1, artistScore: 1, titleScore: 1, note: "same ISRC", rankScore: 2))
        }
        let qArtist = MusicTextNormalizer.artist(query.artist)
        let qTitle = MusicTextNormalizer.title(query.title)
        let wantsVersion = !qTitle.isOriginal
        let judge = GuessJudge()
        let scored = candidates.map { c -> Scored<ID> in
            let cArtist = MusicTextNormalizer.artist(c.artist)
            let cTitle = MusicTextNormalizer.title(c.title)
            // What a quiz judge accepts (a surname, "2" for "to") is a strong match too.
            var artistScore = Self.similarity(qArtist, cArtist, isArtist: true)
            if artistScore < 0.9, judge.judge(guess: query.artist, answer: c.artist, field: .artist).verdict == .correct { artistScore = 0.9 }
            var titleScore = Self.similarity(qTitle, cTitle, isArtist: false)
            if titleScore < 0.9, judge.judge(guess: query.title, answer: c.title, field: .title).verdict == .correct { titleScore = 0.9 }
            var notes: [String] = []
            // Another part is another song.
            if qTitle.part != cTitle.part {
                titleScore *= 0.5
                notes.append("different part")
            }
            var confidence = min(artistScore, titleScore)
            if !wantsVersion && !cTitle.isOriginal {
                confidence -= 0.1
                notes.append("not the original (\(cTitle.versions.map(\.kind.rawValue).joined(separator: ", ")))")
            } else if wantsVersion, Set(qTitle.versions.map(\.kind)) != Set(cTitle.versions.map(\.kind)) {
                confidence -= 0.1
                notes.append("another version")
            }
            if let want = query.duration, let have = c.duration, want > 0, have > 0 {
                if abs(want - have) <= 3 {
                    // Within 3 s is a tie-breaker, and the closer the better.
                    confidence += 0.01 + 0.001 * (3 - abs(want - have))
                    notes.append("duration within 3 s")
                } else if abs(want - have) > 30 {
                    confidence -= 0.02
                }
            }
            if let album = query.album, let have = c.album,
                MusicTextNormalizer.title(album).key == MusicTextNormalizer.title(have).key
            {
                confidence += 0.01
                notes.append("same album")
            }
            return Scored(
                candidate: c, confidence: max(0, min(1, confidence)), artistScore: artistScore, titleScore: titleScore,
                note: notes.joined(separator: "; "), rankScore: confidence)
        }
        let ranked = scored.sorted { $0.rankScore > $1.rankScore }
        if let best = ranked.first, best.confidence >= minimumConfidence, best.artistScore >= minimumConfidence,
            best.titleScore >= minimumConfidence
        {
            return .match(best)
        }
        // The nearest for feedback: what resembles the query most on both fields together.
        let nearest = scored.sorted { $0.artistScore + $0.titleScore > $1.artistScore + $1.titleScore }
        return .noMatch(nearest: Array(nearest.prefix(count)))
    }

    /// An ISRC as compared: upper case, without the hyphens some sources print ("GB-AYE-06-01477").
    static func isrcKey(_ isrc: String?) -> String? {
        guard let isrc = isrc?.uppercased().filter({ $0.isLetter || $0.isNumber }), !isrc.isEmpty else { return nil }
        return isrc
    }

    /// 0...1 similarity of two normalized names: exact keys are 1; otherwise the better of
    /// the Indel ratio and the token sort ratio (word order differs in "Simon and Garfunkel"
    /// lists), and for artists a featured credit on either side counts as the same artist.
    static func similarity(_ a: MusicText, _ b: MusicText, isArtist: Bool) -> Double {
        if a.key == b.key { return 1 }
        if isArtist, b.featured.contains(a.key) || a.featured.contains(b.key) { return 0.95 }
        let x = a.key.scalarValues, y = b.key.scalarValues
        return max(Fuzz.ratio(x, y), Fuzz.tokenSortRatio(x, y)) / 100
    }
}
