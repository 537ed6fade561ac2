/// Juke's own reading of a PDF (`PDFReader.parse`): the document, its pages and each page's
/// paragraphs, or why it could not be read; joined with another reader's text (pdftotext's)
/// for its outline, title and author.
struct PDFReading {
    var document: PDFDocument?
    var tree: [(number: Int?, object: PDFObject)] = []
    var texts: [[String]] = []
    var failure = ArticleError.unreadable("a damaged PDF")
}
