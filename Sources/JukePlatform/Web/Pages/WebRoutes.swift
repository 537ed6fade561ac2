import Foundation
import Hummingbird
import JukeCore

/// The platform's pages (home, sign-in, library admin) and its static files. Each app
/// registers its own pages.
struct WebRoutes<Context: RequestContext> {
    let launcher: Launcher

    func register(on router: Router<Context>) {
        router.get("/") { _, _ in
            guard let user = CurrentRequest.user else { return WebResponse.redirect("/login") }
            return WebResponse.html(HomePage.render(user: user, launcher: launcher))
        }
        router.get("/login") { _, _ in
            if CurrentRequest.user != nil { return WebResponse.redirect("/") }
            return WebResponse.html(AuthPages.login(personalKeyPrefixes: launcher.personalKeyPrefixes))
        }
        router.get("/register") { _, _ in WebResponse.html(AuthPages.register(personalKeyPrefixes: launcher.personalKeyPrefixes)) }
        router.get("/library") { _, _ in
            guard let user = CurrentRequest.user else { return WebResponse.redirect("/login") }
            guard user.isAdmin else { return WebResponse.html(LibraryAdminPage.forbidden(user: user), status: .forbidden) }
            return WebResponse.html(LibraryAdminPage.render(user: user))
        }
        router.get("/account") { _, _ in
            guard let user = CurrentRequest.user else { return WebResponse.redirect("/login") }
            return WebResponse.html(AccountPage.render(user: user))
        }
        if let root = Self.staticRoot { StaticFiles(root: root, prefix: "/static/").register(on: router) }
    }

    /// The platform's scripts, styles and icons.
    static var staticRoot: URL? { Bundle.module.resourceURL?.appendingPathComponent("static") }
}
