import Testing

@testable import Articles

/// Sentences to read one at a time: not cut at abbreviations, initials or decimals.
@Suite(.timeLimit(.minutes(5))) struct SentencesTests {
    @Test func sentencesAndWhatDoesNotEndThem() {
        #expect(Sentences.split("It rained. Then it stopped! Did it? Yes…  It did.") == ["It rained.", "Then it stopped!", "Did it?", "Yes…", "It did."])
        #expect(
            Sentences.split("Mr. Smith met Dr. Jones at 3.30 p.m. on Main St. in the U.S. today.") == [
                "Mr. Smith met Dr. Jones at 3.30 p.m. on Main St. in the U.S. today."
            ])
        #expect(
            Sentences.split("J. R. R. Tolkien wrote it. “Go,” she said. “Now.” He went.") == [
                "J. R. R. Tolkien wrote it.", "“Go,” she said.", "“Now.”", "He went.",
            ])
        #expect(Sentences.split("Pi is 3.14159 or so. 42 is the answer.") == ["Pi is 3.14159 or so.", "42 is the answer."])
        #expect(Sentences.split("no full stop at the end") == ["no full stop at the end"])
        #expect(Sentences.split("").isEmpty)
    }
}
