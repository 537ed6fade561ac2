import JukeCore
import JukePlatform

/// Dual Player's page, laid out as a phone app: Now Playing holds both players' decks (each
/// with its title, cover, play/pause, skips, position, speed and sound mode, all in one phone
/// screen), and the screens that fill them are tabs: Library and Radio for music; Books,
/// Podcasts and Articles for speech. A two-deck mini player stays on every other screen and
/// opens Now Playing. On a wide screen Now Playing stays beside the screen shown. dual.js
/// draws and drives it; the screen shown follows the address's #fragment, so Back works.
enum DualPlayerPages {
    /// The tab bar's screens, in order, each with the player it fills.
    static let screens: [(id: String, label: String, icon: String, player: String)] = [
        ("library", "Library", Icons.library, "music"),
        ("books", "Books", Icons.book, "speech"),
        ("podcasts", "Podcasts", Icons.podcast, "speech"),
        ("articles", "Articles", Icons.article, "speech"),
        ("radio", "Radio", Icons.radio, "music"),
    ]

    static func player(user: User) -> String {
        let tabs = AppTabBar.render(
            label: "Dual Player screens", tabs: screens.map { AppTab(id: $0.id, label: $0.label, icon: $0.icon, href: "#\($0.id)") }, current: nil)
        return HTML.page(
            app: DualPlayerApp.card, title: "Dual Player", script: "/static/dual/js/dual.js", styles: "/static/dual/css/dual.css",
            body: """
                \(Header.render(user: user, current: "dual", app: "Dual Player"))
                <main id="main" class="dual" data-screen="now">
                  <h1 class="visually-hidden">Dual Player</h1>
                  <section id="screen-now" class="dual-screen dual-now-screen" data-screen="now" aria-labelledby="now-title">
                    <div class="dual-screen-head">
                      <h2 id="now-title">Now playing</h2>
                    </div>
                    <div class="dual-players">
                      \(deck(kind: "music", title: "Music", back: "Previous track", forward: "Next track"))
                      \(deck(kind: "speech", title: "Speech", back: "Back 15 seconds", forward: "Forward 30 seconds"))
                    </div>
                    \(mix)
                    \(device)
                  </section>
                  <div class="dual-panes">
                    \(tabs)
                    <div id="music-shelf" class="dual-shelf" data-player="music">
                      \(library(isAdmin: user.isAdmin))
                      \(radio)
                    </div>
                    <div id="speech-shelf" class="dual-shelf" data-player="speech">
                      \(books(isAdmin: user.isAdmin))
                      \(podcasts)
                      \(articles)
                    </div>
                  </div>
                  \(miniPlayer)
                  <p id="dual-status" class="dual-status" role="status" aria-live="polite"></p>
                </main>
                """, bodyClass: "has-tabbar")
    }

    /// A screen's frame: its heading, then what it holds.
    static func screen(_ id: String, title: String, _ content: String) -> String {
        """
        <section id="screen-\(id)" class="dual-screen" data-screen="\(id)" aria-labelledby="\(id)-title" hidden>
          <div class="dual-screen-head"><h2 id="\(id)-title">\(title)</h2></div>
          \(content)
        </section>
        """
    }

    /// Speeds a player offers; the values are written as JavaScript writes numbers ("1", not
    /// "1.0"), so that the page selects the option of the speed it sets.
    static let speeds: [Double] = [0.5, 0.75, 1, 1.25, 1.5, 1.75, 2, 2.5, 3]

    static func speedValue(_ speed: Double) -> String {
        speed == speed.rounded() ? String(Int(speed)) : String(speed)
    }

    /// One player on Now Playing. Its chapters, its transcript and the rest of its sound
    /// (volume, gain, voice EQ) open as sheets, so that both decks fit one phone screen.
    static func deck(kind: String, title: String, back: String, forward: String) -> String {
        let speeds = speeds.map { "<option value=\"\(speedValue($0))\">\(speedValue($0))×</option>" }.joined()
        let isSpeech = kind == "speech"
        let backIcon = isSpeech ? Icons.skip(back: true, seconds: 15) : Icons.svg(Icons.previous)
        let forwardIcon = isSpeech ? Icons.skip(back: false, seconds: 30) : Icons.svg(Icons.next)
        let transcript =
            isSpeech
            ? """
            <dialog class="sheet dual-transcript-sheet" aria-labelledby="\(kind)-transcript-title">
              <div class="sheet-head"><h3 id="\(kind)-transcript-title">Transcript</h3>
                <button type="button" class="icon-btn sheet-close" aria-label="Close the transcript">\(Icons.svg(Icons.close))</button></div>
              <details class="dual-transcript" hidden open>
                <summary class="visually-hidden">Transcript</summary>
                <ol class="dual-cues" aria-label="Transcript"></ol>
              </details>
            </dialog>
            """ : ""
        return """
            <section class="dual-deck dual-player" id="\(kind)-player" data-player="\(kind)" data-state="empty" aria-labelledby="\(kind)-heading">
              <div class="dual-deck-head">
                <h3 id="\(kind)-heading" class="dual-deck-name">\(Icons.svg(isSpeech ? Icons.microphone : Icons.note)) \(title)</h3>
                <fieldset class="segmented dual-mode">
                  <legend class="visually-hidden">\(title) sound</legend>
                  <label><input type="radio" name="\(kind)-mode" value="quality"><span>Quality</span></label>
                  <label><input type="radio" name="\(kind)-mode" value="boost"><span>Boost</span></label>
                </fieldset>
                <button type="button" class="icon-btn dual-sound-open" aria-haspopup="dialog" aria-label="\(title): volume and sound">\(Icons.svg(Icons.volume))</button>
              </div>
              <div class="dual-now">
                <div class="dual-art-box"><img class="dual-art" alt="" hidden>\(Icons.svg(isSpeech ? Icons.book : Icons.note))</div>
                <div class="dual-now-text">
                  <p class="dual-item-title">Nothing loaded</p>
                  <p class="dual-item-sub muted">\(isSpeech ? "Choose a book, an episode or an article" : "Choose a song or a station")</p>
                </div>
                <div class="dual-keep-slot"></div>
              </div>
              <div class="dual-time">
                <span class="dual-elapsed">0:00</span>
                <input type="range" class="dual-seek" aria-label="\(title) position" min="0" max="0" step="0.1" value="0">
                <span class="dual-duration">0:00</span>
              </div>
              <div class="dual-transport">
                <label class="dual-speed-box"><span class="visually-hidden">\(title) speed</span><select class="dual-speed">\(speeds)</select></label>
                <button type="button" class="icon-btn dual-back" aria-label="\(back)">\(backIcon)</button>
                <button type="button" class="icon-btn lg dual-play" aria-label="Play \(title.lowercased())" disabled><span class="when-paused">\(Icons.svg(Icons.play))</span><span class="when-playing">\(Icons.svg(Icons.pause))</span></button>
                <button type="button" class="icon-btn dual-forward" aria-label="\(forward)">\(forwardIcon)</button>
                <span class="dual-extra">
                  <button type="button" class="icon-btn dual-chapters-open" aria-haspopup="dialog" aria-label="\(title): chapters" hidden>\(Icons.svg(Icons.list))</button>
                  \(isSpeech ? "<button type=\"button\" class=\"icon-btn dual-transcript-open\" aria-haspopup=\"dialog\" aria-label=\"Transcript\" hidden>\(Icons.svg(Icons.article))</button>" : "")
                </span>
              </div>
              <dialog class="sheet dual-sound-sheet" aria-labelledby="\(kind)-sound-title">
                <div class="sheet-head"><h3 id="\(kind)-sound-title">\(title): sound</h3>
                  <button type="button" class="icon-btn sheet-close" aria-label="Close \(title.lowercased()) sound">\(Icons.svg(Icons.close))</button></div>
                <label class="field">Volume <input type="range" class="dual-volume" min="0" max="1" step="0.05"></label>
                <label class="field boost-only">Boost gain <span class="dual-gain-value"></span><input type="range" class="dual-gain" min="0" max="12" step="1"></label>
                <label class="check boost-only"><input type="checkbox" class="dual-eq"> Voice EQ (clearer speech)</label>
                <p class="dual-mode-note muted" role="status"></p>
              </dialog>
              <dialog class="sheet dual-chapters-sheet" aria-labelledby="\(kind)-chapters-title">
                <div class="sheet-head"><h3 id="\(kind)-chapters-title">Chapters</h3>
                  <button type="button" class="icon-btn sheet-close" aria-label="Close the chapters">\(Icons.svg(Icons.close))</button></div>
                <ol class="dual-chapters" aria-label="Chapters" hidden></ol>
              </dialog>
              \(transcript)
            </section>
            """
    }

    /// Ducking: how the music steps aside while speech talks.
    static let mix = """
        <section class="card dual-ducking" aria-labelledby="ducking-title">
          <h3 id="ducking-title">Ducking</h3>
          <label class="check"><input type="checkbox" id="ducking-enabled"> Lower the music while speech talks (it comes back between sentences)</label>
          <label class="field">Music level while lowered <input type="range" id="ducking-level" min="0" max="1" step="0.05"></label>
        </section>
        """

    /// What is saved on this device to play with no network.
    static let device = """
        <section class="card dual-device" aria-labelledby="device-title">
          <h3 id="device-title">On this device</h3>
          <p class="muted">Saved here, these play with no network (in a tunnel, on a plane), with their chapters,
            speed and Boost. Positions and played marks made offline go to the server when the network is back.</p>
          <ul id="device-items" class="list dual-device-items" aria-label="Saved on this device"></ul>
          <p id="device-space" class="muted" role="status"></p>
          <label class="check"><input type="checkbox" id="device-remove-played"> Remove a saved item once it has played to its end</label>
        </section>
        """

    /// Both players in a bar at the bottom of every other screen: a tap on one opens Now Playing.
    static let miniPlayer = """
        <aside class="dual-mini above-tabbar" aria-label="Mini player">
          \(miniDeck(kind: "music", title: "Music"))
          \(miniDeck(kind: "speech", title: "Speech"))
        </aside>
        """

    /// The play button carries the artwork (its icon over it), so that the title has the
    /// rest of a half-phone's width; with nothing loaded it shows the player's icon.
    static func miniDeck(kind: String, title: String) -> String {
        """
        <div class="dual-mini-deck" data-player="\(kind)" data-state="empty">
          <button type="button" class="icon-btn dual-mini-play" aria-label="Play \(title.lowercased())" disabled>
            <span class="dual-mini-art"><img alt="" hidden>\(Icons.svg(kind == "speech" ? Icons.microphone : Icons.note))</span>
            <span class="when-paused">\(Icons.svg(Icons.play))</span><span class="when-playing">\(Icons.svg(Icons.pause))</span></button>
          <a class="dual-mini-open" href="#now" aria-label="\(title): open Now playing">
            <span class="dual-mini-text"><span class="dual-mini-title">Not playing</span><span class="dual-mini-sub">\(title)</span></span>
          </a>
          <progress class="dual-mini-progress" max="1" value="0" aria-hidden="true"></progress>
        </div>
        """
    }

    /// Music from the server's library and the listener's uploads: search, and the library
    /// browsed as in any player (its lists, an artist's albums, an album's tracks), which
    /// dual-library.js fills as the person scrolls, with the platform's long lists
    /// (catalog-list.js: an A-Z index, the albums' order and filters); the address says which
    /// (#library/albums?sort=year).
    static func library(isAdmin: Bool) -> String {
        let lists = [("artists", "Artists"), ("albums", "Albums"), ("songs", "Songs"), ("recent", "Recently added")]
            .map { "<li><a class=\"chip\" href=\"#library/\($0.0)\">\($0.1)</a></li>" }.joined()
        return screen(
            "library", title: "Library",
            """
            <form class="dual-search search-field" role="search">
              <input type="search" aria-label="Search the library for the music player" placeholder="Search songs, artists, albums">
            </form>
            <ul class="list dual-results" aria-label="Music search results"></ul>
            <nav class="dual-library-nav" aria-label="Browse the library"><ul class="chips">\(lists)</ul></nav>
            <section class="dual-browse" aria-labelledby="browse-title">
              <a class="btn btn-ghost btn-s dual-browse-back" href="#library/artists" hidden><span aria-hidden="true">←</span> <span class="dual-browse-back-label">Artists</span></a>
              <div class="dual-browse-head">
                <div class="dual-browse-heading">
                  <h3 id="browse-title" class="dual-browse-title" tabindex="-1">Artists</h3>
                  <p class="dual-browse-sub muted"></p>
                </div>
                <button type="button" class="btn btn-primary dual-play-all" hidden>\(Icons.svg(Icons.play)) Play all</button>
              </div>
              <div class="dual-browse-body"></div>
            </section>
            <h3 class="dual-shelf-title">Uploaded songs</h3>
            <ul class="list dual-songs" aria-label="Uploaded songs"><li class="muted">Loading…</li></ul>
            \(uploader(label: "Upload a song (MP3, M4A, M4B, FLAC, Ogg, Opus or WAV)", accept: ".mp3,.m4a,.m4b,.aac,.flac,.ogg,.oga,.opus,.wav,audio/*", share: isAdmin ? "For everyone" : nil))
            """)
    }

    /// The speech player's books: the shelf (with each book's progress), uploads and LibriVox.
    static func books(isAdmin: Bool) -> String {
        screen(
            "books", title: "Books",
            """
            <ul class="list dual-books" aria-label="Books"><li class="muted">Loading…</li></ul>
            \(uploader(label: "Add a book (M4B, M4A or MP3)", accept: ".m4b,.m4a,.mp3,audio/mp4,audio/mpeg", share: isAdmin ? "On everyone's shelf" : nil))
            <details class="card dual-librivox">
              <summary>Free audiobooks from LibriVox</summary>
              <form class="dual-librivox-search" role="search">
                <input name="title" maxlength="200" placeholder="Title" aria-label="Title">
                <input name="author" maxlength="200" placeholder="Author" aria-label="Author">
                <button type="submit" class="btn">\(Icons.svg(Icons.search)) Find books</button>
              </form>
              <p class="dual-librivox-note muted" role="status"></p>
              <ul class="list dual-librivox-results" aria-label="LibriVox books found"></ul>
            </details>
            <section class="card dual-library-books" aria-labelledby="library-books-title">
              <h3 id="library-books-title">From the music library</h3>
              <p class="muted">Audiobooks and long recordings in the server's library play here with their chapters.</p>
              <form class="dual-search search-field" role="search">
                <input type="search" aria-label="Search the library for the speech player" placeholder="Search the library">
              </form>
              <ul class="list dual-results" aria-label="Speech search results"></ul>
            </section>
            """)
    }

    static func uploader(label: String, accept: String, share: String?) -> String {
        """
        <form class="dual-upload">
          <label class="btn btn-ghost dual-upload-button">\(Icons.svg(Icons.upload)) \(label)
            <input type="file" class="dual-upload-file visually-hidden" accept="\(accept)"></label>
          \(share.map { "<label class=\"check\"><input type=\"checkbox\" class=\"dual-share\"> \($0)</label>" } ?? "")
          <progress class="dual-upload-progress" max="1" value="0" hidden></progress>
          <p class="dual-upload-note muted" role="status"></p>
        </form>
        """
    }

    /// Subscriptions with their episodes, the directory's search, a feed by address, OPML and
    /// Juke's demo show (dual-podcasts.js draws them).
    static let podcasts = screen(
        "podcasts", title: "Podcasts",
        """
        <ul class="list dual-shows" aria-label="Your podcasts"><li class="muted">Loading…</li></ul>
        <details class="card dual-podcast-add">
          <summary>Add a podcast</summary>
          <form class="dual-podcast-search" role="search">
            <input name="q" maxlength="200" placeholder="Show name or host" aria-label="Find a podcast by name or host">
            <button type="submit" class="btn">\(Icons.svg(Icons.search)) Find shows</button>
          </form>
          <ul class="list dual-podcast-results" aria-label="Podcasts found"></ul>
          <form class="dual-podcast-url">
            <input name="url" maxlength="2000" placeholder="https://example.com/feed.xml" aria-label="Feed address">
            <button type="submit" class="btn">Subscribe by address</button>
          </form>
          <button type="button" class="btn btn-ghost dual-podcast-demo">Subscribe to Juke's demo show</button>
          <div class="dual-opml">
            <label class="btn btn-ghost">\(Icons.svg(Icons.upload)) Import subscriptions (OPML from another app)
              <input type="file" class="dual-opml-file visually-hidden" accept=".opml,.xml,text/x-opml,text/xml,application/xml"></label>
            <a class="btn btn-ghost dual-opml-export" href="/api/v1/dual/podcasts/opml" download="juke-podcasts.opml">\(Icons.svg(Icons.download)) Export subscriptions (OPML)</a>
          </div>
          <p class="dual-podcast-note muted" role="status"></p>
        </details>
        """)

    /// Articles read aloud: added by address or file, read by the browser's voice in the reader
    /// (the word spoken highlighted) or by Juke's on the server (dual-articles.js draws them).
    static let articles = screen(
        "articles", title: "Articles",
        """
        <form class="dual-article-url">
          <input name="url" maxlength="2000" placeholder="https://… an article's address" aria-label="Article address">
          <button type="submit" class="btn btn-primary">\(Icons.svg(Icons.plus)) Add</button>
        </form>
        <label class="btn btn-ghost">\(Icons.svg(Icons.upload)) Add a file: web page, ePub, PDF or text
          <input type="file" class="dual-article-file visually-hidden" accept=".html,.htm,.xhtml,.epub,.pdf,.txt,.md,text/html,text/plain,application/epub+zip,application/pdf"></label>
        <p class="dual-article-note muted" role="status"></p>
        <ul class="list dual-article-list" aria-label="Your articles"><li class="muted">Loading…</li></ul>
        <div class="card dual-reader" hidden>
          <div class="dual-reader-bar">
            <strong class="dual-reader-title"></strong>
            <label class="field">Chapter <select class="dual-reader-chapter"></select></label>
            <button type="button" class="btn btn-primary dual-reader-play">Read aloud</button>
            <label class="field">Voice <select class="dual-reader-voice"><option value="">The browser's</option></select></label>
            <label class="field">Rate <input type="range" class="dual-reader-rate" min="0.5" max="3" step="0.1" value="1"></label>
            <button type="button" class="btn btn-ghost dual-reader-close">Close</button>
          </div>
          <p class="dual-reader-note muted" role="status"></p>
          <div class="dual-reader-text"></div>
        </div>
        """)

    /// Internet radio: Radio Browser's directory and favourites.
    static let radio = screen(
        "radio", title: "Radio",
        """
        <form class="dual-radio-search" role="search">
          <input name="name" maxlength="200" placeholder="Station name" aria-label="Station name">
          <input name="tag" maxlength="100" placeholder="Genre or tag" aria-label="Genre or tag">
          <input name="country" maxlength="100" placeholder="Country or code" aria-label="Country">
          <input name="language" maxlength="100" placeholder="Language" aria-label="Language">
          <button type="submit" class="btn btn-primary">\(Icons.svg(Icons.search)) Find stations</button>
        </form>
        <p class="dual-radio-note muted" role="status"></p>
        <ul class="list dual-radio-results" aria-label="Stations found"></ul>
        <h3 class="dual-shelf-title">Favourite stations</h3>
        <ul class="list dual-radio-favorites" aria-label="Favourite stations"></ul>
        """)
}
