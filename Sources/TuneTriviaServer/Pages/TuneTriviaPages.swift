import JukeCore
import JukePlatform

/// TuneTrivia's screens: the games list with the new-game and join forms, and the game
/// itself (host and player views are drawn by tunetrivia-game.js from the live state).
enum TuneTriviaPages {
    /// `writer`: who writes the trivia (`TuneTriviaService.triviaWriter`), named where trivia is offered.
    static func home(user: User, code: String?, writer: String) -> String {
        let decades = ["", "60s", "70s", "80s", "90s", "00s", "10s", "20s", "mix"].map {
            "<option value=\"\($0)\">\($0.isEmpty ? "Any decade" : $0 == "mix" ? "Mixed" : "The \($0)")</option>"
        }.joined()
        return HTML.page(
            app: TuneTriviaApp.card, title: "TuneTrivia", script: "/static/tunetrivia/js/tunetrivia.js", styles: "/static/tunetrivia/css/tunetrivia.css",
            body: """
                \(Header.render(user: user, current: "tunetrivia", app: "TuneTrivia"))
                <main id="main" class="trivia-home">
                  <h1>TuneTrivia</h1>
                  <p class="muted">Name That Tune for a room full of phones.</p>
                  <section aria-labelledby="join-title" class="panel">
                    <h2 id="join-title">Join a game</h2>
                    <form id="join-form" class="row-form" autocomplete="off">
                      <label>Invite code <input id="join-code" name="code" required maxlength="12" value="\(HTML.escape(code ?? ""))"
                        autocapitalize="characters" inputmode="text" pattern="[A-Za-z0-9 \\-]{6,12}"></label>
                      <label>Your name <input id="join-name" name="name" maxlength="50" value="\(HTML.escape(user.displayName))"></label>
                      <button class="primary" type="submit">Join</button>
                    </form>
                    <p class="form-error" id="join-error" role="alert"></p>
                  </section>
                  <section aria-labelledby="new-title" class="panel">
                    <h2 id="new-title">New game</h2>
                    <form id="new-form" class="grid-form" autocomplete="off">
                      <label class="wide">Title <input name="title" required maxlength="200" value="Name That Tune"></label>
                      <fieldset class="wide"><legend>Mode</legend>
                        <label><input type="radio" name="mode" value="party" checked> Party: players join from their phones and type</label>
                        <label><input type="radio" name="mode" value="host"> Host: you score each player by tapping</label>
                      </fieldset>
                      <label>Songs <input name="num_songs" type="number" min="5" max="50" value="10" required></label>
                      <label>Seconds per song <input name="seconds_per_song" type="number" min="10" max="30" value="30" required></label>
                      <label>Points for the artist <input name="points_artist" type="number" min="0" max="100" value="1"></label>
                      <label>Points for the song <input name="points_song" type="number" min="0" max="100" value="1"></label>
                      <label>Points for trivia <input name="points_trivia" type="number" min="0" max="100" value="1"></label>
                      <label>Speed bonus <input name="speed_bonus" type="number" min="0" max="100" value="0"></label>
                      <label>Match threshold (%) <input name="match_threshold" type="number" min="50" max="100" value="80"></label>
                      <label class="check"><input type="checkbox" name="trivia_enabled"> Trivia after each reveal, \(HTML.escape(writer))</label>
                      <label class="check"><input type="checkbox" name="auto_select"> Pick the songs for me</label>
                      <label>Decade <select name="decade">\(decades)</select></label>
                      <label>Genres <input name="genre" maxlength="100" placeholder="rock, pop"></label>
                      <label class="wide">Artists <input name="artists" maxlength="500" placeholder="Comma-separated"></label>
                      <button class="primary wide" type="submit">Create game</button>
                    </form>
                    <p class="form-error" id="new-error" role="alert"></p>
                  </section>
                  <section aria-labelledby="games-title" class="panel">
                    <h2 id="games-title">Your games</h2>
                    <ul id="games" class="game-list"><li class="muted">Loading…</li></ul>
                  </section>
                  <section aria-labelledby="board-title" class="panel">
                    <h2 id="board-title">Leaderboard</h2>
                    <div id="my-rank" class="my-stats" aria-live="polite"></div>
                    <ol id="leaderboard" class="leaderboard"></ol>
                    <button id="board-more" class="ghost" hidden>Show more</button>
                  </section>
                </main>
                """)
    }

    /// The host's lobby screens, in order: the room (code, QR code, players, Start) first,
    /// so that a phone shows what starts the game without scrolling; the songs and the
    /// settings behind their own tabs. Each follows the address's #fragment, so Back works.
    static let lobbyScreens: [AppTab] = [
        AppTab(id: "room", label: "Room", icon: Icons.trivia, href: "#room"),
        AppTab(id: "songs", label: "Songs", icon: Icons.list, href: "#songs"),
        AppTab(id: "settings", label: "Settings", icon: Icons.settings, href: "#settings"),
    ]

    static func game(user: User, session: String, writer: String) -> String {
        // The tab bar is the design system's; tunetrivia-game.js shows it only to the host, in
        // the lobby (a template until then: a page with a tab bar keeps room for it below).
        let tabs = AppTabBar.render(label: "Lobby screens", tabs: lobbyScreens, current: "room")
        return HTML.page(
            app: TuneTriviaApp.card, title: "TuneTrivia game", script: "/static/tunetrivia/js/tunetrivia-game.js",
            styles: "/static/tunetrivia/css/tunetrivia.css", "/static/tunetrivia/css/game.css",
            body: """
                \(Header.render(user: user, current: "tunetrivia", app: "TuneTrivia"))
                <main id="main" class="trivia-game" data-session="\(HTML.escape(session))" data-user="\(HTML.escape(user.id.description))"
                  data-trivia-writer="\(HTML.escape(writer))">
                  <template id="lobby-tabs">\(tabs)</template>
                  <p class="muted" id="game-status" aria-live="polite">Connecting…</p>
                  <div id="game"></div>
                </main>
                """)
    }

    /// The sign-in page an invite link leads to when nobody is signed in: it says whose game
    /// it is (a bare sign-in page left a newcomer wondering what they were signing in for),
    /// then signs in as the platform's page does (auth.js, back to the invite). `host` and
    /// `title` are nil for a code no game has.
    static func inviteSignIn(host: String?, title: String?) -> String {
        let heading = host.map { "Join \(HTML.escape($0))’s TuneTrivia game" } ?? "Join a TuneTrivia game"
        let lede = title.map { "“\(HTML.escape($0))”: sign in, or create an account, to play." } ?? "Sign in, or create an account, to play."
        return HTML.page(
            app: TuneTriviaApp.card, title: host == nil ? "Join a TuneTrivia game" : "Join \(host ?? "")’s TuneTrivia game", script: "/static/js/auth.js",
            body: """
                <main id="main" class="auth-card" aria-labelledby="auth-title">
                  <h1 id="auth-title"><span class="logo">\(Icons.svg(Icons.trivia))</span> \(heading)</h1>
                  <p class="lede" id="invite-lede">\(lede)</p>
                  \(AuthPages.signInForm(submit: "Sign in and join"))
                  <p class="switch">New here? <a href="/register">Create an account</a></p>
                </main>
                """)
    }

    /// The big screen: a pairing form until the screen has a token, then the room's view of
    /// the game, drawn by tunetrivia-present.js. `code` is the code from the address.
    static func present(code: String?) -> String {
        HTML.page(
            app: TuneTriviaApp.card, title: "TuneTrivia on the big screen", script: "/static/tunetrivia/js/tunetrivia-present.js",
            styles: "/static/tunetrivia/css/tunetrivia.css", "/static/tunetrivia/css/present.css",
            body: """
                <main id="main" class="presenter" data-code="\(HTML.escape(code ?? ""))">
                  <section id="pair" class="pair-screen" hidden>
                    <h1>TuneTrivia on the big screen</h1>
                    <p>On the host's phone, open the game and choose <strong>Show on a big screen</strong>. Type the code it shows here.</p>
                    <form id="pair-form" class="row-form" autocomplete="off">
                      <label>Pairing code <input id="pair-code" name="code" required maxlength="32" autocapitalize="characters"
                        spellcheck="false" placeholder="ABCD-1234"></label>
                      <button class="primary" type="submit" id="pair-button">Show the game</button>
                    </form>
                    <p class="form-error" id="pair-error" role="alert"></p>
                  </section>
                  <p id="present-status" class="present-status" aria-live="polite"></p>
                  <div id="stage" class="stage" aria-live="polite"></div>
                  <button id="sound-on" class="primary sound-on" hidden>Turn the sound on</button>
                </main>
                """, bodyClass: "presenter-page")
    }
}
