import Foundation
import Testing

@testable import Articles

/// pdftotext's reading of the pages, where the system has it, with Juke's outline, title and
/// author; Juke's own reader where it has not or reads nothing; and Juke's own reader's
/// failure classes of issue 37 (inline images, forms).
@Suite(.timeLimit(.minutes(5))) struct PDFTextSourceTests {
    func fixture(_ name: String) throws -> [UInt8] {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/books/\(name)", withExtension: nil))
        return Array(try Data(contentsOf: url))
    }

    @Test func pdftotextsPagesAndBlankLinesBecomeChaptersAndParagraphs() throws {
        let pdf = PDFWriter.pages(["4 0 R", "4 0 R"]).bytes
        let output = "The first para-\ngraph wraps here.\n\nA second one.\n\u{0C}Page two's text, a long line that goes on.\nIt ends short.\nAnother.\n\u{0C}"
        let article = try PDFReader.read(pdf, text: output)
        #expect(article.chapters.map(\.title) == ["Page 1", "Page 2"])
        #expect(article.chapters[0].paragraphs == ["The first paragraph wraps here.", "A second one."])
        #expect(
            article.chapters[1].paragraphs == ["Page two's text, a long line that goes on. It ends short.", "Another."],
            "a short line ending a sentence ends a paragraph")
    }

    @Test func theOutlineStillMakesTheChapters() throws {
        let pdf = try fixture("core-fonts.pdf")
        let own = try PDFReader.read(pdf)
        let pages = try PDFReader.pages(of: PDFDocument(pdf)).count
        let output = (1...pages).map { "Text of page \($0).\n\u{0C}" }.joined()
        let article = try PDFReader.read(pdf, text: output)
        #expect(article.chapters.map(\.title) == own.chapters.map(\.title))
        #expect(article.title == own.title && article.author == own.author)
        #expect(article.chapters.flatMap(\.paragraphs) == (1...pages).map { "Text of page \($0)." })
    }

    @Test func withoutAnAnswerJukesOwnReaderReads() throws {
        let pdf = try fixture("core-fonts.pdf")
        let own = try PDFReader.read(pdf)
        #expect(try PDFReader.read(pdf, text: nil) == own, "pdftotext missing or refusing the file")
        #expect(try PDFReader.read(pdf, text: "\u{0C}\u{0C}") == own, "pdftotext finding no text")
    }

    @Test func textBesideAnInlineImageIsRead() throws {
        // The image's bytes hold "(" and "BT": neither is text.
        let content =
            Array("BT /F1 12 Tf 72 700 Td (Before the image.) Tj ET\nBI /W 4 /H 2 /BPC 8 /CS /G ID ".utf8) + [0x28, 0x42, 0x54, 0xFF, 0x00, 0x45, 0x49, 0x01]
            + Array("\nEI\nBT /F1 12 Tf 72 600 Td (After the image.) Tj ET".utf8)
        var pdf = PDFWriter.pages(["4 0 R"])
        pdf.add(4, stream: content)
        let article = try PDFReader.read(pdf.bytes)
        #expect(article.chapters.flatMap(\.paragraphs).joined(separator: " ") == "Before the image. After the image.")
    }

    @Test func textInAFormIsRead() throws {
        var pdf = PDFWriter.pages(["4 0 R"], resources: "/XObject << /X 5 0 R >>")
        pdf.add(4, stream: Array("BT /F1 12 Tf 72 700 Td (On the page.) Tj ET /X Do".utf8))
        pdf.add(5, stream: Array("BT /F1 12 Tf 72 600 Td (In the form.) Tj ET".utf8), dictionary: "/Type /XObject /Subtype /Form")
        let article = try PDFReader.read(pdf.bytes)
        #expect(article.chapters.flatMap(\.paragraphs).joined(separator: " ") == "On the page. In the form.")
    }

    @Test func rightToLeftTextIsReadInItsOwnOrder() {
        // Drawn left to right as it stands on the page: "مرحبا بالعالم" reversed.
        #expect(PDFBidi.logical("Arabic: ملاعلاب ابحرم") == "Arabic: مرحبا بالعالم")
        #expect(PDFBidi.logical("Hello World") == "Hello World")
    }
}
