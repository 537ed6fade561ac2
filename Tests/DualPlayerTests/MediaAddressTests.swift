import JukeCore
import Testing

@testable import DualPlayer

/// A saved player's address is a path on this server, read scalar by scalar the way the
/// contract's pattern and a browser read it.
@Suite(.timeLimit(.minutes(5))) struct MediaAddressTests {
    @Test(arguments: ["/api/v1/catalog/tracks/x/audio", "/\u{1F3FB}", "/\u{301}a", "/a//b"])
    func pathsOnThisServerAreKept(address: String) throws {
        #expect(try MediaAddress.validated(address, field: "audio_url") == address)
    }

    @Test(arguments: ["//evil.example/a", "/\\evil.example", "https://evil.example/", "/", "", "/a\u{85}b", "/a\nb", "/a\\b"])
    func anythingElseIsRefused(address: String) {
        #expect(throws: RuleRefusal.self) { try MediaAddress.validated(address, field: "audio_url") }
    }
}
