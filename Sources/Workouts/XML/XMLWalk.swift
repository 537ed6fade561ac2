import Feeds

/// Walks an XML document's elements for the workout readers: each element's local name (the
/// namespace prefix dropped: Garmin's files use `ns3:`, `gpxtpx:` or none for the same
/// thing), its attributes, and at its end the text it held. Nesting is kept leniently: an end
/// tag closes the elements left open inside it; a stray one is ignored at once (a count of the
/// open elements of each name answers without searching them). A file nested deeper than
/// `maxDepth` (a TCX track point is 6 deep) is refused rather than walked.
struct XMLWalk {
    static let maxDepth = 64
    /// Local names of the open elements, outermost first.
    private(set) var path: [String] = []
    /// How many elements of each name are open.
    private var open: [String: Int] = [:]
    /// Set when an element opened deeper than `maxDepth`; nothing after it is read.
    private var tooDeep = false
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
    ) throws(WorkoutFileError) {
        var tokenizer = XMLTokenizer()
        tokenizer.feed(bytes) { handle($0, start: start, end: end) }
        tokenizer.finish { handle($0, start: start, end: end) }
        guard !tooDeep else { throw .unreadable("its elements are nested more than \(Self.maxDepth) deep") }
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
        guard !tooDeep else { return }
        switch token {
        case .start(let name, let attributes, let selfClosing):
            let local = XMLWalk.localName(name)
            guard self.path.count < Self.maxDepth else {
                self.tooDeep = true
                return
            }
            self.elements += 1
            self.text = ""
            self.path.append(local)
            start(self, local, attributes)
            if selfClosing {
                self.path.removeLast()
                end(self, local, "")
            } else {
                self.open[local, default: 0] += 1
            }
        case .end(let name):
            let local = XMLWalk.localName(name)
            guard self.open[local, default: 0] > 0, let index = self.path.lastIndex(of: local) else { return }
            while self.path.count > index + 1 {
                let inner = self.path.removeLast()
                self.open[inner, default: 1] -= 1
                end(self, inner, "")
            }
            self.path.removeLast()
            self.open[local, default: 1] -= 1
            end(self, local, self.text)
            self.text = ""
        case .text(let s):
            if self.text.utf8.count < 4096 { self.text += s }
        }
    }
}
