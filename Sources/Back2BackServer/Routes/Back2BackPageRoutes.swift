import Foundation
import Hummingbird
import JukePlatform

/// Back2Back's pages: the sessions list, the invite link and a session.
struct Back2BackPageRoutes {
    let service: Back2BackService

    func register(on router: Router<JukeRequestContext>) {
        router.get("/back2back") { _, _ in
            guard let user = CurrentRequest.user else { return WebResponse.redirect("/login") }
            return WebResponse.html(Back2BackPages.home(user: user))
        }
        // The invite link: signing in first if needed, then joining (a POST from the page).
        router.get("/back2back/join/:token") { _, context in
            let token = context.parameters.get("token") ?? ""
            let safe = token.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            guard let user = CurrentRequest.user else { return WebResponse.signIn(then: "/back2back/join/\(safe)") }
            return WebResponse.html(Back2BackPages.join(user: user, token: token))
        }
        router.get("/back2back/:session_id") { _, context in
            guard let user = CurrentRequest.user else { return WebResponse.redirect("/login") }
            let raw = context.parameters.get("session_id") ?? ""
            guard UUID(uuidString: raw) != nil else { throw APIError.notFound("session") }
            return WebResponse.html(Back2BackPages.session(user: user, session: raw.lowercased(), catalog: service.catalog?.name))
        }
    }
}
