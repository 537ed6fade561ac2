import Foundation

/// The questions about a song's album (which song opens it, the song's place on it, who
/// recorded another song on it) and its time (its decade or century, the oldest of a few
/// songs), each asked only when the library's tags hold the answer.
extension LibraryTrivia {
    /// The same album: its title and its album artist, so two "Greatest Hits" stay apart.
    static func sameAlbum(_ a: Facts, _ b: Facts) -> Bool {
        !a.album.isEmpty && same(a.album, b.album) && same(a.albumArtist, b.albumArtist)
    }

    /// The song's album as the library has it, when its track numbers can be trusted: one
    /// disc (a second disc starts again at 1) and no number twice.
    static func numberedAlbum(of song: Facts, _ library: [Facts]) -> [Facts]? {
        let tracks = library.filter { sameAlbum($0, song) }
        guard !song.album.isEmpty, tracks.allSatisfy({ ($0.discNumber ?? 1) == 1 }) else { return nil }
        let numbers = tracks.compactMap(\.trackNumber)
        guard Set(numbers).count == numbers.count else { return nil }
        return tracks
    }

    /// "Which song opens the album ...?": four of its songs, the first track the answer.
    static func openerQuestion(_ song: Facts, _ library: [Facts], _ rng: inout some RandomNumberGenerator) -> Trivia? {
        guard let tracks = numberedAlbum(of: song, library), let first = tracks.first(where: { $0.trackNumber == 1 }) else { return nil }
        let others = distinct(tracks.filter { $0.trackNumber != 1 && !same($0.title, first.title) }.map(\.title))
        guard others.count >= 3 else { return nil }
        let options = (Array(others.shuffled(using: &rng).prefix(3)) + [first.title]).shuffled(using: &rng)
        return Trivia(question: "Which song opens the album \"\(song.album)\"?", options: options, answer: first.title, source: "library")
    }

    /// "Which track is ... on ...?": its number, with other places on the album.
    static func trackNumberQuestion(_ song: Facts, _ library: [Facts], _ rng: inout some RandomNumberGenerator) -> Trivia? {
        guard let number = song.trackNumber, number >= 1, let tracks = numberedAlbum(of: song, library) else { return nil }
        let last = max(4, number, tracks.compactMap(\.trackNumber).max() ?? 0)
        var options: Set<Int> = [number]
        while options.count < 4 { options.insert(Int.random(in: 1...last, using: &rng)) }
        return Trivia(
            question: "Which track is \"\(song.title)\" on the album \"\(song.album)\"?", options: options.sorted().map { "Track \($0)" },
            answer: "Track \(number)", source: "library")
    }

    /// "... is also on ...: who recorded it?": another song of the album by someone else than
    /// the song's artist (whose name the reveal has just shown), with other artists.
    static func albumNeighbourQuestion(_ song: Facts, _ library: [Facts], _ rng: inout some RandomNumberGenerator) -> Trivia? {
        let neighbours = library.filter {
            sameAlbum($0, song) && !same($0.title, song.title) && !same($0.artist, song.artist) && !isPlaceholder($0.artist)
        }
        guard let neighbour = neighbours.randomElement(using: &rng) else { return nil }
        // A title two artists recorded would have two right answers.
        guard !library.contains(where: { same($0.title, neighbour.title) && !same($0.artist, neighbour.artist) }) else { return nil }
        let others = distinct(library.map(\.artist).filter { !isPlaceholder($0) && !same($0, neighbour.artist) })
        guard others.count >= 3 else { return nil }
        let options = (Array(others.shuffled(using: &rng).prefix(3)) + [neighbour.artist]).shuffled(using: &rng)
        return Trivia(
            question: "\"\(neighbour.title)\" is also on \"\(song.album)\". Who recorded it?", options: options, answer: neighbour.artist,
            source: "library")
    }

    /// The song's decade ("the 1970s"), or before 1900 its century ("the 17th century").
    static func eraQuestion(_ song: Facts, _ library: [Facts], _ rng: inout some RandomNumberGenerator) -> Trivia? {
        guard let year = song.year, year > 1000 else { return nil }
        let options: [String]
        let answer: String
        if year < 1900 {
            // Four centuries in a row around the song's, none after the 19th.
            let century = (year - 1) / 100 + 1
            let first = Int.random(in: max(1, century - 3)...min(century, 16), using: &rng)
            options = (first...(first + 3)).map { "\(ordinal($0)) century" }
            answer = "\(ordinal(century)) century"
        } else {
            // Four decades in a row around the song's, from 1900 and none after the library's latest.
            let decade = year / 10 * 10
            let latest = max(decade, (library.compactMap(\.year).max() ?? year) / 10 * 10, 1930)
            let first = Int.random(in: max(1900, decade - 30)...min(decade, latest - 30), using: &rng) / 10 * 10
            options = stride(from: first, through: first + 30, by: 10).map { "\($0)s" }
            answer = "\(decade)s"
        }
        let verb = year < 1900 ? "written" : "released"
        let when = year < 1900 ? "century" : "decade"
        return Trivia(question: "In which \(when) was \"\(song.title)\"\(byline(song)) \(verb)?", options: options, answer: answer, source: "library")
    }

    /// "Which of these is the oldest?": the song and three others of the library, each of a
    /// year of its own, the earliest the answer.
    static func oldestQuestion(_ song: Facts, _ library: [Facts], _ rng: inout some RandomNumberGenerator) -> Trivia? {
        // A title's year must be one: two recordings of "Greensleeves" tagged apart are not.
        let years = library.reduce(into: [String: Set<Int>]()) { found, facts in
            found[folded(facts.title), default: []].formUnion(facts.year.map { [$0] } ?? [])
        }
        func year(of title: String) -> Int? {
            guard let known = years[folded(title)], known.count == 1 else { return nil }
            return known.first
        }
        guard let own = song.year, own > 1000, year(of: song.title) == own else { return nil }
        var taken: Set<Int> = [own]
        var picked: [(title: String, year: Int)] = [(song.title, own)]
        for other in library.shuffled(using: &rng) where picked.count < 4 {
            guard !picked.contains(where: { same($0.title, other.title) }), let y = year(of: other.title), y > 1000, !taken.contains(y) else { continue }
            taken.insert(y)
            picked.append((other.title, y))
        }
        guard picked.count == 4, let oldest = picked.min(by: { $0.year < $1.year }) else { return nil }
        return Trivia(
            question: "Which of these songs is the oldest?", options: picked.map(\.title).shuffled(using: &rng), answer: oldest.title, source: "library")
    }

    /// A text as `same` compares it.
    static func folded(_ text: String) -> String { text.lowercased().trimmingCharacters(in: .whitespaces) }

    /// 1st, 2nd, 3rd, 4th ... 11th, 12th, 13th ... 21st.
    static func ordinal(_ n: Int) -> String {
        let suffix =
            switch (n % 10, n % 100) {
            case (_, 11...13): "th"
            case (1, _): "st"
            case (2, _): "nd"
            case (3, _): "rd"
            default: "th"
            }
        return "\(n)\(suffix)"
    }
}
