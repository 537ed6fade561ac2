import Foundation
import JukeTestSupport
import Testing

@testable import Providers

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Spotify's clients against the local fake of its Accounts service and Web API: PKCE,
/// the code exchanged and refreshed, invalid_grant, playlists in pages, devices, playing on a
/// device and moving playback to one when none is active, 401 and 429 as Spotify sends them.
@Suite(.timeLimit(.minutes(5))) struct SpotifyClientTests {
    @Test func pkceChallengesAreRFC7636s() {
        // RFC 7636, appendix B.
        #expect(SpotifyPKCE.challenge(for: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk") == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        var generator = SystemRandomNumberGenerator()
        let verifier = SpotifyPKCE.verifier(using: &generator)
        #expect(verifier.count == 64 && verifier.allSatisfy { SpotifyPKCE.alphabet.contains($0) })
    }

    /// Follows the authorize address as a browser would (the fake approves at once) and
    /// returns the code and state from the redirect.
    static func authorize(_ url: URL) async throws -> (code: String, state: String) {
        let (_, response) = try await URLSession.shared.data(from: url)
        let final = try #require(response.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false) })
        let items = final.queryItems ?? []
        return (try #require(items.first { $0.name == "code" }?.value), try #require(items.first { $0.name == "state" }?.value))
    }

    @Test func theCodeIsExchangedRefreshedAndRevoked() async throws {
        let fake = FakeSpotify()
        try await fake.run { base in
            // The redirect lands on the fake too (any address that answers will do).
            let accounts = SpotifyAccounts(http: .tests, baseURL: base, clientID: fake.clientID, redirectURI: base.absoluteString + "/v1/me/player/devices")
            var generator = SystemRandomNumberGenerator()
            let verifier = SpotifyPKCE.verifier(using: &generator)
            let url = try #require(accounts.authorizeURL(state: "state-123", challenge: SpotifyPKCE.challenge(for: verifier)))
            #expect(url.absoluteString.contains("code_challenge_method=S256") && url.absoluteString.contains("user-modify-playback-state"))
            let (code, state) = try await Self.authorize(url)
            #expect(state == "state-123")
            // The wrong verifier is refused, and the code with it.
            await #expect(throws: SpotifyError.self) { try await accounts.exchange(code: code, verifier: verifier + "x", now: Date()) }
            let (code2, _) = try await Self.authorize(url)
            let now = Date()
            let tokens = try await accounts.exchange(code: code2, verifier: verifier, now: now)
            #expect(tokens.accessToken.hasPrefix("access-") && tokens.refreshToken.hasPrefix("refresh-"))
            #expect(abs(tokens.expiresAt.timeIntervalSince(now) - 3600) < 1)
            // A refresh keeps the refresh token when Spotify sends none.
            let refreshed = try await accounts.refresh(tokens.refreshToken, now: now)
            #expect(refreshed.accessToken != tokens.accessToken && refreshed.refreshToken == tokens.refreshToken)
            fake.revokeRefreshTokens()
            do {
                _ = try await accounts.refresh(tokens.refreshToken, now: now)
                Issue.record("a revoked refresh token was accepted")
            } catch {
                guard case .invalidGrant? = error as? SpotifyError else {
                    Issue.record("\(error)")
                    return
                }
            }
        }
    }

    static func signedIn(_ fake: FakeSpotify, _ base: URL) async throws -> SpotifyAccounts.Tokens {
        let accounts = SpotifyAccounts(http: .tests, baseURL: base, clientID: fake.clientID, redirectURI: base.absoluteString + "/v1/me/player/devices")
        let verifier = "v" + String(repeating: "a", count: 60)
        let url = try #require(accounts.authorizeURL(state: "s", challenge: SpotifyPKCE.challenge(for: verifier)))
        return try await accounts.exchange(code: try await authorize(url).code, verifier: verifier, now: Date())
    }

    @Test func playlistsComeInPagesAndPlaybackFindsADevice() async throws {
        let fake = FakeSpotify(playlistCount: 120, devices: [("phone-1", "Runner's phone"), ("laptop", "Laptop")])
        try await fake.run { base in
            let tokens = try await Self.signedIn(fake, base)
            let api = SpotifyWebAPI(http: .tests, baseURL: base.appendingPathComponent("v1"))
            let first = try await api.playlists(token: tokens.accessToken, limit: 50)
            #expect(first.playlists.count == 50 && first.total == 120 && first.more)
            #expect(
                first.playlists[3]
                    == .init(
                        id: "pl000003", name: "Playlist 3", description: nil, trackCount: 13, imageURL: "https://i.scdn.co/image/3", isPublic: false,
                        owner: "Runner"))
            let all = try await api.allPlaylists(token: tokens.accessToken)
            #expect(all.count == 120 && all.last?.id == "pl000119")
            #expect(fake.apiRequests.filter { $0.contains("playlists") }.count == 4)  // 50 + 50 + 20, after the first

            let devices = try await api.devices(token: tokens.accessToken)
            #expect(devices.map(\.name) == ["Runner's phone", "Laptop"] && devices.allSatisfy { !$0.isActive })
            // No active device: Spotify says so; the device is woken by a transfer, then the playlist plays.
            do {
                try await api.play(playlist: "pl000007", device: nil, token: tokens.accessToken)
                Issue.record("played with no active device")
            } catch {
                #expect(error as? SpotifyError == .noActiveDevice)
            }
            try await api.transfer(to: "laptop", token: tokens.accessToken)
            try await api.play(playlist: "pl000007", device: nil, token: tokens.accessToken)
            try await api.play(playlist: "pl000008", device: "phone-1", token: tokens.accessToken)
            #expect(fake.transfers == ["laptop"])
            #expect(
                fake.plays == [
                    .init(contextURI: "spotify:playlist:pl000007", device: "laptop"), .init(contextURI: "spotify:playlist:pl000008", device: "phone-1"),
                ])
        }
    }

    @Test func expiredTokensAndRateLimitsAreToldApart() async throws {
        let fake = FakeSpotify()
        try await fake.run { base in
            let tokens = try await Self.signedIn(fake, base)
            let api = SpotifyWebAPI(http: .tests, baseURL: base.appendingPathComponent("v1"))
            fake.rateLimitNext(1)
            do {
                _ = try await api.devices(token: tokens.accessToken)
                Issue.record("no rate limit")
            } catch {
                #expect(error as? SpotifyError == .rateLimited(retryAfter: 2))
            }
            #expect(try await api.devices(token: tokens.accessToken).count == 1)
            fake.expireAccessTokens()
            do {
                _ = try await api.devices(token: tokens.accessToken)
                Issue.record("an expired token was accepted")
            } catch {
                #expect(error as? SpotifyError == .unauthorized)
            }
            await #expect(throws: SpotifyError.self) { try await api.devices(token: "made-up") }
        }
    }
}
