import JukePlatform

extension TuneTriviaApp {
    /// A game's answers: the batch that stores them checks their tokens in one query (see
    /// `submitTriviaGuess`), so the platform may take a token it has just seen on trust until then.
    public var batchCheckedTokenRoutes: [RoutePattern] { [RoutePattern(.post, "/api/v1/tunetrivia/sessions/{session_id}/guess")] }
}
