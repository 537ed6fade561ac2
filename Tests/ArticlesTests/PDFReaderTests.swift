import Foundation
import Testing

@testable import Articles

extension ReaderTests {
    /// PDFs' text layers as articles, on PDFs made by fpdf2 (Scripts/make-article-fixtures.py):
    /// standard fonts in WinAnsi, an embedded composite font with a ToUnicode map, the outline as
    /// chapters, wrapped lines back into paragraphs.
    @Suite(.timeLimit(.minutes(5))) struct PDFReaderTests {
        func fixture(_ name: String) throws -> [UInt8] {
            let url = try #require(Bundle.module.url(forResource: "Fixtures/books/\(name)", withExtension: nil))
            return Array(try Data(contentsOf: url))
        }

        static let first = "The lighthouse stood at the end of the point, white against the grey sky, and had stood there for a hundred years."

        @Test func standardFontsAndTheOutline() throws {
            let book = try PDFReader.read(try fixture("core-fonts.pdf"))
            #expect(book.title == "The Lighthouse" && book.author == "Ann Author")
            #expect(book.chapters.map(\.title) == ["The Keeper", "The Storm"])
            #expect(book.chapters[0].paragraphs.count == 6, "three paragraphs on each of its two pages: \(book.chapters[0].paragraphs)")
            #expect(book.chapters[0].paragraphs.first == Self.first, "wrapped lines joined")
            #expect(book.chapters[1].paragraphs.last?.hasSuffix("café or no café.") == true, "WinAnsi's é")
        }

        @Test func anEmbeddedFontByItsToUnicodeMap() throws {
            let book = try PDFReader.read(try fixture("unicode.pdf"))
            #expect(book.title == "Ünïcödé Storïes")
            #expect(book.chapters.map(\.title) == ["Page 1", "Page 2"], "no outline: a chapter per page")
            #expect(book.chapters[0].paragraphs == ["Il était une fois, à Paris, un café très célèbre — “ouvert” jour et nuit."])
            #expect(book.chapters[1].paragraphs == ["Καλημέρα κόσμε. Привет, мир. Ende."])
        }

        @Test func damagedAndTextlessPDFsAreClearErrors() throws {
            let pdf = try fixture("core-fonts.pdf")
            #expect(throws: ArticleError.self) { try PDFReader.read(Array("not a pdf".utf8)) }
            #expect(throws: ArticleError.self) { try PDFReader.read(Array(pdf.prefix(300))) }
            let textless = Array(
                "%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n3 0 obj << /Type /Page /Parent 2 0 R /Contents 4 0 R >> endobj\n4 0 obj << /Length 20 >> stream\n0 0 m 10 10 l S\nendstream endobj\ntrailer << /Root 1 0 R >>\n%%EOF"
                    .utf8)
            #expect(throws: ArticleError.self) { try PDFReader.read(textless) }
        }

        @Test func literalAndHexStringsAndNames() {
            var lexer = PDFLexer(Array("(a\\(b\\) \\101\\n) <48 65 6C6C 6F> /A#20B [1 2 0 R] << /K (v) >>".utf8))
            #expect(lexer.token() == .object(.string(Array("a(b) A\n".utf8))))
            #expect(lexer.token() == .object(.string(Array("Hello".utf8))))
            #expect(lexer.token() == .object(.name("A B")))
            #expect(lexer.token() == .object(.array([.number(1), .reference(2)])))
            #expect(lexer.token() == .object(.dictionary(["K": .string([0x76])])))
        }
    }
}
