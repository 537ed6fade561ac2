import Testing

@testable import Feeds

/// The tokenizer reads feeds as published: the same tokens however the bytes are cut, and on
/// through the mistakes real feeds make.
@Suite(.timeLimit(.minutes(5))) struct XMLTokenizerTests {
    static func tokens(_ text: String, pieces: Int = 0) -> [XMLToken] {
        var tokenizer = XMLTokenizer()
        var out: [XMLToken] = []
        let bytes = Array(text.utf8)
        if pieces > 0 {
            var i = 0
            while i < bytes.count {
                let end = min(bytes.count, i + pieces)
                tokenizer.feed(bytes[i..<end]) { out.append($0) }
                i = end
            }
        } else {
            tokenizer.feed(bytes) { out.append($0) }
        }
        tokenizer.finish { out.append($0) }
        return merged(out)
    }

    /// Adjacent text tokens joined (a long text may come in several).
    static func merged(_ tokens: [XMLToken]) -> [XMLToken] {
        var out: [XMLToken] = []
        for token in tokens {
            if case .text(let more) = token, case .text(let before)? = out.last {
                out[out.count - 1] = .text(before + more)
            } else {
                out.append(token)
            }
        }
        return out
    }

    static let sample = """
        <?xml version="1.0" encoding="utf-8"?>
        <!DOCTYPE rss [ <!ENTITY x "y"> ]>
        <!-- a comment with <tags> -->
        <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel>
        <title>Caf&#233; &amp; R&eacute;sum&#xE9; &nbsp;— “ok”</title>
        <item><title><![CDATA[<b>Bold</b> & raw]]></title><enclosure url='http://x/a.mp3?a=1&amp;b=2' length="12" type="audio/mpeg"/>
        <itunes:duration>1:02:03</itunes:duration></item></channel></rss>
        """

    @Test func readsElementsTextEntitiesAndCDATA() {
        let tokens = Self.tokens(Self.sample).filter { if case .text(let t) = $0 { return !t.allSatisfy(\.isWhitespace) } else { return true } }
        #expect(
            tokens.first
                == .start(
                    name: "rss",
                    attributes: [.init(name: "version", value: "2.0"), .init(name: "xmlns:itunes", value: "http://www.itunes.com/dtds/podcast-1.0.dtd")],
                    selfClosing: false))
        #expect(tokens.contains(.text("Café & Résumé \u{A0}— “ok”")))
        #expect(tokens.contains(.text("<b>Bold</b> & raw")))
        #expect(
            tokens.contains(
                .start(
                    name: "enclosure",
                    attributes: [
                        .init(name: "url", value: "http://x/a.mp3?a=1&b=2"), .init(name: "length", value: "12"), .init(name: "type", value: "audio/mpeg"),
                    ], selfClosing: true)))
        #expect(tokens.last == .end(name: "rss"))
    }

    @Test(arguments: [1, 2, 3, 7, 64])
    func theSameTokensHoweverTheBytesAreCut(piece: Int) {
        #expect(Self.tokens(Self.sample, pieces: piece) == Self.tokens(Self.sample))
    }

    @Test func readsOnThroughRealFeedsMistakes() {
        // A bare ampersand, an unknown entity, a "<" that is no tag, an unquoted attribute.
        #expect(
            Self.tokens("<t>AT&T &bogus; a < b <3</t>") == [
                .start(name: "t", attributes: [], selfClosing: false), .text("AT&T &bogus; a < b <3"), .end(name: "t"),
            ])
        #expect(
            Self.tokens("<a href=x.mp3 b>") == [
                .start(name: "a", attributes: [.init(name: "href", value: "x.mp3"), .init(name: "b", value: "")], selfClosing: false)
            ])
        // Windows-1252's codes written as references are the characters they meant.
        #expect(Self.tokens("<t>&#147;quoted&#148; &#150;</t>").contains(.text("“quoted” –")))
        // A tag never closed before the next one begins is text, not a swallowed document.
        #expect(Self.tokens("<t>x <b <i>y</i></t>").contains(.text("x <b ")))
        // An attribute's quote never closed does not eat the rest of the document.
        #expect(Self.tokens(#"<a href="x.mp3>text</a><b>more</b>"#).contains(.start(name: "b", attributes: [], selfClosing: false)))
        // The document ends mid-tag: what is left is text, and nothing traps.
        #expect(
            Self.tokens("<t>x</t><unfinished attr=\"") == [
                .start(name: "t", attributes: [], selfClosing: false), .text("x"), .end(name: "t"), .text("<unfinished attr=\""),
            ])
        #expect(Self.tokens("<!-- never closed").isEmpty || Self.tokens("<!-- never closed").allSatisfy { if case .text = $0 { true } else { false } })
    }

    @Test func longTextIsHandedOnInPiecesWithoutSplittingCharactersOrEntities() {
        var tokenizer = XMLTokenizer()
        var texts: [String] = []
        let long = String(repeating: "é&amp;", count: 40_000)  // 280 kB, no tag
        tokenizer.feed(Array(("<t>" + long).utf8)) { if case .text(let t) = $0 { texts.append(t) } }
        #expect(!texts.isEmpty, "handed on before the closing tag arrived")
        tokenizer.feed(Array("</t>".utf8)) { if case .text(let t) = $0 { texts.append(t) } }
        #expect(texts.joined() == String(repeating: "é&", count: 40_000))
    }
}
