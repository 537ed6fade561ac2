// The shapes of TuneTrivia's JSON answers as the pages read them (openapi.yaml's Trivia*
// schemas), for the type check only: the modules import them with
// `import("./tunetrivia-types.js")` in JSDoc, so this file is never loaded by a page.

/**
 * A round as this person may see it (TriviaRound): the answer and the trivia only once the
 * server shows them; the clip's timing while it plays.
 * @typedef {{id: string, round_number: number, phase: string, is_revealed: boolean, clip_start: number, has_trivia: boolean,
 *   clip_url?: string, clip_ends_at_ms?: number, clip_seconds_left?: number, artwork_url?: string,
 *   title?: string, artist?: string, album?: string, year?: number,
 *   trivia_question?: string, trivia_options?: string[], trivia_answer?: string}} Round
 */

/**
 * A player (TriviaPlayer); `online` is known to the host only.
 * @typedef {{id: string, display_name: string, is_host: boolean, total_score: number, rank?: number, online?: boolean, has_guessed?: boolean}} Player
 */

/**
 * A guess of the round (TriviaGuess): the verdicts once the server has judged it.
 * @typedef {{player_id: string, artist_guess: string, song_guess: string, trivia_guess?: string,
 *   artist_verdict?: string, song_verdict?: string, artist_reason?: string, song_reason?: string,
 *   artist_correct?: boolean, song_correct?: boolean, trivia_correct?: boolean, points_earned?: number}} Guess
 */

/**
 * A game as this person may see it (TriviaSession).
 * @typedef {{id: string, title: string, invite_code: string, mode: string, status: string, current_round: number,
 *   total_rounds: number, is_host: boolean, you?: string, settings: import("./settings-form.js").Settings,
 *   round?: Round | null, players: Player[], player_count: number, answered_count?: number | null, guesses: Guess[]}} Session
 */

/**
 * A round of the host's list (GET …/rounds).
 * @typedef {{id: string, title: string, artist: string, has_trivia: boolean, trivia_question?: string}} ListedRound
 */

/**
 * What an auto-pick added and what the library lacked (AutoPickResult).
 * @typedef {{rounds: ListedRound[], wanted: number, added: number, missing: string[]}} AutoPick
 */

/**
 * A code for the big screen (TriviaPresenterPairing).
 * @typedef {{pairing_code: string, expires_at_ms: number, present_url: string}} Pairing
 */

/**
 * What the big screen reads (TriviaPresenterState): the game as the whole room may see it,
 * and the round's clip and covers.
 * @typedef {{session: Session, clip_url?: string | null, artwork_url?: string | null, cover_url?: string | null}} PresenterState
 */

export {};
