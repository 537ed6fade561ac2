import Testing

@testable import Articles

extension ReaderTests {
    /// Shapes from IDPF's ePub 3 samples that Juke refused or misread: fixed-layout pages set as SVG
    /// text (sous-le-vent, inline and as the spine's own documents) and images in the spine with an
    /// XHTML fallback (haruko-jpeg), built here with the same layout.
    @Suite(.timeLimit(.minutes(5))) struct EPubSamplesTests {
        static let container =
            #"<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="EPUB/package.opf" media-type="application/oebps-package+xml"/></rootfiles></container>"#

        static func book(items: String, spine: String, files: [(String, String)]) throws -> [UInt8] {
            var zip = ZIPWriter()
            zip.add("mimetype", "application/epub+zip")
            zip.add("META-INF/container.xml", container)
            zip.add(
                "EPUB/package.opf",
                #"<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Sous le vent</dc:title></metadata><manifest>\#(items)</manifest><spine>\#(spine)</spine></package>"#,
                deflated: true)
            for (name, text) in files { zip.add("EPUB/\(name)", text, deflated: true) }
            return try zip.archive()
        }

        static let svgPage = """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 368 581"><title>Sous le Vent, page 5</title><desc>Biographie des auteurs.</desc>
            <style type="text/css"><![CDATA[.ps00 {fill:#221F1F;}]]></style><g id="surface1">
            <text transform="matrix(1 0 0 1 60 100)"><tspan x="0" y="0">Jean-Bernard Pouy, né en 1946, est l’auteur</tspan>
            <tspan x="-12" y="15.25">de plus de soixante-dix romans noirs.</tspan></text>
            <text transform="matrix(1 0 0 1 60 300)"><tspan x="0" y="0">Patrick Raynal est né</tspan><tspan x="0" y="15">à Nice.</tspan></text>
            </g></svg>
            """

        @Test func pagesSetAsInlineSVGAreReadByTheirText() throws {
            let page =
                #"<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>Sous le vent</title></head><body><div class="page">\#(Self.svgPage)</div></body></html>"#
            let epub = try Self.book(
                items: #"<item id="ch5" href="Content/pageNum-5.xhtml" properties="svg" media-type="application/xhtml+xml"/>"#,
                spine: #"<itemref idref="ch5"/>"#, files: [("Content/pageNum-5.xhtml", page)])
            let book = try EPubReader.read(epub)
            #expect(
                book.chapters.flatMap(\.paragraphs) == [
                    "Jean-Bernard Pouy, né en 1946, est l’auteur de plus de soixante-dix romans noirs.", "Patrick Raynal est né à Nice.",
                ], "a paragraph per text element, its lines joined; the title, description and style not read")
        }

        @Test func svgDocumentsInTheSpineAreReadByTheirText() throws {
            let epub = try Self.book(
                items: #"<item id="ch5" href="Content/pageNum-5.svg" media-type="image/svg+xml"/>"#,
                spine: #"<itemref idref="ch5"/>"#, files: [("Content/pageNum-5.svg", #"<?xml version="1.0" encoding="UTF-8"?>"# + Self.svgPage)])
            let book = try EPubReader.read(epub)
            #expect(book.chapters.flatMap(\.paragraphs).count == 2)
            #expect(book.chapters.first?.paragraphs.last == "Patrick Raynal est né à Nice.")
        }

        @Test func imagesInTheSpineAreReadByTheirFallbackOnceNeverAsText() throws {
            var items = #"<item id="fallback" href="xhtml/fallback.xhtml" media-type="application/xhtml+xml"/>"#
            var spine = ""
            var files = [
                ("xhtml/fallback.xhtml", #"<html xmlns="http://www.w3.org/1999/xhtml"><body><h1>Haruko</h1><p>Just a little curiosity.</p></body></html>"#)
            ]
            for page in 1...3 {
                items += #"<item id="j\#(page)" href="images/\#(page).jpg" fallback="fallback" media-type="image/jpeg"/>"#
                spine += #"<itemref idref="j\#(page)"/>"#
                files.append(("images/\(page).jpg", "\u{FF}\u{D8}\u{FF}\u{E0} JFIF not text at all"))
            }
            // An image without a fallback, and a fallback chain that loops, are left out.
            items +=
                #"<item id="plain" href="images/plain.jpg" media-type="image/jpeg"/><item id="a" href="images/a.png" fallback="b" media-type="image/png"/><item id="b" href="images/b.png" fallback="a" media-type="image/png"/>"#
            spine += #"<itemref idref="plain"/><itemref idref="a"/>"#
            files += [("images/plain.jpg", "JFIF noise"), ("images/a.png", "PNG noise"), ("images/b.png", "PNG noise")]
            let book = try EPubReader.read(try Self.book(items: items, spine: spine, files: files))
            #expect(book.chapters.map(\.title) == ["Haruko"])
            #expect(book.chapters.flatMap(\.paragraphs) == ["Just a little curiosity."])
        }

        @Test func aBookOfImagesOnlyHasNoText() throws {
            let epub = try Self.book(
                items: #"<item id="p1" href="images/1.jpg" media-type="image/jpeg"/>"#, spine: #"<itemref idref="p1"/>"#,
                files: [("images/1.jpg", "JFIF noise that is not a page")])
            #expect(throws: ArticleError.noText) { try EPubReader.read(epub) }
        }
    }
}
