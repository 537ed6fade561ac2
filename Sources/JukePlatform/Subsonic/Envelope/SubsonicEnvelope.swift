/// The `subsonic-response` every answer is wrapped in: ok with the endpoint's element (or
/// none, for ping), or failed with an error's code and message.
public struct SubsonicEnvelope: Sendable, Equatable {
    /// The Subsonic REST version Juke speaks.
    public static let apiVersion = "1.16.1"
    public static let serverType = "juke"

    public var body: SubsonicElement.Child?
    public var error: SubsonicError?
    public var serverVersion: String

    public init(body: SubsonicElement.Child?, serverVersion: String) {
        self.body = body
        self.error = nil
        self.serverVersion = serverVersion
    }

    public init(error: SubsonicError, serverVersion: String) {
        self.body = nil
        self.error = error
        self.serverVersion = serverVersion
    }

    /// The whole answer as one element named `subsonic-response`.
    public var element: SubsonicElement {
        var root = SubsonicElement()
        root.add("status", error == nil ? "ok" : "failed")
        root.add("version", Self.apiVersion)
        root.add("type", Self.serverType)
        root.add("serverVersion", serverVersion)
        root.add("openSubsonic", true)
        if let error {
            var e = SubsonicElement()
            e.add("code", error.code.rawValue)
            e.add("message", error.message)
            e.add("helpUrl", error.helpURL)
            root.add("error", element: e)
        } else if let body {
            root.children.append(body)
        }
        return root
    }

    public func render(_ format: SubsonicFormat) -> String {
        switch format {
        case .xml: SubsonicRenderer.xml(element)
        case .json: SubsonicRenderer.json(element)
        }
    }
}
