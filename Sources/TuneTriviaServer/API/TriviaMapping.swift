import Foundation
import JukeCore
import JukePlatform
import Storage
import TuneTrivia
import TuneTriviaAPI

/// TuneTrivia's engine types as the contract's JSON. Only `GameView`s are mapped to player-
/// facing payloads, so nothing hidden by the view can leak through here.
enum TriviaMapping {
    typealias S = Components.Schemas

    /// The generator spells a JSON null in an enum as an empty string, so "" decodes as a
    /// value; it is refused here, as the contract's enum does not list it.
    static func refuseEmpty(_ values: [(field: String, raw: String?)]) throws(APIError) {
        for (field, raw) in values where raw == "" { throw .badRequest("\(field) cannot be empty: leave it out or use one of its values.", field: field) }
    }

    static func settings(_ b: S.TriviaSettings) throws(APIError) -> Settings {
        try refuseEmpty([("mode", b.mode?.rawValue), ("decade", b.decade?.rawValue)])
        var s = Settings(title: b.title)
        s.mode = b.mode.flatMap { Settings.Mode(rawValue: $0.rawValue) } ?? .party
        s.numSongs = b.numSongs ?? s.numSongs
        s.secondsPerSong = b.secondsPerSong ?? s.secondsPerSong
        s.triviaEnabled = b.triviaEnabled ?? false
        s.autoSelect = b.autoSelect ?? false
        s.decade = b.decade.flatMap { Settings.Decade(rawValue: $0.rawValue) }
        s.genre = b.genre
        s.artists = b.artists ?? []
        s.pointsArtist = b.pointsArtist ?? 1
        s.pointsSong = b.pointsSong ?? 1
        s.pointsTrivia = b.pointsTrivia ?? 1
        s.speedBonus = b.speedBonus ?? 0
        s.matchThreshold = b.matchThreshold ?? 80
        return s
    }

    static func apply(_ p: S.TriviaSettingsPatch, to current: Settings) throws(APIError) -> Settings {
        try refuseEmpty([("mode", p.mode?.rawValue), ("decade", p.decade?.rawValue)])
        var s = current
        if let v = p.title { s.title = v }
        if let v = p.mode.flatMap({ Settings.Mode(rawValue: $0.rawValue) }) { s.mode = v }
        if let v = p.numSongs { s.numSongs = v }
        if let v = p.secondsPerSong { s.secondsPerSong = v }
        if let v = p.triviaEnabled { s.triviaEnabled = v }
        if let v = p.autoSelect { s.autoSelect = v }
        if let v = p.decade { s.decade = Settings.Decade(rawValue: v.rawValue) }
        if let v = p.genre { s.genre = v }
        if let v = p.artists { s.artists = v }
        if let v = p.pointsArtist { s.pointsArtist = v }
        if let v = p.pointsSong { s.pointsSong = v }
        if let v = p.pointsTrivia { s.pointsTrivia = v }
        if let v = p.speedBonus { s.speedBonus = v }
        if let v = p.matchThreshold { s.matchThreshold = v }
        return s
    }

    static func settingsBody(_ s: Settings) -> S.TriviaSettings {
        .init(
            title: s.title, mode: .init(rawValue: s.mode.rawValue), numSongs: s.numSongs, secondsPerSong: s.secondsPerSong,
            triviaEnabled: s.triviaEnabled, autoSelect: s.autoSelect, decade: s.decade.flatMap { .init(rawValue: $0.rawValue) }, genre: s.genre,
            artists: s.artists, pointsArtist: s.pointsArtist, pointsSong: s.pointsSong, pointsTrivia: s.pointsTrivia, speedBonus: s.speedBonus,
            matchThreshold: s.matchThreshold)
    }

    /// The game for one viewer; `online` holds the users connected to it right now (nil when
    /// unknown, as in a one-off request, or when the viewer is not the host, who alone sees
    /// who is offline), which becomes each player's `online` flag.
    static func session(_ v: GameView, online: Set<UserID>? = nil) -> S.TriviaSession {
        .init(
            id: v.id.description, title: v.title, inviteCode: v.inviteCode, mode: .init(rawValue: v.settings.mode.rawValue) ?? .party,
            status: .init(rawValue: v.status.rawValue) ?? .lobby, currentRound: v.currentRound, totalRounds: v.totalRounds, isHost: v.isHost,
            you: v.you?.description, settings: settingsBody(v.settings), round: v.round.map { round($0, session: v.id) },
            players: v.players.map { player($0, online: online) }, playerCount: v.playerCount, answeredCount: v.answeredCount,
            guesses: v.guesses.map(guess))
    }

    /// A round from a view: answer fields only where the view has them, the clip's address
    /// only for the host.
    static func round(_ r: GameView.RoundView, session: SessionID) -> S.TriviaRound {
        .init(
            id: r.id.description, roundNumber: r.number, phase: .init(rawValue: r.phase.rawValue) ?? .pending,
            isRevealed: r.phase == .revealed || r.phase == .closed, clipStart: r.clipStart,
            clipEndsAtMs: r.clipEndsAt.map(Milliseconds.since1970),
            clipSecondsLeft: r.clipSecondsLeft,
            clipUrl: r.forHost ? clipURL(session: session, round: r.id) : nil, hasTrivia: r.hasTrivia, trackId: r.track?.description,
            title: r.answer?.title, artist: r.answer?.artist, album: r.answer?.album, year: r.answer?.year,
            artworkUrl: r.track.map { "/api/v1/catalog/tracks/\($0)/artwork" }, triviaQuestion: r.triviaQuestion, triviaOptions: r.triviaOptions,
            triviaAnswer: r.triviaAnswer)
    }

    /// The clip is served by round, never by track: its address names no song.
    static func clipURL(session: SessionID, round: RoundID) -> String { "/api/v1/tunetrivia/sessions/\(session)/rounds/\(round)/clip" }

    static func player(_ p: GameView.PlayerView) -> S.TriviaPlayer { player(p, online: nil) }

    static func player(_ p: GameView.PlayerView, online: Set<UserID>?) -> S.TriviaPlayer {
        .init(
            id: p.id.description, displayName: p.displayName, isHost: p.isHost, isManual: p.isManual, totalScore: p.score.total,
            correctArtists: p.score.artists, correctSongs: p.score.songs, correctTrivia: p.score.trivia, rank: p.rank, hasGuessed: p.hasGuessed,
            online: p.isManual ? nil : online.map { set in p.user.map(set.contains) ?? false })
    }

    static func guess(_ g: GameView.GuessView) -> S.TriviaGuess {
        .init(
            playerId: g.player.description, artistGuess: g.artistGuess, songGuess: g.songGuess, triviaGuess: g.triviaGuess,
            artistVerdict: g.artistVerdict.flatMap { .init(rawValue: $0.rawValue) }, songVerdict: g.songVerdict.flatMap { .init(rawValue: $0.rawValue) },
            artistReason: g.artistReason, songReason: g.songReason, artistCorrect: g.artistCorrect, songCorrect: g.songCorrect,
            triviaCorrect: g.triviaCorrect, pointsEarned: g.points)
    }

    static func entry(_ e: TuneTriviaStore.LeaderboardEntry) -> S.TriviaLeaderboardEntry {
        .init(
            userId: e.user.description, displayName: e.displayName, rank: e.rank, gamesPlayed: e.gamesPlayed, totalPoints: e.totalPoints,
            totalArtistCorrect: e.artistCorrect, totalSongCorrect: e.songCorrect, totalTriviaCorrect: e.triviaCorrect,
            highestGameScore: e.highestGameScore, lastPlayed: e.lastPlayed)
    }
}
