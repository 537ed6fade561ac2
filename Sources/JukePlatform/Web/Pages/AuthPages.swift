/// The sign-in and registration screens. The forms post to the JSON API from auth.js; the
/// markup works with a screen reader (labels, live error region).
public enum AuthPages {
    /// The sign-in form auth.js posts (`#login-form`), with its live error region; an app's
    /// own sign-in page (an invite's) uses the same one with its own button.
    public static func signInForm(submit: String) -> String {
        """
        <form id="login-form" data-mode="login" novalidate>
          <label for="username">Username</label>
          <input id="username" name="username" autocomplete="username" required maxlength="64" autocapitalize="none">
          <label for="password">Password</label>
          <input id="password" name="password" type="password" autocomplete="current-password" required maxlength="200">
          <p class="form-error" id="form-error" role="alert" aria-live="assertive"></p>
          <button type="submit" class="primary">\(HTML.escape(submit))</button>
        </form>
        """
    }

    static func login(personalKeyPrefixes: [String]) -> String {
        HTML.page(
            title: "Sign in", script: "/static/js/auth.js",
            body: """
                <main id="main" class="auth-card" aria-labelledby="auth-title">
                  <h1 id="auth-title"><span class="logo">\(Icons.svg(Icons.note))</span> Juke</h1>
                  <p class="lede">Your music, your server.</p>
                  \(signInForm(submit: "Sign in"))
                  <p class="switch">New here? <a href="/register">Create an account</a></p>
                </main>
                """,
            personalKeyPrefixes: personalKeyPrefixes)
    }

    static func register(personalKeyPrefixes: [String]) -> String {
        HTML.page(
            title: "Create account", script: "/static/js/auth.js",
            body: """
                <main id="main" class="auth-card" aria-labelledby="auth-title">
                  <h1 id="auth-title"><span class="logo">\(Icons.svg(Icons.note))</span> Juke</h1>
                  <p class="lede">Create your account. The first account on a server is its admin.</p>
                  <form id="register-form" data-mode="register" novalidate>
                    <label for="username">Username</label>
                    <input id="username" name="username" autocomplete="username" required minlength="3" maxlength="32" autocapitalize="none" aria-describedby="username-help">
                    <small id="username-help">3–32 letters, digits, “.”, “_” or “-”.</small>
                    <label for="display_name">Display name <span class="optional">(optional)</span></label>
                    <input id="display_name" name="display_name" autocomplete="nickname" maxlength="64">
                    <label for="email">Email <span class="optional">(optional)</span></label>
                    <input id="email" name="email" type="email" autocomplete="email" maxlength="254">
                    <label for="password">Password</label>
                    <input id="password" name="password" type="password" autocomplete="new-password" required minlength="8" maxlength="200" aria-describedby="password-help">
                    <small id="password-help">At least 8 characters.</small>
                    <p class="form-error" id="form-error" role="alert" aria-live="assertive"></p>
                    <button type="submit" class="primary">Create account</button>
                  </form>
                  <p class="switch">Have an account? <a href="/login">Sign in</a></p>
                </main>
                """,
            personalKeyPrefixes: personalKeyPrefixes)
    }
}
