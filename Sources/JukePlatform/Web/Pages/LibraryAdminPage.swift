import JukeCore

/// The admin's library page: watched folders, add a folder, rescan, live progress and the
/// files that could not be read.
enum LibraryAdminPage {
    static func render(user: User) -> String {
        HTML.page(
            title: "Manage library", script: "/static/js/admin.js",
            body: """
                \(Header.render(user: user, current: "library"))
                <main id="main" class="admin">
                  <h1>Manage library</h1>
                  <section aria-labelledby="folders-title">
                    <h2 id="folders-title">Folders</h2>
                    <ul id="folders" class="folders"></ul>
                    <form id="add-folder" class="inline-form">
                      <label for="folder-path">Add a folder on the server</label>
                      <div class="row">
                        <input id="folder-path" name="path" placeholder="/srv/music" required maxlength="4096" autocomplete="off">
                        <button type="submit" class="primary">Add and scan</button>
                      </div>
                      <p class="form-error" id="form-error" role="alert"></p>
                    </form>
                    <button id="rescan" class="ghost">Rescan all folders</button>
                  </section>
                  <section aria-labelledby="progress-title">
                    <h2 id="progress-title">Scans</h2>
                    <p id="track-count"></p>
                    <p id="scan-status" class="visually-hidden" role="status"></p>
                    <ul id="scans" class="scans"></ul>
                  </section>
                  <section aria-labelledby="issues-title">
                    <h2 id="issues-title">Files that could not be read</h2>
                    <ul id="issues" class="issues"></ul>
                  </section>
                </main>
                """)
    }

    static func forbidden(user: User) -> String {
        HTML.page(
            title: "Not allowed", script: "/static/js/app.js",
            body: """
                \(Header.render(user: user, current: ""))
                <main id="main" class="admin"><h1>Only an admin can manage the library.</h1><p><a href="/">Back home</a></p></main>
                """)
    }
}
