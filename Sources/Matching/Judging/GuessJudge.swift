import Foundation

/// Judges a typed guess against the right answer, for TuneTrivia: a verdict per field with
/// the reason, so a host can see why "springstien" counted and "love" did not.
///
/// The rules, in order:
/// 1. The same after normalization (accents, case, articles, versions, "u" for "you") or
///    an alias of the track: correct.
/// 2. Word by word, typos forgiven by each word's length (none up to 3 letters, 1 up to 7,
///    2 up to 12, then 15%), a short word never: correct ("hey judy"; not "let it go").
/// 3. The same letters spaced differently ("lovestory", "AC DC"): correct.
/// 3a. Another part or number ("Pt. 1" for "Pt. 2", "No. 2" for "No. 1"): wrong.
/// 3b. The leader of "<name> & The <band>" ("Bob Marley"): correct.
/// 3c. As many words, one an unrelated word ("Janet Jackson" for "Michael Jackson"): wrong.
/// 4. An artist's distinctive surname or ending of the name alone ("Springsteen", "Chili
///    Peppers"): correct.
/// 5. Only a common word of the answer ("love" for "Love Story"): wrong.
/// 6. For answers of several words, a similarity at or above the threshold (the seed's 80%,
///    configurable): correct.
/// 7. Part of the answer, or within a margin of the threshold: a near miss, for the host.
/// 8. Anything else: wrong.
public struct GuessJudge: Sendable {
    public enum Field: String, Sendable, CaseIterable { case artist, title }

    public enum Verdict: String, Sendable, Codable {
        case correct, nearMiss = "near_miss", wrong
    }

    public struct Scores: Sendable, Equatable, Codable {
        public let ratio: Double
        public let partialRatio: Double
        public let tokenSetRatio: Double
        public let jaroWinkler: Double
        public let edits: Int
    }

    public struct Judgement: Sendable {
        public let verdict: Verdict
        public let reason: String
        /// The two normalized texts the verdict compared, when there were two.
        let compared: (guess: String, answer: String)?

        /// Every similarity of the two texts, worked out when asked for (`juke match` shows
        /// them): a game needs only the verdict, and the rules use two of the five.
        public var scores: Scores { compared.map { GuessJudge.scores($0.guess, $0.answer) } ?? .zero }
    }

    /// The similarity (0-100) at or above which a guess of a multi-word answer is correct.
    public var threshold: Double
    /// How far below the threshold a guess is still a near miss.
    public var nearMissMargin: Double

    public init(threshold: Double = 80, nearMissMargin: Double = 10) {
        self.threshold = threshold
        self.nearMissMargin = nearMissMargin
    }

    /// Typos forgiven in one word of `length` letters.
    public static func allowedEdits(length: Int) -> Int {
        switch length {
        case ..<4: 0
        case ..<8: 1
        case ..<13: 2
        default: Int((Double(length) * 0.15).rounded(.down))
        }
    }

    public func judge(guess: String, answer: String, field: Field, aliases: [String] = []) -> Judgement {
        let normalize = field == .artist ? MusicTextNormalizer.artist : MusicTextNormalizer.title
        let typedText = normalize(guess)
        let g = Comparable(typedText, field: field)
        var best: Judgement?
        let subtitles = field == .title ? Self.subtitleAlternatives(answer) : []
        // The answer's umlauts written out count only when the guess is that spelling: their
        // extra letters would otherwise forgive typos the answer does not ("for" for "Für").
        let typed = typedText.key
        for raw in ([answer] + subtitles).compactMap(Self.transliterated) where normalize(raw).key == typed {
            return Judgement(verdict: .correct, reason: "the answer with its umlauts written out", compared: (g.key, g.key))
        }
        // Short forms spelled out ("Doctor Dre" for "Dr. Dre") are a second reading of both,
        // compared besides the first, so no verdict of the texts as written is lowered.
        let gSpelled = Comparable(typedText, field: field, spellingOut: true)
        search: for (index, raw) in ([answer] + aliases + subtitles).enumerated() {
            let answerText = normalize(raw)
            let a = Comparable(answerText, field: field)
            let aSpelled = Comparable(answerText, field: field, spellingOut: true)
            let readings = g.words == gSpelled.words && a.words == aSpelled.words ? [(g, a)] : [(g, a), (gSpelled, aSpelled)]
            for (guessReading, answerReading) in readings {
                let j = judge(guessReading, against: answerReading, field: field, isAlias: index > 0)
                if best.map({ Self.rank(j.verdict) > Self.rank($0.verdict) }) ?? true { best = j }
                if j.verdict == .correct { break search }
            }
        }
        return best ?? Judgement(verdict: .wrong, reason: "no answer to compare with", compared: nil)
    }

    static func rank(_ v: Verdict) -> Int { v == .correct ? 2 : v == .nearMiss ? 1 : 0 }

    /// The answer with its umlauts and ligatures written out the way a keyboard without them
    /// writes them ("Motoerhead", "Fuer Elise", "Die Aerzte", "Strasse"), or nil when it has
    /// none. Only the answer's own letters are spelled out: a guess's "oe" is not read as "ö",
    /// which would make "Joe" into "Jö".
    static func transliterated(_ answer: String) -> String? {
        let composed = answer.precomposedStringWithCanonicalMapping  // "ö", not "o" and a mark
        guard composed.unicodeScalars.contains(where: { transliterations[$0] != nil }) else { return nil }
        var out = ""
        for scalar in composed.unicodeScalars {
            if let spelled = transliterations[scalar] { out += spelled } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }

    static let transliterations: [Unicode.Scalar: String] = [
        "ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ß": "ss", "æ": "ae", "Æ": "Ae", "ø": "oe", "Ø": "Oe",
        "å": "aa", "Å": "Aa", "œ": "oe", "Œ": "Oe",
    ]

    /// A title with a trailing subtitle in brackets is known by either half: "Wiegenlied"
    /// for "Wiegenlied (Lullaby)", "Can-Can" for "Infernal Galop (Can-Can)". Featured
    /// artists, parts and versions are not subtitles (the normalizer sets them aside). A
    /// leading parenthetical is the lead-in a room leaves out: "Heat Wave" for "(Love Is Like
    /// A) Heat Wave", "Satisfaction" for "(I Can't Get No) Satisfaction"; the lead-in alone
    /// names nothing.
    static func subtitleAlternatives(_ answer: String) -> [String] {
        var out: [String] = []
        if let rest = afterLeadingParenthetical(answer), MusicTextNormalizer.title(rest).words.contains(where: { $0.count >= 3 }) {
            out.append(rest)
        }
        var text = answer
        while let (inner, rest) = MusicTextNormalizer.trailingTag(text) {
            let bracketed = TextScan.trimmed(text).unicodeScalars.last.map { $0 == ")" || $0 == "]" } ?? false
            // Judged as the normalizer judges it: folded (lower case, no accents) first.
            let folded = MusicTextNormalizer.fold(inner)
            let isSubtitle =
                bracketed && MusicTextNormalizer.featuring(folded) == nil && MusicTextNormalizer.partNumber(folded) == nil
                && MusicTextNormalizer.versionKind(folded) == nil
            if isSubtitle {
                // Each half must carry a word of its own, not only "a" or "the".
                for half in [inner, rest] where MusicTextNormalizer.title(half).words.contains(where: { $0.count >= 3 }) {
                    out.append(half)
                }
            }
            text = rest
        }
        return out
    }

    /// The title after its leading bracketed words ("Heat Wave" of "(Love Is Like A) Heat
    /// Wave"), or nil when it does not start with them or nothing follows.
    static func afterLeadingParenthetical(_ answer: String) -> String? {
        let trimmed = TextScan.trimmed(answer)
        let scalars = trimmed.unicodeScalars
        guard let open = scalars.first, open == "(" || open == "[" else { return nil }
        guard let close = scalars.firstIndex(of: open == "(" ? ")" : "]") else { return nil }
        let rest = TextScan.trimmed(trimmed[scalars.index(after: close)...])
        return rest.isEmpty ? nil : rest
    }

    /// A normalized text as the judge compares it: text-speak spelled out, and the words
    /// that carry the answer (joining words and an artist's "II" or "Jr" left out).
    struct Comparable {
        let key: String
        let words: [String]
        let significant: [String]
        /// "Pt. 2": another part is another piece.
        let part: Int?
        /// The numbers as typed, before text-speak reads "2" as "to" ("Gymnopédie No. 2").
        let numbers: [String]

        /// `spellingOut`: short forms read as the words they stand for (`Abbreviations`).
        init(_ text: MusicText, field: Field, spellingOut: Bool = false) {
            part = text.part
            numbers = text.words.filter { $0.allSatisfy(\.isNumber) }
            let spelled = (spellingOut ? Abbreviations.expanded(text.words) : text.words).map { GuessJudge.textSpeak[$0] ?? $0 }
            words = spelled
            key = spelled.joined(separator: " ")
            let kept = spelled.filter { !GuessJudge.joiningWords.contains($0) && !(field == .artist && GuessJudge.nameSuffixes.contains($0)) }
            significant = kept.isEmpty ? spelled : kept
        }
    }

    private func judge(_ g: Comparable, against a: Comparable, field: Field, isAlias: Bool) -> Judgement {
        // Worked out only by the rules that need them: most guesses are decided before.
        lazy var ratio = Fuzz.ratio(g.key.scalarValues, a.key.scalarValues)
        lazy var edits = Levenshtein.distance(g.key.scalarValues, a.key.scalarValues)
        func verdict(_ v: Verdict, _ reason: String) -> Judgement { Judgement(verdict: v, reason: reason, compared: (g.key, a.key)) }
        if g.key.isEmpty { return verdict(.wrong, "no guess") }
        if g.key == a.key || g.significant == a.significant {
            return verdict(.correct, isAlias ? "matches the alias '\(a.key)'" : "exact match")
        }
        // A short word that differs is a different word, whatever the rest: "let it go".
        let sameShape = g.significant.count == a.significant.count
        let shortWordDiffers = sameShape && zip(g.significant, a.significant).contains { $1.count < 4 && $0 != $1 }
        if sameShape {
            let pairs = zip(g.significant, a.significant)
            let typos = pairs.map { Levenshtein.distance($0.scalarValues, $1.scalarValues) }
            // A one-word answer of four letters or fewer forgives nothing ("aba" is not ABBA).
            let forgiven =
                a.significant.count == 1 && a.key.count <= 4 ? 0 : a.significant.map { Self.allowedEdits(length: $0.count) }.reduce(0, +)
            let total = typos.reduce(0, +)
            if !shortWordDiffers, total <= forgiven {
                return verdict(.correct, "\(total) typo\(total == 1 ? "" : "s"), within the \(forgiven) its words forgive")
            }
        }
        if g.words.joined() == a.words.joined() { return verdict(.correct, "the same letters, spaced differently") }
        // "Gymnopédie No. 2" is another piece than No. 1, however similar the rest.
        if let gPart = g.part, let aPart = a.part, gPart != aPart {
            return verdict(.wrong, "another part: \(gPart) is not \(aPart)")
        }
        if !g.numbers.isEmpty, !a.numbers.isEmpty, g.numbers != a.numbers {
            return verdict(.wrong, "another number: \(g.numbers.joined(separator: " ")) is not \(a.numbers.joined(separator: " "))")
        }
        // "Bob Marley" for "Bob Marley & The Wailers": the leader's name is what people say.
        if field == .artist, let leader = Self.leader(of: a.words), g.words.count == leader.count {
            let typos = Levenshtein.distance(g.key.scalarValues, leader.joined(separator: " ").scalarValues)
            if typos <= Self.allowedEdits(length: leader.joined().count) { return verdict(.correct, "the leader of '\(a.key)'") }
        }
        // The same number of words with one replaced by an unrelated word is another name:
        // "Janet Jackson" is not "Michael Jackson", however much of it is the same.
        if sameShape,
            let swapped = zip(g.significant, a.significant).first(where: { guessWord, answerWord in
                answerWord.count >= 4 && !a.significant.contains(guessWord)
                    && Levenshtein.distance(guessWord.scalarValues, answerWord.scalarValues) * 2 > answerWord.count
            })
        {
            return verdict(.wrong, "'\(swapped.0)' is not '\(swapped.1)'")
        }
        let guessText = g.significant.joined(separator: " ")
        if field == .artist, a.significant.count >= 2, !g.significant.isEmpty, g.significant.count < a.significant.count {
            let ending = Array(a.significant.suffix(g.significant.count))
            let distinctive = ending.contains { $0.count >= 4 && !CommonWords.set.contains($0) }
            let edits = Levenshtein.distance(guessText.scalarValues, ending.joined(separator: " ").scalarValues)
            if distinctive, edits <= Self.allowedEdits(length: ending.joined().count) {
                return verdict(.correct, "the distinctive name '\(ending.joined(separator: " "))' alone")
            }
        }
        if g.significant.count == 1, a.significant.count > 1, let word = g.significant.first, a.words.contains(word),
            CommonWords.set.contains(word) || word.count < 4
        {
            return verdict(.wrong, "only the common word '\(word)' of the answer")
        }
        if a.significant.count >= 2, !shortWordDiffers, ratio >= threshold {
            return verdict(.correct, "\(Self.percent(ratio))% similar (at least \(Self.percent(threshold))%)")
        }
        let isPart = Set(g.significant).isSubset(of: Set(a.significant)) || Set(a.significant).isSubset(of: Set(g.significant))
        let distinctive = g.significant.contains { $0.count >= 4 && !CommonWords.set.contains($0) }
        if isPart, distinctive || g.significant.count >= 2 {
            return verdict(.nearMiss, "part of the answer: '\(guessText)'")
        }
        if ratio >= threshold - nearMissMargin || (a.key.count >= 5 && edits <= Self.allowedEdits(length: a.key.count) + 1) {
            return verdict(.nearMiss, "close: \(Self.percent(ratio))% similar, \(edits) edits")
        }
        return verdict(.wrong, "\(Self.percent(ratio))% similar")
    }

    /// A similarity as a whole percentage, as `%.0f` prints it (ties to even), without a
    /// formatted print per guess.
    static func percent(_ value: Double) -> String {
        guard value.isFinite else { return "\(value)" }
        return String(Int(value.rounded(.toNearestOrEven)))
    }

    static func scores(_ a: String, _ b: String) -> Scores {
        let x = a.scalarValues, y = b.scalarValues
        return Scores(
            ratio: Fuzz.ratio(x, y), partialRatio: Fuzz.partialRatio(x, y), tokenSetRatio: Fuzz.tokenSetRatio(x, y),
            jaroWinkler: JaroWinkler.similarity(x, y), edits: Levenshtein.distance(x, y)
        )
    }

    /// The leader's name in "<name> and the <band>" ("Bob Marley & The Wailers").
    static func leader(of words: [String]) -> [String]? {
        guard let and = words.firstIndex(of: "and"), and >= 1, and + 2 < words.count, words[and + 1] == "the" else { return nil }
        return Array(words[..<and])
    }

    static let joiningWords: Set<String> = ["of", "the", "a", "an", "and", "n", "to", "in", "on"]
    static let nameSuffixes: Set<String> = ["ii", "iii", "iv", "jr", "sr"]
    /// Shorthand that song titles themselves use ("Nothing Compares 2 U").
    static let textSpeak: [String: String] = ["u": "you", "ur": "your", "r": "are", "2": "to", "4": "for", "n": "and"]
}

extension GuessJudge.Scores {
    static let zero = GuessJudge.Scores(ratio: 0, partialRatio: 0, tokenSetRatio: 0, jaroWinkler: 0, edits: 0)
}

/// Words too common in song titles and band names to show that someone knows the answer.
enum CommonWords {
    static let set: Set<String> = [
        "and", "the", "of", "a", "an", "in", "on", "to", "my", "me", "you", "your", "i", "we", "it", "is", "be", "for", "with", "love",
        "baby", "girl", "boy", "heart", "night", "day", "time", "life", "world", "home", "man", "woman", "song", "dance", "rock", "blue",
        "dream", "star", "stars", "fire", "rain", "sun", "moon", "light", "way", "road", "city", "story", "queen", "king", "band", "boys",
        "girls", "brothers", "sisters", "stone", "age", "all", "one", "no", "yes", "oh", "so", "up", "down", "out", "get", "go", "come",
        "lady", "little", "big", "young", "old", "new", "good", "bad", "mister", "miss",
    ]
}
