import Foundation

/// Juke's icons: one 24×24 path each, filled with `currentColor` (even-odd, so an inner
/// shape is a hole). Inline SVG renders the same everywhere, unlike emoji and symbol
/// characters, which many systems (and headless browsers) lack fonts for; no page draws
/// one with a character.
///
/// This is the only source of the icons. Pages rendered in Swift call `Icons.svg`; scripts
/// import `icon(name, {label})` from `/static/js/icons.js`, which the server generates from
/// `Icons.all` (`Icons.module`). The shapes are drawn for Juke from plain geometry (the
/// circular arrows, gauge, waves, heart and gear are computed arcs and polygons).
public enum Icons {
    /// An icon as inline SVG. Without a `label` it is decoration (`aria-hidden`): the button
    /// or link around it carries the name. With one, it is an image with that name.
    public static func svg(_ path: String, label: String? = nil) -> String {
        svg(path, label: label, text: nil)
    }

    /// The icon named `name` in `all` (an empty string for a name not there).
    public static func named(_ name: String, label: String? = nil) -> String {
        guard let path = all[name] else { return "" }
        return svg(path, label: label)
    }

    /// Skip back or forward by `seconds`: a circular arrow with the number inside it, as
    /// text in the SVG (digits need no symbol font). `label` names it for a screen reader
    /// (such as "Back 15 seconds"); the number alone is hidden from it.
    public static func skip(back: Bool, seconds: Int, label: String? = nil) -> String {
        svg(back ? skipBack : skipForward, label: label, text: String(seconds))
    }

    static func svg(_ path: String, label: String?, text: String?) -> String {
        let a11y = label.map { "role=\"img\" aria-label=\"\(HTML.escape($0))\"" } ?? "aria-hidden=\"true\""
        let title =
            text.map {
                "<text class=\"icon-text\" x=\"12\" y=\"16\" text-anchor=\"middle\" fill=\"currentColor\" aria-hidden=\"true\">\(HTML.escape($0))</text>"
            } ?? ""
        return
            "<svg class=\"icon-svg\" viewBox=\"0 0 24 24\" \(a11y) focusable=\"false\"><path d=\"\(path)\" fill=\"currentColor\" fill-rule=\"evenodd\"/>\(title)</svg>"
    }

    // Transport
    public static let play = "M8 5v14l11-7z"
    public static let pause = "M6 5h4v14H6zm8 0h4v14h-4z"
    public static let previous = "M6 6h2v12H6zm3.5 6 8.5 6V6z"
    public static let next = "M16 6h2v12h-2zM6 18l8.5-6L6 6z"
    /// A counter-clockwise ring with room for the seconds inside (see `skip`).
    public static let skipBack = "M19.36 9.25A8.5 8.5 0 1 1 12 5L12 6.9A6.6 6.6 0 1 0 17.72 10.2ZM12.8 1.8L12.8 9.2L8 5.5Z"
    /// A clockwise ring with room for the seconds inside (see `skip`).
    public static let skipForward = "M12 5A8.5 8.5 0 1 1 4.64 9.25L6.28 10.2A6.6 6.6 0 1 0 12 6.9ZM11.2 1.8L11.2 9.2L16 5.5Z"
    /// A gauge: playback speed.
    public static let speed =
        "M3.77 19.75A9.5 9.5 0 1 1 20.23 19.75L18.58 18.8A7.6 7.6 0 1 0 5.42 18.8ZM10 15a2 2 0 1 0 4 0a2 2 0 1 0 -4 0ZM12.92 15.77L16.5 9.64L11.08 14.23Z"
    public static let volume =
        "M3 9h4l5-4v14l-5-4H3zM15.69 9.31A3.8 3.8 0 0 1 15.69 14.69L14.56 13.56A2.2 2.2 0 0 0 14.56 10.44ZM17.36 5.77A7.6 7.6 0 0 1 17.36 18.23L16.44 16.91A6 6 0 0 0 16.44 7.09Z"
    /// Bars of an equalizer: what is playing now.
    public static let nowPlaying = "M4 10h3v10H4zm6.5-6h3v16h-3zM17 7h3v13h-3z"

    // Actions
    public static let download = "M11 3h2v9.2l3.3-3.3 1.4 1.4L12 16l-5.7-5.7 1.4-1.4 3.3 3.3zM5 18h14v2H5z"
    public static let upload = "M11 20h2v-9.2l3.3 3.3 1.4-1.4L12 7l-5.7 5.7 1.4 1.4 3.3-3.3zM5 3h14v2H5z"
    /// Lines with bullets: a list (chapters, a queue).
    public static let list = "M3 5h2.5v2.5H3zm5 0h13v2.5H8zM3 10.75h2.5v2.5H3zm5 0h13v2.5H8zM3 16.5h2.5V19H3zm5 0h13V19H8z"
    public static let menu = "M3 6h18v2H3zm0 5h18v2H3zm0 5h18v2H3z"
    public static let close = "M6.4 5 12 10.6 17.6 5 19 6.4 13.4 12 19 17.6 17.6 19 12 13.4 6.4 19 5 17.6 10.6 12 5 6.4z"
    public static let search = "M10 3.5a6.5 6.5 0 1 0 0 13 6.5 6.5 0 0 0 0-13zm0 2a4.5 4.5 0 1 1 0 9 4.5 4.5 0 0 1 0-9zM14.2 15.6l1.4-1.4 5.6 5.6-1.4 1.4z"
    public static let plus = "M11 5h2v6h6v2h-6v6h-2v-6H5v-2h6z"
    /// A pencil, for Edit: its body on the diagonal, its point bottom left, its cap apart.
    public static let edit = "M3 21l1.1-4.6L14.6 5.9l3.5 3.5L7.6 19.9zM15.9 4.6l1.6-1.6a1 1 0 0 1 1.4 0l2.1 2.1a1 1 0 0 1 0 1.4l-1.6 1.6z"
    public static let trash = "M9 3h6v2h5v2H4V5h5zM6 8h12l-1 13H7zm3 2.5v8h2v-8zm4 0v8h2v-8z"
    public static let heart =
        "M12 20.6C5 15.5 2 12 2 8.5C2 5.4 4.4 3 7.4 3C9.2 3 10.9 3.9 12 5.3C13.1 3.9 14.8 3 16.6 3C19.6 3 22 5.4 22 8.5C22 12 19 15.5 12 20.6Z"
    public static let heartOutline =
        heart
        + "M12 18C6.82 14.23 4.6 11.64 4.6 9.05C4.6 6.75 6.38 4.98 8.6 4.98C9.93 4.98 11.19 5.64 12 6.68C12.81 5.64 14.07 4.98 15.4 4.98C17.62 4.98 19.4 6.75 19.4 9.05C19.4 11.64 17.18 14.23 12 18Z"
    public static let more = "M12 4a2 2 0 1 1 0 4 2 2 0 0 1 0-4zm0 6a2 2 0 1 1 0 4 2 2 0 0 1 0-4zm0 6a2 2 0 1 1 0 4 2 2 0 0 1 0-4z"
    /// A clockwise circular arrow: try again.
    public static let retry = "M18.13 7.36A8 8 0 1 1 12 4.5L12 6.5A6 6 0 1 0 16.6 8.64ZM11.5 1.5L11.5 9.5L16.5 5.5Z"
    public static let check = "M9 16.2 4.8 12l-1.4 1.4L9 19 21 7l-1.4-1.4z"
    public static let chevronDown = "M6.4 8.6 12 14.2l5.6-5.6L19 10l-7 7-7-7z"
    public static let chevronUp = "M6.4 15.4 12 9.8l5.6 5.6L19 14l-7-7-7 7z"
    public static let warning = "M12 2 1 21h22zm-1 7h2v6h-2zm0 8h2v2h-2z"
    public static let settings =
        "M9.59 4.79L9.92 2.22L14.08 2.22L14.41 4.79L15.39 5.2L17.45 3.61L20.39 6.55L18.8 8.61L19.21 9.59L21.78 9.92L21.78 14.08L19.21 14.41L18.8 15.39L20.39 17.45L17.45 20.39L15.39 18.8L14.41 19.21L14.08 21.78L9.92 21.78L9.59 19.21L8.61 18.8L6.55 20.39L3.61 17.45L5.2 15.39L4.79 14.41L2.22 14.08L2.22 9.92L4.79 9.59L5.2 8.61L3.61 6.55L6.55 3.61L8.61 5.2ZM8.8 12a3.2 3.2 0 1 0 6.4 0a3.2 3.2 0 1 0 -6.4 0Z"
    public static let user = "M12 3.5a4 4 0 1 1 0 8 4 4 0 0 1 0-8zM4 20c0-3.3 3.6-6 8-6s8 2.7 8 6v1H4z"
    public static let signOut = "M4 3h9v2H6v14h7v2H4zm11.6 4.4L17 6l6 6-6 6-1.4-1.4 3.6-3.6H10v-2h9.2z"

    // Things
    /// A phone: this device.
    public static let device = "M7 2h10a2 2 0 0 1 2 2v16a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2zm0 3v13h10V5zm4 14.2h2v1.6h-2z"
    /// A screen with waves from its corner: play on another screen.
    public static let cast =
        "M3 4h18v15h-7v-2h5V6H5v3H3zM3 17.5a2.5 2.5 0 0 1 2.5 2.5H3zM3 14A6 6 0 0 1 9 20L7.4 20A4.4 4.4 0 0 0 3 15.6ZM3 10A10 10 0 0 1 13 20L11.4 20A8.4 8.4 0 0 0 3 11.6Z"
    public static let radio =
        "M4 8h16a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V9a1 1 0 0 1 1-1zm4.5 3a3 3 0 1 0 0 6 3 3 0 0 0 0-6zM14 12h4v1.5h-4zm0 3h4v1.5h-4zM6.6 8 17.3 3.2l.8 1.8L11 8z"
    public static let book = "M3 5c3-1.2 6-1 8.2.8V20c-2.2-1.6-5.2-1.8-8.2-.8zm18 0c-3-1.2-6-1-8.2.8V20c2.2-1.6 5.2-1.8 8.2-.8z"
    public static let podcast =
        "M9.8 10a2.2 2.2 0 1 0 4.4 0a2.2 2.2 0 1 0 -4.4 0ZM7.9 14.1A5.8 5.8 0 1 1 16.1 14.1L14.9 12.9A4.1 4.1 0 1 0 9.1 12.9ZM5.28 16.72A9.5 9.5 0 1 1 18.72 16.72L17.52 15.52A7.8 7.8 0 1 0 6.48 15.52ZM11 14h2v8h-2z"
    public static let article = "M5 3h14v18H5zm2 2v14h10V5zm1.5 2.5h7V9h-7zm0 3.5h7v1.5h-7zm0 3.5h5V16h-5z"
    /// Books on a shelf: a collection.
    public static let library = "M4 4h3v16H4zm5 0h3v16H9zm4.6 1.1 2.9-.8 4.1 15.5-2.9.8z"
    public static let trivia =
        "M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm1 17h-2v-2h2zm2.1-7.7-.9.9A3.4 3.4 0 0 0 13 15h-2v-.5a4 4 0 0 1 1.2-2.8l1.2-1.3A2 2 0 1 0 10 9H8a4 4 0 1 1 7.1 2.3z"
    public static let headphones = "M12 3a9 9 0 0 0-9 9v7a2 2 0 0 0 2 2h3v-8H5v-1a7 7 0 0 1 14 0v1h-3v8h3a2 2 0 0 0 2-2v-7a9 9 0 0 0-9-9z"
    public static let microphone = "M12 14a3 3 0 0 0 3-3V5a3 3 0 0 0-6 0v6a3 3 0 0 0 3 3zm5-3a5 5 0 0 1-10 0H5a7 7 0 0 0 6 6.9V21h2v-3.1A7 7 0 0 0 19 11z"
    public static let note = "M12 3v10.6A4 4 0 1 0 14 17V7h4V3z"

    /// Every icon by name: what `/static/js/icons.js` exports as `ICONS`.
    public static let all: [String: String] = [
        "play": play, "pause": pause, "previous": previous, "next": next, "skipBack": skipBack, "skipForward": skipForward,
        "speed": speed, "volume": volume, "nowPlaying": nowPlaying, "download": download, "upload": upload, "menu": menu,
        "close": close, "search": search, "plus": plus, "edit": edit, "trash": trash, "heart": heart, "heartOutline": heartOutline,
        "list": list, "more": more, "retry": retry, "check": check, "chevronDown": chevronDown, "chevronUp": chevronUp, "warning": warning,
        "settings": settings, "user": user, "signOut": signOut, "device": device, "cast": cast, "radio": radio, "book": book,
        "podcast": podcast, "article": article, "library": library, "trivia": trivia, "headphones": headphones,
        "microphone": microphone, "note": note,
    ]

    /// `/static/js/icons.js`: the icons as an ES module, generated from `all` so scripts and
    /// pages draw the same shapes. `icon(name, {label, text})` returns an `<svg>` element
    /// like `svg` (aria-hidden without a label; `text` is a number drawn inside, as `skip`).
    public static var module: String {
        let entries = all.keys.sorted().map { name in "  \(name): \(jsonString(all[name] ?? "")),\n" }.joined()
        return """
            // Juke's icons, generated by the server from Icons.all (Sources/JukePlatform/Web/Pages/Icons.swift):
            // edit the Swift, never this module.

            /** @type {Readonly<Record<string, string>>} */
            export const ICONS = Object.freeze({
            \(entries)});

            const SVG = "http://www.w3.org/2000/svg";

            /**
             * The icon `name` as an <svg> element (24×24, currentColor). Without a label it is
             * decoration (aria-hidden): the control around it carries the name.
             * @param {string} name a key of ICONS
             * @param {{label?: string, text?: string}} [options] `text`: a short number drawn inside (skip icons)
             * @returns {SVGSVGElement}
             */
            export function icon(name, options = {}) {
              const svg = document.createElementNS(SVG, "svg");
              svg.setAttribute("class", "icon-svg");
              svg.setAttribute("viewBox", "0 0 24 24");
              svg.setAttribute("focusable", "false");
              if (options.label) {
                svg.setAttribute("role", "img");
                svg.setAttribute("aria-label", options.label);
              } else {
                svg.setAttribute("aria-hidden", "true");
              }
              const path = document.createElementNS(SVG, "path");
              path.setAttribute("d", ICONS[name] ?? "");
              path.setAttribute("fill", "currentColor");
              path.setAttribute("fill-rule", "evenodd");
              svg.append(path);
              if (options.text) {
                const text = document.createElementNS(SVG, "text");
                text.setAttribute("class", "icon-text");
                text.setAttribute("x", "12");
                text.setAttribute("y", "16");
                text.setAttribute("text-anchor", "middle");
                text.setAttribute("fill", "currentColor");
                text.setAttribute("aria-hidden", "true");
                text.textContent = options.text;
                svg.append(text);
              }
              return svg;
            }

            """
    }

    private static func jsonString(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])) ?? Data("[\"\"]".utf8)
        return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
    }
}
