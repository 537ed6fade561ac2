import JukeCore
import JukePlatform

/// RunBeat's pages, drawn and driven by their scripts. The trainer (runbeat.js) is one page
/// of screens, as the phone app it comes from: Profile (the runner's heart and zones),
/// Workout (the plan and each phase's music), Run (the strap, then the live run), Summary;
/// the tab bar also opens the history (runbeat-history.js) and a coach's class
/// (runbeat-coach.js), pages of their own. The screen shown follows the address's #fragment,
/// so Back works.
enum RunBeatPages {
    static let styles = "/static/runbeat/css/runbeat.css"

    /// The tab bar on every RunBeat page: every tab is a screen of the trainer, a fragment of
    /// /runbeat (a link to one from /runbeat itself only changes the fragment), so a workout
    /// running there runs on while its runner looks at the history or a class. The history
    /// and coach pages of their own stay for links to them.
    static func tabs(current: String?) -> String {
        AppTabBar.render(
            label: "RunBeat screens",
            tabs: [
                AppTab(id: "profile", label: "Profile", icon: Icons.user, href: "/runbeat#profile"),
                AppTab(id: "workout", label: "Workout", icon: Icons.list, href: "/runbeat#workout"),
                AppTab(id: "run", label: "Run", icon: Icons.heart, href: "/runbeat#run"),
                AppTab(id: "summary", label: "Summary", icon: Icons.nowPlaying, href: "/runbeat#summary"),
                AppTab(id: "history", label: "History", icon: Icons.library, href: "/runbeat#history"),
                AppTab(id: "coach", label: "Coach", icon: Icons.microphone, href: "/runbeat#coach"),
            ], current: current)
    }

    /// One of the trainer's screens: its heading, then what it holds.
    static func screen(_ id: String, title: String, hiddenTitle: Bool = false, _ content: String) -> String {
        let titleClass = hiddenTitle ? " class=\"visually-hidden\"" : ""
        return """
            <section id="screen-\(id)" class="rb-screen" data-screen="\(id)" aria-labelledby="\(id)-title" hidden>
              <h2 id="\(id)-title"\(titleClass)>\(title)</h2>
              \(content)
            </section>
            """
    }

    static func trainer(user: User) -> String {
        HTML.page(
            app: RunBeatApp.card, title: "RunBeat", script: "/static/runbeat/js/runbeat.js", styles: styles,
            body: """
                \(Header.render(user: user, current: "runbeat", app: "RunBeat"))
                <main id="main" class="runbeat rb-trainer" data-screen="run">
                  <h1 class="visually-hidden">RunBeat</h1>
                  \(tabs(current: nil))
                  <a id="rb-live-bar" class="rb-live-bar" href="#run" hidden><span class="rb-live-dot" aria-hidden="true"></span><span id="rb-live-bar-text">Workout running</span><span class="rb-live-back">Back to it</span></a>
                  <p id="rb-note" class="rb-note muted" role="status" aria-live="polite"></p>
                  \(screen("welcome", title: "Welcome to RunBeat", welcome))
                  \(screen("profile", title: "Your heart", profile))
                  \(screen("workout", title: "Workout", workout))
                  \(screen("run", title: "Run", hiddenTitle: true, run))
                  \(screen("summary", title: "Summary", summaryScreen))
                  \(screen("history", title: "Your workouts", historyList))
                  \(screen("coach", title: "Coach a class", coachView(heading: "h3")))
                </main>
                """, bodyClass: "has-tabbar")
    }

    /// Before the first workout: the runner's own heart, not a default's (age 30, resting 60).
    static let welcome = """
        <p>RunBeat coaches by heart-rate zones, and your zones come from your heart. Tell it three things first
          (you can change them on the Profile screen at any time).</p>
        <form id="rb-welcome" class="rb-welcome">
          <label class="field">Your age <input type="number" name="age" min="10" max="100" required inputmode="numeric"></label>
          <label class="field">Resting heart rate (bpm) <input type="number" name="resting" min="30" max="120" required inputmode="numeric"
            aria-describedby="rb-resting-how"></label>
          <p id="rb-resting-how" class="muted">Not sure? Measure it: sit still for a few minutes (best just after waking) and count your pulse
            for 60 seconds, or read it from your chest strap.</p>
          <label class="field">Maximum heart rate (bpm), if you know it <input type="number" name="max" min="100" max="230" inputmode="numeric"
            aria-describedby="rb-max-how"></label>
          <p id="rb-max-how" class="muted">Leave it empty and RunBeat estimates it from your age (220 − age).</p>
          <button type="submit" class="btn btn-primary rb-welcome-save">Save and continue</button>
        </form>
        """

    static let profile = """
        <form id="rb-profile" class="rb-profile form-row">
          <label class="field">Age <input type="number" name="age" min="10" max="100" required></label>
          <label class="field">Resting heart rate (bpm) <input type="number" name="resting" min="30" max="120" required></label>
          <label class="field">Maximum heart rate (bpm) <input type="number" name="max" min="100" max="230" placeholder="estimated"></label>
          <label class="field">Estimate the maximum by <select name="formula"><option value="fox">220 − age</option>
            <option value="tanaka">Tanaka: 208 − 0.7 × age</option></select></label>
          <button type="submit" class="btn btn-primary">Save</button>
          <p class="rb-maximum muted" role="status"></p>
        </form>
        <h3>Zones</h3>
        <label><input type="checkbox" id="rb-auto-zones"> Automatic (Karvonen: 50 to 100% of your heart-rate reserve)</label>
        <table class="rb-zones"><thead><tr><th scope="col">Zone</th><th scope="col">From</th><th scope="col">To</th></tr></thead><tbody></tbody></table>
        <p class="rb-zones-note muted" role="status"></p>
        """

    static let workout = """
        <div class="rb-plans" role="radiogroup" aria-label="Workout"></div>
        <details class="rb-builder panel">
          <summary>New interval workout</summary>
          <form id="rb-builder" class="form-row">
            <label class="field">Name <input name="name" maxlength="80" required value="Intervals"></label>
            <label class="field">Warm-up (min) <input type="number" name="warmup" min="0" max="60" value="5"></label>
            <label class="field">Intervals <input type="number" name="repeats" min="1" max="50" value="6"></label>
            <label class="field">Work (s) <input type="number" name="work" min="10" max="3600" value="60"></label>
            <label class="field">Work zone <select name="workzone"><option>3</option><option selected>4</option><option>5</option></select></label>
            <label class="field">Recovery (s) <input type="number" name="recovery" min="10" max="3600" value="90"></label>
            <label class="field">Recovery zone <select name="recoveryzone"><option>1</option><option selected>2</option><option>3</option></select></label>
            <label class="field">Cool-down (min) <input type="number" name="cooldown" min="0" max="60" value="5"></label>
            <button type="submit" class="btn">Save workout</button>
          </form>
        </details>
        <h3 id="rb-music-title">Music</h3>
        <p class="muted">Each phase plays its own music from your library: Juke picks by tempo (fast songs for work,
          calm ones for recovery), or choose songs, or none; or, with Spotify connected, one of your playlists.</p>
        <div class="rb-spotify" hidden></div>
        <div class="rb-music" role="group" aria-labelledby="rb-music-title"></div>
        """

    static let run = """
        <div id="rb-setup" class="rb-ready">
          <p class="rb-chosen">Workout: <strong id="rb-chosen-plan">–</strong> <a href="#workout">Change</a></p>
          <div class="rb-strap-buttons">
            <button type="button" id="rb-bluetooth" class="btn">Connect a chest strap</button>
            <button type="button" id="rb-simulate" class="btn">Use a simulated strap</button>
          </div>
          <p id="rb-strap-status" class="muted" role="status" aria-live="polite">No strap yet.</p>
          <button type="button" id="rb-start" class="btn btn-primary rb-start">Start workout</button>
          <label><input type="checkbox" id="rb-speak" checked> Speak the cues (the music is lowered while RunBeat talks)</label>
          <label class="field">Class code (to be followed by a coach) <input id="rb-class" maxlength="6" pattern="[A-Za-z0-9]{6}" autocomplete="off"></label>
          <div class="form-row">
            <label class="field">Replay a recorded workout <input type="file" id="rb-replay" accept=".fit,.tcx,.gpx"></label>
            <label class="field">Replay and simulation speed <select id="rb-speed"><option value="1">1×</option><option value="2">2×</option>
              <option value="5">5×</option><option value="10">10×</option><option value="30">30×</option><option value="60">60×</option></select></label>
          </div>
        </div>
        <div id="rb-run" class="rb-run" hidden>
          <p id="rb-run-note" class="rb-run-note muted" role="status" aria-live="polite"></p>
          <div class="rb-readout">
            <div class="rb-bpm" aria-live="off"><span id="rb-bpm">--</span><small>bpm</small></div>
            <div id="rb-zone" class="rb-zone">Zone –</div>
          </div>
          <div class="rb-phase"><span id="rb-phase-name">–</span> <span id="rb-phase-left" class="rb-clock"></span>
            <span id="rb-paused" class="rb-paused-badge" hidden>Paused</span></div>
          <div class="rb-meta"><span id="rb-target" class="rb-target"></span>
            <span class="rb-elapsed">Elapsed <span id="rb-elapsed" class="rb-clock">0:00</span><span id="rb-next-line"> · next: <span id="rb-next">–</span></span></span></div>
          <canvas id="rb-chart" class="rb-chart rb-live-chart" width="900" height="260" role="img" aria-label="Heart rate with zone bands and phases"></canvas>
          <p id="rb-cue" class="rb-cue" role="status" aria-live="polite"></p>
          <div class="rb-controls">
            <button type="button" id="rb-pause" class="btn rb-pause" aria-pressed="false">\(Icons.svg(Icons.pause))<span class="rb-pause-label">Pause</span></button>
            <button type="button" id="rb-end" class="btn rb-end" aria-describedby="rb-end-how" aria-haspopup="dialog">
              <svg class="rb-hold-ring" viewBox="0 0 36 36" aria-hidden="true" focusable="false"><circle class="rb-hold-track" cx="18" cy="18" r="15"></circle><circle class="rb-hold-fill" cx="18" cy="18" r="15" pathLength="100"></circle></svg>
              <span class="rb-end-label">Hold to end</span></button>
          </div>
          <p id="rb-end-how" class="rb-end-how muted">Hold for 1.5 seconds to end, or press Enter for a confirmation.</p>
          <p class="rb-status"><span id="rb-link">Connecting…</span> · <span id="rb-strap-live"></span> · <span id="rb-now-playing"></span> <span id="rb-spotify"></span></p>
          <button type="button" id="rb-reconnect-strap" class="btn" hidden>Connect the strap again</button>
          <audio id="rb-audio" preload="auto"></audio>
          <dialog id="rb-end-confirm" class="sheet" aria-labelledby="rb-end-confirm-title">
            <div class="sheet-head"><h3 id="rb-end-confirm-title" class="sheet-title">End the workout now?</h3></div>
            <p class="muted">What you ran so far is kept, with its summary.</p>
            <div class="sheet-actions">
              <button type="button" id="rb-end-cancel" class="btn btn-ghost" autofocus>Keep going</button>
              <button type="button" id="rb-end-yes" class="btn btn-danger">End workout</button>
            </div>
          </dialog>
        </div>
        """

    static let summaryScreen = """
        <div id="rb-summary" class="rb-summary">
          <p class="rb-summary-empty muted">No workout yet: your last one shows here when it ends.</p>
          \(summary(actions: #"<a href="/runbeat/history">All workouts</a> · <button type="button" id="rb-again" class="btn">New workout</button>"#))
        </div>
        """

    /// A finished workout's summary, chart and export links (runbeat-summary.js fills them),
    /// with the page's own actions after them.
    static func summary(actions: String) -> String {
        """
        <div class="rb-summary-body"></div>
        <canvas id="rb-summary-chart" class="rb-chart" width="900" height="260" aria-label="Heart rate over the workout"></canvas>
        <p><a class="rb-export-fit" download>Export as FIT</a> · <a class="rb-export-tcx" download>Export as TCX</a> · \(actions)</p>
        """
    }

    /// The history's import and list, on its page and as the trainer's screen.
    static let historyList = """
        <form id="rb-import" class="panel">
          <label>Import a workout (FIT, TCX or GPX) <input type="file" id="rb-import-file" accept=".fit,.tcx,.gpx"></label>
          <p id="rb-import-note" class="muted" role="status"></p>
        </form>
        <ul id="rb-workouts" class="rb-workouts" aria-label="Workouts"><li class="muted">Loading…</li></ul>
        """

    /// A coach's class, on its page (under its h1: an h2) and as the trainer's screen (under its h2: an h3).
    static func coachView(heading: String) -> String {
        """
        <p class="muted">Open a class and give its code to your runners: they enter it before starting, and you follow each of
          them here as they train (a spinning class, a track session).</p>
        <form id="rb-class-form" class="panel">
          <label>Class name <input name="name" maxlength="80" required value="Tuesday intervals"></label>
          <button type="submit">Open a class</button>
          <label>or follow a class by its code <input name="code" maxlength="6" pattern="[A-Za-z0-9]{6}"></label>
          <button type="button" id="rb-follow">Follow</button>
        </form>
        <\(heading) id="rb-class-title"></\(heading)>
        <p id="rb-class-status" class="muted" role="status" aria-live="polite"></p>
        <ul id="rb-runners" class="rb-runners" aria-label="Runners"></ul>
        """
    }

    static func history(user: User) -> String {
        HTML.page(
            app: RunBeatApp.card, title: "RunBeat workouts", script: "/static/runbeat/js/runbeat-history.js", styles: styles,
            body: """
                \(Header.render(user: user, current: "runbeat", app: "RunBeat"))
                <main id="main" class="runbeat">
                  \(tabs(current: "history"))
                  <h1>Your workouts</h1>
                  \(historyList)
                </main>
                """, bodyClass: "has-tabbar")
    }

    static func workout(user: User, id: String) -> String {
        HTML.page(
            app: RunBeatApp.card, title: "RunBeat workout", script: "/static/runbeat/js/runbeat-history.js", styles: styles,
            body: """
                \(Header.render(user: user, current: "runbeat", app: "RunBeat"))
                <main id="main" class="runbeat" data-workout="\(HTML.escape(id))">
                  \(tabs(current: "history"))
                  <h1 id="rb-workout-title">Workout</h1>
                  <p><a href="/runbeat/history">All workouts</a></p>
                  \(summary(actions: #"<button type="button" id="rb-delete">Delete</button>"#))
                </main>
                """, bodyClass: "has-tabbar")
    }

    static func coach(user: User) -> String {
        HTML.page(
            app: RunBeatApp.card, title: "RunBeat coach", script: "/static/runbeat/js/runbeat-coach.js", styles: styles,
            body: """
                \(Header.render(user: user, current: "runbeat", app: "RunBeat"))
                <main id="main" class="runbeat rb-coach">
                  \(tabs(current: "coach"))
                  <h1>Coach a class</h1>
                  \(coachView(heading: "h2"))
                </main>
                """, bodyClass: "has-tabbar")
    }
}
