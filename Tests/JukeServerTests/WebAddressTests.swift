import Foundation
import JukeCore
import Testing

/// The one reading of "an http(s) address" that settings, forms, feeds and directories share.
@Suite(.timeLimit(.minutes(1))) struct WebAddressTests {
    static func refusal(_ text: String, limit: Int = WebAddress.defaultLimit) -> WebAddress.Refusal? {
        if case .failure(let refusal) = WebAddress.parse(text, limit: limit) { return refusal }
        return nil
    }

    @Test func anHTTPAndAnHTTPSAddressAreTakenWithTheirHostPathAndQuery() throws {
        let page = try #require(WebAddress("https://example.com/a/b?c=d"))
        #expect(page.url.host == "example.com")
        #expect(page.url.path == "/a/b")
        #expect(page.url.query == "c=d")
        #expect(page.text == "https://example.com/a/b?c=d")
        #expect(WebAddress("http://example.com")?.url.absoluteString == "http://example.com")
        #expect(WebAddress("http://example.com:8080/feed")?.url.port == 8080)
    }

    @Test func theSchemeIsReadInAnyCase() {
        #expect(WebAddress("HTTPS://EXAMPLE.COM/Feed")?.text == "HTTPS://EXAMPLE.COM/Feed")
        #expect(WebAddress("Http://example.com") != nil)
    }

    @Test func surroundingSpacesAndLineBreaksAreTrimmed() {
        #expect(WebAddress("  https://example.com/x \n")?.text == "https://example.com/x")
        #expect(Self.refusal("   \t\n") == .empty)
        #expect(Self.refusal("") == .empty)
    }

    @Test func aSpaceInTheHostIsNoAddress() {
        #expect(Self.refusal("http://exa mple.com/") == .malformed)
    }

    @Test func otherSchemesAreRefused() {
        #expect(Self.refusal("ftp://example.com/file") == .notWeb)
        #expect(Self.refusal("javascript:alert(1)") == .notWeb)
        #expect(Self.refusal("file:///etc/passwd") == .notWeb)
        #expect(Self.refusal("data:text/html,hi") == .notWeb)
        #expect(Self.refusal("example.com/feed") == .notWeb)
        #expect(Self.refusal("/relative/path") == .notWeb)
        #expect(Self.refusal("https//example.com") == .notWeb)
    }

    @Test func anAddressWithoutAHostIsRefused() {
        #expect(Self.refusal("http:///path") == .noHost)
        #expect(Self.refusal("https:example.com") == .noHost)
        #expect(Self.refusal("https://") != nil)
    }

    @Test func aUserOrPasswordBeforeTheHostIsRefused() {
        #expect(Self.refusal("https://bank.example@evil.example/") == .userInfo)
        #expect(Self.refusal("https://user:secret@example.com/feed") == .userInfo)
    }

    @Test func aPortOutsideOneTo65535IsRefused() {
        #expect(Self.refusal("http://example.com:0/") == .badPort)
        #expect(Self.refusal("http://example.com:99999/") == .badPort)
        #expect(WebAddress("http://example.com:65535/") != nil)
    }

    @Test func anIPv6HostIsAnAddress() throws {
        let address = try #require(WebAddress("http://[::1]:8080/stream"))
        #expect(address.url.host == "::1")
        #expect(address.url.port == 8080)
        #expect(WebAddress("https://[2001:db8::1]/") != nil)
    }

    @Test func textLongerThanTheLimitIsRefusedAndTheLimitItselfIsTaken() {
        let base = "https://example.com/"
        let atLimit = base + String(repeating: "a", count: WebAddress.defaultLimit - base.count)
        #expect(WebAddress(atLimit) != nil)
        #expect(Self.refusal(atLimit + "a") == .tooLong(limit: WebAddress.defaultLimit))
        #expect(Self.refusal("https://example.com/abc", limit: 10) == .tooLong(limit: 10))
        // Trimmed before counting: padding does not push a real address over.
        #expect(WebAddress("   " + atLimit + "   ") != nil)
    }
}
