import Feeds
import Foundation
import Testing

@testable import DualPlayer

/// Which feed items are episodes, which is which across refreshes, and which transcript the
/// player follows.
@Suite(.timeLimit(.minutes(5))) struct EpisodeDetailsTests {
    func item(guid: String? = nil, title: String? = "An episode", url: String? = "https://cdn.example/1.mp3", type: String? = "audio/mpeg") -> FeedItem {
        var item = FeedItem()
        item.guid = guid
        item.title = title
        item.enclosure = url.map { FeedItem.Enclosure(url: $0, type: type, length: 1000) }
        return item
    }

    @Test func identityIsTheGuidThenTheAudioThenTheTitleAndDate() {
        #expect(EpisodeDetails.identity(of: item(guid: " tag:1 ")) == "tag:1")
        #expect(EpisodeDetails.identity(of: item(guid: "")) == "https://cdn.example/1.mp3")
        var dated = item(url: nil)
        dated.published = Date(timeIntervalSince1970: 1000)
        #expect(EpisodeDetails.identity(of: dated) == "An episode|1000")
        #expect(EpisodeDetails.identity(of: item(title: nil, url: nil)) == nil)
    }

    @Test func onlyPlayableEnclosuresAreEpisodes() {
        #expect(EpisodeDetails.from(item()) != nil)
        #expect(EpisodeDetails.from(item(type: nil)) != nil, "a type left out")
        #expect(EpisodeDetails.from(item(type: "video/mp4")) != nil, "a video podcast's sound")
        #expect(EpisodeDetails.from(item(type: "application/pdf")) == nil)
        #expect(EpisodeDetails.from(item(url: "javascript:alert(1)")) == nil)
        #expect(EpisodeDetails.from(item(url: nil)) == nil, "a blog post in a mixed feed")
        #expect(EpisodeDetails.from(item(title: "")).map(\.title) == "Untitled episode")
    }

    @Test func timedTranscriptsArePreferred() {
        func offer(_ list: [(String, String?)]) -> String? {
            EpisodeDetails.preferredTranscript(list.map { FeedItem.Transcript(url: $0.0, type: $0.1) })?.url
        }
        #expect(offer([("a.html", "text/html"), ("a.json", "application/json"), ("a.vtt", "text/vtt"), ("a.srt", "application/srt")]) == "a.vtt")
        #expect(offer([("a.html", "text/html"), ("a.srt", "application/x-subrip")]) == "a.srt")
        #expect(offer([("a.txt", "text/plain"), ("a.html", "text/html")]) == nil, "no timing to follow")
    }

    @Test func chaptersKeepTimeOrder() throws {
        var podlove = item()
        podlove.simpleChapters = [
            FeedItem.SimpleChapter(start: 60, title: "Two"), FeedItem.SimpleChapter(start: 0, title: "One"),
        ]
        let details = try #require(EpisodeDetails.from(podlove)).details
        #expect(details.inlineChapters.map(\.title) == ["One", "Two"])
    }
}
