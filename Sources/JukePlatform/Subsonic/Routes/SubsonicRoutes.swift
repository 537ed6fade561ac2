import Foundation
import Hummingbird
import JukeCore
import Logging
import NIOCore

/// `/rest/<method>` and `/rest/<method>.view`, GET and form POST: reads the parameters,
/// finds the endpoint, checks the version and the caller, runs it and writes the envelope in
/// XML or JSON. Failures are answered as Subsonic asks (HTTP 200, status "failed", a code),
/// except an unknown method (404, so a client can tell an endpoint Juke lacks).
struct SubsonicRoutes: Sendable {
    let access: SubsonicAccess
    let endpoints: [String: SubsonicEndpoint]
    let logger: Logger
    let bodyLimit: Int

    init(access: SubsonicAccess, endpoints: [SubsonicEndpoint], logger: Logger, bodyLimit: Int) {
        self.access = access
        // Method names are matched without case, as the servers clients were written
        // against do (a client sending getalbumlist2 is answered).
        self.endpoints = Dictionary(endpoints.map { ($0.name.lowercased(), $0) }) { first, _ in first }
        self.logger = logger
        self.bodyLimit = bodyLimit
    }

    func register(on router: Router<JukeRequestContext>) {
        router.get("/rest/:method") { request, context in await handle(request, context) }
        router.post("/rest/:method") { request, context in await handle(request, context) }
    }

    func handle(_ request: Request, _ context: JukeRequestContext) async -> Response {
        var parameters = SubsonicParameters(encoded: request.uri.query ?? "")
        var format = SubsonicFormat(parameter: parameters.string("f"))
        do {
            if request.method == .post, request.headers[.contentType]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true {
                var request = request
                let body = try await request.collectBody(upTo: bodyLimit)
                parameters.append(SubsonicParameters(encoded: String(buffer: body)))
                format = SubsonicFormat(parameter: parameters.string("f"))
            }
            var name = context.parameters.get("method") ?? ""
            if name.hasSuffix(".view") { name.removeLast(5) }
            guard let endpoint = endpoints[name.lowercased()] else {
                var response = render(
                    SubsonicEnvelope(error: .init(.generic, "Unknown method: \(name.prefix(60))."), serverVersion: JukeVersion.current), format)
                response.status = .notFound
                return response
            }
            if let refused = parameters.refusedParameter {
                throw SubsonicError.invalid(refused, "control characters and bidirectional overrides are not accepted.")
            }
            var caller: User?
            var credentials: SubsonicCredentials?
            if endpoint.access != .everyone {
                try SubsonicVersion.check(parameters.string("v"))
                let presented = try SubsonicCredentials.read(parameters)
                credentials = presented
                caller = try await access.user(for: presented, address: CurrentRequest.remoteAddress)
                if endpoint.access == .admin, caller?.isAdmin != true { throw SubsonicError.adminOnly }
            }
            let call = SubsonicCall(parameters: parameters, caller: caller, credentials: credentials, request: request, context: context)
            let body: SubsonicElement.Child?
            switch try await endpoint.body(call) {
            case .empty: body = nil
            case .element(let name, let element): body = .init(name: name, content: .one(element))
            case .list(let name, let list): body = .init(name: name, content: .many(list))
            case .response(let response): return response
            }
            return render(SubsonicEnvelope(body: body, serverVersion: JukeVersion.current), format)
        } catch {
            let (refusal, unexpected) = SubsonicError.from(error)
            if unexpected {
                logger.error("a Subsonic request failed", metadata: ["method": "\(context.parameters.get("method") ?? "")", "error": "\(error)"])
            }
            var response = render(SubsonicEnvelope(error: refusal, serverVersion: JukeVersion.current), format)
            if let wait = refusal.retryAfter { response.headers[.retryAfter] = String(wait) }
            return response
        }
    }

    func render(_ envelope: SubsonicEnvelope, _ format: SubsonicFormat) -> Response {
        let text = envelope.render(format)
        return Response(
            status: .ok, headers: [.contentType: format.contentType, .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}

/// The client's protocol version (`v`) against Juke's: a client of a later major version
/// or a later minor one than Juke speaks must wait for the server (30); one of an earlier
/// major version must upgrade (20). Anything of 1.x up to 1.16 is served.
enum SubsonicVersion {
    static func check(_ text: String?) throws(SubsonicError) {
        guard let text, !text.isEmpty else { throw SubsonicError.missing("v") }
        let parts = text.split(separator: ".").map { Int($0) }
        guard (2...3).contains(parts.count), let major = parts[0], let minor = parts[1] else {
            throw SubsonicError.invalid("v", "'\(text.prefix(20))' is not a version such as 1.16.1.")
        }
        let server = SubsonicEnvelope.apiVersion.split(separator: ".").compactMap { Int($0) }
        if major < server[0] { throw SubsonicError(.clientMustUpgrade, "Incompatible Subsonic REST protocol version. Client must upgrade.") }
        if major > server[0] || minor > server[1] {
            throw SubsonicError(
                .serverMustUpgrade, "Incompatible Subsonic REST protocol version. Server must upgrade (Juke speaks \(SubsonicEnvelope.apiVersion)).")
        }
    }
}
