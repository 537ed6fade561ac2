import Foundation
import Testing

@testable import Articles

extension ReaderTests {
    /// ePub books as articles, and the inflater under them, on books written by Python's zipfile.
    @Suite(.timeLimit(.minutes(5))) struct EPubReaderTests {
        func fixture(_ name: String) throws -> [UInt8] {
            let url = try #require(Bundle.module.url(forResource: "Fixtures/books/\(name)", withExtension: nil))
            return Array(try Data(contentsOf: url))
        }

        @Test func inflateAgreesWithZlibByteForByte() throws {
            let expected = try fixture("deflate.txt")
            #expect(try Inflate.inflate(try fixture("deflate.bin"), limit: 1_000_000) == expected)
            #expect(throws: ArticleError.self) { try Inflate.inflate(try fixture("deflate.bin"), limit: 1000) }
            // Cut short: what it held, no more (a ZIP's checksum judges the rest).
            #expect(expected.starts(with: try Inflate.inflate(Array(try fixture("deflate.bin").prefix(100)), limit: 1_000_000)))
            #expect(throws: ArticleError.self) { try Inflate.inflate([0xFF, 0xFF, 0xFF], limit: 1000) }
        }

        @Test func anEPub3ByItsSpineAndNav() throws {
            let book = try EPubReader.read(try fixture("epub3.epub"))
            #expect(book.title == "The Small Book" && book.author == "Ann Author")
            #expect(
                book.chapters.map(\.title) == ["One: The Beginning", "Two"], "titled by the contents; the cover (no text) and the non-linear notes left out")
            #expect(book.chapters[0].paragraphs == ["It began on a Tuesday, as most things do, with rain.", "Nobody noticed & nobody minded."])
            #expect(
                book.chapters[1].paragraphs == ["The Middle", "Then it went on, for a while, in the middle.", "A scene", "And it ended."],
                "its own heading read too")
        }

        @Test func anEPub2ByItsNCXInLatin1() throws {
            let book = try EPubReader.read(try fixture("epub2.epub"))
            #expect(book.title == "Le Petit Livre" && book.author == "Émile Auteur")
            #expect(book.chapters.map(\.title) == ["Premier chapitre", "Deuxième chapitre"])
            #expect(book.chapters[0].paragraphs == ["Il était une fois, à Paris, un café très célèbre."])
        }

        @Test func damagedBooksAreClearErrors() throws {
            let book = try fixture("epub3.epub")
            #expect(throws: ArticleError.self) { try EPubReader.read(Array(book.prefix(book.count / 2))) }
            #expect(throws: ArticleError.self) { try EPubReader.read(Array("not a zip at all, just text".utf8)) }
            #expect(throws: ArticleError.self) { try EPubReader.read([]) }
            var corrupt = book
            for i in stride(from: 200, to: min(corrupt.count, 1200), by: 7) { corrupt[i] ^= 0x5A }
            #expect(throws: ArticleError.self) { try EPubReader.read(corrupt) }
        }
    }
}
