import JukeCore

/// The IDs players see: the catalog's own (stable across scans and servers), each with its
/// kind in front, since Subsonic's browsing mixes artists, albums and songs in one list of
/// "directories": `ar-` an artist, `al-` an album, `tr-` a track.
public enum SubsonicID: Sendable, Equatable {
    case artist(ArtistID)
    case album(AlbumID)
    case track(TrackID)

    public init?(_ text: String) {
        let body = String(text.dropFirst(3))
        switch text.prefix(3) {
        case "ar-": guard let id = ArtistID(body) else { return nil }; self = .artist(id)
        case "al-": guard let id = AlbumID(body) else { return nil }; self = .album(id)
        case "tr-": guard let id = TrackID(body) else { return nil }; self = .track(id)
        default: return nil
        }
    }

    public var text: String {
        switch self {
        case .artist(let id): "ar-" + id.description
        case .album(let id): "al-" + id.description
        case .track(let id): "tr-" + id.description
        }
    }

    /// The `id` parameter as an ID of any kind: missing is 10, one Juke never made is 70.
    static func read(_ parameters: SubsonicParameters, _ name: String = "id") throws(SubsonicError) -> SubsonicID {
        let text = try parameters.required(name)
        guard let id = SubsonicID(text) else { throw SubsonicError.notFound("'\(text.prefix(60))'") }
        return id
    }
}
