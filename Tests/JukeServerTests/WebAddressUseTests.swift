import Foundation
import JukeCore
import JukePlatform
import Testing

@testable import DualPlayerServer

/// The server's places that take an address from a person, a setting or a feed read it with
/// WebAddress: before, a user before the host (https://bank.example@evil.example) passed every
/// one of them, and a show's link passed with no host at all.
@Suite(.timeLimit(.minutes(1))) struct WebAddressUseTests {
    static func settings(_ arguments: [String]) throws -> PlatformSettings {
        try PlatformSettings(SettingValues.parse(arguments: arguments, environment: [:], settings: PlatformSettings.settings))
    }

    @Test func aSettingsAddressOrOriginWithAUserBeforeTheHostIsRefused() throws {
        #expect(try Self.settings(["--public-url", " HTTPS://party.example "]).publicURL?.host == "party.example")
        #expect(throws: SettingError.self) { try Self.settings(["--public-url", "https://admin:secret@party.example"]) }
        #expect(throws: SettingError.self) { try Self.settings(["--public-url", "https://party.example:0"]) }
        #expect(try Self.settings(["--allowed-origin", "https://a.example"]).allowedOrigins == ["https://a.example"])
        #expect(throws: SettingError.self) { try Self.settings(["--allowed-origin", "https://a.example@b.example"]) }
        #expect(throws: SettingError.self) { try Self.settings(["--allowed-origin", "https://a.example/path"]) }
    }

    @Test func aFeedAddressAPersonGivesIsAWebAddressWithNoSpaceAndNoUser() throws {
        #expect(try PodcastService.feedAddress(" example.com/feed.xml ") == "https://example.com/feed.xml")
        #expect(try PodcastService.feedAddress("feed://example.com/feed.xml") == "https://example.com/feed.xml")
        #expect(throws: RuleRefusal.self) { try PodcastService.feedAddress("https://user:secret@example.com/feed.xml") }
        #expect(throws: RuleRefusal.self) { try PodcastService.feedAddress("https://example.com/my feed.xml") }
        #expect(throws: RuleRefusal.self) { try PodcastService.feedAddress("ftp://example.com/feed.xml") }
    }

    @Test func aShowsImageAndLinkReachAPageOnlyAsWebAddressesWithAHost() {
        #expect(PodcastMapping.webAddress(" https://show.example/art.jpg ") == "https://show.example/art.jpg")
        #expect(PodcastMapping.webAddress("https://") == nil)
        #expect(PodcastMapping.webAddress("https://show.example@evil.example/") == nil)
        #expect(PodcastMapping.webAddress("javascript:alert(1)") == nil)
        #expect(PodcastMapping.webAddress(nil) == nil)
    }
}
