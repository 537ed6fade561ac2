import Foundation
import Testing

@testable import ExternalTools

/// pdftotext run through ExternalTool, under its budgets.
@Suite(.timeLimit(.minutes(5))) struct PopplerTextTests {
    /// The smallest PDF with a page of text (offsets need not be exact: poppler rebuilds them).
    static let hello = Array(
        """
        %PDF-1.4
        1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
        2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj
        3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >> endobj
        4 0 obj << /Length 48 >> stream
        BT /F1 24 Tf 72 700 Td (Hello from a PDF) Tj ET
        endstream endobj
        5 0 obj << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> endobj
        trailer << /Root 1 0 R >>
        %%EOF
        """.utf8)

    @Test(.enabled(if: PopplerText.locate() != nil, "poppler-utils is installed by Scripts/test.sh")) func pdftotextReadsAPage() async throws {
        let poppler = try #require(PopplerText.locate())
        let text = try #require(try await poppler.text(of: Self.hello))
        #expect(text.contains("Hello from a PDF"))
        #expect(try await poppler.text(of: Array("not a pdf".utf8)) == nil, "poppler's refusal leaves it to Juke's own reader")
    }

    @Test(.enabled(if: PopplerText.locate() != nil)) func textPastTheOutputBudgetIsRefused() async throws {
        var poppler = try #require(PopplerText.locate())
        poppler.outputBytes = 4
        await #expect(throws: PopplerText.Refusal.tooBig("its text is longer than 0 MB")) { try await poppler.text(of: Self.hello) }
    }
}
