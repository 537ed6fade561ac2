import Foundation
import Hummingbird
import JukePlatform

/// TuneTrivia's pages: the games list with the join form, the invite link, a game, and the
/// big screen's.
struct TuneTriviaPageRoutes {
    func register(on router: Router<JukeRequestContext>) {
        router.get("/tunetrivia") { request, _ in
            guard let user = CurrentRequest.user else { return WebResponse.redirect("/login") }
            return WebResponse.html(TuneTriviaPages.home(user: user, code: request.uri.queryParameters.get("code")))
        }
        // The invite link: the join form with the code filled in (joining is a POST). Someone
        // who had to sign in or sign up first comes back marked `signed_in`, and is joined by
        // the page at once: they have already said they want to play, once, by the link.
        router.get("/tunetrivia/join/:code") { request, context in
            let code = context.parameters.get("code") ?? ""
            let safe = code.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            guard CurrentRequest.user != nil else { return WebResponse.signIn(then: "/tunetrivia/join/\(safe)?signed_in=1") }
            let joinNow = request.uri.queryParameters.get("signed_in") == "1"
            return WebResponse.redirect("/tunetrivia?code=\(safe)\(joinNow ? "&join=now" : "")")
        }
        // The big screen (presenter view): no sign-in needed, it pairs by a one-time code, or
        // by the game's invite code on a screen where the host is signed in.
        router.get("/tunetrivia/present") { _, _ in WebResponse.html(TuneTriviaPages.present(code: nil)) }
        router.get("/tunetrivia/present/:code") { _, context in
            let code = context.parameters.get("code") ?? ""
            guard (1...32).contains(code.count), code.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
                return WebResponse.redirect("/tunetrivia/present")
            }
            return WebResponse.html(TuneTriviaPages.present(code: code))
        }
        router.get("/tunetrivia/:session_id") { _, context in
            guard let user = CurrentRequest.user else { return WebResponse.redirect("/login") }
            let raw = context.parameters.get("session_id") ?? ""
            guard UUID(uuidString: raw) != nil else { throw APIError.notFound("game") }
            return WebResponse.html(TuneTriviaPages.game(user: user, session: raw.lowercased()))
        }
    }
}
