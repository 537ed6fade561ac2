import Foundation

/// Writes a `SubsonicElement` tree (the `subsonic-response`) as XML or JSON, by hand: the
/// order of fields is the order they were added, which keeps answers stable for tests and
/// diffs, and no Foundation bridging decides whether a Bool is a number.
public enum SubsonicRenderer {
    static let namespace = "http://subsonic.org/restapi"

    public static func xml(_ root: SubsonicElement) -> String {
        var out = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        var withNamespace = root
        withNamespace.attributes.insert(.init(name: "xmlns", value: .string(namespace)), at: 0)
        writeXML(withNamespace, name: "subsonic-response", into: &out)
        return out
    }

    static func writeXML(_ element: SubsonicElement, name: String, into out: inout String) {
        out += "<" + name
        for attribute in element.attributes {
            out += " " + attribute.name + "=\"" + xmlEscaped(text(attribute.value)) + "\""
        }
        if element.children.isEmpty && element.text == nil {
            out += "/>"
            return
        }
        out += ">"
        if let text = element.text { out += xmlEscaped(text) }
        for child in element.children {
            switch child.content {
            case .one(let nested): writeXML(nested, name: child.name, into: &out)
            case .many(let list): for nested in list { writeXML(nested, name: child.name, into: &out) }
            case .values(let values): for value in values { out += "<" + child.name + ">" + xmlEscaped(text(value)) + "</" + child.name + ">" }
            }
        }
        out += "</" + name + ">"
    }

    public static func json(_ root: SubsonicElement) -> String {
        var out = #"{"subsonic-response":"#
        writeJSON(root, into: &out)
        out += "}"
        return out
    }

    static func writeJSON(_ element: SubsonicElement, into out: inout String) {
        out += "{"
        var first = true
        func key(_ name: String) {
            if !first { out += "," }
            first = false
            out += jsonString(name) + ":"
        }
        for attribute in element.attributes {
            key(attribute.name)
            writeJSON(attribute.value, into: &out)
        }
        if let text = element.text {
            key("value")
            out += jsonString(text)
        }
        for child in element.children {
            key(child.name)
            switch child.content {
            case .one(let nested): writeJSON(nested, into: &out)
            case .many(let list):
                out += "["
                for (i, nested) in list.enumerated() {
                    if i > 0 { out += "," }
                    writeJSON(nested, into: &out)
                }
                out += "]"
            case .values(let values):
                out += "["
                for (i, value) in values.enumerated() {
                    if i > 0 { out += "," }
                    writeJSON(value, into: &out)
                }
                out += "]"
            }
        }
        out += "}"
    }

    static func writeJSON(_ value: SubsonicValue, into out: inout String) {
        switch value {
        case .string(let s): out += jsonString(s)
        case .int(let i): out += String(i)
        case .double(let d): out += d.isFinite ? String(d) : "0"
        case .bool(let b): out += b ? "true" : "false"
        }
    }

    static func text(_ value: SubsonicValue) -> String {
        switch value {
        case .string(let s): s
        case .int(let i): String(i)
        case .double(let d): d.isFinite ? String(d) : "0"
        case .bool(let b): b ? "true" : "false"
        }
    }

    /// XML 1.0 allows no control characters but tab, newline and carriage return: a tag
    /// holding one would make the whole answer unreadable, so it is left out.
    static func xmlEscaped(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for scalar in s.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out += "&#\(scalar.value);"
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func jsonString(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar == "\u{2028}" || scalar == "\u{2029}" {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
