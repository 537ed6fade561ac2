import Foundation
import Hummingbird
import JukeCore
import JukePlatform
import Providers

/// Where Spotify sends the runner back after they allow (or refuse) Juke: the state names the
/// authorisation (and so the runner: it was made for them and is used once), the browser's
/// session cookie must be the one that started it, the code is exchanged for tokens, and the
/// runner lands on RunBeat's page saying how it went.
struct SpotifyCallbackRoute {
    let spotify: RunBeatSpotify?

    func register(on router: Router<JukeRequestContext>) {
        router.get("/runbeat/spotify/callback") { request, _ -> Response in
            guard let spotify else { return WebResponse.redirect(Self.back("failed", "Spotify is not set up on this server.")) }
            let query = request.uri.queryParameters
            let state = query["state"].map(String.init) ?? ""
            do {
                _ = try await spotify.accounts.authorized(
                    state: state, code: query["code"].map(String.init), error: query["error"].map { String($0.prefix(100)) },
                    session: CurrentRequest.tokenHash)
                return WebResponse.redirect(Self.back("connected", nil))
            } catch let refusal as RuleRefusal {
                return WebResponse.redirect(Self.back("failed", refusal.message))
            } catch let error as SpotifyError {
                return WebResponse.redirect(Self.back("failed", error.description))
            } catch {
                return WebResponse.redirect(Self.back("failed", "Juke could not store the Spotify sign-in; try again."))
            }
        }
    }

    static func back(_ outcome: String, _ message: String?) -> String {
        var components = URLComponents()
        components.path = "/runbeat"
        components.queryItems = [URLQueryItem(name: "spotify", value: outcome)] + (message.map { [URLQueryItem(name: "reason", value: $0)] } ?? [])
        return components.string ?? "/runbeat"
    }
}
