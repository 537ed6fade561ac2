import JukePlatform

extension DualPlayerApp {
    /// What "Save on this device" keeps (dual-saved.js): a song's, book's or episode's audio
    /// and picture, a book's chapters one file each, the chapters and transcripts that go with
    /// an episode or a library track, and an article with its spoken audio.
    public var deviceKeptPaths: [String] {
        [
            "/api/v1/dual/songs/{id}/audio", "/api/v1/dual/songs/{id}/artwork",
            "/api/v1/dual/books/{id}/audio", "/api/v1/dual/books/{id}/cover", "/api/v1/dual/books/{id}/chapters/{index}/audio",
            "/api/v1/dual/episodes/{id}/audio",
            "/api/v1/dual/episodes/{id}/chapters", "/api/v1/dual/episodes/{id}/transcript",
            "/api/v1/dual/tracks/{id}/chapters",
            "/api/v1/dual/articles/{id}", "/api/v1/dual/articles/{id}/speech", "/api/v1/dual/articles/{id}/speech/audio",
        ]
    }
}
