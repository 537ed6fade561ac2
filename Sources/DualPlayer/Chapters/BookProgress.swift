/// A listener's progress through one book: the chapter they are in, where in it, and which
/// chapters they have played to the end.
public struct BookProgress: Sendable, Equatable, Codable {
    public var chapter: Int
    public var position: SavedPosition
    public var played: Set<Int>

    public init(chapter: Int = 0, position: SavedPosition = SavedPosition(seconds: 0, updatedAt: 0), played: Set<Int> = []) {
        self.chapter = chapter
        self.position = position
        self.played = played
    }

    /// Records what the cursor did.
    public mutating func record(_ actions: [ChapterCursor.Action], at now: Int64) {
        for action in actions {
            switch action {
            case .markPlayed(let index): played.insert(index)
            case .entered(let index):
                chapter = index
                position = SavedPosition(seconds: 0, updatedAt: now)
            case .playFrom, .seek, .finished: break
            }
        }
    }

    /// Merges another device's progress: the newer position (and its chapter) wins, and a
    /// chapter played on either device stays played.
    public func merged(with incoming: BookProgress) -> BookProgress {
        let newer = incoming.position.updatedAt > position.updatedAt ? incoming : self
        return BookProgress(chapter: newer.chapter, position: newer.position, played: played.union(incoming.played))
    }

    /// Share of the book's chapters played, for the library shelf.
    public func fractionPlayed(chapterCount: Int) -> Double {
        chapterCount > 0 ? Double(played.filter { (0..<chapterCount).contains($0) }.count) / Double(chapterCount) : 0
    }
}
