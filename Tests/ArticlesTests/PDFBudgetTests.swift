import Foundation
import Testing

@testable import Articles

extension ReaderTests {
    /// The PDF bombs of issue 37, built in the test, each a clear `ArticleError.tooBig` (a 422)
    /// rather than gigabytes, minutes or a crash; and the work of the linear scan held by count.
    /// (Before the budgets: the first took 2.0 GB and 35 s, the second 270 s, the third 1 GB.)
    @Suite(.timeLimit(.minutes(5))) struct PDFBudgetTests {
        static let sixtyMB = 60 * 1024 * 1024

        func expectTooBig(_ bytes: [UInt8], _ words: String, sourceLocation: SourceLocation = #_sourceLocation) async {
            let read = await ReaderTests.offThePool { Result { try PDFReader.read(bytes) } }
            switch read {
            case .success(let article): Issue.record("read \(article.wordCount) words instead of refusing", sourceLocation: sourceLocation)
            case .failure(let error):
                guard case .tooBig(let what)? = error as? ArticleError else {
                    Issue.record("\(error) instead of tooBig", sourceLocation: sourceLocation)
                    return
                }
                #expect(what.contains(words), "\(what)", sourceLocation: sourceLocation)
            }
        }

        @Test func oneStreamListedThirtyTimesOnAPageIsTooBig() async {
            var pdf = PDFWriter.pages(["[" + String(repeating: "4 0 R ", count: 30) + "]"])
            pdf.add(4, stream: ZerosDeflate.zlib(count: Self.sixtyMB), dictionary: "/Filter /FlateDecode")
            #expect(pdf.bytes.count < 70_000)
            await expectTooBig(pdf.bytes, "page streams decompress to more than 64 MB")
        }

        /// 200 pages sharing that stream: the second page's reference is charged again.
        @Test func twoHundredPagesSharingOneStreamAreTooBig() async {
            var pdf = PDFWriter.pages(Array(repeating: "4 0 R", count: 200))
            pdf.add(4, stream: ZerosDeflate.zlib(count: Self.sixtyMB), dictionary: "/Filter /FlateDecode")
            await expectTooBig(pdf.bytes, "page streams decompress to more than 64 MB")
        }

        /// A form drawn again and again from a page is charged each time it is drawn.
        @Test func aFormDrawnOverAndOverIsTooBig() async {
            var pdf = PDFWriter.pages(["5 0 R"], resources: "/XObject << /X 4 0 R >>")
            pdf.add(4, stream: ZerosDeflate.zlib(count: 20 * 1024 * 1024), dictionary: "/Type /XObject /Subtype /Form /Filter /FlateDecode")
            pdf.add(5, stream: Array(String(repeating: "/X Do ", count: 10).utf8))
            await expectTooBig(pdf.bytes, "page streams decompress to more than 64 MB")
        }

        /// `1 0 obj [ ` 20,000 times: each open array once ran to the end of the file (270 s).
        @Test func objectsThatNeverCloseAreScannedOnce() throws {
            let bytes = Array(("%PDF-1.4\n" + String(repeating: "1 0 obj [ ", count: 20_000)).utf8)
            let document = try? PDFDocument(bytes)
            #expect(document == nil, "no catalog: a damaged PDF")
            #expect(throws: ArticleError.unreadable("a damaged PDF (no catalog)")) { try PDFReader.read(bytes) }
            // The work, counted: a handful of tokens per object, not the rest of the file each time.
            var scan = PDFLexer(bytes, at: 15)
            _ = scan.token()
            #expect(scan.tokens < 10, "an open array ends where the next object begins")
        }

        /// A ToUnicode map whose bfrange lines stand for 12.7 million entries in 5.8 KB.
        @Test func aMapThatExpandsToMillionsOfEntriesIsTooBig() async {
            var cmap = "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n1 begincodespacerange <00000000> <FFFFFFFF> endcodespacerange\n"
            cmap += "194 beginbfrange\n"
            for high in 0..<194 { cmap += String(format: "<%04X0000> <%04XFFFF> <0041>\n", high, high) }
            cmap += "endbfrange\nendcmap CMapName currentdict /CMap defineresource pop end end\n"
            var pdf = PDFWriter.pages(["5 0 R"], font: "<< /Type /Font /Subtype /Type0 /BaseFont /X /ToUnicode 4 0 R >>")
            pdf.add(4, stream: Array(cmap.utf8))
            pdf.add(5, stream: Array("BT /F1 12 Tf 72 700 Td <00000001> Tj ET".utf8))
            #expect(cmap.utf8.count < 6_500)
            await expectTooBig(pdf.bytes, "ToUnicode map has more than 200000 entries")
        }

        /// The map's budget holds inside one range, counted: a range past it stops at it.
        @Test func aMapStopsAtItsBudgetInsideARange() {
            let ranges = (0..<4).map { String(format: "<%04X0000> <%04XFFFF> <0041>", $0, $0) }.joined(separator: " ")
            let cmap = Array("4 beginbfrange \(ranges) endbfrange".utf8)
            #expect(throws: ArticleError.tooBig("a font's ToUnicode map has more than 200000 entries")) { try PDFFont.toUnicode(cmap) }
        }

        /// Ranges over the same codes keep 65,536 entries but write 12.7 million: the budget
        /// counts what is written.
        @Test func aMapThatRewritesTheSameCodesIsTooBig() {
            let ranges = String(repeating: "<0000> <FFFF> <0041> ", count: 194)
            let cmap = Array("194 beginbfrange \(ranges) endbfrange".utf8)
            #expect(throws: ArticleError.tooBig("a font's ToUnicode map has more than 200000 entries")) { try PDFFont.toUnicode(cmap) }
        }

        /// A page of five million tokens (10 MB) passes the tokens a page may have.
        @Test func aPageTooLongInTokensIsTooBig() async {
            var pdf = PDFWriter.pages(["4 0 R"])
            pdf.add(4, stream: Array(String(repeating: "0 ", count: 5_000_000).utf8))
            await expectTooBig(pdf.bytes, "drawing instructions")
        }
    }
}
