import Hummingbird
import JukePlatform

/// Dual Player's page: both players, drawn and driven by dual.js.
struct DualPlayerPageRoutes {
    func register(on router: Router<JukeRequestContext>) {
        router.get("/dual") { _, _ in
            guard let user = CurrentRequest.user else { return WebResponse.signIn(then: "/dual") }
            // Stations stream from their own sites until the relay carries them.
            return WebResponse.html(DualPlayerPages.player(user: user), allowOutsideMedia: true)
        }
    }
}
