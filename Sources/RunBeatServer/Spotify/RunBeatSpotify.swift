import Foundation
import JukeCore
import JukePlatform
import Logging
import RunBeat
import Storage

/// RunBeat's Spotify, built when the server has a Spotify app: the accounts (tokens, calls),
/// the playback that follows the workouts' phases, and the token job.
struct RunBeatSpotify: Sendable {
    let accounts: SpotifyAccountService
    let playback: SpotifyPlayback
    let refresher: SpotifyRefresher
    let store: SpotifyStore

    init(settings: SpotifySettings, platform: Platform, service: RunBeatService) {
        let store = SpotifyStore(database: platform.database)
        let redirect = settings.redirect(publicURL: platform.configuration.publicURL, port: platform.configuration.port)
        let accounts = SpotifyAccountService(
            http: platform.http, settings: settings, redirect: redirect, store: store, secrets: SecretStore(database: platform.database), clock: platform.clock,
            logger: platform.logger)
        self.store = store
        self.accounts = accounts
        self.playback = SpotifyPlayback(
            accounts: accounts, store: store, music: { user in try await service.settings(of: user).music }, clock: platform.clock,
            background: platform.background, logger: platform.logger)
        self.refresher = SpotifyRefresher(accounts: accounts, clock: platform.clock, logger: platform.logger)
    }
}
