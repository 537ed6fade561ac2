import Testing

@testable import DualPlayer

/// Virtual chapters: bounds, advancing at the end, and the generation counter that keeps a
/// seek or a stop from being taken for a chapter's end.
@Suite(.timeLimit(.minutes(5))) struct ChapterCursorTests {
    static let book = [
        ChapterCursor.Span(file: "book.m4b", start: 0, end: 100), ChapterCursor.Span(file: "book.m4b", start: 100, end: 250),
        ChapterCursor.Span(file: "book.m4b", start: 250, end: 400),
    ]

    @Test func aChapterStartsAtItsStart() throws {
        var cursor = try #require(ChapterCursor(chapters: Self.book))
        #expect(cursor.start(chapter: 1) == [.entered(1), .seek(to: 100)])
        #expect(cursor.start(chapter: 2, offset: 30) == [.entered(2), .seek(to: 280)])
        #expect(cursor.start(chapter: 7) == [])
    }

    @Test func seekingStaysInsideTheChapter() throws {
        var cursor = try #require(ChapterCursor(chapters: Self.book))
        _ = cursor.start(chapter: 1)
        #expect(cursor.seek(to: 20) == [.seek(to: 100)])
        #expect(cursor.seek(to: 180) == [.seek(to: 180)])
        #expect(cursor.seek(to: 900) == [.seek(to: 249.9)])
        #expect(cursor.seek(to: .nan) == [.seek(to: 100)])
        #expect(cursor.index == 1)
    }

    @Test func theEndOfAVirtualChapterCarriesOnIntoTheNext() throws {
        var cursor = try #require(ChapterCursor(chapters: Self.book))
        _ = cursor.start(chapter: 0)
        let generation = cursor.generation
        #expect(cursor.timeUpdate(50, generation: generation) == [])
        #expect(cursor.timeUpdate(99.97, generation: generation) == [.markPlayed(0), .entered(1)])
        #expect(cursor.index == 1)
    }

    @Test func theLastChapterFinishesTheBook() throws {
        var cursor = try #require(ChapterCursor(chapters: Self.book, index: 2))
        _ = cursor.start(chapter: 2)
        #expect(cursor.reachedEnd(generation: cursor.generation) == [.markPlayed(2), .finished])
        #expect(cursor.isStopped)
        #expect(cursor.reachedEnd(generation: cursor.generation) == [])
    }

    @Test func anEndScheduledBeforeASeekIsIgnored() throws {
        var cursor = try #require(ChapterCursor(chapters: Self.book))
        _ = cursor.start(chapter: 0)
        let scheduled = cursor.generation
        _ = cursor.seek(to: 10)
        #expect(cursor.reachedEnd(generation: scheduled) == [], "the seek made the old end stale")
        #expect(cursor.timeUpdate(100, generation: scheduled) == [])
        #expect(cursor.index == 0)
        #expect(cursor.reachedEnd(generation: cursor.generation) == [.markPlayed(0), .entered(1)])
    }

    @Test func anEndAfterAStopIsIgnored() throws {
        var cursor = try #require(ChapterCursor(chapters: Self.book))
        _ = cursor.start(chapter: 0)
        let scheduled = cursor.generation
        cursor.stop()
        #expect(cursor.reachedEnd(generation: scheduled) == [])
        #expect(cursor.reachedEnd(generation: cursor.generation) == [], "a stopped cursor does not advance")
    }

    @Test func anEndReportedTwiceAdvancesOnce() throws {
        var cursor = try #require(ChapterCursor(chapters: Self.book))
        _ = cursor.start(chapter: 0)
        let scheduled = cursor.generation
        #expect(cursor.reachedEnd(generation: scheduled) == [.markPlayed(0), .entered(1)])
        #expect(cursor.reachedEnd(generation: scheduled) == [], "a late duplicate must not skip chapter 2")
        #expect(cursor.index == 1)
    }

    @Test func aChapterPerFileLoadsTheNextFile() throws {
        let librivox = [ChapterCursor.Span(file: "01.mp3", start: 0, end: 600), ChapterCursor.Span(file: "02.mp3", start: 0, end: 540)]
        var cursor = try #require(ChapterCursor(chapters: librivox))
        #expect(cursor.start(chapter: 0) == [.entered(0), .seek(to: 0)])
        #expect(cursor.reachedEnd(generation: cursor.generation) == [.markPlayed(0), .entered(1), .playFrom(file: "02.mp3", at: 0)])
        var back = cursor
        #expect(back.start(chapter: 0) == [.entered(0), .playFrom(file: "01.mp3", at: 0)])
    }

    @Test func aGapBetweenVirtualChaptersIsJumped() throws {
        let gappy = [ChapterCursor.Span(file: "a.m4b", start: 0, end: 10), ChapterCursor.Span(file: "a.m4b", start: 20, end: 30)]
        var cursor = try #require(ChapterCursor(chapters: gappy))
        _ = cursor.start(chapter: 0)
        #expect(cursor.timeUpdate(10, generation: cursor.generation) == [.markPlayed(0), .entered(1), .seek(to: 20)])
    }

    @Test func noChaptersIsNoCursor() {
        #expect(ChapterCursor(chapters: []) == nil)
    }

    @Test func progressRecordsChaptersAndMergesAcrossDevices() throws {
        var cursor = try #require(ChapterCursor(chapters: Self.book))
        var phone = BookProgress()
        phone.record(cursor.start(chapter: 0), at: 1_000)
        phone.record(cursor.reachedEnd(generation: cursor.generation), at: 2_000)
        #expect(phone.chapter == 1 && phone.played == [0])
        phone.position = SavedPosition(seconds: 130, updatedAt: 3_000)
        let laptop = BookProgress(chapter: 2, position: SavedPosition(seconds: 300, updatedAt: 2_500), played: [1])
        let merged = phone.merged(with: laptop)
        #expect(merged.chapter == 1 && merged.position.seconds == 130, "the phone's position is newer")
        #expect(merged.played == [0, 1])
        #expect(merged.fractionPlayed(chapterCount: 3) == 2.0 / 3.0)
    }
}
