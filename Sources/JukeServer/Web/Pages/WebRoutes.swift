import Foundation
import Hummingbird
import JukeCore

/// The web client: server-rendered pages and the static ES modules and CSS they load.
struct WebRoutes<Context: RequestContext> {
    let services: AppServices

    func register(on router: Router<Context>) {
        router.get("/") { _, _ in
            guard let user = CurrentRequest.user else { return redirect("/login") }
            return html(HomePage.render(user: user))
        }
        router.get("/login") { _, _ in
            if CurrentRequest.user != nil { return redirect("/") }
            return html(AuthPages.login())
        }
        router.get("/register") { _, _ in html(AuthPages.register()) }
        router.get("/library") { _, _ in
            guard let user = CurrentRequest.user else { return redirect("/login") }
            guard user.isAdmin else { return html(LibraryAdminPage.forbidden(user: user), status: .forbidden) }
            return html(LibraryAdminPage.render(user: user))
        }
        router.get("/tunetrivia") { request, _ in
            guard let user = CurrentRequest.user else { return redirect("/login") }
            return html(TuneTriviaPages.home(user: user, code: request.uri.queryParameters.get("code")))
        }
        // The invite link: the join form with the code filled in (joining is a POST).
        router.get("/tunetrivia/join/:code") { _, context in
            let code = context.parameters.get("code") ?? ""
            let safe = code.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            guard CurrentRequest.user != nil else { return redirect("/login?next=%2Ftunetrivia%2Fjoin%2F\(safe)") }
            return redirect("/tunetrivia?code=\(safe)")
        }
        router.get("/tunetrivia/:session_id") { _, context in
            guard let user = CurrentRequest.user else { return redirect("/login") }
            let raw = context.parameters.get("session_id") ?? ""
            guard UUID(uuidString: raw) != nil else { throw APIError.notFound("game") }
            return html(TuneTriviaPages.game(user: user, session: raw.lowercased()))
        }
        router.get("/back2back") { _, _ in
            guard let user = CurrentRequest.user else { return redirect("/login") }
            return html(Back2BackPages.home(user: user))
        }
        // The invite link: signing in first if needed, then joining (a POST from the page).
        router.get("/back2back/join/:token") { _, context in
            let token = context.parameters.get("token") ?? ""
            let safe = token.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            guard let user = CurrentRequest.user else { return redirect("/login?next=%2Fback2back%2Fjoin%2F\(safe)") }
            return html(Back2BackPages.join(user: user, token: token))
        }
        router.get("/back2back/:session_id") { _, context in
            guard let user = CurrentRequest.user else { return redirect("/login") }
            let raw = context.parameters.get("session_id") ?? ""
            guard UUID(uuidString: raw) != nil else { throw APIError.notFound("session") }
            return html(Back2BackPages.session(user: user, session: raw.lowercased(), catalog: services.back2back.catalog?.name))
        }
        router.get("/static/**") { request, context in try await staticFile(request, context) }
    }

    private func html(_ body: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [
                .contentType: "text/html; charset=utf-8",
                .cacheControl: "no-store",
                .contentSecurityPolicy:
                    "default-src 'self'; img-src 'self' data: blob:; media-src 'self' blob:; style-src 'self'; script-src 'self'; connect-src 'self'",
                .xContentTypeOptions: "nosniff",
            ],
            body: .init(byteBuffer: ByteBuffer(string: body))
        )
    }

    private func redirect(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
    }

    private func staticFile(_ request: Request, _ context: Context) async throws -> Response {
        let relative = String(request.uri.path.dropFirst("/static/".count))
        guard let root = Bundle.module.resourceURL?.appendingPathComponent("static"),
            !relative.isEmpty, !relative.contains(".."), !relative.hasPrefix("/")
        else { throw APIError.notFound("file") }
        let url = root.appendingPathComponent(relative)
        guard let data = FileManager.default.contents(atPath: url.path) else { throw APIError.notFound("file") }
        let type: String =
            switch url.pathExtension {
            case "js": "text/javascript; charset=utf-8"
            case "css": "text/css; charset=utf-8"
            case "svg": "image/svg+xml"
            case "png": "image/png"
            case "json", "webmanifest": "application/json"
            default: "application/octet-stream"
            }
        return Response(
            status: .ok,
            headers: [.contentType: type, .cacheControl: "no-cache", .xContentTypeOptions: "nosniff"],
            body: .init(byteBuffer: ByteBuffer(bytes: data))
        )
    }
}
