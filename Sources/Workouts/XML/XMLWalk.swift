import Feeds

/// Walks an XML document's elements for the workout readers: each element's local name (the
/// namespace prefix dropped: Garmin's files use `ns3:`, `gpxtpx:` or none for the same
/// thing), its attributes, and at its end the text it held. Nesting is kept leniently: an end
/// tag closes the elements left open inside it; a stray one is ignored.
struct XMLWalk {
    /// Local names of the open elements, outermost first.
    private(set) var path: [String] = []
    private var text = ""
    /// Whether every element opened was closed (a file cut short leaves some open; they are
    /// closed at the end, innermost first, so a track point cut after its heart rate counts).
    private(set) var closed = true
    /// How many elements were seen at all.
    private(set) var elements = 0

    static func localName(_ name: String) -> String {
        guard let colon = name.lastIndex(of: ":") else { return name }
        return String(name[name.index(after: colon)...])
    }

    mutating func walk(
        _ bytes: [UInt8], start: (_ walk: XMLWalk, _ name: String, _ attributes: [XMLAttribute]) -> Void,
        end: (_ walk: XMLWalk, _ name: String, _ text: String) -> Void
    ) {
        var tokenizer = XMLTokenizer()
        tokenizer.feed(bytes) { handle($0, start: start, end: end) }
        tokenizer.finish { handle($0, start: start, end: end) }
        if !path.isEmpty {
            closed = false
            while let inner = path.popLast() {
                end(self, inner, text)
                text = ""
            }
        }
    }

    private mutating func handle(
        _ token: XMLToken, start: (_ walk: XMLWalk, _ name: String, _ attributes: [XMLAttribute]) -> Void,
        end: (_ walk: XMLWalk, _ name: String, _ text: String) -> Void
    ) {
        switch token {
        case .start(let name, let attributes, let selfClosing):
            let local = XMLWalk.localName(name)
            self.elements += 1
            self.text = ""
            self.path.append(local)
            start(self, local, attributes)
            if selfClosing {
                self.path.removeLast()
                end(self, local, "")
            }
        case .end(let name):
            let local = XMLWalk.localName(name)
            guard let index = self.path.lastIndex(of: local) else { return }
            while self.path.count > index + 1 {
                let inner = self.path.removeLast()
                end(self, inner, "")
            }
            self.path.removeLast()
            end(self, local, self.text)
            self.text = ""
        case .text(let s):
            if self.text.utf8.count < 4096 { self.text += s }
        }
    }
}
