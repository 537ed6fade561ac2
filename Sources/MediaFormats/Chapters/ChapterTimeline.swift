/// Turns the chapter marks a container declares into chapters a player can use.
///
/// Containers declare starts (and ID3 also ends) that can be unsorted, duplicated, past the
/// end of the audio or not numbers at all. Whatever they say, the result is sorted, starts
/// inside the file, never overlaps, and every chapter ends where the next starts (or at the
/// end of the file), so a player can seek to any chapter and advance from it.
enum ChapterTimeline {
    struct Mark {
        var title: String
        var start: Double
        /// An end the container declared (ID3 CHAP); used only for the last chapter of a
        /// file whose length is unknown.
        var end: Double? = nil
    }

    static func chapters(from marks: [Mark], duration: Double?) -> [Chapter] {
        let length = duration.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
        let inside = marks.filter { mark in mark.start.isFinite && mark.start >= 0 && mark.start < (length ?? .infinity) }
        // Stable: marks that start together keep the container's order.
        let usable = inside.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map { $0.element }
        var result: [Chapter] = []
        for mark in usable {
            if let last = result.last, last.start == mark.start { continue }  // a zero-length chapter cannot be played
            result.append(Chapter(title: mark.title, start: mark.start, end: mark.start))
        }
        // Each chapter ends where the next starts, even where the container declared an
        // earlier end: playback must never fall into a gap between chapters. The last ends
        // with the file, or where it says it ends when the file's length is unknown.
        for i in result.indices.dropLast() { result[i].end = result[i + 1].start }
        if let lastIndex = result.indices.last {
            let declared = usable.last?.end.flatMap { $0.isFinite && $0 > result[lastIndex].start ? $0 : nil }
            result[lastIndex].end = length ?? declared ?? result[lastIndex].start
        }
        for i in result.indices where result[i].title.nonBlank == nil { result[i].title = "Chapter \(i + 1)" }
        return result
    }

    /// The one chapter of a file that declares none.
    static func wholeFile(title: String?, duration: Double?) -> [Chapter] {
        let length = duration.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? 0
        return [Chapter(title: title?.nonBlank ?? "Chapter 1", start: 0, end: length)]
    }
}
