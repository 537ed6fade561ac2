import Testing

/// The readers' tests are synchronous and CPU-bound (a 60 MB stream inflated, a book of 130
/// pages extracted): Swift Testing runs them on the cooperative pool, which has two threads on
/// a two-core machine, so several at once stall every other suite's servers in the same run
/// (a radio relay's fake directory timed out at 60 s). They run one at a time.
@Suite(.serialized, .timeLimit(.minutes(5))) enum ReaderTests {}
