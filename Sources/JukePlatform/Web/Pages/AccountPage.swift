import JukeCore

/// The signed-in person's account: for now, what Subsonic-family players (Symfonium, DSub,
/// Feishin…) sign in with: API keys made, named and revoked here, and the app password for
/// players that only know a username and password (account.js fills the lists).
enum AccountPage {
    static func render(user: User) -> String {
        HTML.page(
            title: "Account", script: "/static/js/account.js",
            body: """
                \(Header.render(user: user, current: "account"))
                <main id="main" class="admin account">
                  <h1>Account</h1>
                  <section aria-labelledby="players-title">
                    <h2 id="players-title">Music players</h2>
                    <p>Players that speak the Subsonic API sign in to this server at its address with an API key or with your username and an app password. Your Juke password never works there.</p>
                    <h3 id="keys-title">API keys</h3>
                    <ul id="api-keys" class="list" aria-labelledby="keys-title"></ul>
                    <form id="new-key" class="inline-form">
                      <label for="key-name">Name a new key after its player</label>
                      <div class="row">
                        <input id="key-name" name="name" placeholder="Symfonium on my phone" required maxlength="64" autocomplete="off">
                        <button type="submit" class="primary">Make a key</button>
                      </div>
                      <p class="form-error" id="key-error" role="alert"></p>
                    </form>
                    <div id="new-secret" class="panel" hidden>
                      <p id="new-secret-label">Copy it now: it is shown only this once.</p>
                      <code id="new-secret-value" aria-describedby="new-secret-label"></code>
                    </div>
                    <h3 id="password-title">App password</h3>
                    <p id="app-password-state"></p>
                    <div class="row">
                      <button id="make-password" type="button" class="ghost">Make an app password</button>
                      <button id="remove-password" type="button" class="ghost" hidden>Remove the app password</button>
                    </div>
                    <p class="form-error" id="password-error" role="alert"></p>
                  </section>
                </main>
                """)
    }
}
