#!/usr/bin/env python3
"""Writes the small ePub fixtures of Tests/ArticlesTests/Fixtures/books (Python's zipfile and
zlib, as real ePub tools write them: mimetype stored first, the rest deflated):
- epub3.epub: ePub 3 with a nav document, a cover page without text, two chapters (one title
  only in the nav, one in its heading), percent-encoded and ../ hrefs, a non-linear item;
- epub2.epub: ePub 2 with an NCX table of contents and Latin-1 declared XHTML;
- core-fonts.pdf (fpdf2, Helvetica in WinAnsi, compressed, an outline of two chapters over
  three pages, paragraphs wrapped into lines) and unicode.pdf (fpdf2, DejaVu Sans embedded as a
  composite font with a ToUnicode map, no outline: a chapter per page); made only where fpdf2
  is installed (Scripts/tools-venv.sh fpdf=fpdf2), as the test command's tools are;
- deflate.bin / deflate.txt: a text of every byte kind and its raw DEFLATE (level 9), to check
  Juke's inflater byte for byte against zlib's."""
import os
import zlib
import zipfile

HERE = os.path.join(os.path.dirname(__file__), "..", "Tests", "ArticlesTests", "Fixtures", "books")
os.makedirs(HERE, exist_ok=True)

CONTAINER = """<?xml version="1.0"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
</container>"""


def write(name, files):
    path = os.path.join(HERE, name)
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip", compress_type=zipfile.ZIP_STORED)
        for file, text in files:
            z.writestr(file, text.encode(text_encoding(text)), compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)


def text_encoding(text):
    return "latin-1" if 'encoding="ISO-8859-1"' in text else "utf-8"


def xhtml(title, body, encoding="UTF-8"):
    return f"""<?xml version="1.0" encoding="{encoding}"?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>{title}</title></head>
<body>{body}</body></html>"""


write("epub3.epub", [
    ("META-INF/container.xml", CONTAINER),
    ("OEBPS/content.opf", """<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:identifier id="id">urn:uuid:1</dc:identifier><dc:title>The Small Book</dc:title><dc:creator>Ann Author</dc:creator>
  </metadata>
  <manifest>
    <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
    <item id="cover" href="text/cover.xhtml" media-type="application/xhtml+xml"/>
    <item id="c1" href="text/chapter%20one.xhtml" media-type="application/xhtml+xml"/>
    <item id="c2" href="text/../text/two.xhtml" media-type="application/xhtml+xml"/>
    <item id="notes" href="text/notes.xhtml" media-type="application/xhtml+xml"/>
  </manifest>
  <spine><itemref idref="cover"/><itemref idref="c1"/><itemref idref="c2"/><itemref idref="notes" linear="no"/></spine>
</package>"""),
    ("OEBPS/nav.xhtml", xhtml("Contents", """<nav epub:type="toc"><ol>
<li><a href="text/chapter%20one.xhtml">One: The Beginning</a></li><li><a href="text/two.xhtml#start">Two</a></li></ol></nav>""")),
    ("OEBPS/text/cover.xhtml", xhtml("Cover", '<div><img src="../cover.jpg" alt="Cover"/></div>')),
    ("OEBPS/text/chapter one.xhtml", xhtml("One", "<p>It began on a Tuesday, as most things do, with rain.</p><p>Nobody noticed &amp; nobody minded.</p>")),
    ("OEBPS/text/two.xhtml", xhtml("Two", "<h2>The Middle</h2><p>Then it went on, for a while, in the middle.</p><h3>A scene</h3><p>And it ended.</p>")),
    ("OEBPS/text/notes.xhtml", xhtml("Notes", "<p>Notes nobody reads aloud.</p>")),
])

write("epub2.epub", [
    ("META-INF/container.xml", CONTAINER),
    ("OEBPS/content.opf", """<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="2.0" unique-identifier="id">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:opf="http://www.idpf.org/2007/opf">
    <dc:title>Le Petit Livre</dc:title><dc:creator opf:role="aut">Émile Auteur</dc:creator>
  </metadata>
  <manifest>
    <item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>
    <item id="a" href="a.html" media-type="application/xhtml+xml"/>
    <item id="b" href="b.html" media-type="application/xhtml+xml"/>
  </manifest>
  <spine toc="ncx"><itemref idref="a"/><itemref idref="b"/></spine>
</package>"""),
    ("OEBPS/toc.ncx", """<?xml version="1.0" encoding="UTF-8"?>
<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1"><navMap>
<navPoint id="p1" playOrder="1"><navLabel><text>Premier chapitre</text></navLabel><content src="a.html"/></navPoint>
<navPoint id="p2" playOrder="2"><navLabel><text>Deuxième chapitre</text></navLabel><content src="b.html#x"/></navPoint>
</navMap></ncx>"""),
    ("OEBPS/a.html", xhtml("A", "<p>Il était une fois, à Paris, un café très célèbre.</p>", encoding="ISO-8859-1")),
    ("OEBPS/b.html", xhtml("B", "<p>Fin de l’histoire.</p>")),
])

text = ("The quick brown fox jumps over the lazy dog. " * 40 + "".join(chr(c) for c in range(32, 0x2000, 7)) + "\n" + "aaaa" * 3000).encode("utf-8")
with open(os.path.join(HERE, "deflate.txt"), "wb") as f:
    f.write(text)
compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
with open(os.path.join(HERE, "deflate.bin"), "wb") as f:
    f.write(compressor.compress(text) + compressor.flush())
try:
    from fpdf import FPDF
except ImportError:
    FPDF = None

PARAGRAPHS = [
    "The lighthouse stood at the end of the point, white against the grey sky, and had stood there for a hundred years.",
    "Every evening the keeper climbed its stairs, one hundred and twelve of them, to light the lamp above the sea.",
    "Ships passed in the dark. None of them knew his name, but all of them knew his light, and steered by it, café or no café.",
]

if FPDF:
    pdf = FPDF()
    pdf.set_title("The Lighthouse")
    pdf.set_author("Ann Author")
    pdf.set_font("Helvetica", size=12)
    for chapter, pages in (("The Keeper", 2), ("The Storm", 1)):
        pdf.add_page()
        pdf.start_section(chapter)
        for page in range(pages):
            if page:
                pdf.add_page()
            for paragraph in PARAGRAPHS:
                pdf.multi_cell(0, 7, paragraph, new_x="LMARGIN", new_y="NEXT")
                pdf.ln(5)
    pdf.output(os.path.join(HERE, "core-fonts.pdf"))

    font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    if os.path.exists(font):
        pdf = FPDF()
        pdf.set_title("Ünïcödé Storïes")
        pdf.add_font("DejaVu", fname=font)
        pdf.set_font("DejaVu", size=12)
        for text in ("Il était une fois, à Paris, un café très célèbre — “ouvert” jour et nuit.", "Καλημέρα κόσμε. Привет, мир. Ende."):
            pdf.add_page()
            pdf.multi_cell(0, 7, text, new_x="LMARGIN", new_y="NEXT")
        pdf.output(os.path.join(HERE, "unicode.pdf"))

print("written to", os.path.normpath(HERE))
