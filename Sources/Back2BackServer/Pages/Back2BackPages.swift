import JukeCore
import JukePlatform

/// Back2Back's pages. The home is one page of screens, as the phone app it comes from
/// (Session, Personas, Config): Sessions (a new session's form, then your sessions, so that
/// Start and the sessions fit a phone's first screen), Personas (the list; a persona is
/// created and edited on a screen of its own) and Settings (the models, crossfade and song
/// memory; the AI service for admins). The screen shown follows the address's #fragment, so
/// Back works (back2back-screens.js). The session itself is drawn by back2back-session.js
/// from the live state.
enum Back2BackPages {
    /// A home screen: its heading (with `action` beside it), then what it holds.
    static func screen(_ id: String, title: String, action: String = "", _ content: String) -> String {
        """
        <section id="screen-\(id)" class="b2b-screen" data-screen="\(id)" aria-labelledby="\(id)-title" hidden>
          <div class="b2b-screen-head"><h2 id="\(id)-title">\(title)</h2>\(action)</div>
          \(content)
        </section>
        """
    }

    static func home(user: User) -> String {
        let efforts = ["minimal", "low", "medium", "high"].map { "<option value=\"\($0)\">\($0)</option>" }.joined()
        func modelRow(_ name: String, _ label: String) -> String {
            """
            <fieldset class="model-choice"><legend>\(label)</legend>
              <label>Model <input name="\(name)_model" required maxlength="100" list="models"></label>
              <label>Reasoning <select name="\(name)_effort">\(efforts)</select></label>
            </fieldset>
            """
        }
        let tabs = AppTabBar.render(
            label: "Back2Back screens",
            tabs: [
                AppTab(id: "sessions", label: "Sessions", icon: Icons.headphones, href: "#sessions"),
                AppTab(id: "personas", label: "Personas", icon: Icons.user, href: "#personas"),
                AppTab(id: "settings", label: "Settings", icon: Icons.settings, href: "#settings"),
            ], current: nil)
        let sessions = screen(
            "sessions", title: "New session",
            """
            <form id="new-form" class="b2b-new-form" autocomplete="off" novalidate>
              <label class="field b2b-title-field">Title <input name="title" maxlength="100" placeholder="Friday night"></label>
              <label class="field">DJ persona <select name="persona_id" id="persona-select"></select></label>
              <label class="field">Turn (seconds)
                <input name="turn_seconds" id="turn-seconds" type="number" inputmode="numeric" min="0" max="600" step="1"
                  placeholder="90" aria-describedby="turn-hint"></label>
              <p class="hint" id="turn-hint">How long each person has to pick: 15 to 600 seconds, 0 for no limit; empty is 90.</p>
              <button class="primary" type="submit" id="new-start">Start</button>
            </form>
            <p class="form-error" id="new-error" role="alert"></p>
            <h2 id="your-sessions-title">Your sessions</h2>
            <ul id="sessions" class="list" aria-labelledby="your-sessions-title"><li class="muted">Loading…</li></ul>
            """)
        let personas = screen(
            "personas", title: "Personas",
            action: "<a class=\"btn btn-primary btn-s\" id=\"new-persona\" href=\"#persona/new\">\(Icons.svg(Icons.plus)) New persona</a>",
            """
            <p class="muted small">The DJ plays in a persona's style: inspired by a kind of DJ, never impersonating anyone.</p>
            <ul id="personas" class="list persona-list" aria-labelledby="personas-title"></ul>
            """)
        let editor = screen(
            "persona", title: "New persona",
            """
            <form id="persona-form" class="grid-form" autocomplete="off">
              <input type="hidden" name="id">
              <label class="wide">Name <input name="name" required maxlength="80" placeholder="1970s NYC crate digger"></label>
              <label class="wide">Who is this DJ? <textarea name="description" rows="2" maxlength="2000"></textarea></label>
              <label class="wide">Style guide <textarea name="style_guide" rows="5" maxlength="20000"
                placeholder="Written by the AI when one is configured, or by you."></textarea></label>
              <div class="wide" id="guide-box">
                <button class="ghost" type="button" id="write-guide">Write the style guide</button>
                <p class="muted" id="guide-note">With an AI this can take several minutes (it researches the style on the web);
                  you may leave the page: the guide is saved to the persona when it is done.</p>
                <p id="guide-progress" role="status" aria-live="polite"></p>
                <ul id="guide-sources" class="muted"></ul>
              </div>
              <label class="wide">Favourite genres, in order <input name="genres" maxlength="1000" placeholder="Disco, Salsa, Funk"></label>
              <label class="wide">Favourite artists <input name="artists" maxlength="2000" placeholder="Comma-separated"></label>
              <label>From year <input name="year_from" type="number" min="1000" max="3000"></label>
              <label>To year <input name="year_to" type="number" min="1000" max="3000"></label>
              <label>Adventure <input name="adventure" type="range" min="0" max="1" step="0.05" value="0.3"></label>
              <div class="wide button-row">
                <button class="primary" type="submit" id="persona-save">Create persona</button>
                <a class="btn btn-ghost" id="persona-cancel" href="#personas">Cancel</a>
              </div>
            </form>
            <p class="form-error" id="persona-error" role="alert"></p>
            """)
        let settings = screen(
            "settings", title: "Settings",
            """
            <p id="ai-status" class="muted"></p>
            <form id="settings-form" class="grid-form" autocomplete="off">
              \(modelRow("song_selection", "Song selection"))
              \(modelRow("direction_change", "Direction changes"))
              \(modelRow("style_guide", "Style guides"))
              <datalist id="models"><option value="gpt-5"><option value="gpt-5-mini"><option value="gpt-5-nano"></datalist>
              <label>Crossfade (seconds) <input name="crossfade_seconds" type="number" min="0" max="12" step="0.5" required></label>
              <div class="wide button-row">
                <button class="primary" type="submit">Save settings</button>
                <button class="ghost" type="button" id="clear-memory">Clear song memory</button>
              </div>
            </form>
            <p class="form-note" id="settings-note" role="status"></p>
            \(user.isAdmin ? aiEndpointPanel : "")
            """)
        return HTML.page(
            app: Back2BackApp.card, title: "Back2Back", script: "/static/back2back/js/back2back.js", styles: "/static/back2back/css/back2back.css",
            body: """
                \(Header.render(user: user, current: "back2back", app: "Back2Back"))
                <main id="main" class="b2b-home" data-screen="sessions">
                  <h1 class="visually-hidden">Back2Back</h1>
                  \(tabs)
                  \(sessions)
                  \(personas)
                  \(editor)
                  \(settings)
                </main>
                """, bodyClass: "has-tabbar")
    }

    /// For admins: the AI service the DJ uses, for everyone on this server.
    static let aiEndpointPanel = """
        <section aria-labelledby="ai-title" class="b2b-ai" id="ai-panel">
          <h2 id="ai-title">AI service (admins)</h2>
          <p id="ai-source" class="muted"></p>
          <form id="ai-form" class="grid-form" autocomplete="off">
            <label class="wide">Address <input name="base_url" type="url" required maxlength="500" placeholder="https://api.openai.com/v1"></label>
            <label class="wide">API key <input name="api_key" type="password" required maxlength="500" autocomplete="new-password"
              placeholder="Kept on the server; never shown again"></label>
            <div class="wide button-row">
              <button class="primary" type="submit">Use this service</button>
              <button class="ghost" type="button" id="ai-clear">Remove</button>
            </div>
          </form>
          <p class="form-note" id="ai-note" role="status"></p>
        </section>
        """

    /// `catalog` names the outside catalog people may also search (Apple Music, iTunes
    /// Search), when one is configured.
    static func session(user: User, session: String, catalog: String? = nil) -> String {
        let sources =
            catalog.map { name in
                """
                <nav class="tabs" role="tablist" aria-label="Search in" id="search-sources">
                  <button role="tab" type="button" id="source-library" aria-selected="true" data-source="library">Library</button>
                  <button role="tab" type="button" id="source-catalog" aria-selected="false" data-source="catalog">\(HTML.escape(name))</button>
                </nav>
                """
            } ?? ""
        return
            HTML.page(
                app: Back2BackApp.card, title: "Back2Back session", script: "/static/back2back/js/back2back-session.js",
                styles: "/static/back2back/css/back2back.css",
                body: """
                    \(Header.render(user: user, current: "back2back", app: "Back2Back"))
                    <main id="main" class="b2b-session" data-session="\(HTML.escape(session))" data-user="\(HTML.escape(user.id.description))">
                      <header class="b2b-top">
                        <h1 id="session-title">Back2Back</h1>
                        <p id="persona-line" class="muted"></p>
                        <p id="turn" class="turn" role="status" aria-live="polite">Connecting…</p>
                        <p id="problem" class="form-error" role="alert"></p>
                        <div class="actions"><button id="pass-turn" class="ghost" type="button" hidden>Pass my turn</button></div>
                        <div id="player-bar" class="player-bar">
                          <p id="player-line" class="muted" aria-live="polite"></p>
                          <button id="play-here" class="ghost" type="button" hidden>Play here</button>
                        </div>
                      </header>
                      <section id="now" class="now-playing panel" aria-label="Now playing"></section>
                      <section class="panel" aria-labelledby="pick-title" id="pick-panel">
                        <h2 id="pick-title">Pick the next song</h2>
                        <div class="button-row">
                          <button id="direction" class="accent" hidden></button>
                          <button id="ai-start" class="ghost" hidden>Let the DJ start</button>
                        </div>
                        \(sources)
                        <div id="search-panel"\(sources.isEmpty ? "" : " role=\"tabpanel\"")>
                          <form id="search-form" role="search" autocomplete="off">
                            <input id="song-search" type="search" placeholder="Search the library" aria-label="Search the library" maxlength="200">
                          </form>
                          <p id="results-status" class="visually-hidden" role="status"></p>
                          <ul id="results" class="track-list"></ul>
                          <button id="more-results" class="ghost" hidden>More results</button>
                        </div>
                      </section>
                      <section class="panel" aria-labelledby="queue-title">
                        <h2 id="queue-title">Up next</h2>
                        <ol id="queue" class="b2b-list"></ol>
                      </section>
                      <section class="panel" aria-labelledby="history-title">
                        <h2 id="history-title">History</h2>
                        <ol id="history" class="b2b-list" reversed></ol>
                      </section>
                      <section class="panel" aria-labelledby="share-title">
                        <h2 id="share-title">Share and export</h2>
                        <p id="people" class="muted"></p>
                        <div class="actions"><button id="leave" class="ghost" type="button" hidden>Leave session</button></div>
                        <p><a id="invite" href="#">Invite link</a> <button id="copy-invite" class="ghost" type="button">Copy</button></p>
                        <p class="b2b-exports"><a id="export-m3u8" href="#" download>Export M3U8</a><a id="export-xspf" href="#" download>Export XSPF</a></p>
                      </section>
                      <dialog id="confirm-skip" class="sheet b2b-confirm" aria-labelledby="confirm-title" aria-describedby="confirm-detail">
                        <form method="dialog">
                          <h2 id="confirm-title" class="sheet-title">Skip this pick?</h2>
                          <p id="confirm-detail" class="muted"></p>
                          <div class="sheet-actions">
                            <button id="confirm-keep" class="ghost" value="keep">Keep it</button>
                            <button id="confirm-ok" class="primary" value="skip">Skip it</button>
                          </div>
                        </form>
                      </dialog>
                      <div id="mini-player" class="mini-player" role="region" aria-label="Mini player" hidden>
                        <img id="mini-art" class="mini-art" alt="">
                        <button id="mini-open" class="mini-text" type="button" aria-label="Show the song playing">
                          <span id="mini-title" class="mini-title"></span><span id="mini-artist" class="mini-artist"></span>
                        </button>
                        <button id="mini-toggle" class="primary small" type="button">Pause</button>
                        <button id="mini-skip" class="ghost small" type="button" aria-label="Skip">Skip</button>
                      </div>
                      <audio id="deck-a" preload="auto"></audio>
                      <audio id="deck-b" preload="auto"></audio>
                    </main>
                    """)
    }
}

extension Back2BackPages {
    /// Where an invite link lands: one button to join (joining changes the session, so it is a POST).
    static func join(user: User, token: String) -> String {
        HTML.page(
            app: Back2BackApp.card, title: "Join a Back2Back session", script: "/static/back2back/js/back2back-join.js",
            styles: "/static/back2back/css/back2back.css",
            body: """
                \(Header.render(user: user, current: "back2back", app: "Back2Back"))
                <main id="main" class="b2b-join" data-token="\(HTML.escape(token))">
                  <h1>Join a Back2Back session</h1>
                  <p>You take turns picking songs with the host and their DJ.</p>
                  <button id="join" class="primary">Join the session</button>
                  <p class="form-error" id="join-error" role="alert"></p>
                </main>
                """)
    }
}
