/// Everything that can happen to a game. IDs of new things come with the command, made by
/// the caller, so that the rules stay deterministic.
public enum Command: Sendable {
    /// Host, in the lobby: change the settings (the mode only while nobody has joined).
    case updateSettings(Settings)
    /// A signed-in user takes a seat from the invite code (party mode).
    case join(player: PlayerID, name: String)
    /// Host mode: the host seats someone by name, without an account.
    case addManualPlayer(player: PlayerID, name: String)
    /// The host takes a player out (their account may not join again until let back), or a
    /// player leaves.
    case removePlayer(PlayerID)
    /// Host: someone removed may join again (by the seat they had).
    case letBack(PlayerID)
    /// Host, in the lobby: a song for the next round.
    case addRound(Round)
    case removeRound(RoundID)
    /// Host (the server, once made): the trivia of a round not played yet.
    case setTrivia(RoundID, Trivia)
    case start
    case pause
    case resume
    /// Host: the game ends now, scores as they stand.
    case end
    /// Host: show the answer of the current round and count the points.
    case reveal
    /// Host: show the trivia answer and count its points.
    case revealTrivia
    /// Host: on to the next song, or the end after the last.
    case nextRound
    /// A party-mode player's one guess of the round, before the reveal.
    case guess(player: PlayerID, artist: String, song: String)
    /// A party-mode player's one trivia answer, after the reveal.
    case answerTrivia(player: PlayerID, option: String)
    /// Host mode: the host marks what a player got right in the current round.
    case score(player: PlayerID, artist: Bool, song: Bool, trivia: Bool)
    /// Host: a near miss of the current round counts after all.
    case acceptNearMiss(player: PlayerID, field: Field)

    public enum Field: String, Sendable, Codable { case artist, song }
}

/// What a command did, for the server to act on (push to clients, update the leaderboard).
public enum GameEvent: Sendable, Equatable {
    case settingsChanged
    case playerJoined(PlayerID)
    case playerLeft(PlayerID)
    /// The host let someone removed join again.
    case letBack(PlayerID)
    case roundsChanged
    case started
    case paused
    case resumed
    case roundStarted(Int)
    case guessAccepted(PlayerID)
    /// The host scored a player or accepted a near miss of theirs.
    case scored(PlayerID)
    case revealed(Int)
    case triviaRevealed(Int)
    case scoresChanged
    /// The game is over; `leaderboard` holds the players whose results count globally.
    case ended
}
