import Foundation
import Testing

@testable import Providers

/// HLS playlists through the relay: every address a playlist names, relative or absolute, in
/// a line or in a URI attribute, becomes the relay's; anything else is not a playlist.
@Suite(.timeLimit(.minutes(5))) struct HLSPlaylistTests {
    let base = URL(string: "https://cdn.example/radio/master.m3u8") ?? URL(fileURLWithPath: "/")

    func relayed(_ text: String) -> (text: String, named: [URL])? {
        HLSPlaylist.rewrite(Array(text.utf8), base: base) { "/relay?u=\($0.absoluteString)" }
    }

    @Test func everyAddressBecomesTheRelays() throws {
        let playlist = """
            #EXTM3U
            #EXT-X-KEY:METHOD=AES-128,URI="keys/1.key",IV=0x1
            #EXT-X-MAP:URI="https://other.example/init.mp4"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",URI="../alt/a.m3u8"
            #EXTINF:6.0,
            seg-1.ts
            #EXTINF:6.0,
            /abs/seg-2.ts
            #EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="skd://fairplay"
            #EXT-X-KEY:METHOD=AES-128,URI="data:text/plain;base64,AAAA"
            """
        let (text, named) = try #require(relayed(playlist))
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines[1] == #"#EXT-X-KEY:METHOD=AES-128,URI="/relay?u=https://cdn.example/radio/keys/1.key",IV=0x1"#)
        #expect(lines[2] == #"#EXT-X-MAP:URI="/relay?u=https://other.example/init.mp4""#)
        #expect(lines[3].contains(#"URI="/relay?u=https://cdn.example/alt/a.m3u8""#))
        #expect(lines[5] == "/relay?u=https://cdn.example/radio/seg-1.ts" && lines[7] == "/relay?u=https://cdn.example/abs/seg-2.ts")
        #expect(lines[8].contains(#"URI="skd://fairplay""#) && lines[9].contains("data:text/plain"), "other schemes are left alone")
        #expect(Set(named.compactMap(\.host)) == ["cdn.example", "other.example"])
    }

    @Test func whatIsNotAPlaylist() {
        #expect(relayed("<html>404</html>") == nil)
        #expect(relayed("") == nil)
        #expect(HLSPlaylist.rewrite([0xFF, 0xFB, 0x90, 0x64], base: base) { $0.absoluteString } == nil)
        #expect(
            HLSPlaylist.rewrite(Array("#EXTM3U\n".utf8) + [UInt8](repeating: 0x41, count: HLSPlaylist.maximumSize), base: base) { $0.absoluteString } == nil)
        let (text, named) = relayed("\u{FEFF}#EXTM3U\r\n#EXT-X-KEY:URI=\"unterminated\r\n\u{0}garbage line\r\n") ?? ("", [])
        #expect(text.hasPrefix("#EXTM3U") && named.count <= 1, "damaged lines neither crash nor escape")
    }
}
