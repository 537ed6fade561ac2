/// An episode's transcript as timed cues, whatever file it came in (SRT, WebVTT, Podcasting
/// 2.0 JSON), for showing the words in step with the audio.
public struct Transcript: Sendable, Equatable {
    public struct Cue: Sendable, Equatable {
        /// Seconds from the start of the episode.
        public var start: Double
        public var end: Double
        public var speaker: String?
        /// Plain text: markup and styling removed, entities decoded, lines joined by "\n".
        public var text: String

        public init(start: Double, end: Double, speaker: String? = nil, text: String) {
            self.start = start
            self.end = end
            self.speaker = speaker
            self.text = text
        }
    }

    /// In time order; each ends at or after it starts.
    public var cues: [Cue]

    public init(cues: [Cue]) {
        self.cues = cues.filter { $0.start.isFinite && $0.end.isFinite && $0.start >= 0 }
            .map { cue in
                var fixed = cue
                if fixed.end < fixed.start { fixed.end = fixed.start }
                return fixed
            }
            .enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
    }

    /// The cue to highlight at `time`: the last one started by then, while it lasts; nil in a
    /// gap or before the first. Binary search: called on every tick of the player.
    public func cueIndex(at time: Double) -> Int? {
        var low = 0
        var high = cues.count
        while low < high {
            let mid = (low + high) / 2
            if cues[mid].start <= time { low = mid + 1 } else { high = mid }
        }
        let index = low - 1
        guard index >= 0, time < cues[index].end || cues[index].end == cues[index].start && time == cues[index].start else { return nil }
        return index
    }
}

public enum TranscriptError: Error, Sendable, Equatable, CustomStringConvertible {
    case unreadable(String)

    public var description: String {
        switch self {
        case .unreadable(let why): "The transcript cannot be read: \(why)"
        }
    }
}
