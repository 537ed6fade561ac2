import JukeCore

/// The apps the home page offers: the registered ones, then those still to come.
struct Launcher: Sendable {
    let apps: [AppCard]
    let comingSoon: [AppCard]

    /// The keys of a person's things that every app declares: the sign-in pages carry them.
    var personalKeyPrefixes: [String] { apps.flatMap(\.personalKeyPrefixes) }
}

/// The main screen: app launcher, library browser and the player bar.
enum HomePage {
    static func render(user: User, launcher: Launcher) -> String {
        let ready = launcher.apps.map { card($0, ready: true) }
        let later = launcher.comingSoon.filter { soon in !launcher.apps.contains { $0.slug == soon.slug } }.map { card($0, ready: false) }
        let cards = (ready + later).joined(separator: "\n")
        return HTML.page(
            title: "Home", script: "/static/js/app.js",
            body: """
                \(Header.render(user: user, current: "home"))
                <main id="main" class="home">
                  <section aria-labelledby="apps-title" class="apps">
                    <h2 id="apps-title">Apps</h2>
                    <ul class="app-grid">\(cards)</ul>
                  </section>
                  <section aria-labelledby="library-title" class="library">
                    <div class="library-head">
                      <h2 id="library-title">Library</h2>
                      <form role="search" class="search" id="search-form" autocomplete="off">
                        <label for="search" class="visually-hidden">Search the library</label>
                        <input id="search" type="search" placeholder="Search songs, artists, albums…" maxlength="200">
                      </form>
                    </div>
                    <nav class="tabs" role="tablist" aria-label="Browse by">
                      <button role="tab" id="tab-albums" aria-selected="true" data-view="albums">Albums</button>
                      <button role="tab" id="tab-artists" aria-selected="false" data-view="artists">Artists</button>
                      <button role="tab" id="tab-genres" aria-selected="false" data-view="genres">Genres</button>
                      <button role="tab" id="tab-years" aria-selected="false" data-view="years">Years</button>
                      <button role="tab" id="tab-songs" aria-selected="false" data-view="songs">Songs</button>
                    </nav>
                    <p id="crumbs" class="crumbs" aria-live="polite"></p>
                    <div id="browser" class="browser" role="tabpanel" aria-labelledby="tab-albums" aria-busy="true">Loading…</div>
                  </section>
                </main>
                \(PlayerBar.render())
                """, bodyClass: "with-player")
    }

    private static func card(_ app: AppCard, ready: Bool) -> String {
        let inner = """
            <span class="app-icon">\(Icons.svg(app.icon))</span>
            <span class="app-name">\(HTML.escape(app.name))</span>
            <span class="app-blurb">\(HTML.escape(app.blurb))</span>
            \(ready ? "" : "<span class=\"badge\">Coming soon</span>")
            """
        let slug = HTML.escape(app.slug)
        return ready
            ? "<li class=\"app-card\" data-app=\"\(slug)\"><a class=\"app-link\" href=\"/\(slug)\">\(inner)</a></li>"
            : "<li class=\"app-card\" data-app=\"\(slug)\">\(inner)</li>"
    }
}

enum PlayerBar {
    static func render() -> String {
        """
        <footer class="player" id="player" aria-label="Player" hidden>
          <img id="np-art" class="np-art" alt="" width="56" height="56">
          <div class="np-text">
            <span id="np-title" class="np-title"></span>
            <span id="np-artist" class="np-artist"></span>
          </div>
          <div class="controls">
            <button id="prev" class="icon" aria-label="Previous track">\(Icons.svg(Icons.previous))</button>
            <button id="play" class="icon big" aria-label="Play" data-play="\(Icons.play)" data-pause="\(Icons.pause)">\(Icons.svg(Icons.play))</button>
            <button id="next" class="icon" aria-label="Next track">\(Icons.svg(Icons.next))</button>
          </div>
          <div class="progress">
            <span id="elapsed" class="time">0:00</span>
            <input id="seek" type="range" min="0" max="0" step="0.1" value="0" aria-label="Seek">
            <span id="duration" class="time">0:00</span>
          </div>
          <audio id="audio" preload="metadata"></audio>
        </footer>
        """
    }
}
