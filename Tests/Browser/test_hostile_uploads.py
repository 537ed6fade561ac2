"""What a stranger can upload, against a real `juke serve` (issue 37): every shape that once
took the server down or starved it is refused as too big, damaged or not what it claims, the
server's memory stays under its stated ceiling while it reads them, and /health and sign-in
answer while the worst of them are being read two at a time."""
import concurrent.futures
import io
import json
import os
import tempfile
import threading
import urllib.error
import urllib.request
import zipfile
import zlib

import pytest

from conftest import JUKE, JukeServer, request

# The server's stated ceiling while it reads every input below (docs/PERFORMANCE.md): the
# resident peak of the whole process, its demo library off. Each reader is held to its own
# budgets, and the reading pool reads two at a time.
MEMORY_CEILING_MB = 512


def upload(base, token, path, body):
    req = urllib.request.Request(base + path, data=body, method="POST")
    req.add_header("Content-Type", "application/octet-stream")
    req.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        raw = e.read()
        return e.code, json.loads(raw) if raw else None


def pdf(objects, root=1):
    """A PDF of numbered objects (1...), found by Juke's object scan and poppler's repair."""
    out = b"%PDF-1.4\n"
    for number, body in enumerate(objects, 1):
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    return out + b"trailer\n<< /Root %d 0 R >>\n%%%%EOF\n" % root


def stream(data, extra=b""):
    return b"<< /Length %d %s>>\nstream\n" % (len(data), extra) + data + b"\nendstream"


def page_tree(contents, resources=b""):
    return [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents " + contents + b" " + resources + b">>",
    ]


def repeated_stream_pdf():
    """A 61 KB PDF whose page lists one 60 MB Flate stream 30 times (2 GB resident, 35 s)."""
    zeros = zlib.compress(b"\0" * 60_000_000, 9)
    return pdf(page_tree(b"[" + b"4 0 R " * 30 + b"]") + [stream(zeros, b"/Filter /FlateDecode ")])


def open_objects_pdf():
    """`1 0 obj [ ` 20,000 times (270 s: the object scan was quadratic)."""
    return b"%PDF-1.4\n" + b"1 0 obj [ " * 20_000


def bfrange_pdf():
    """A ToUnicode map whose bfrange lines expand to 12.7 M entries from 5.8 KB (1 GB)."""
    ranges = b"".join(b"<%04X0000> <%04XFFFF> <0041>\n" % (n, n) for n in range(194))
    cmap = b"begincmap\n194 beginbfrange\n" + ranges + b"endbfrange\nendcmap\n"
    content = b"BT /F1 12 Tf 72 720 Td <00410042> Tj ET"
    return pdf(
        page_tree(b"5 0 R", b"/Resources << /Font << /F1 4 0 R >> >> ")
        + [b"<< /Type /Font /Subtype /Type0 /BaseFont /X /ToUnicode 6 0 R >>", stream(content), stream(cmap)]
    )


def repeated_chapter_epub():
    """An ePub whose spine lists one 8 MB chapter 20 times (22 KB; 703 MB resident)."""
    chapter = "<html><body><p>" + "All work and no play makes a dull book. " * 200_000 + "</p></body></html>"
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as book:
        book.writestr("mimetype", "application/epub+zip", compress_type=zipfile.ZIP_STORED)
        book.writestr(
            "META-INF/container.xml",
            '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">'
            '<rootfiles><rootfile full-path="content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
        )
        book.writestr(
            "content.opf",
            '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata/>'
            '<manifest><item id="c" href="c.xhtml" media-type="application/xhtml+xml"/></manifest>'
            "<spine>" + '<itemref idref="c"/>' * 20 + "</spine></package>",
        )
        book.writestr("c.xhtml", chapter, compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
    return out.getvalue()


DEEP_HTML = b"<html><body>" + b"<div>" * 50_000 + b"<p>text</p></body></html>"
STRAY_HTML = b"<span>" * 20_000 + b"</zz>" * 20_000
STRAY_TCX = b"<TrainingCenterDatabase>" + b"<span>" * 20_000 + b"</zz>" * 20_000

# Each shape found by the probe, where it is sent, and what the refusal must say.
ARTICLE_FILES = "/api/v1/dual/articles/files?filename="
SHAPES = [
    ("deep.html", ARTICLE_FILES + "deep.html", lambda: DEEP_HTML, "too big"),
    ("stray.html", ARTICLE_FILES + "stray.html", lambda: STRAY_HTML, "too big"),
    ("repeated-stream.pdf", ARTICLE_FILES + "repeated.pdf", repeated_stream_pdf, "too big"),
    ("open-objects.pdf", ARTICLE_FILES + "open.pdf", open_objects_pdf, "damaged"),
    ("bfrange.pdf", ARTICLE_FILES + "bfrange.pdf", bfrange_pdf, "too big"),
    ("repeated-chapter.epub", ARTICLE_FILES + "book.epub", repeated_chapter_epub, "too big"),
    ("stray.tcx", "/api/v1/runbeat/workouts/files?filename=stray.tcx", lambda: STRAY_TCX, "nested more than 64 deep"),
]


def peak_resident_mb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmHWM")


@pytest.fixture(scope="module")
def bare_server():
    """A server of its own, without the demo library, so its memory is the readers'."""
    with tempfile.TemporaryDirectory(prefix="juke-hostile-") as folder:
        s = JukeServer(folder, demo=False)
        status, account = request(s.base, "POST", "/api/v1/auth/register", {"username": "stranger", "password": "stranger password"})
        assert status == 201, account
        s.token = account["token"]
        yield s
        s.stop()


@pytest.mark.parametrize("name,path,make,says", SHAPES, ids=[shape[0] for shape in SHAPES])
def test_each_shape_is_refused_clearly(bare_server, name, path, make, says):
    body = make()
    assert len(body) < 300_000, f"{name} is a small file ({len(body)} bytes)"
    status, answer = upload(bare_server.base, bare_server.token, path, body)
    assert status == 422, (name, status, answer)
    assert says in answer["message"], answer
    assert bare_server.process.poll() is None, "the server is still up"


def test_a_program_named_mp3_is_neither_a_book_nor_a_song(bare_server):
    with open(JUKE, "rb") as program:
        body = program.read(200_000)
    for route in ("/api/v1/dual/books?filename=x.mp3", "/api/v1/dual/songs?filename=x.mp3"):
        status, answer = upload(bare_server.base, bare_server.token, route, body)
        assert 400 <= status < 500, (route, status, answer)
        assert "audio" in answer["message"].lower() or "mp3" in answer["message"].lower(), answer
    assert request(bare_server.base, "GET", "/api/v1/dual/books", token=bare_server.token)[1]["items"] == []


def test_the_server_answers_and_keeps_its_ceiling_while_it_reads_them_all(bare_server):
    bodies = [(path, make()) for _, path, make, _ in SHAPES]
    stop = threading.Event()
    health = []

    def poll():
        while not stop.is_set():
            status, _ = request(bare_server.base, "GET", "/health")
            health.append(status)
            signed = request(bare_server.base, "GET", "/api/v1/auth/me", token=bare_server.token)[0]
            health.append(signed)

    poller = threading.Thread(target=poll)
    poller.start()
    try:
        # Every shape three times, four uploads at once: two are read, the rest wait in line.
        with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
            answers = list(pool.map(lambda job: upload(bare_server.base, bare_server.token, *job), bodies * 3))
    finally:
        stop.set()
        poller.join()
    assert all(status in (422, 503) for status, _ in answers), [status for status, _ in answers]
    assert health and all(status == 200 for status in health), set(health)
    peak = peak_resident_mb(bare_server.process.pid)
    print(f"peak resident: {peak:.0f} MB (ceiling {MEMORY_CEILING_MB} MB)")
    assert peak < MEMORY_CEILING_MB
