import Feeds
import Foundation
import Testing

@testable import DualPlayer

/// Dual Player's podcast rules read addresses with JukeCore's WebAddress: before, a prefix
/// check let "https://" with no host, or a user before the host, through.
@Suite(.timeLimit(.minutes(1))) struct PodcastWebAddressTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func aFeedDoesNotMoveToAnAddressWithoutAHostOrWithAUserBeforeTheHost() {
        var schedule = FeedSchedule(url: "https://example.org/feed.xml", now: start)
        for target in ["https://", "http:///feed.xml", "https://example.org@evil.example/feed.xml", "  "] {
            let actions = schedule.apply(.fetched(etag: nil, lastModified: nil, permanentlyMovedTo: nil, newFeedURL: target), at: start, jitter: 0)
            #expect(actions == [.storeItems], "\(target)")
        }
        // The feed's word, trimmed, in any case of scheme.
        let moved = schedule.apply(
            .fetched(etag: nil, lastModified: nil, permanentlyMovedTo: nil, newFeedURL: " HTTPS://new.example.org/feed.xml "), at: start, jitter: 0)
        #expect(moved.last == .moved(from: "https://example.org/feed.xml", to: "HTTPS://new.example.org/feed.xml"))
    }

    @Test func anEnclosureIsPlayableFromTheWebOrJukesOwnOriginOnly() {
        #expect(EpisodeDetails.isPlayable(FeedItem.Enclosure(url: "https://cdn.example/1.mp3", type: "audio/mpeg")))
        #expect(EpisodeDetails.isPlayable(FeedItem.Enclosure(url: "HTTP://cdn.example/1.mp3")))
        #expect(EpisodeDetails.isPlayable(FeedItem.Enclosure(url: "/api/v1/dual/demo/1.mp3", type: "audio/mpeg")))
        #expect(!EpisodeDetails.isPlayable(FeedItem.Enclosure(url: "http://", type: "audio/mpeg")))
        #expect(!EpisodeDetails.isPlayable(FeedItem.Enclosure(url: "https://user:secret@cdn.example/1.mp3", type: "audio/mpeg")))
        #expect(!EpisodeDetails.isPlayable(FeedItem.Enclosure(url: "ftp://cdn.example/1.mp3", type: "audio/mpeg")))
    }
}
