import JukeCore
import JukePlatform

/// Dual Player's page: the music player and the speech player side by side (stacked on a
/// phone), drawn and driven by dual.js.
enum DualPlayerPages {
    static func player(user: User) -> String {
        HTML.page(
            title: "Dual Player", script: "/static/dual/js/dual.js", styles: "/static/dual/css/dual.css",
            body: """
                \(Header.render(user: user, current: "dual"))
                <main id="main" class="dual">
                  <h1>Dual Player</h1>
                  <p class="muted">Music and speech at the same time: each player has its own controls, speed, volume and sound.
                    The lock screen and a headset's button control both.</p>
                  <div class="dual-players">
                    \(panel(kind: "music", title: "Music", back: "Previous track", forward: "Next track", isAdmin: user.isAdmin))
                    \(panel(kind: "speech", title: "Speech", back: "Back 15 seconds", forward: "Forward 30 seconds", isAdmin: user.isAdmin))
                  </div>
                  <section class="panel dual-ducking" aria-labelledby="ducking-title">
                    <h2 id="ducking-title">Ducking</h2>
                    <label><input type="checkbox" id="ducking-enabled"> Lower the music while speech talks (it comes back between sentences)</label>
                    <label>Music level while lowered <input type="range" id="ducking-level" min="0" max="1" step="0.05"></label>
                  </section>
                  <section class="panel dual-device" aria-labelledby="device-title">
                    <h2 id="device-title">On this device</h2>
                    <p class="muted">Saved here, these play with no network (in a tunnel, on a plane), with their chapters,
                      speed and Boost. Positions and played marks made offline go to the server when the network is back.</p>
                    <ul id="device-items" class="dual-device-items" aria-label="Saved on this device"></ul>
                    <p id="device-space" class="muted" role="status"></p>
                    <label><input type="checkbox" id="device-remove-played"> Remove a saved item once it has played to its end</label>
                  </section>
                  <p id="dual-status" class="muted" role="status" aria-live="polite"></p>
                </main>
                """)
    }

    /// The speech player's books (the demo, uploads), and the form that adds one.
    static func shelf(isAdmin: Bool) -> String {
        """
        <h3 class="dual-shelf-title">Books</h3>
        <ul class="dual-books" aria-label="Books"><li class="muted">Loading…</li></ul>
        <form class="dual-upload">
          <label>Add a book (M4B, M4A or MP3) <input type="file" class="dual-upload-file" accept=".m4b,.m4a,.mp3,audio/mp4,audio/mpeg"></label>
          \(isAdmin ? "<label><input type=\"checkbox\" class=\"dual-share\"> On everyone's shelf</label>" : "")
          <progress class="dual-upload-progress" max="1" value="0" hidden></progress>
          <p class="dual-upload-note muted" role="status"></p>
        </form>
        <details class="dual-librivox">
          <summary>LibriVox audiobooks</summary>
          <form class="dual-librivox-search" role="search">
            <input name="title" maxlength="200" placeholder="Title" aria-label="Title">
            <input name="author" maxlength="200" placeholder="Author" aria-label="Author">
            <button type="submit">Find books</button>
          </form>
          <p class="dual-librivox-note muted" role="status"></p>
          <ul class="dual-librivox-results" aria-label="LibriVox books found"></ul>
        </details>
        """
    }

    /// The speech player's podcasts: subscriptions with their episodes, the directory's search,
    /// subscribing by a feed's address, and Juke's demo show (dual-podcasts.js draws them).
    static let podcasts = """
        <section class="dual-podcasts" aria-labelledby="podcasts-title">
          <h3 class="dual-shelf-title" id="podcasts-title">Podcasts</h3>
          <ul class="dual-shows" aria-label="Your podcasts"><li class="muted">Loading…</li></ul>
          <details class="dual-podcast-add">
            <summary>Add a podcast</summary>
            <form class="dual-podcast-search" role="search">
              <input name="q" maxlength="200" placeholder="Show name or host" aria-label="Find a podcast by name or host">
              <button type="submit">Find shows</button>
            </form>
            <ul class="dual-podcast-results" aria-label="Podcasts found"></ul>
            <form class="dual-podcast-url">
              <input name="url" maxlength="2000" placeholder="https://example.com/feed.xml" aria-label="Feed address">
              <button type="submit">Subscribe by address</button>
            </form>
            <button type="button" class="ghost dual-podcast-demo">Subscribe to Juke's demo show</button>
            <div class="dual-opml">
              <label>Import subscriptions (OPML from another app) <input type="file" class="dual-opml-file" accept=".opml,.xml,text/x-opml,text/xml,application/xml"></label>
              <a class="dual-opml-export" href="/api/v1/dual/podcasts/opml" download="juke-podcasts.opml">Export subscriptions (OPML)</a>
            </div>
            <p class="dual-podcast-note muted" role="status"></p>
          </details>
        </section>
        """

    /// Articles read aloud: added by address or file, read by the browser's voice in the reader
    /// (the word spoken highlighted) or by Juke's on the server (dual-articles.js draws them).
    static let articles = """
        <section class="dual-articles" aria-labelledby="articles-title">
          <h3 class="dual-shelf-title" id="articles-title">Articles</h3>
          <form class="dual-article-url">
            <input name="url" maxlength="2000" placeholder="https://… an article's address" aria-label="Article address">
            <button type="submit">Add article</button>
          </form>
          <label>Or a file (a saved web page, an ePub, a PDF or text) <input type="file" class="dual-article-file" accept=".html,.htm,.xhtml,.epub,.pdf,.txt,.md,text/html,text/plain,application/epub+zip,application/pdf"></label>
          <p class="dual-article-note muted" role="status"></p>
          <ul class="dual-article-list" aria-label="Your articles"><li class="muted">Loading…</li></ul>
          <div class="dual-reader" hidden>
            <div class="dual-reader-bar">
              <strong class="dual-reader-title"></strong>
              <label>Chapter <select class="dual-reader-chapter"></select></label>
              <button type="button" class="primary dual-reader-play">Read aloud</button>
              <label>Voice <select class="dual-reader-voice"><option value="">The browser's</option></select></label>
              <label>Rate <input type="range" class="dual-reader-rate" min="0.5" max="3" step="0.1" value="1"></label>
              <button type="button" class="ghost dual-reader-close">Close</button>
            </div>
            <p class="dual-reader-note muted" role="status"></p>
            <div class="dual-reader-text"></div>
          </div>
        </section>
        """

    /// An episode's transcript, in time with the audio (its cue highlighted, a tap seeks).
    static let transcript = """
        <details class="dual-transcript" hidden open>
          <summary>Transcript</summary>
          <ol class="dual-cues" aria-label="Transcript"></ol>
        </details>
        """

    /// The music player's uploads: a listener's own songs and those an admin shared.
    static func songs(isAdmin: Bool) -> String {
        """
        <h3 class="dual-shelf-title">Uploaded songs</h3>
        <ul class="dual-songs" aria-label="Uploaded songs"><li class="muted">Loading…</li></ul>
        <form class="dual-upload">
          <label>Upload a song (MP3, M4A, FLAC, Ogg, Opus or WAV) <input type="file" class="dual-upload-file" accept=".mp3,.m4a,.aac,.flac,.ogg,.oga,.opus,.wav,audio/*"></label>
          \(isAdmin ? "<label><input type=\"checkbox\" class=\"dual-share\"> For everyone</label>" : "")
          <progress class="dual-upload-progress" max="1" value="0" hidden></progress>
          <p class="dual-upload-note muted" role="status"></p>
        </form>
        """
    }

    /// The music player's internet radio: Radio Browser's directory and favourites.
    static let radio = """
        <details class="dual-radio">
          <summary>Internet radio</summary>
          <form class="dual-radio-search" role="search">
            <input name="name" maxlength="200" placeholder="Station name" aria-label="Station name">
            <input name="tag" maxlength="100" placeholder="Genre or tag" aria-label="Genre or tag">
            <input name="country" maxlength="100" placeholder="Country or code" aria-label="Country">
            <input name="language" maxlength="100" placeholder="Language" aria-label="Language">
            <button type="submit">Find stations</button>
          </form>
          <p class="dual-radio-note muted" role="status"></p>
          <h3 class="dual-shelf-title">Favourite stations</h3>
          <ul class="dual-radio-favorites" aria-label="Favourite stations"></ul>
          <ul class="dual-radio-results" aria-label="Stations found"></ul>
        </details>
        """

    static func panel(kind: String, title: String, back: String, forward: String, isAdmin: Bool) -> String {
        let speeds = [0.5, 0.75, 1, 1.25, 1.5, 1.75, 2, 2.5, 3].map { s in
            let label = s == s.rounded() ? String(Int(s)) : String(s)
            return "<option value=\"\(s)\">\(label)×</option>"
        }.joined()
        return """
            <section class="panel dual-player" id="\(kind)-player" data-player="\(kind)" aria-labelledby="\(kind)-heading">
              <h2 id="\(kind)-heading">\(title)</h2>
              <div class="dual-now">
                <img class="dual-art" alt="" hidden>
                <div>
                  <p class="dual-item-title">Nothing loaded</p>
                  <p class="dual-item-sub muted"></p>
                </div>
              </div>
              <div class="dual-keep-slot"></div>
              <div class="dual-transport">
                <button type="button" class="ghost dual-back" aria-label="\(back)">\(kind == "speech" ? "−15" : "⏮")</button>
                <button type="button" class="primary dual-play" aria-label="Play \(title.lowercased())" disabled>Play</button>
                <button type="button" class="ghost dual-forward" aria-label="\(forward)">\(kind == "speech" ? "+30" : "⏭")</button>
              </div>
              <div class="dual-time">
                <span class="dual-elapsed">0:00</span>
                <input type="range" class="dual-seek" aria-label="\(title) position" min="0" max="0" step="0.1" value="0">
                <span class="dual-duration">0:00</span>
              </div>
              <div class="dual-sound">
                <label>Speed <select class="dual-speed">\(speeds)</select></label>
                <label>Volume <input type="range" class="dual-volume" min="0" max="1" step="0.05"></label>
              </div>
              <fieldset class="dual-mode">
                <legend>Sound</legend>
                <label><input type="radio" name="\(kind)-mode" value="quality"> Quality</label>
                <label><input type="radio" name="\(kind)-mode" value="boost"> Boost</label>
                <label class="boost-only">Gain <input type="range" class="dual-gain" min="0" max="12" step="1"> <span class="dual-gain-value"></span></label>
                <label class="boost-only"><input type="checkbox" class="dual-eq"> Voice EQ</label>
              </fieldset>
              <p class="dual-mode-note muted" role="status"></p>
              <ol class="dual-chapters" aria-label="Chapters" hidden></ol>
              \(kind == "speech" ? transcript + podcasts + articles + shelf(isAdmin: isAdmin) : songs(isAdmin: isAdmin) + radio)
              <form class="dual-search" role="search">
                <input type="search" aria-label="Search the library for the \(title.lowercased()) player" placeholder="Search the library">
              </form>
              <ul class="dual-results" aria-label="\(title) search results"></ul>
            </section>
            """
    }
}
