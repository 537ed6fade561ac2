/// Inline SVG icons: they render the same everywhere, unlike emoji, which many systems
/// (and headless browsers) lack fonts for.
public enum Icons {
    public static func svg(_ path: String, label: String? = nil) -> String {
        let a11y = label.map { "role=\"img\" aria-label=\"\(HTML.escape($0))\"" } ?? "aria-hidden=\"true\""
        return "<svg class=\"icon-svg\" viewBox=\"0 0 24 24\" \(a11y) focusable=\"false\"><path d=\"\(path)\" fill=\"currentColor\"/></svg>"
    }

    public static let play = "M8 5v14l11-7z"
    public static let pause = "M6 5h4v14H6zm8 0h4v14h-4z"
    public static let previous = "M6 6h2v12H6zm3.5 6 8.5 6V6z"
    public static let next = "M16 6h2v12h-2zM6 18l8.5-6L6 6z"
    public static let trivia =
        "M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm1 17h-2v-2h2zm2.1-7.7-.9.9A3.4 3.4 0 0 0 13 15h-2v-.5a4 4 0 0 1 1.2-2.8l1.2-1.3A2 2 0 1 0 10 9H8a4 4 0 1 1 7.1 2.3z"
    public static let headphones = "M12 3a9 9 0 0 0-9 9v7a2 2 0 0 0 2 2h3v-8H5v-1a7 7 0 0 1 14 0v1h-3v8h3a2 2 0 0 0 2-2v-7a9 9 0 0 0-9-9z"
    public static let microphone = "M12 14a3 3 0 0 0 3-3V5a3 3 0 0 0-6 0v6a3 3 0 0 0 3 3zm5-3a5 5 0 0 1-10 0H5a7 7 0 0 0 6 6.9V21h2v-3.1A7 7 0 0 0 19 11z"
    public static let heart =
        "M12 21.4 10.6 20C5.4 15.4 2 12.3 2 8.5A5.4 5.4 0 0 1 7.5 3 6 6 0 0 1 12 5.1 6 6 0 0 1 16.5 3 5.4 5.4 0 0 1 22 8.5c0 3.8-3.4 6.9-8.6 11.5z"
    public static let note = "M12 3v10.6A4 4 0 1 0 14 17V7h4V3z"
}
