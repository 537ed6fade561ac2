import Foundation
import Testing

@testable import Feeds

/// Dates and lengths as feeds write them, malformations included.
@Suite(.timeLimit(.minutes(5))) struct FeedDateTests {
    static func iso(_ text: String) -> String? { FeedDate.parse(text).map(FeedDate.iso) }

    @Test(arguments: [
        ("Thu, 01 Jan 2004 19:48:21 GMT", "2004-01-01T19:48:21Z"),
        ("Thu, 01 Jan 2004 19:48:21 -0500", "2004-01-02T00:48:21Z"),
        ("Thu, 1 Jan 04 19:48 EST", "2004-01-02T00:48:00Z"),
        ("01 Jan 2004 19:48:21 +02:00", "2004-01-01T17:48:21Z"),
        ("Thursday, January 1, 2004 7:48:21 PM GMT", "2004-01-01T19:48:21Z"),
        ("Thu, Jan 01 2004 19:48:21 GMT", "2004-01-01T19:48:21Z"),
        ("Sun, 31 Dec 1999 23:59:59 UT", "1999-12-31T23:59:59Z"),
        ("Mon, 05 Feb 2024 08:00:00 GMT+0100", "2024-02-05T07:00:00Z"),
        ("05-Feb-2024 08:00:00 PST", "2024-02-05T16:00:00Z"),
        ("Fri, 13 Sep 2024", "2024-09-13T00:00:00Z"),
        ("2004-01-01T19:48:21Z", "2004-01-01T19:48:21Z"),
        ("2004-01-01T19:48:21.750+02:00", "2004-01-01T17:48:21Z"),
        ("2004-01-01 19:48:21", "2004-01-01T19:48:21Z"),
        ("2004-01-01T19:48Z", "2004-01-01T19:48:00Z"),
        ("20040101T194821Z", "2004-01-01T19:48:21Z"),
        ("2004-01-01", "2004-01-01T00:00:00Z"),
        ("2004-01", "2004-01-01T00:00:00Z"),
        ("2004", "2004-01-01T00:00:00Z"),
        ("2000-02-29T12:00:00-00:30", "2000-02-29T12:30:00Z"),
    ])
    func datesAsFeedsWriteThem(text: String, expected: String) {
        #expect(Self.iso(text) == expected, "\(text)")
    }

    @Test func notDatesAreNil() {
        for text in ["", "yesterday", "Thu, 32 Jan 2004", "2004-13-01", "99:99", "Jan", String(repeating: "1", count: 500)] {
            #expect(FeedDate.parse(text) == nil, "\(text)")
        }
    }

    @Test func isoOutputCoversTheCalendar() {
        #expect(FeedDate.iso(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
        #expect(FeedDate.iso(Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59Z")
        #expect(FeedDate.iso(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00Z")
    }

    @Test(arguments: [
        ("1:02:03", 3723.0), ("62:03", 3723.0), ("3723", 3723.0), ("3723.5", 3723.5), ("00:00:05.250", 5.25), ("1h 2m 3s", 3723.0),
        ("45 min", 2700.0),
    ])
    func durationsInEveryForm(text: String, seconds: Double) {
        #expect(FeedDuration.seconds(text) == seconds, "\(text)")
    }

    @Test func notDurationsAreNil() {
        for text in ["", "-5", "abc", "1:2:3:4", "1:-2", "nan", "inf"] { #expect(FeedDuration.seconds(text) == nil, "\(text)") }
    }
}
