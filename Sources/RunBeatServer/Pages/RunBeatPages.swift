import JukeCore
import JukePlatform

/// RunBeat's pages, drawn and driven by their scripts: the trainer (runbeat.js), the history
/// and a workout (runbeat-history.js), a coach's class (runbeat-coach.js).
enum RunBeatPages {
    static let styles = "/static/runbeat/css/runbeat.css"

    static func trainer(user: User) -> String {
        HTML.page(
            title: "RunBeat", script: "/static/runbeat/js/runbeat.js", styles: styles,
            body: """
                \(Header.render(user: user, current: "runbeat", app: "RunBeat"))
                <main id="main" class="runbeat">
                  <section id="rb-setup" aria-labelledby="rb-title">
                    <h1 id="rb-title">RunBeat</h1>
                    <p class="muted">Heart-rate zone training: wear your chest strap, keep the phone in your pocket, and RunBeat tells you
                      your zone over your music, which follows the intervals. <a href="/runbeat/history">Your workouts</a> ·
                      <a href="/runbeat/coach">Coach a class</a></p>
                    <section class="panel" aria-labelledby="rb-profile-title">
                      <h2 id="rb-profile-title">Your heart</h2>
                      <form id="rb-profile" class="rb-profile">
                        <label>Age <input type="number" name="age" min="10" max="100" required></label>
                        <label>Resting heart rate <input type="number" name="resting" min="30" max="120" required> bpm</label>
                        <label>Maximum heart rate <input type="number" name="max" min="100" max="230" placeholder="estimated"> bpm</label>
                        <label>Estimate the maximum by <select name="formula"><option value="fox">220 − age</option>
                          <option value="tanaka">Tanaka: 208 − 0.7 × age</option></select></label>
                        <button type="submit">Save</button>
                        <p class="rb-maximum muted" role="status"></p>
                      </form>
                      <h3>Zones</h3>
                      <label><input type="checkbox" id="rb-auto-zones"> Automatic (Karvonen: 50 to 100% of your heart-rate reserve)</label>
                      <table class="rb-zones"><thead><tr><th>Zone</th><th>From</th><th>To</th></tr></thead><tbody></tbody></table>
                      <p class="rb-zones-note muted" role="status"></p>
                    </section>
                    <section class="panel" aria-labelledby="rb-plan-title">
                      <h2 id="rb-plan-title">Workout</h2>
                      <div class="rb-plans" role="radiogroup" aria-label="Workout"></div>
                      <details class="rb-builder">
                        <summary>New interval workout</summary>
                        <form id="rb-builder">
                          <label>Name <input name="name" maxlength="80" required value="Intervals"></label>
                          <label>Warm-up <input type="number" name="warmup" min="0" max="60" value="5"> min</label>
                          <label>Intervals <input type="number" name="repeats" min="1" max="50" value="6"></label>
                          <label>Work <input type="number" name="work" min="10" max="3600" value="60"> s in zone
                            <select name="workzone"><option>3</option><option selected>4</option><option>5</option></select></label>
                          <label>Recovery <input type="number" name="recovery" min="10" max="3600" value="90"> s in zone
                            <select name="recoveryzone"><option>1</option><option selected>2</option><option>3</option></select></label>
                          <label>Cool-down <input type="number" name="cooldown" min="0" max="60" value="5"> min</label>
                          <button type="submit">Save workout</button>
                        </form>
                      </details>
                      <label>Class code (to be followed by a coach) <input id="rb-class" maxlength="6" pattern="[A-Za-z0-9]{6}" autocomplete="off"></label>
                    </section>
                    <section class="panel" aria-labelledby="rb-strap-title">
                      <h2 id="rb-strap-title">Heart-rate strap</h2>
                      <div class="rb-strap-buttons">
                        <button type="button" id="rb-bluetooth">Connect a chest strap (Bluetooth)</button>
                        <button type="button" id="rb-simulate">Use a simulated strap</button>
                        <label>Replay a recorded workout <input type="file" id="rb-replay" accept=".fit,.tcx,.gpx"></label>
                      </div>
                      <label>Replay and simulation speed <select id="rb-speed"><option value="1">1×</option><option value="2">2×</option>
                        <option value="5">5×</option><option value="10">10×</option><option value="30">30×</option><option value="60">60×</option></select></label>
                      <p id="rb-strap-status" class="muted" role="status" aria-live="polite">No strap yet.</p>
                    </section>
                    <section class="panel" aria-labelledby="rb-music-title">
                      <h2 id="rb-music-title">Music</h2>
                      <p class="muted">Each phase plays its own music from your library: Juke picks by tempo (fast songs for work,
                        calm ones for recovery), or choose songs, or none; or, with Spotify connected, one of your playlists.</p>
                      <div class="rb-spotify" hidden></div>
                      <div class="rb-music"></div>
                      <label><input type="checkbox" id="rb-speak" checked> Speak the cues (the music is lowered while RunBeat talks)</label>
                    </section>
                    <button type="button" id="rb-start" class="btn btn-primary rb-start">Start workout</button>
                  </section>
                  <p id="rb-note" class="muted" role="status" aria-live="polite"></p>
                  <section id="rb-run" class="rb-run" hidden aria-label="Workout running">
                    <div class="rb-readout">
                      <div class="rb-bpm" aria-live="off"><span id="rb-bpm">--</span><small>bpm</small></div>
                      <div id="rb-zone" class="rb-zone">Zone –</div>
                    </div>
                    <div class="rb-phase"><span id="rb-phase-name">–</span> <span id="rb-phase-left" class="rb-clock"></span></div>
                    <div id="rb-target" class="rb-target"></div>
                    <div class="rb-elapsed">Elapsed <span id="rb-elapsed" class="rb-clock">0:00</span> · next: <span id="rb-next">–</span></div>
                    <canvas id="rb-chart" class="rb-chart" width="900" height="260" aria-label="Heart rate with zone bands and phases"></canvas>
                    <p id="rb-cue" class="rb-cue" role="status" aria-live="polite"></p>
                    <p class="rb-status"><span id="rb-link">Connecting…</span> · <span id="rb-strap-live"></span> · <span id="rb-now-playing"></span> <span id="rb-spotify"></span></p>
                    <button type="button" id="rb-reconnect-strap" hidden>Connect the strap again</button>
                    <button type="button" id="rb-end" class="btn rb-end">Hold to end workout</button>
                    <audio id="rb-audio" preload="auto"></audio>
                  </section>
                  <section id="rb-summary" class="rb-summary" hidden aria-labelledby="rb-summary-title">
                    <h2 id="rb-summary-title">Workout done</h2>
                    \(summary(actions: #"<a href="/runbeat/history">All workouts</a> · <button type="button" id="rb-again">Back to set-up</button>"#))
                  </section>
                </main>
                """)
    }

    /// A finished workout's summary, chart and export links (runbeat-summary.js fills them),
    /// with the page's own actions after them.
    static func summary(actions: String) -> String {
        """
        <div class="rb-summary-body"></div>
        <canvas id="rb-summary-chart" class="rb-chart" width="900" height="260" aria-label="Heart rate over the workout"></canvas>
        <p><a class="rb-export-fit" download>Export as FIT</a> · <a class="rb-export-tcx" download>Export as TCX</a> · \(actions)</p>
        """
    }

    static func history(user: User) -> String {
        HTML.page(
            title: "RunBeat workouts", script: "/static/runbeat/js/runbeat-history.js", styles: styles,
            body: """
                \(Header.render(user: user, current: "runbeat", app: "RunBeat"))
                <main id="main" class="runbeat">
                  <h1>Your workouts</h1>
                  <p><a href="/runbeat">Back to RunBeat</a></p>
                  <form id="rb-import" class="panel">
                    <label>Import a workout (FIT, TCX or GPX) <input type="file" id="rb-import-file" accept=".fit,.tcx,.gpx"></label>
                    <p id="rb-import-note" class="muted" role="status"></p>
                  </form>
                  <ul id="rb-workouts" class="rb-workouts" aria-label="Workouts"><li class="muted">Loading…</li></ul>
                </main>
                """)
    }

    static func workout(user: User, id: String) -> String {
        HTML.page(
            title: "RunBeat workout", script: "/static/runbeat/js/runbeat-history.js", styles: styles,
            body: """
                \(Header.render(user: user, current: "runbeat", app: "RunBeat"))
                <main id="main" class="runbeat" data-workout="\(HTML.escape(id))">
                  <h1 id="rb-workout-title">Workout</h1>
                  <p><a href="/runbeat/history">All workouts</a></p>
                  \(summary(actions: #"<button type="button" id="rb-delete">Delete</button>"#))
                </main>
                """)
    }

    static func coach(user: User) -> String {
        HTML.page(
            title: "RunBeat coach", script: "/static/runbeat/js/runbeat-coach.js", styles: styles,
            body: """
                \(Header.render(user: user, current: "runbeat", app: "RunBeat"))
                <main id="main" class="runbeat rb-coach">
                  <h1>Coach a class</h1>
                  <p class="muted">Open a class and give its code to your runners: they enter it before starting, and you follow each of
                    them here as they train (a spinning class, a track session).</p>
                  <form id="rb-class-form" class="panel">
                    <label>Class name <input name="name" maxlength="80" required value="Tuesday intervals"></label>
                    <button type="submit">Open a class</button>
                    <label>or follow a class by its code <input name="code" maxlength="6" pattern="[A-Za-z0-9]{6}"></label>
                    <button type="button" id="rb-follow">Follow</button>
                  </form>
                  <h2 id="rb-class-title"></h2>
                  <p id="rb-class-status" class="muted" role="status" aria-live="polite"></p>
                  <ul id="rb-runners" class="rb-runners" aria-label="Runners"></ul>
                </main>
                """)
    }
}
