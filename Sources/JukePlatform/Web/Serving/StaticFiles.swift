import Foundation
import Hummingbird

/// Serves the files of one folder (a module's scripts, styles and images) under a prefix:
/// the platform's at /static/, each app's at /static/<slug>/.
public struct StaticFiles: Sendable {
    let root: URL
    let prefix: String

    public init(root: URL, prefix: String) {
        self.root = root
        self.prefix = prefix
    }

    public func register<Context: RequestContext>(on router: Router<Context>) {
        router.get(RouterPath(prefix + "**")) { request, _ in try file(at: request.uri.path) }
    }

    func file(at path: String) throws -> Response {
        guard path.hasPrefix(prefix) else { throw APIError.notFound("file") }
        let relative = String(path.dropFirst(prefix.count))
        guard !relative.isEmpty, !relative.contains(".."), !relative.hasPrefix("/") else { throw APIError.notFound("file") }
        let url = root.appendingPathComponent(relative)
        guard let data = FileManager.default.contents(atPath: url.path) else { throw APIError.notFound("file") }
        return Response(
            status: .ok,
            headers: [.contentType: Self.contentType(url.pathExtension), .cacheControl: "no-cache", .xContentTypeOptions: "nosniff"],
            body: .init(byteBuffer: ByteBuffer(bytes: data))
        )
    }

    static func contentType(_ pathExtension: String) -> String {
        switch pathExtension {
        case "js": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "json", "webmanifest": "application/json"
        default: "application/octet-stream"
        }
    }
}
