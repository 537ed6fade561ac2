/// Whether a reader would see an element: Readability.js drops what a page hides (a `hidden`
/// attribute, `aria-hidden="true"`, an inline `display: none` or `visibility: hidden`), as
/// pages keep menus, dialogs, duplicate copies and templates in the markup, hidden.
enum Visibility {
    static func isProbablyVisible(_ node: HTMLNode) -> Bool {
        if node.attributes["hidden"] != nil { return false }
        // Wikipedia's formulas are images marked aria-hidden beside their MathML; kept, as Firefox does.
        if node.attributes["aria-hidden"] == "true", !(node.attributes["class"]?.contains("fallback-image") ?? false) { return false }
        if let style = node.attributes["style"], hides(style) { return false }
        // A modal dialog (cookie notices, sign-up walls) is over the article, not in it.
        if node.attributes["aria-modal"] == "true" && node.attributes["role"] == "dialog" { return false }
        return true
    }

    /// `display: none` or `visibility: hidden` among an inline style's declarations.
    static func hides(_ style: String) -> Bool {
        for declaration in style.lowercased().split(separator: ";") {
            let parts = declaration.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let property = parts[0].filter { !$0.isWhitespace }
            var value = parts[1].filter { !$0.isWhitespace }
            if value.hasSuffix("!important") { value.removeLast("!important".count) }
            if (property == "display" && value == "none") || (property == "visibility" && value == "hidden") { return true }
        }
        return false
    }
}
