/// A proposed change of direction: a short label for the button and the guidance a picker
/// follows. The structured target lets Juke's own picker follow it without an AI.
public struct Direction: Sendable, Codable, Equatable {
    /// Two to four words ("Back to the 1700s", "West Coast vibes").
    public var label: String
    /// One or two sentences of guidance for the picker.
    public var prompt: String
    /// Toward this genre, if the direction names one.
    public var towardGenre: String?
    /// Toward these years, if the direction names an era.
    public var towardYears: ClosedRange<Int>?
    /// Away from the session's dominant genre.
    public var awayFromGenre: String?
    /// Toward these beats per minute, if the direction changes the pace.
    public var towardTempo: ClosedRange<Double>?

    public init(
        label: String, prompt: String, towardGenre: String? = nil, towardYears: ClosedRange<Int>? = nil, awayFromGenre: String? = nil,
        towardTempo: ClosedRange<Double>? = nil
    ) {
        self.label = label
        self.prompt = prompt
        self.towardGenre = towardGenre
        self.towardYears = towardYears
        self.awayFromGenre = awayFromGenre
        self.towardTempo = towardTempo
    }

    /// Whether the direction names a target Juke's own picker can aim at (a genre, an era, a
    /// pace); an AI's direction in words alone does not.
    public var isStructured: Bool { towardGenre != nil || towardYears != nil || awayFromGenre != nil || towardTempo != nil }

    /// Whether a label has the two to four words a button has room for.
    public static func isUsableLabel(_ label: String) -> Bool {
        let words = label.split(whereSeparator: { $0.isWhitespace })
        return (2...4).contains(words.count) && label.count <= 40
    }
}
