import Testing

@testable import Providers

/// Retry-After comes from outside: only a finite, non-negative number of seconds is believed.
@Suite(.timeLimit(.minutes(5))) struct RetryAfterTests {
    @Test func readsSecondsAndMilliseconds() {
        #expect(RetryAfter.seconds("7") == 7)
        #expect(RetryAfter.seconds(" 1.5 ") == 1.5)
        #expect(RetryAfter.seconds("2500", scale: 0.001) == 2.5)
        #expect(RetryAfter.seconds("999999999") == RetryAfter.longest)
    }

    @Test(arguments: [nil, "", "soon", "-3", "inf", "nan", "1e400", "Wed, 21 Oct 2015 07:28:00 GMT"] as [String?])
    func refusesWhatIsNotAWait(header: String?) {
        #expect(RetryAfter.seconds(header) == nil)
    }
}
