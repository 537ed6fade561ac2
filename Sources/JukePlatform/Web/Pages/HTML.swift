import JukeCore

/// Small, safe HTML building: every interpolated value goes through `escape`.
public enum HTML {
    public static func escape(_ text: String) -> String { Markup.escape(text) }

    /// The page frame shared by every screen: dark theme, viewport for phones, one module
    /// (`script` is its address, such as /static/js/app.js), and the styles in their order:
    /// the design tokens, the components, the platform's pages, then the app's own (its
    /// common sheet first, then the page's). First,
    /// before any player, `playable.js` tells the server which codecs the browser plays.
    /// An app's pages pass its `card`: the body carries what the card declares for the
    /// platform's scripts (the offline note, the keys of a person's things), so those scripts
    /// name no app.
    public static func page(
        app: AppCard? = nil, title: String, script: String?, styles: String..., body: String, bodyClass: String = "",
        personalKeyPrefixes: [String] = []
    ) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="dark">
        <title>\(escape(title)) · Juke</title>
        <link rel="stylesheet" href="/static/css/tokens.css">
        <link rel="stylesheet" href="/static/css/components.css">
        <link rel="stylesheet" href="/static/css/app.css">
        <link rel="icon" href="/static/img/icon.svg" type="image/svg+xml">
        <link rel="manifest" href="/manifest.webmanifest">
        <meta name="theme-color" content="\(AppShell.background)">
        <link rel="apple-touch-icon" href="/static/img/apple-touch-icon.png">
        \(styles.map { "<link rel=\"stylesheet\" href=\"\(escape($0))\">" }.joined(separator: "\n"))
        <script type="module" src="/static/js/playable.js"></script>
        <script type="module" src="/static/js/pwa.js"></script>
        \(script.map { "<script type=\"module\" src=\"\(escape($0))\"></script>" } ?? "")
        </head>
        <body class="\(escape(bodyClass))"\(appData(app, personalKeyPrefixes: personalKeyPrefixes))>
        <a class="skip-link" href="#main">Skip to content</a>
        \(body)
        </body>
        </html>
        """
    }

    /// The data attributes of an app's page: `data-offline-note` for pwa.js,
    /// `data-personal-keys` (space-separated prefixes) for api.js. The platform's pages where
    /// an account signs in pass every app's prefixes, so a device that has not opened an app's
    /// page since it learnt them still forgets the last person's things.
    static func appData(_ app: AppCard?, personalKeyPrefixes: [String] = []) -> String {
        var data = ""
        if let note = app?.offlineNote { data += " data-offline-note=\"\(escape(note))\"" }
        let prefixes = (app?.personalKeyPrefixes ?? []) + personalKeyPrefixes
        if !prefixes.isEmpty { data += " data-personal-keys=\"\(escape(prefixes.joined(separator: " ")))\"" }
        return data
    }
}
