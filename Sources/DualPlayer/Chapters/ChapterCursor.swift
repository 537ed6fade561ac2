/// Playing a book chapter by chapter: virtual chapters of one M4B (time ranges of the same
/// file) or a chapter per file (LibriVox).
///
/// The player reports that a chapter's end was reached with the generation it was given
/// when that chapter was scheduled. Every start, seek and stop makes a new generation, so an
/// end report from before one (a seek, a stop, a timer that fired late) is stale and
/// ignored: only the end of what is playing now advances the book. This is the seed's
/// `playbackGeneration` counter, and it must never become a boolean.
public struct ChapterCursor: Sendable, Equatable {
    /// One chapter: which file it is in, and its time range in that file.
    public struct Span: Sendable, Equatable, Codable {
        public var file: String
        public var start: Double
        public var end: Double

        public init(file: String, start: Double, end: Double) {
            self.file = file
            self.start = start
            self.end = end
        }
    }

    public enum Action: Sendable, Equatable {
        /// Load `file` (when it is not the one loaded) and play from `at`.
        case playFrom(file: String, at: Double)
        /// Move to `at` in the file that is loaded.
        case seek(to: Double)
        /// The chapter at this index was played to its end.
        case markPlayed(Int)
        /// The cursor moved into this chapter (shown on the page, saved as progress).
        case entered(Int)
        /// The last chapter ended: the book is finished.
        case finished
    }

    /// How close to a chapter's end counts as its end: players report time in steps of a
    /// quarter second, and a chapter that has 50 ms left is over.
    public static let endTolerance = 0.05

    public let chapters: [Span]
    public private(set) var index: Int
    public private(set) var generation: Int
    public private(set) var isStopped: Bool

    /// A cursor on `chapters` (never empty: a file without chapters has one spanning it).
    public init?(chapters: [Span], index: Int = 0) {
        guard !chapters.isEmpty else { return nil }
        self.chapters = chapters
        self.index = min(max(index, 0), chapters.count - 1)
        self.generation = 0
        self.isStopped = true
    }

    public var current: Span { chapters[index] }

    /// Starts chapter `index` at `offset` seconds into it.
    public mutating func start(chapter: Int, offset: Double = 0) -> [Action] {
        guard chapters.indices.contains(chapter) else { return [] }
        let previousFile = current.file
        index = chapter
        generation += 1
        isStopped = false
        let at = clamp(current.start + PositionGuard.sanitized(offset), in: current)
        return [.entered(index), previousFile == current.file ? .seek(to: at) : .playFrom(file: current.file, at: at)]
    }

    /// A seek inside the chapter: it stays within the chapter's bounds.
    public mutating func seek(to time: Double) -> [Action] {
        generation += 1
        return [.seek(to: clamp(PositionGuard.sanitized(time), in: current))]
    }

    public mutating func stop() {
        generation += 1
        isStopped = true
    }

    /// The player says the chapter scheduled under `generation` reached its end.
    public mutating func reachedEnd(generation reported: Int) -> [Action] {
        guard reported == generation, !isStopped else { return [] }
        return advance()
    }

    /// The player's clock, checked against the chapter's end (virtual chapters end inside a
    /// file, so no `ended` event comes for them).
    public mutating func timeUpdate(_ time: Double, generation reported: Int) -> [Action] {
        guard reported == generation, !isStopped, time.isFinite, time >= current.end - Self.endTolerance else { return [] }
        return advance()
    }

    private mutating func advance() -> [Action] {
        let finished = index
        guard index + 1 < chapters.count else {
            generation += 1
            isStopped = true
            return [.markPlayed(finished), .finished]
        }
        let previous = current
        index += 1
        generation += 1
        // The next virtual chapter of the same file starts where this one ended: playback
        // just carries on. Anything else is a load or a jump.
        let carriesOn = previous.file == current.file && abs(previous.end - current.start) < Self.endTolerance
        let move: [Action] =
            carriesOn ? [] : previous.file == current.file ? [.seek(to: current.start)] : [.playFrom(file: current.file, at: current.start)]
        return [.markPlayed(finished), .entered(index)] + move
    }

    /// A time inside `span`: from its start to just before its end, so that a seek never
    /// lands in the next chapter or fires this one's end.
    func clamp(_ time: Double, in span: Span) -> Double {
        let latest = max(span.start, span.end - Self.endTolerance * 2)
        return min(max(time, span.start), latest)
    }
}
