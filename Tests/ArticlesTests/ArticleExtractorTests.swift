import Foundation
import Testing

@testable import Articles

extension ReaderTests {
    /// The readable article in web pages: the body without the page around it, its title and
    /// author, chapters at its headings, on pages written as the web writes them.
    @Suite(.timeLimit(.minutes(5))) struct ArticleExtractorTests {
        func page(_ body: String, head: String = "<title>The Title | Example News</title>") -> [UInt8] {
            Array("<!doctype html><html><head>\(head)</head><body>\(body)</body></html>".utf8)
        }

        static let prose = [
            "The first paragraph of the story, long enough to count, with a comma, and another, to score well.",
            "A second paragraph goes on with the story: it says more, at length, as articles do, for readers.",
            "The third paragraph ends it, with its own commas, clauses, and a full stop at the very end.",
        ]

        @Test func theBodyWithoutMenusCommentsOrFooters() throws {
            let html = page(
                """
                <div id="menu"><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a></div>
                <div class="sidebar"><p>Most read: a list of other stories, with many words, that must not be read aloud here.</p></div>
                <div class="article-body">
                  <h1>The Title</h1>
                  <p class="byline">By Ann Writer</p>
                  \(Self.prose.map { "<p>\($0)</p>" }.joined())
                </div>
                <div id="comments"><p>A comment, from a reader, that goes on and on about the story, and more.</p></div>
                <footer><p>Copyright Example News, all rights reserved, and other legal words at the bottom.</p></footer>
                """)
            let article = try ArticleExtractor.extract(html: html)
            #expect(article.title == "The Title")
            #expect(article.author == "Ann Writer")
            #expect(article.paragraphs.suffix(3) == Self.prose)
            #expect(!article.paragraphs.joined().contains("Most read") && !article.paragraphs.joined().contains("comment"))
            #expect(!article.paragraphs.joined().contains("Copyright"))
        }

        @Test func headingsStartChapters() throws {
            let html = page(
                """
                <article><h1>A Long Read</h1>\(Self.prose[0...1].map { "<p>\($0)</p>" }.joined())
                <h2>Part two</h2><p>\(Self.prose[2])</p><h2>Part three</h2><p>\(Self.prose[0])</p></article>
                """, head: "<meta property=\"og:title\" content=\"A Long Read\"><meta name=\"author\" content=\"By Bo Author\">")
            let article = try ArticleExtractor.extract(html: html)
            #expect(article.title == "A Long Read" && article.author == "Bo Author")
            #expect(article.chapters.map(\.title) == ["A Long Read", "Part two", "Part three"])
            #expect(article.chapters.map(\.paragraphs.count) == [2, 1, 1])
        }

        @Test func postsWrittenWithLineBreaksAndLooseText() throws {
            // Blog engines write a post as text and <br>s straight in a div, beside headings.
            let html = page(
                """
                <div class="post-body entry-content">\(Self.prose[0])<br><br><h2>A heading</h2>\(Self.prose[1])<br>
                \(Self.prose[2])<br><a href="/x">a link</a> and text after it, which is read too, at the end.</div>
                """)
            let article = try ArticleExtractor.extract(html: html)
            #expect(article.paragraphs.contains(Self.prose[0]) && article.paragraphs.contains(Self.prose[2]), "\(article.paragraphs)")
            #expect(article.chapters.map(\.title).contains("A heading"))
        }

        @Test func entitiesEncodingsAndBrokenMarkup() throws {
            let latin1 =
                Array("<html><head><meta charset=\"iso-8859-1\"><title>Caf".utf8) + [0xE9] + Array("</title></head><body><div><p>".utf8)
                + Array(String(repeating: "Un caf", count: 1).utf8) + [0xE9]
                + Array(
                    " cr&egrave;me, s&#233;rieusement, &amp; tr&egrave;s bon, bu lentement, au soleil du matin.</p><p>Une deuxi&egrave;me phrase, longue, assez longue pour compter, avec des virgules."
                        .utf8)
            let article = try ArticleExtractor.extract(html: latin1)
            #expect(article.title == "Café")
            #expect(article.paragraphs.first == "Un café crème, sérieusement, & très bon, bu lentement, au soleil du matin.")
            #expect(article.paragraphs.count == 2, "an unclosed <p> is closed by the next one")
            // Scripts and styles are not text, even with a "</p>" inside.
            let scripted = page("<div><script>var s = '<p>not text</p>'; if (a < b) {}</script><style>p { color: red }</style><p>\(Self.prose[0])</p></div>")
            #expect(try ArticleExtractor.extract(html: scripted).paragraphs == [Self.prose[0]])
        }

        @Test func pagesWithNoTextAreAClearError() {
            #expect(throws: ArticleError.noText) { try ArticleExtractor.extract(html: Array("<html><body><img src=x></body></html>".utf8)) }
            #expect(throws: ArticleError.noText) { try ArticleExtractor.extract(html: []) }
        }

        /// What a page hides is not read, as Firefox's reader view does not show it: the `hidden`
        /// attribute, `aria-hidden="true"`, inline `display: none` (menus, duplicate copies kept
        /// for scripts), and a modal dialog.
        @Test func hiddenNodesAreNotRead() throws {
            let html = page(
                """
                <div class="story">
                  <p hidden>A hidden paragraph, kept for a script, with commas, clauses, and words enough to count.</p>
                  \(Self.prose.map { "<p>\($0)</p>" }.joined())
                  <div aria-hidden="true"><p>A copy for screens only, with commas, clauses, and words enough to count.</p></div>
                  <p style="color: red; display : none !important">A paragraph styled away, with commas, and words enough to count.</p>
                  <div role="dialog" aria-modal="true"><p>Accept our cookies, and our terms, and our policies, to read on.</p></div>
                </div>
                """)
            let article = try ArticleExtractor.extract(html: html)
            #expect(article.paragraphs == Self.prose, "\(article.paragraphs)")
        }

        /// `visibility: hidden` hides as `display: none` does (Mozilla's visibility-hidden page).
        @Test func visibilityHiddenIsNotRead() throws {
            let html = page(
                """
                <article><h1>Lorem</h1>
                  <div style="visibility: hidden;"><p>Invisible words, with commas, clauses, and enough of them to count here.</p>
                    <p>More invisible words, with commas, clauses, and enough of them to count here.</p></div>
                  <div>\(Self.prose.map { "<p>\($0)</p>" }.joined())</div>
                </article>
                """)
            let article = try ArticleExtractor.extract(html: html)
            #expect(article.paragraphs == Self.prose, "\(article.paragraphs)")
            let url = try #require(Bundle.module.url(forResource: "Fixtures/readability-pages/visibility-hidden", withExtension: "html"))
            let saved = try ArticleExtractor.extract(html: Array(try Data(contentsOf: url)))
            #expect(!saved.paragraphs.joined().contains("Lorem ipsum"), "\(saved.paragraphs)")
        }

        /// A body in unusual markup: the story's text in sections of a custom element, its
        /// paragraphs separated by line breaks, beside a box with one short paragraph that used to
        /// win (only `p`, `pre`, `td` and block-less divs were scored; Readability.js scores
        /// sections and headings too).
        @Test func aBodyInSectionsOfCustomElements() throws {
            let sections = stride(from: 0, to: 3, by: 1).map { i in
                "<section>\(Self.prose[i])<br><br>\(Self.prose[(i + 1) % 3])<br><br>\(Self.prose[(i + 2) % 3])</section>"
            }
            let html = page(
                """
                <x-story-body>\(sections.joined())</x-story-body>
                <div class="teasers"><p>More stories today: the weather, the markets</p></div>
                """)
            let article = try ArticleExtractor.extract(html: html)
            #expect(article.paragraphs.count == 9 && article.paragraphs.prefix(3) == Self.prose[...], "\(article.paragraphs)")
            #expect(!article.paragraphs.joined().contains("More stories"))
        }

        /// Saved pages of real sites (Mozilla's Readability test pages): the article's opening
        /// words are found, and the page's chrome is not read.
        @Test(arguments: [
            ("bbc-1", "President Barack Obama has admitted", "BBC"),
            ("nytimes-1", "LONDON — After nearly 20 years of hostile relations", "Advertisement"),
            ("ars-1", "A flaw in the wildly popular online game", "Sign up for the"),
            ("wikipedia", "Mozilla is a free-software community", "Navigation menu"),
            ("blogger", "I've written a couple of posts in the past few months", "Blog Archive"),
            // Pages that gave almost nothing before Readability.js's newer rules (issue 37): a
            // review whose opening sits apart from its body, an article split among sections,
            // and one behind a cookie notice.
            ("engadget", "The Xbox One X is the ultimate video game system", "Comments"),
            ("quanta-1", "A little over half a century ago, chaos started spilling out", "Comment"),
            ("medicalnewstoday", "Neuroscience tells us that most of the work done by our brains", "We use cookies"),
        ])
        func savedPages(name: String, opening: String, chrome: String) throws {
            let url = try #require(Bundle.module.url(forResource: "Fixtures/readability-pages/\(name)", withExtension: "html"))
            let article = try ArticleExtractor.extract(html: Array(try Data(contentsOf: url)))
            let text = article.paragraphs.joined(separator: "\n")
            #expect(text.contains(opening), "\(name): \(text.prefix(300))")
            #expect(!article.paragraphs.contains { $0.hasPrefix(chrome) }, "\(name)")
            #expect(article.wordCount > 150)
        }
    }

    /// Plain text files: paragraphs at blank lines, chapters at headings, the first line a title.
    @Suite(.timeLimit(.minutes(5))) struct TextArticleTests {
        @Test func paragraphsChaptersAndTitle() throws {
            let text = "The Storm\n\nCHAPTER I\n\nIt was a dark\nand stormy night.\n\nThe rain fell.\n\nChapter 2: Morning\n\nThe sun rose.\n"
            let article = try TextArticle.read(Array(text.utf8), name: "storm.txt")
            #expect(article.title == "The Storm")
            #expect(article.chapters.map(\.title) == ["CHAPTER I", "Chapter 2: Morning"])
            #expect(article.chapters[0].paragraphs == ["It was a dark and stormy night.", "The rain fell."])
        }

        @Test func noHeadingsIsOneChapterNamedAfterTheFile() throws {
            let article = try TextArticle.read(Array("Just one line of text.\r\n".utf8), name: "note.txt")
            #expect(article.title == "note" && article.chapters.map(\.paragraphs) == [["Just one line of text."]])
            #expect(throws: ArticleError.noText) { try TextArticle.read(Array(" \n\n \t".utf8), name: "empty.txt") }
        }
    }
}
