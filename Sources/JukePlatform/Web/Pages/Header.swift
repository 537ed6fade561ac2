import JukeCore

/// The bar at the top of every signed-in page: the brand, the app you are in, the platform's
/// links and the account. It fits from 320 px up: its words never break (nothing in it wraps
/// anywhere), a long app name or account name ends in an ellipsis, and on a phone (≤ 700 px)
/// the links and the account move into a menu opened by the menu button (a popover: no
/// script, Escape and a tap outside close it). Both "Sign out" buttons carry `data-logout`
/// (api.js `bindLogout` binds them); the wide one keeps the id `logout`.
public enum Header {
    /// `current` is the page's key ("home", "library", or the app's slug) for `aria-current`;
    /// `app` is the app's name, shown beside the brand.
    public static func render(user: User, current: String, app: String? = nil) -> String {
        let here = { (key: String) in current == key ? " aria-current=\"page\"" : "" }
        var links = [("home", "/", "Home", Icons.nowPlaying)]
        if user.isAdmin { links.append(("library", "/library", "Manage library", Icons.library)) }
        links.append(("account", "/account", "Account", Icons.user))
        let wide = links.map { "<a href=\"\($0.1)\"\(here($0.0))>\($0.2)</a>" }.joined(separator: "\n    ")
        let narrow = links.map { "<li><a href=\"\($0.1)\"\(here($0.0))>\(Icons.svg($0.3))\($0.2)</a></li>" }.joined()
        let name = HTML.escape(user.displayName)
        let appTitle = app.map { "<span class=\"app-title\">\(HTML.escape($0))</span>" } ?? ""
        return """
            <header class="top">
              <a class="brand" href="/" aria-label="Juke home"><span class="logo">\(Icons.svg(Icons.note))</span><span class="brand-name">Juke</span></a>
              \(appTitle)
              <nav class="top-nav" aria-label="Main">
                \(wide)
              </nav>
              <div class="user">
                <span class="user-name" id="user-name" title="\(name)">\(name)</span>
                <button id="logout" class="ghost" data-logout>Sign out</button>
              </div>
              <button type="button" class="icon-btn menu-button" popovertarget="header-menu" aria-label="Menu" aria-haspopup="true">\(Icons.svg(Icons.menu))</button>
              <div id="header-menu" class="header-menu" popover>
                <p class="menu-name" title="\(name)">\(Icons.svg(Icons.user))<span>\(name)</span></p>
                <nav aria-label="Main (menu)"><ul>\(narrow)</ul></nav>
                <button type="button" data-logout>\(Icons.svg(Icons.signOut))Sign out</button>
              </div>
            </header>
            """
    }
}

/// One screen of an app, for `AppTabBar`: `href` goes to another address (or a `#fragment`
/// the page's script follows); `target` names an element on this page the tab shows (the
/// page's script shows it: every tab carries `data-tab="<id>"`).
public struct AppTab: Sendable {
    public let id: String
    public let label: String
    /// A path from `Icons` (such as `Icons.library`).
    public let icon: String
    public let href: String?
    public let target: String?

    public init(id: String, label: String, icon: String, href: String) {
        self.id = id
        self.label = label
        self.icon = icon
        self.href = href
        self.target = nil
    }

    public init(id: String, label: String, icon: String, target: String) {
        self.id = id
        self.label = label
        self.icon = icon
        self.href = nil
        self.target = target
    }
}

/// An app's own screens as a tab bar: fixed to the bottom on a phone (icon over label, above
/// the home indicator), a row of tabs at the top of the app's main area on a wider screen
/// (components.css `.tabbar`). Any app declares its screens, for example:
///
///     let tabs = AppTabBar.render(
///         label: "Screens",
///         tabs: [
///             AppTab(id: "games", label: "Games", icon: Icons.trivia, href: "/games"),
///             AppTab(id: "queue", label: "Queue", icon: Icons.list, target: "queue-panel"),
///         ],
///         current: "games")
///
/// and puts `tabs` first inside its `<main>` (on a phone it is fixed to the bottom wherever it
/// is; the page gets room for it below). It is a `<nav>` named `label`; links are links, the
/// current one `aria-current="page"`; a `target` tab is a button with `aria-controls`, and the
/// page's script moves `aria-current` when it switches screens. Anything else fixed to the
/// bottom (a mini player) adds the class `above-tabbar` to sit above it on a phone.
public enum AppTabBar {
    public static func render(label: String, tabs: [AppTab], current: String?) -> String {
        let items = tabs.map { tab in
            let id = HTML.escape(tab.id)
            let mark = tab.id == current ? " aria-current=\"page\"" : ""
            let inner = "\(Icons.svg(tab.icon))<span class=\"tabbar-label\">\(HTML.escape(tab.label))</span>"
            if let target = tab.target {
                let controls = HTML.escape(target)
                return
                    "<li><button type=\"button\" class=\"tabbar-item\" id=\"tab-\(id)\" data-tab=\"\(id)\" aria-controls=\"\(controls)\"\(mark)>\(inner)</button></li>"
            }
            let href = HTML.escape(tab.href ?? "#\(tab.id)")
            return "<li><a class=\"tabbar-item\" id=\"tab-\(id)\" data-tab=\"\(id)\" href=\"\(href)\"\(mark)>\(inner)</a></li>"
        }
        return "<nav class=\"tabbar\" aria-label=\"\(HTML.escape(label))\"><ul class=\"tabbar-list\">\(items.joined())</ul></nav>"
    }
}
