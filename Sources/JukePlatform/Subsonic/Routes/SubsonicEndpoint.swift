import Hummingbird
import JukeCore

/// One method of the Subsonic API (`/rest/<name>`, with or without `.view`). The platform
/// declares the library's; an app declares the ones it adds (`JukeApp.subsonicEndpoints`),
/// so the platform never names an app. The body gets the call and returns what to answer:
/// the router wraps it in the envelope, checks the caller first, and turns anything thrown
/// into Subsonic's error (`SubsonicError.from`).
public struct SubsonicEndpoint: Sendable {
    public enum Access: Sendable { case everyone, signedIn, admin }

    public let name: String
    public let access: Access
    let body: @Sendable (SubsonicCall) async throws -> SubsonicReply

    public init(_ name: String, access: Access = .signedIn, _ body: @escaping @Sendable (SubsonicCall) async throws -> SubsonicReply) {
        self.name = name
        self.access = access
        self.body = body
    }
}

/// What an app plays through the library's `stream`, `download` and `getCoverArt`: the IDs
/// it hands players (an audiobook's, an episode's) begin with one of its `prefixes`, which
/// never clash with the catalog's (`ar-`, `al-`, `tr-`). A player plays a bookmark or an
/// episode with the same `stream` call as a song, so the platform passes such an ID to its
/// app instead of naming one: `audio` answers stream and download (`download` true: the
/// file as it is, to keep), `cover` getCoverArt.
public struct SubsonicMedia: Sendable {
    public let prefixes: [String]
    let audio: @Sendable (_ call: SubsonicCall, _ id: String, _ download: Bool) async throws -> Response
    let cover: @Sendable (_ call: SubsonicCall, _ id: String) async throws -> Response

    public init(
        prefixes: [String], audio: @escaping @Sendable (_ call: SubsonicCall, _ id: String, _ download: Bool) async throws -> Response,
        cover: @escaping @Sendable (_ call: SubsonicCall, _ id: String) async throws -> Response
    ) {
        self.prefixes = prefixes
        self.audio = audio
        self.cover = cover
    }

    func serves(_ id: String) -> Bool { prefixes.contains { id.hasPrefix($0) } }
}

/// An OpenSubsonic extension a server offers, as `getOpenSubsonicExtensions` lists it.
public struct SubsonicExtension: Sendable, Equatable {
    public let name: String
    public let versions: [Int]

    public init(_ name: String, versions: [Int] = [1]) {
        self.name = name
        self.versions = versions
    }
}

/// What an endpoint is called with.
public struct SubsonicCall: Sendable {
    public let parameters: SubsonicParameters
    /// The caller; nil only for an endpoint open to everyone.
    public let caller: User?
    /// How the caller signed in (`tokenInfo` answers for an API key).
    public let credentials: SubsonicCredentials?
    public let request: Request
    public let context: JukeRequestContext

    public var user: User {
        get throws(SubsonicError) {
            guard let caller else { throw SubsonicError.wrongCredentials }
            return caller
        }
    }
}

/// What an endpoint answers: the envelope alone (ping), the envelope with one element or
/// list in it, or a response of its own (audio and covers are bytes, not an envelope).
public enum SubsonicReply: Sendable {
    case empty
    case element(String, SubsonicElement)
    case list(String, [SubsonicElement])
    case response(Response)
}
