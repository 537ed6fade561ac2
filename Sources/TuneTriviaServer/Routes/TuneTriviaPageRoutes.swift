import Foundation
import Hummingbird
import JukePlatform

/// TuneTrivia's pages: the games list with the join form, the invite link, and a game.
struct TuneTriviaPageRoutes {
    func register(on router: Router<JukeRequestContext>) {
        router.get("/tunetrivia") { request, _ in
            guard let user = CurrentRequest.user else { return WebResponse.redirect("/login") }
            return WebResponse.html(TuneTriviaPages.home(user: user, code: request.uri.queryParameters.get("code")))
        }
        // The invite link: the join form with the code filled in (joining is a POST).
        router.get("/tunetrivia/join/:code") { _, context in
            let code = context.parameters.get("code") ?? ""
            let safe = code.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            guard CurrentRequest.user != nil else { return WebResponse.signIn(then: "/tunetrivia/join/\(safe)") }
            return WebResponse.redirect("/tunetrivia?code=\(safe)")
        }
        router.get("/tunetrivia/:session_id") { _, context in
            guard let user = CurrentRequest.user else { return WebResponse.redirect("/login") }
            let raw = context.parameters.get("session_id") ?? ""
            guard UUID(uuidString: raw) != nil else { throw APIError.notFound("game") }
            return WebResponse.html(TuneTriviaPages.game(user: user, session: raw.lowercased()))
        }
    }
}
