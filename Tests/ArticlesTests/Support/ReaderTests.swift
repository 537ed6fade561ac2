import TestThreads
import Testing

/// The readers' tests are synchronous and CPU-bound (a 60 MB stream inflated, a book of 130
/// pages extracted): on Swift's cooperative pool, which has two threads on a two-core machine,
/// several at once stalled every other suite's servers in the same run (a radio relay's fake
/// directory timed out at 60 s). They run one at a time, each on a thread of its own.
@Suite(.serialized, .ownThread, .timeLimit(.minutes(5))) enum ReaderTests {}
