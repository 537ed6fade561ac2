import Foundation
import Testing

@testable import Providers

/// Addresses outside services hand Juke are read with JukeCore's WebAddress: before, a scheme
/// check alone (or a case-sensitive prefix) let an address with no host, or with a user before
/// the host, through.
@Suite(.timeLimit(.minutes(1))) struct ProviderWebAddressTests {
    @Test func aRadioStationNeedsAStreamWithAHostAndIsKeptTrimmed() {
        func station(_ url: String) -> RadioStation? { RadioBrowser.station(["stationuuid": "s1", "name": "One", "url": url]) }
        #expect(station(" https://stream.example/live ")?.streamURL == "https://stream.example/live")
        #expect(station("http:///live") == nil)
        #expect(station("https://radio.example@evil.example/live") == nil)
        #expect(station("ftp://stream.example/live") == nil)
    }

    @Test func aPodcastFromITunesNeedsAFeedWithAHost() throws {
        func shows(_ feed: String) throws -> [String] {
            let body: [String: Any] = ["results": [["kind": "podcast", "collectionName": "Show", "feedUrl": feed]]]
            return try ITunesSearch.parseShows(JSONSerialization.data(withJSONObject: body)).map(\.feedURL)
        }
        #expect(try shows("https://feeds.example/show.xml") == ["https://feeds.example/show.xml"])
        #expect(try shows("HTTPS://feeds.example/show.xml") == ["HTTPS://feeds.example/show.xml"])
        #expect(try shows("https://") == [])
        #expect(try shows("https://user:secret@feeds.example/show.xml") == [])
    }

    @Test func aLibriVoxSectionNeedsAListenAddressWithAHost() {
        let book = LibriVox.book([
            "id": "1", "title": "Book",
            "sections": [
                ["section_number": "1", "listen_url": "https://archive.example/1.mp3"], ["section_number": "2", "listen_url": "http:///2.mp3"],
                ["section_number": "3", "listen_url": "javascript:alert(1)"],
            ],
        ])
        #expect(book?.sections.map(\.listenURL) == ["https://archive.example/1.mp3"])
    }

    @Test func anAnswerCitesOnlyWebPagesWithAHost() {
        #expect(Source(["type": "url_citation", "url": "https://news.example/a", "title": "A"])?.url == "https://news.example/a")
        #expect(Source(["type": "url_citation", "url": "https://news.example@evil.example/a"]) == nil)
        #expect(Source(["type": "url_citation", "url": "https://"]) == nil)
        #expect(Source(["type": "url_citation", "url": "javascript:alert(1)"]) == nil)
    }
}
