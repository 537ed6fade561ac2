import DualPlayer
import JukePlatform

/// The IDs Dual Player's things have in the Subsonic API: its own UUIDs with a kind in front,
/// as the catalog's are (`ar-`, `al-`, `tr-`), so no ID of one kind is taken for another's:
/// `bk-` an audiobook, `pe-` a podcast episode, `pc-` a podcast channel (a show). Radio
/// stations keep Radio Browser's UUID (or the one made for a station added by address).
enum DualSubsonicID: Equatable {
    case book(BookID)
    case episode(EpisodeID)
    case channel(PodcastID)

    static let prefixes = ["bk-", "pe-", "pc-"]

    init?(_ text: String) {
        let body = String(text.dropFirst(3))
        switch text.prefix(3) {
        case "bk-": guard let id = BookID(body) else { return nil }; self = .book(id)
        case "pe-": guard let id = EpisodeID(body) else { return nil }; self = .episode(id)
        case "pc-": guard let id = PodcastID(body) else { return nil }; self = .channel(id)
        default: return nil
        }
    }

    var text: String {
        switch self {
        case .book(let id): "bk-" + id.description
        case .episode(let id): "pe-" + id.description
        case .channel(let id): "pc-" + id.description
        }
    }

    /// The position key the page saves for it ("book:<id>", "episode:<id>"); a channel has none.
    var positionKey: String? {
        switch self {
        case .book(let id): "book:" + id.description
        case .episode(let id): PodcastService.episodeKey + id.description
        case .channel: nil
        }
    }

    /// The `name` parameter as one of these: missing is 10, anything Juke never made is 70.
    static func read(_ parameters: SubsonicParameters, _ name: String = "id") throws(SubsonicError) -> DualSubsonicID {
        let text = try parameters.required(name)
        guard let id = DualSubsonicID(text) else { throw SubsonicError.notFound("'\(text.prefix(60))'") }
        return id
    }

    static func episode(_ parameters: SubsonicParameters) throws(SubsonicError) -> EpisodeID {
        guard case .episode(let id) = try read(parameters) else { throw SubsonicError.notFound("Podcast episode") }
        return id
    }

    static func channel(_ parameters: SubsonicParameters) throws(SubsonicError) -> PodcastID {
        guard case .channel(let id) = try read(parameters) else { throw SubsonicError.notFound("Podcast channel") }
        return id
    }
}
