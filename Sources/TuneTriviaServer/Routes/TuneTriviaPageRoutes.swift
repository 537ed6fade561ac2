import Foundation
import Hummingbird
import JukePlatform

/// TuneTrivia's pages: the games list with the join form, the invite link, a game, and the
/// big screen's.
struct TuneTriviaPageRoutes {
    let service: TuneTriviaService

    func register(on router: Router<JukeRequestContext>) {
        let service = self.service
        let writer = service.triviaWriter
        router.get("/tunetrivia") { request, _ in
            guard let user = CurrentRequest.user else { return WebResponse.redirect("/login") }
            return WebResponse.html(TuneTriviaPages.home(user: user, code: request.uri.queryParameters.get("code"), writer: writer))
        }
        // The invite link (the QR code's). Someone signed in is joined at once by the home page
        // (joining is a POST): following the link is saying they want to play, and a scan then
        // a tap on Join was one tap too many. Someone signed out gets a sign-in page that says
        // whose game it is, and comes back here signed in, to be joined the same way.
        router.get("/tunetrivia/join/:code") { request, context in
            let code = context.parameters.get("code") ?? ""
            let safe = code.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            guard CurrentRequest.user != nil else {
                let back = "/tunetrivia/join/\(safe)?signed_in=1"
                // auth.js goes on to the page its own address names as `next`.
                guard request.uri.queryParameters.get("next") == back else {
                    return WebResponse.redirect("/tunetrivia/join/\(safe)?next=\(back.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")")
                }
                let invitation = await service.invitation(code: code, address: CurrentRequest.remoteAddress)
                return WebResponse.html(TuneTriviaPages.inviteSignIn(host: invitation?.host, title: invitation?.title))
            }
            return WebResponse.redirect("/tunetrivia?code=\(safe)&join=now")
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
            return WebResponse.html(TuneTriviaPages.game(user: user, session: raw.lowercased(), writer: writer))
        }
    }
}
