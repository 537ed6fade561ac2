public import Foundation

/// A direction change is offered only toward somewhere the session is not already going:
/// once "Switch to Baroque" is taken, or Baroque plays, offering it again is noise.
extension DJSession {
    /// Where the session is going now: the direction being picked for, the one taken last
    /// while its pick is queued or playing, and the genre of the song playing.
    public var currentDirections: [Direction] {
        var out: [Direction] = []
        if let asked = aiTask?.direction { out.append(asked) }
        if let taken = takenDirection, ((nowPlaying.map { [$0] } ?? []) + queue).contains(where: { $0.direction == taken.label }) {
            out.append(taken)
        }
        if let genre = nowPlaying?.song.genre, !genre.isEmpty {
            out.append(Direction(label: "", prompt: "", towardGenre: genre))
        }
        return out
    }

    /// Whether `direction` leads where the session already is (`currentDirections`).
    public func isCurrent(_ direction: Direction) -> Bool { currentDirections.contains { $0.sameWay(as: direction) } }
}

extension Direction {
    /// Whether two directions lead to the same place: the same label, or the same genre,
    /// era or pace.
    public func sameWay(as other: Direction) -> Bool {
        if !label.isEmpty, label.lowercased() == other.label.lowercased() { return true }
        if let a = towardGenre, let b = other.towardGenre, GenreText.fold(a) == GenreText.fold(b) { return true }
        if let a = towardYears, a == other.towardYears { return true }
        if let a = towardTempo, a == other.towardTempo { return true }
        return false
    }
}
