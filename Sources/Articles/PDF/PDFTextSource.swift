/// Another reader of a PDF's text that `PDFReader` uses when it is given one: poppler's
/// `pdftotext` (`PopplerText`) on a system that has it, a fake in tests. Its answer is
/// pdftotext's: each page's text ended by a form feed, paragraphs apart by blank lines.
public protocol PDFTextSource: Sendable {
    /// The text of `pdf`, or nil when this reader could not read it (Juke's own reader then
    /// tries); a budget passed (time, memory, output) is `ArticleError.tooBig`.
    func text(of pdf: [UInt8]) throws(ArticleError) -> String?
}
