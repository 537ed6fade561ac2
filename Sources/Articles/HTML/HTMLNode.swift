/// One node of a page as the extractor sees it: an element (lower-cased name, attributes,
/// children) or a run of text. A reference type: the extractor scores, moves and drops nodes.
///
/// The parent link is strong (a weak one moves every retain and release of the tree to the
/// slow side-table path, a fifth of the extractor's time), so a tree is taken apart when done
/// with: `dispose()` on its root, and `remove()` on what is dropped.
final class HTMLNode {
    let name: String
    var attributes: [String: String]
    var children: [HTMLNode] = []
    var parent: HTMLNode?
    /// The text of a text node ("" for elements).
    var text: String
    /// A div that holds no block: scored and read as a paragraph.
    var isParagraph = false
    /// Its score as a candidate for the article's container, once it is one.
    var score: Double?

    /// What its name makes it, looked up once (names are compared against these sets often).
    let isBreak: Bool
    let isHeading: Bool
    let isInline: Bool
    let isScored: Bool
    let isBlockChild: Bool

    init(name: String, attributes: [String: String] = [:], text: String = "") {
        self.name = name
        self.attributes = attributes
        self.text = text
        let kind = name.isEmpty ? [] : HTMLRules.kind(name)
        isBreak = kind.contains(.breaks)
        isHeading = kind.contains(.heading)
        isInline = kind.contains(.inline)
        isScored = kind.contains(.scored)
        isBlockChild = kind.contains(.blockChild)
    }

    var isText: Bool { name.isEmpty }

    func append(_ child: HTMLNode) {
        child.parent = self
        children.append(child)
    }

    /// Takes the node out of its tree, and its subtree apart.
    func remove() {
        if let parent { parent.children.removeAll { $0 === self } }
        dispose()
    }

    /// Breaks the parent links below and here, so the nodes can be freed.
    func dispose() {
        var stack: [HTMLNode] = [self]
        while let node = stack.popLast() {
            node.parent = nil
            stack.append(contentsOf: node.children)
        }
    }

    /// Every element below, depth first, in document order. Walked with a stack of its own,
    /// not by recursion, so a deep page costs memory it is budgeted for, never the thread's stack.
    func descendants(_ visit: (HTMLNode) -> Void) {
        var pending: [HTMLNode] = children.reversed()
        while let node = pending.popLast() {
            guard !node.isText else { continue }
            visit(node)
            pending.append(contentsOf: node.children.reversed())
        }
    }

    func elements(named names: Set<String>) -> [HTMLNode] {
        var out: [HTMLNode] = []
        descendants { if names.contains($0.name) { out.append($0) } }
        return out
    }

    /// The text below, whitespace collapsed to single spaces.
    var innerText: String {
        var out = ""
        collectText(into: &out)
        return Whitespace.collapse(out)
    }

    /// The text below in document order, a space after each line-breaking element.
    func collectText(into out: inout String) {
        // A frame is a node still to enter, or (closing) a breaking element whose space is due.
        var pending: [(node: HTMLNode, closing: Bool)] = [(self, false)]
        while let (node, closing) = pending.popLast() {
            if closing {
                out += " "
            } else if node.isText {
                out += node.text
            } else {
                if node.isBreak { pending.append((node, true)) }
                for child in node.children.reversed() { pending.append((child, false)) }
            }
        }
    }

    /// The length of the text below, without building it (scoring asks this often).
    var textLength: Int {
        var total = 0
        var pending: [HTMLNode] = [self]
        while let node = pending.popLast() {
            if node.isText {
                total += node.text.utf8.count
            } else {
                pending.append(contentsOf: node.children)
            }
        }
        return total
    }

    var classAndID: [UInt8] { Array(((attributes["class"] ?? "") + " " + (attributes["id"] ?? "")).lowercased().utf8) }
}

/// Collapsing whitespace to single spaces, trimmed.
enum Whitespace {
    static func collapse(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var space = false
        var utf8 = text.utf8.makeIterator()
        var pending: [UInt8] = []
        while let byte = utf8.next() {
            if byte < 0x80 {
                if byte == 0x20 || (0x09...0x0D).contains(byte) {
                    space = !out.isEmpty
                    continue
                }
                if space { out.append(0x20) }
                out.append(byte)
                space = false
                continue
            }
            // A multi-byte character: gather it, then ask whether it is a space.
            pending.removeAll(keepingCapacity: true)
            pending.append(byte)
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
            for _ in 1..<length { if let next = utf8.next() { pending.append(next) } }
            if isSpace(pending) {
                space = !out.isEmpty
            } else {
                if space { out.append(0x20) }
                out.append(contentsOf: pending)
                space = false
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// No-break space, the typographic spaces, zero-width space, line and paragraph
    /// separators, the narrow and medium spaces and the ideographic space (UTF-8 bytes).
    static func isSpace(_ bytes: [UInt8]) -> Bool {
        switch bytes.count {
        case 2: return bytes[0] == 0xC2 && (bytes[1] == 0xA0 || bytes[1] == 0x85)
        case 3:
            if bytes[0] == 0xE2 && bytes[1] == 0x80 { return (0x80...0x8B).contains(bytes[2]) || bytes[2] == 0xA8 || bytes[2] == 0xA9 || bytes[2] == 0xAF }
            if bytes[0] == 0xE2 && bytes[1] == 0x81 { return bytes[2] == 0x9F }
            if bytes[0] == 0xE3 && bytes[1] == 0x80 { return bytes[2] == 0x80 }
            if bytes[0] == 0xE1 && bytes[1] == 0x9A { return bytes[2] == 0x80 }
            return false
        default: return false
        }
    }
}

/// Substring search over bytes (class names, ids, PDF keywords), without Foundation's.
enum ByteSearch {
    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        needle.isEmpty || index(of: needle, in: haystack, from: 0) != nil
    }

    /// Where `needle` first occurs in `haystack` at or after `from`.
    static func index(of needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        guard !needle.isEmpty, from >= 0, haystack.count >= needle.count else { return nil }
        return haystack.withUnsafeBufferPointer { h in
            needle.withUnsafeBufferPointer { n in
                let first = n[0]
                let last = h.count - n.count
                var i = from
                while i <= last {
                    if h[i] == first {
                        var j = 1
                        while j < n.count && h[i + j] == n[j] { j += 1 }
                        if j == n.count { return i }
                    }
                    i += 1
                }
                return nil
            }
        }
    }
}
