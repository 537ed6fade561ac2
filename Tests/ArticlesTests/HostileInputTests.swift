import Foundation
import Testing

@testable import Articles

extension ReaderTests {
    /// What strangers can send to the article readers, each shape found by probing the server:
    /// every one is read within its budgets or refused as too big, never a crash, a hang or
    /// gigabytes (issue 37).
    @Suite(.timeLimit(.minutes(5))) struct HostileInputTests {
        /// 50,000 nested divs killed the process (every walk of the tree recursed on its depth).
        /// Even held to the depth limit, reading it would visit each div's text 512 times: its
        /// nesting for its size is refused.
        @Test func aPageNested50000DeepIsTooBig() throws {
            let page =
                "<html><body>" + String(repeating: "<div>", count: 50_000)
                + "<p>The only paragraph of this page, long enough to be read as the article, is here at the bottom.</p></body></html>"
            #expect(throws: ArticleError.tooBig("the page nests its elements too deeply for its size")) {
                try ArticleExtractor.extract(html: Array(page.utf8))
            }
        }

        /// A page nested past the depth limit but not too much for its size is read.
        @Test func aPageNestedPastTheLimitIsReadAsBrowsersReadIt() async throws {
            let page =
                "<html><body>" + String(repeating: "<div>", count: 1_000)
                + "<p>The only paragraph of this page, long enough to be read as the article, is here at the bottom.</p></body></html>"
            let article = try await ReaderTests.offThePool { Result { try ArticleExtractor.extract(html: Array(page.utf8)) } }.get()
            #expect(article.paragraphs == ["The only paragraph of this page, long enough to be read as the article, is here at the bottom."])
        }

        /// Elements past the depth limit are added beside the deepest, as Chromium's parser does.
        @Test func noElementIsNestedPastTheLimit() throws {
            let root = try HTMLTreeBuilder.build(Array((String(repeating: "<div>", count: 2_000) + "x").utf8))
            defer { root.dispose() }
            var deepest = 0
            var pending: [(HTMLNode, Int)] = [(root, 0)]
            while let (node, depth) = pending.popLast() {
                deepest = max(deepest, depth)
                for child in node.children { pending.append((child, depth + 1)) }
            }
            #expect(deepest <= HTMLTreeBuilder.maxDepth + 2)
            #expect(root.innerText == "x")
        }

        /// 20,000 open spans then 20,000 stray end tags took 15 s (each end tag searched every
        /// open element): the work is now linear in the tokens.
        @Test func strayEndTagsSearchNothing() throws {
            var builder = HTMLTreeBuilder.Builder()
            for _ in 0..<20_000 { builder.take(.start(name: "span", attributes: [], selfClosing: false)) }
            for _ in 0..<20_000 { builder.take(.end(name: "zz")) }
            for _ in 0..<20_000 { builder.take(.end(name: "span")) }
            #expect(builder.searched <= 40_000, "open elements looked at: \(builder.searched)")
            builder.root.dispose()
            // As a page, the spans' nesting is too much for its size; stray end tags beside a
            // page's text change nothing of it.
            let spans = String(repeating: "<span>", count: 20_000) + String(repeating: "</zz>", count: 20_000)
            #expect(throws: ArticleError.tooBig("the page nests its elements too deeply for its size")) {
                try ArticleExtractor.extract(html: Array(spans.utf8))
            }
            let words = String(repeating: "Words that make a paragraph, with commas, and more. ", count: 4)
            let page = "<p>" + words + String(repeating: "</zz>", count: 20_000) + "</p>"
            #expect(try ArticleExtractor.extract(html: Array(page.utf8)).wordCount == 36)
        }

        @Test func aPageOfMillionsOfElementsIsTooBig() throws {
            let page = Array(String(repeating: "<br>", count: 400_000).utf8)
            #expect(throws: ArticleError.tooBig("the page has more than \(HTMLTreeBuilder.maxElements) elements")) {
                try ArticleExtractor.extract(html: page)
            }
        }

        /// An ePub whose spine lists one 8 MB chapter 20 times (22 KB of file) took 703 MB and
        /// stored 160 MB: every reading of a file counts against the book's budget.
        @Test func aSpineThatRepeatsAHugeChapterIsTooBig() throws {
            let chapter = "<html><body><p>" + String(repeating: "All work and no play makes a dull book. ", count: 200_000) + "</p></body></html>"
            let book = try ZIPWriter.epub(chapters: [chapter], spine: Array(repeating: 0, count: 20))
            #expect(book.count < 100_000)
            #expect(throws: ArticleError.self) { try EPubReader.read(book) }
            do {
                _ = try EPubReader.read(book)
            } catch {
                guard case .tooBig = error else {
                    Issue.record("expected too big, got \(error)")
                    return
                }
            }
        }

        @Test func aBookWithItsChapterOnceIsRead() throws {
            let chapter = "<html><body><h1>One</h1><p>It began, as books do, on the first page of the first chapter.</p></body></html>"
            let book = try EPubReader.read(try ZIPWriter.epub(chapters: [chapter], spine: [0]))
            #expect(book.chapters.map(\.title) == ["One"])
        }

        /// A file whose bytes do not match the checksum the archive stored is damaged.
        @Test func aDamagedFileInsideABookFailsItsChecksum() throws {
            let chapter = "<html><body><p>It began, as books do, on the first page of the first chapter.</p></body></html>"
            var book = try ZIPWriter.epub(chapters: [chapter], spine: [0], deflated: false)
            let at = try #require(ByteSearch.index(of: Array("first page".utf8), in: book, from: 0))
            book[at] = UInt8(ascii: "F")
            #expect(throws: ArticleError.unreadable("a damaged ZIP archive (OEBPS/c0.xhtml does not match its checksum)")) {
                try EPubReader.read(book)
            }
        }

        /// A deflated file cut short reads as far as it goes; the archive's size and checksum
        /// then say it is damaged.
        @Test func aDeflatedFileCutShortIsDamaged() throws {
            let text = String(repeating: "It began, as books do, on the first page. ", count: 500)
            let whole = try TestDeflate.raw(Array(text.utf8))
            let part = try Inflate.inflate(Array(whole.prefix(whole.count / 2)), limit: 1_000_000)
            #expect(part.count < text.utf8.count)
            #expect(Array(text.utf8).starts(with: part))
            var zip = ZIPWriter()
            zip.add("a.txt", text, deflated: true)
            var archive = try ZIPArchive(try zip.archive())
            #expect(try archive.file("a.txt") == Array(text.utf8))
        }

        @Test func aCompressedPartPastItsLimitIsTooBig() throws {
            let bomb = try TestDeflate.zlib([UInt8](repeating: 0, count: 10_000_000))
            #expect(bomb.count < 20_000)
            #expect(throws: ArticleError.tooBig("a compressed part decompresses to more than 1 MB")) {
                try Inflate.zlib(bomb, limit: 1_000_000)
            }
        }

        /// A deflated entry whose data ends inside a stored block that claims 65,535 bytes: the
        /// stream never ends and the archive has no more bytes for it. ZIPFoundation 0.9.20's
        /// extract of it on Linux was still running when killed after 20 s (its inflate loop asks
        /// for more input until the stream ends); Juke's reader says it is damaged at once.
        @Test func aDeflatedEntryThatNeverEndsIsDamaged() throws {
            let raw: [UInt8] = [0x00, 0xFF, 0xFF, 0x00, 0x00] + [UInt8](repeating: 0x78, count: 100)
            let name = Array("cut.txt".utf8)
            func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
            func u32(_ v: Int) -> [UInt8] { u16(v & 0xFFFF) + u16(v >> 16 & 0xFFFF) }
            let local =
                u32(0x0403_4B50) + u16(20) + u16(0) + u16(8) + u16(0) + u16(0) + u32(0) + u32(raw.count) + u32(65_535) + u16(name.count) + u16(0) + name + raw
            let directory =
                u32(0x0201_4B50) + u16(20) + u16(20) + u16(0) + u16(8) + u16(0) + u16(0) + u32(0) + u32(raw.count) + u32(65_535) + u16(name.count)
                + u16(0) + u16(0) + u16(0) + u16(0) + u32(0) + u32(0) + name
            let end = u32(0x0605_4B50) + u16(0) + u16(0) + u16(1) + u16(1) + u32(directory.count) + u32(local.count) + u16(0)
            var archive = try ZIPArchive(local + directory + end)
            #expect(throws: ArticleError.unreadable("a damaged ZIP archive (cut.txt does not match its checksum)")) { try archive.file("cut.txt") }
        }
    }
}
