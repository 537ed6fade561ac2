import Foundation
import JukeCore
import Testing

@testable import Back2Back

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite("Back2Back playlist export", .timeLimit(.minutes(5)))
struct PlaylistExportTests {
    let items = [
        PlaylistExport.Item(
            song: Song(track: TrackID(), title: "Rock & Roll <Live>", artist: "Led \"Zep\"", album: "BBC", duration: 221.4),
            location: "http://juke.local/api/v1/tracks/1/audio?x=1&y=2", annotation: "AI: a deep cut"),
        PlaylistExport.Item(
            song: Song(track: TrackID(), title: "Two\nLines", artist: "Beyoncé", duration: 180), location: "http://juke.local/a/2"),
    ]

    @Test func m3u8HasOneEntryPerSongWithDurationAndName() {
        let text = PlaylistExport.render(items, title: "Friday set", as: .m3u8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(
            lines == [
                "#EXTM3U", "#PLAYLIST:Friday set",
                "#EXTINF:221,Led \"Zep\" - Rock & Roll <Live>", "#EXTALB:BBC", "http://juke.local/api/v1/tracks/1/audio?x=1&y=2",
                "#EXTINF:180,Beyoncé - Two Lines", "http://juke.local/a/2", "",
            ])
    }

    @Test func xspfIsWellFormedXMLWithTheSongsInOrder() throws {
        let text = PlaylistExport.render(items, title: "Set & more\u{0}", as: .xspf)
        final class Collector: NSObject, XMLParserDelegate {
            var titles: [String] = []
            var locations: [String] = []
            var durations: [String] = []
            var element = ""
            var buffer = ""
            func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
                element = name
                buffer = ""
            }
            func parser(_ parser: XMLParser, foundCharacters string: String) { buffer += string }
            func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
                if name == "title" { titles.append(buffer) }
                if name == "location" { locations.append(buffer) }
                if name == "duration" { durations.append(buffer) }
            }
        }
        let parser = XMLParser(data: Data(text.utf8))
        let collector = Collector()
        parser.delegate = collector
        #expect(parser.parse(), "\(String(describing: parser.parserError))")
        #expect(collector.titles == ["Set & more", "Rock & Roll <Live>", "Two\nLines"])
        #expect(collector.locations == items.map(\.location))
        #expect(collector.durations == ["221400", "180000"])
    }
}
