import Articles
import Feeds

/// libFuzzer entry point: any bytes, as a web page, a text file, an ePub, a PDF, and a page's feed links, must
/// give an article with text in it or an ArticleError, never a crash or a hang; every
/// paragraph is non-empty with single spaces, and every chapter has paragraphs.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzArticles(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for article in [
        try? ArticleExtractor.extract(html: bytes), try? TextArticle.read(bytes, name: "fuzz.txt"), try? EPubReader.read(bytes), try? PDFReader.read(bytes),
    ] {
        guard let article else { continue }
        precondition(!article.title.isEmpty)
        for chapter in article.chapters {
            precondition(!chapter.paragraphs.isEmpty, "a chapter without text")
            for paragraph in chapter.paragraphs {
                precondition(!paragraph.isEmpty && !paragraph.hasPrefix(" ") && !paragraph.hasSuffix(" ") && !paragraph.contains("  "))
            }
        }
    }
    for link in FeedDiscovery.feeds(inHTML: bytes, base: "https://example.com/show/") {
        precondition(link.hasPrefix("http://") || link.hasPrefix("https://"))
    }
    return 0
}
