import DualPlayer
import Foundation
import Testing

/// A polite podcast client's schedule: every half hour when healthy, backing off a failing
/// host, honouring Retry-After, following a feed that moved, stopping at 410.
@Suite(.timeLimit(.minutes(5))) struct FeedScheduleTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func aHealthyFeedEveryHalfHourSpreadByJitter() {
        var schedule = FeedSchedule(url: "https://example.org/feed.xml", now: start)
        #expect(schedule.isDue(at: start))
        let actions = schedule.apply(
            .fetched(etag: "\"v1\"", lastModified: "Tue, 05 Mar 2024 06:00:00 GMT", permanentlyMovedTo: nil, newFeedURL: nil), at: start, jitter: 0.5)
        #expect(actions == [.storeItems] && schedule.etag == "\"v1\"" && schedule.lastModified != nil)
        #expect(schedule.nextFetch == start.addingTimeInterval(1800 + 90))
        #expect(!schedule.isDue(at: start.addingTimeInterval(1800)) && schedule.isDue(at: start.addingTimeInterval(1890)))
        // A 304 keeps the validators and the pace.
        let unchanged = schedule.apply(.notModified, at: start.addingTimeInterval(1890), jitter: 0)
        #expect(unchanged.isEmpty)
        #expect(schedule.etag == "\"v1\"" && schedule.nextFetch == start.addingTimeInterval(1890 + 1800))
    }

    @Test func aFailingHostIsNotHammered() {
        var schedule = FeedSchedule(url: "https://example.org/feed.xml", now: start)
        var waits: [TimeInterval] = []
        var now = start
        for _ in 0..<8 {
            _ = schedule.apply(.failed(reason: "HTTP 500", retryAfter: nil), at: now, jitter: 0)
            waits.append(schedule.nextFetch.timeIntervalSince(now))
            now = schedule.nextFetch
        }
        #expect(waits == [3600, 7200, 14_400, 28_800, 57_600, 86_400, 86_400, 86_400])
        #expect(schedule.failures == 8 && schedule.lastError == "HTTP 500")
        // One success and it is healthy again.
        _ = schedule.apply(.notModified, at: now, jitter: 0)
        #expect(schedule.failures == 0 && schedule.lastError == nil && schedule.nextFetch == now.addingTimeInterval(1800))
    }

    @Test func retryAfterIsHonouredEvenOnDemand() {
        var schedule = FeedSchedule(url: "https://example.org/feed.xml", now: start)
        _ = schedule.apply(.failed(reason: "HTTP 429", retryAfter: 7200), at: start, jitter: 0)
        #expect(schedule.nextFetch == start.addingTimeInterval(7200))
        let early = schedule.refreshNow(at: start.addingTimeInterval(600), lastFetch: start)
        #expect(!early)
        let later = schedule.refreshNow(at: start.addingTimeInterval(7201), lastFetch: start)
        #expect(later)
        #expect(schedule.isDue(at: start.addingTimeInterval(7201)))
    }

    @Test func onDemandButNotTwiceInTenSeconds() {
        var schedule = FeedSchedule(url: "https://example.org/feed.xml", now: start)
        _ = schedule.apply(.notModified, at: start, jitter: 0)
        let tooSoon = schedule.refreshNow(at: start.addingTimeInterval(5), lastFetch: start)
        #expect(!tooSoon)
        let now = schedule.refreshNow(at: start.addingTimeInterval(11), lastFetch: start)
        #expect(now && schedule.isDue(at: start.addingTimeInterval(11)))
    }

    @Test func aMovedFeedIsFollowedAndTheFeedsOwnWordWins() {
        var schedule = FeedSchedule(url: "http://old.example.org/feed.xml", now: start)
        _ = schedule.apply(.fetched(etag: "a", lastModified: nil, permanentlyMovedTo: nil, newFeedURL: nil), at: start, jitter: 0)
        let moved = schedule.apply(
            .fetched(etag: "b", lastModified: nil, permanentlyMovedTo: "https://cdn.example.org/feed.xml", newFeedURL: "https://new.example.org/feed.xml"),
            at: start.addingTimeInterval(1800), jitter: 0)
        #expect(moved == [.storeItems, .moved(from: "http://old.example.org/feed.xml", to: "https://new.example.org/feed.xml")])
        #expect(schedule.url == "https://new.example.org/feed.xml" && schedule.etag == nil && schedule.isDue(at: start.addingTimeInterval(1800)))
        // A 301 alone moves it too; a "new" address that is no web address does not.
        let redirected = schedule.apply(
            .fetched(etag: nil, lastModified: nil, permanentlyMovedTo: "https://final.example.org/f.xml", newFeedURL: "javascript:x"), at: start, jitter: 0)
        #expect(redirected.last == .moved(from: "https://new.example.org/feed.xml", to: "https://final.example.org/f.xml"))
        let settled = schedule.apply(
            .fetched(etag: nil, lastModified: nil, permanentlyMovedTo: nil, newFeedURL: "https://final.example.org/f.xml"), at: start, jitter: 0)
        #expect(settled == [.storeItems])
    }

    @Test func goneStopsUntilAskedAgain() {
        var schedule = FeedSchedule(url: "https://example.org/feed.xml", now: start)
        _ = schedule.apply(.gone, at: start, jitter: 0)
        #expect(schedule.gone && !schedule.isDue(at: start.addingTimeInterval(1e7)))
        let again = schedule.refreshNow(at: start.addingTimeInterval(60), lastFetch: start)
        #expect(again && schedule.isDue(at: start.addingTimeInterval(60)))
    }
}
