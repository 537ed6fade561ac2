/// How a Subsonic answer is written: XML unless the client asks for JSON (`f=json`).
/// JSONP is not offered: a browser player reads JSON with CORS-free fetches on its own origin.
public enum SubsonicFormat: Sendable, Equatable {
    case xml, json

    public init(parameter: String?) {
        self = parameter?.lowercased() == "json" ? .json : .xml
    }

    public var contentType: String {
        switch self {
        case .xml: "application/xml; charset=utf-8"
        case .json: "application/json; charset=utf-8"
        }
    }
}
