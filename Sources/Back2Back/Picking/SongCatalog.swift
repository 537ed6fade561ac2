public import JukeCore
public import Matching

extension TrackCatalog where ID == TrackID {
    /// The matching engine's index over these songs, so a name (an AI's pick, a catalog's
    /// result) resolves to the library track it is.
    public init(songs: [Song]) {
        self.init(
            songs.map { TrackResolver.Candidate(id: $0.track, artist: $0.artist, title: $0.title, album: $0.album, duration: $0.duration, isrc: $0.isrc) })
    }
}
