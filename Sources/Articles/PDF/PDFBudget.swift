/// What reading one PDF may spend, each limit held by the reader that spends it. A PDF is a
/// program of sorts: a small file can ask for the same 60 MB stream on every page, nest without
/// end, or expand a font's map to millions of entries. Each budget passed is
/// `ArticleError.tooBig` naming what was too big (a 422 to whoever sent it), never gigabytes,
/// a crash or a hang. The figures are far above what real documents need (a 1,000-page book
/// has some 100,000 objects and a few MB of page streams).
enum PDFBudget {
    /// The file itself.
    static let inputBytes = 256 * 1024 * 1024
    /// Objects read from the file and its object streams (a repeated number counts again).
    static let objects = 500_000
    /// Tokens the lexer reads for one object of the file scan.
    static let tokensPerObject = 1_000_000
    /// Bytes all decoded streams come to, each stream decoded once (fonts, object streams,
    /// page contents).
    static let decodedBytes = 128 * 1024 * 1024
    /// The most one stream decodes to.
    static let streamBytes = 64 * 1024 * 1024
    /// Page content bytes the text is read from, every reference counted again: the 30th
    /// reference to one stream costs what the first did.
    static let pageBytes = 64 * 1024 * 1024
    /// Tokens of one page's content (its streams and the forms it draws).
    static let tokensPerPage = 4_000_000
    /// Pages in the page tree.
    static let pages = 20_000
    /// Entries of one ToUnicode map, and of all of a document's maps.
    static let mapEntries = 200_000
    static let mapEntriesPerDocument = 1_000_000
    /// Forms drawn inside forms (their depth; each draws from a stack, not recursion).
    static let formDepth = 8
    /// Characters of text the article keeps.
    static let textCharacters = 16_000_000
}

/// What one document has spent so far (a reference, shared by the document and the readers
/// of its pages and fonts).
final class PDFSpending {
    var decodedBytes = 0
    var pageBytes = 0
    var mapEntries = 0
    var textCharacters = 0
    /// Decoded streams by object number: a stream referenced again is not decoded again.
    var streams: [Int: [UInt8]] = [:]
    /// Fonts by object number: a font shared by 200 pages is read once.
    var fonts: [Int: PDFFont] = [:]

    func charge(page bytes: Int) throws(ArticleError) {
        pageBytes += bytes
        guard pageBytes <= PDFBudget.pageBytes else {
            throw .tooBig("its page streams decompress to more than \(PDFBudget.pageBytes / 1024 / 1024) MB")
        }
    }

    func charge(text characters: Int) throws(ArticleError) {
        textCharacters += characters
        guard textCharacters <= PDFBudget.textCharacters else {
            throw .tooBig("its text is longer than \(PDFBudget.textCharacters / 1_000_000) million characters")
        }
    }
}
