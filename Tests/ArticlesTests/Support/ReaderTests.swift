import Foundation
import Testing

/// The readers' tests are synchronous and CPU-bound (a 60 MB stream inflated, a book of 130
/// pages extracted): Swift Testing runs them on the cooperative pool, which has two threads on
/// a two-core machine, so several at once stall every other suite's servers in the same run
/// (a radio relay's fake directory timed out at 60 s). They run one at a time.
@Suite(.serialized, .timeLimit(.minutes(5))) enum ReaderTests {}

extension ReaderTests {
    /// The longest readings (seconds of CPU each) on a thread of their own, so that even one
    /// at a time they leave the cooperative pool to the rest of the run.
    static func offThePool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: work()) }.start()
        }
    }
}
