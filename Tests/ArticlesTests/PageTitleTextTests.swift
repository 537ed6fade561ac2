import Foundation
import Testing

@testable import Articles

/// A page's title and author are stored and shown as one line: control characters and
/// bidirectional overrides and isolates (which can make a name read backwards) are removed
/// where they enter, and white space is collapsed.
@Suite(.timeLimit(.minutes(5))) struct PageTitleTextTests {
    static let prose = [
        "The first paragraph of the story, long enough to count, with a comma, and another, to score well.",
        "A second paragraph goes on with the story: it says more, at length, as articles do, for readers.",
    ]

    func page(head: String) -> [UInt8] {
        Array("<!doctype html><html><head>\(head)</head><body><article>\(Self.prose.map { "<p>\($0)</p>" }.joined())</article></body></html>".utf8)
    }

    @Test func theDocumentsTitleAndAuthorLoseControlAndBidiCharacters() throws {
        let article = try ArticleExtractor.extract(
            html: page(
                head: "<title>\u{202E}Breaking\u{7}\t news\u{2066}, in\u{9B} full\u{2069}</title><meta name=\"author\" content=\"\u{202D}Eve\u{1B}\n Writer\">")
        )
        #expect(article.title == "Breaking news, in full")
        #expect(article.author == "Eve Writer")
        #expect(!article.chapters.map(\.title).joined().unicodeScalars.contains { $0.value < 0x20 || (0x202A...0x202E).contains($0.value) })
    }

    @Test func anOpenGraphTitleIsCleanedToo() throws {
        let article = try ArticleExtractor.extract(html: page(head: "<meta property=\"og:title\" content=\"Plain &#x202E;txt.exe&#x7;\">"))
        #expect(article.title == "Plain txt.exe")
    }
}
