import Foundation
import JukeCore
import Testing

@testable import JukeServer

/// The few seconds a found token is remembered: never past the token's own expiry, forgotten
/// at sign-out, and bounded in size.
@Suite struct SignedInCacheTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let ann = User(id: UserID(), username: "ann", email: nil, displayName: "Ann", isAdmin: false, createdAt: now)

    @Test func aFoundTokenIsRememberedForItsLifetimeOnly() {
        let cache = SignedInCache(lifetime: 5)
        #expect(cache.user("t", now: Self.now) == nil)
        cache.remember("t", user: Self.ann, tokenExpiry: Self.now + 3600, now: Self.now)
        #expect(cache.user("t", now: Self.now + 4.9) == Self.ann)
        #expect(cache.user("t", now: Self.now + 5) == nil)
    }

    @Test func neverPastTheTokensOwnExpiry() {
        let cache = SignedInCache(lifetime: 5)
        cache.remember("t", user: Self.ann, tokenExpiry: Self.now + 1, now: Self.now)
        #expect(cache.user("t", now: Self.now + 0.5) == Self.ann)
        #expect(cache.user("t", now: Self.now + 1) == nil)
    }

    @Test func signOutForgetsAtOnceAndTheSizeIsBounded() {
        let cache = SignedInCache(lifetime: 5, capacity: 3)
        for token in ["a", "b", "c"] { cache.remember(token, user: Self.ann, tokenExpiry: nil, now: Self.now) }
        cache.forget("b")
        #expect(cache.user("b", now: Self.now) == nil && cache.user("a", now: Self.now) == Self.ann)
        cache.remember("d", user: Self.ann, tokenExpiry: nil, now: Self.now)
        cache.remember("e", user: Self.ann, tokenExpiry: nil, now: Self.now)  // the fourth: starts again empty
        #expect(cache.user("a", now: Self.now) == nil && cache.user("e", now: Self.now) == Self.ann)
    }
}
