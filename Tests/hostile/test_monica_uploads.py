"""Hostile uploads to /api: POST /api/documents (multipart: contact_id and a `document` file), POST
/api/photos (a `photo` file, or a `data` URL) and PUT|PATCH /api/contacts/{id}/avatar (source photo
with a `photo` file or a `data` URL). Malformed multipart bodies, bodies past 10 MiB + 64 KiB, files
that are not what they claim, names that are paths or carry control characters: never a 5xx, the
right 4xx, and nothing kept after a refusal (the account's documents and photos stay empty, the
contact's avatar stays its initials).

Every test runs on the module's shared server (conftest's `server`), each with a fresh account."""

import base64
import re
import socket
import time

import pytest

from cases import PNG, PNG_DATA_URL, contact_body
from conftest import Hostile
from kith_hostile import STATUS_LINE, raw_request, wait_closed

BOUNDARY = "hostileBoundary7MA4YWxkTrZu0gW"
MULTIPART = f"multipart/form-data; boundary={BOUNDARY}"
LARGEST_FILE = 10 * 1024 * 1024  # Monica's max_upload_size: 10,240 KB
LARGEST_BODY = LARGEST_FILE + 64 * 1024
ONE_MIB = 1024 * 1024
HTML = b"<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>"
SVG = (b'<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="1" height="1">'
       b'<script>alert(document.cookie)</script></svg>')
UPLOAD_ROUTES = [("POST", "/api/documents", "document"), ("POST", "/api/photos", "photo"),
                 ("PUT", "/api/contacts/{contact}/avatar", "photo")]


def part(headers: bytes, body: bytes) -> tuple:
    return headers, body


def field(name: str, value) -> tuple:
    return b'Content-Disposition: form-data; name="%s"' % name.encode(), str(value).encode()


def file_part(name: str, filename: bytes, data: bytes, content_type: bytes = b"application/octet-stream") -> tuple:
    return (b'Content-Disposition: form-data; name="%s"; filename="%s"\r\nContent-Type: %s'
            % (name.encode(), filename, content_type), data)


def multipart(parts, boundary: str = BOUNDARY, close: bool = True, line_end: bytes = b"\r\n") -> bytes:
    """A multipart/form-data body written by hand, so that it can be wrong."""
    dash = b"--" + boundary.encode()
    out = b""
    for headers, body in parts:
        out += dash + line_end + headers.replace(b"\r\n", line_end) + line_end + line_end + body + line_end
    if close:
        out += dash + b"--" + line_end
    return out


class Uploader:
    """A fresh account with one contact, and what it keeps."""

    def __init__(self, client):
        self.client = client
        self.contact = client.post("/api/contacts", json=contact_body(first_name="Uploader")).json()["data"]["id"]

    def path(self, route: str) -> str:
        return route.replace("{contact}", str(self.contact))

    def send(self, method: str, route: str, body: bytes, content_type: str = MULTIPART, **kwargs):
        return self.client.request(method, self.path(route), data=body, headers={"Content-Type": content_type},
                                   **kwargs)

    def upload(self, route: str, name: str, filename: bytes, data: bytes, extra=(), method: str = None):
        """A well-formed multipart upload of one file (with contact_id, or source=photo for the avatar)."""
        fields = [field("source", "photo")] if "avatar" in route else [field("contact_id", self.contact)]
        body = multipart(fields + list(extra) + [file_part(name, filename, data)])
        return self.send(method or ("PUT" if "avatar" in route else "POST"), route, body)

    def kept(self) -> dict:
        """How many documents and photos the account has, and its contact's avatar source."""
        counts = {}
        for path in ("/api/documents", "/api/photos", f"/api/contacts/{self.contact}/documents",
                     f"/api/contacts/{self.contact}/photos"):
            answer = self.client.get(path)
            assert answer.status_code == 200, f"{path}: {answer.status_code} {answer.text[:200]}"
            counts[path] = answer.json()["meta"]["total"]
        contact = self.client.get(f"/api/contacts/{self.contact}").json()["data"]
        counts["avatar"] = contact["information"]["avatar"]["source"]
        return counts

    def assert_nothing_kept(self, why: str):
        kept = self.kept()
        assert kept == {"/api/documents": 0, "/api/photos": 0, f"/api/contacts/{self.contact}/documents": 0,
                        f"/api/contacts/{self.contact}/photos": 0, "avatar": "default"}, f"after {why}: {kept}"


@pytest.fixture
def uploader(api) -> Uploader:
    return Uploader(api)


def assert_refused(answer, statuses=(422,), why=""):
    assert answer.status_code in statuses, f"{why}: {answer.status_code} {answer.text[:300]}"
    if answer.status_code == 422:
        assert answer.json()["error"]["error_code"] == 32, answer.text[:300]


# --- malformed multipart bodies --------------------------------------------------------------------

def _malformed_bodies(contact: int, name: str) -> list:
    """(why, body, content type): none of them can be read as a form with a file in it."""
    good = [field("contact_id", contact), field("source", "photo"), file_part(name, b"a.png", PNG, b"image/png")]
    body = multipart(good)
    long_boundary = "b" * 71
    many = [field(f"f{i}", i) for i in range(1999)] + [file_part(name, b"a.png", PNG, b"image/png")]
    padded = part(b'Content-Disposition: form-data; name="contact_id"\r\nX-Padding: ' + b"p" * (9 * 1024), b"1")
    inner = multipart([file_part("inner", b"a.png", PNG, b"image/png")], boundary="innerBoundary")
    return [
        ("no boundary", body, "multipart/form-data"),
        ("an empty boundary", body, "multipart/form-data; boundary="),
        ("an empty quoted boundary", body, 'multipart/form-data; boundary=""'),
        ("a wrong boundary", body, "multipart/form-data; boundary=notTheOneInTheBody"),
        ("a boundary that is a prefix of the body's", body, f"multipart/form-data; boundary={BOUNDARY[:-3]}"),
        ("a boundary ending in a space", body, f'multipart/form-data; boundary="{BOUNDARY} "'),
        ("a non-ASCII boundary", multipart(good, boundary="b\u00e9b"), "multipart/form-data; boundary=b\u00e9b"),
        ("a 71-character boundary", multipart(good, boundary=long_boundary),
         f"multipart/form-data; boundary={long_boundary}"),
        ("truncated in the file", body[:-(len(BOUNDARY) + 40)], MULTIPART),
        ("truncated before the closing boundary", multipart(good, close=False), MULTIPART),
        ("truncated in a part's headers", body[:body.index(b"filename") + 5], MULTIPART),
        ("truncated after the first boundary line", body[:len(BOUNDARY) + 4], MULTIPART),
        ("only the closing boundary", b"--" + BOUNDARY.encode() + b"--\r\n", MULTIPART),
        ("empty", b"", MULTIPART),
        ("JSON", b'{"contact_id": 1}', MULTIPART),
        ("2,000 parts", multipart(many), MULTIPART),
        ("a 9 KiB part header", multipart([padded] + good[1:]), MULTIPART),
        ("a part without Content-Disposition", multipart([part(b"Content-Type: text/plain", b"x")] + good), MULTIPART),
        ("a part without a name", multipart([part(b"Content-Disposition: form-data", b"x")] + good), MULTIPART),
        ("a header line without a colon", multipart([part(b'Content-Disposition: form-data; name="a"\r\nnocolon',
                                                          b"x")] + good), MULTIPART),
        ("a part with no blank line after its headers",
         b"--%s\r\nContent-Disposition: form-data; name=\"a\"\r\n--%s--\r\n" % (BOUNDARY.encode(), BOUNDARY.encode()),
         MULTIPART),
        ("a raw LF in a filename", multipart(good[:2] + [file_part(name, b"a\nb.png", PNG, b"image/png")]),
         MULTIPART),
        ("a raw CRLF in a filename", multipart(good[:2] + [file_part(name, b"a\r\nX-Evil: 1\r\n.png", PNG)]),
         MULTIPART),
        ("nested multipart instead of a file",
         multipart(good[:2] + [part(b'Content-Disposition: form-data; name="%s"\r\n'
                                    b"Content-Type: multipart/mixed; boundary=innerBoundary" % name.encode(), inner)]),
         MULTIPART),
        ("the file as a field", multipart(good[:2] + [part(b'Content-Disposition: form-data; name="%s"'
                                                           % name.encode(), PNG)]), MULTIPART),
        ("an empty filename (no file chosen)", multipart(good[:2] + [file_part(name, b"", b"")]), MULTIPART),
        ("random bytes", bytes(range(256)) * 8, MULTIPART),
    ]


@pytest.mark.parametrize("method,route,name", UPLOAD_ROUTES, ids=[r for _, r, _ in UPLOAD_ROUTES])
def test_malformed_multipart_bodies_are_422_and_keep_nothing(uploader, method, route, name):
    problems = []
    for why, body, content_type in _malformed_bodies(uploader.contact, name):
        answer = uploader.send(method, route, body, content_type=content_type)
        if answer.status_code != 422 or answer.json().get("error", {}).get("error_code") != 32:
            problems.append(f"{why}: {answer.status_code} {answer.text[:200]}")
    assert not problems, "\n".join(problems)
    uploader.assert_nothing_kept(f"malformed bodies to {route}")


@pytest.mark.parametrize("method,route,name", UPLOAD_ROUTES, ids=[r for _, r, _ in UPLOAD_ROUTES])
def test_well_formed_edges_of_multipart_are_read(uploader, method, route, name):
    """The other side of each limit: 70 characters of boundary, 1,000 parts, a header under 8 KiB,
    bare LF line ends, a preamble and an epilogue are all read."""
    fields = [field("contact_id", uploader.contact), field("source", "photo")]
    png = file_part(name, b"a.png", PNG, b"image/png")
    boundary = "c" * 70
    header = part(b'Content-Disposition: form-data; name="x"\r\nX-Padding: ' + b"p" * 7000, b"1")
    bodies = [
        ("a 70-character boundary", multipart(fields + [png], boundary=boundary),
         f'multipart/form-data; BOUNDARY="{boundary}"'),
        ("1,000 parts", multipart([field(f"f{i}", i) for i in range(997)] + fields + [png]), MULTIPART),
        ("a 7 KiB part header", multipart([header] + fields + [png]), MULTIPART),
        ("bare LF line ends", multipart(fields + [png], line_end=b"\n"), MULTIPART),
        ("a preamble and an epilogue", b"preamble\r\n" + multipart(fields + [png]) + b"epilogue\r\n--x--", MULTIPART),
    ]
    for why, body, content_type in bodies:
        answer = uploader.send(method, route, body, content_type=content_type)
        assert answer.status_code in (200, 201), f"{why}: {answer.status_code} {answer.text[:300]}"
    kept = uploader.kept()
    assert kept["/api/photos" if name == "photo" else "/api/documents"] == len(bodies)
    if "avatar" in route:
        assert kept["avatar"] == "photo"


def test_a_nested_multipart_file_is_kept_as_the_bytes_it_is(uploader):
    """A part that is itself multipart is a file like any other: kept byte for byte, as an
    octet-stream or text, never unpacked; as a photo it is no image."""
    inner = multipart([file_part("inner", b"evil.html", HTML, b"text/html")], boundary="innerBoundary")
    nested = file_part("document", b"nested.eml", inner, b"multipart/mixed; boundary=innerBoundary")
    answer = uploader.send("POST", "/api/documents", multipart([field("contact_id", uploader.contact), nested]))
    assert answer.status_code == 201, answer.text[:300]
    document = answer.json()["data"]
    assert document["filesize"] == len(inner)
    assert not document["mime_type"].startswith(("multipart/", "text/html")), document
    download = uploader.client.get(f"/api/documents/{document['id']}/download")
    assert download.status_code == 200 and download.content == inner
    answer = uploader.send("POST", "/api/photos", multipart(
        [field("contact_id", uploader.contact), file_part("photo", b"nested.png", inner, b"image/png")]))
    assert_refused(answer, why="a nested multipart photo")
    assert uploader.kept()["/api/photos"] == 0


# --- names ---------------------------------------------------------------------------------------

HOSTILE_FILENAMES = [
    b"a\x00b.txt", b"a\rb.txt", b"../../etc/passwd", b"..\\..\\windows\\win.ini", b"/etc/passwd", b"C:\\boot.ini",
    b"..", b".", b"/", b"\x00", b"a" * 1000 + b".txt", b"\xff\xfe.txt", b"\x1b[31mred\x1b[0m.txt",
    b"<script>alert(1)</script>.html", b"a\";b=c.txt", b"%2e%2e%2fetc%2fpasswd", b"\xe2\x80\xaetxt.exe",
]
EXTENDED_FILENAMES = [  # filename*=… (RFC 8187), where percent-escapes can name any byte
    b"UTF-8''..%2F..%2Fetc%2Fpasswd", b"UTF-8''a%00b.txt", b"UTF-8''a%0D%0AX-Evil%3A%201.txt", b"UTF-8''%FF%FE",
    b"UTF-8''%", b"ISO-8859-1''%E9t%E9.txt", b"x-unknown''a.txt",
]


def _assert_safe_name(document: dict, why: str):
    name = document["original_filename"]
    assert name and len(name) <= 255, f"{why}: {name!r}"
    assert not set(name) & {"/", "\\", "\x00", "\r", "\n"}, f"{why}: {name!r}"
    assert all(ord(c) >= 0x20 and ord(c) != 0x7F for c in name), f"{why}: {name!r}"
    assert re.fullmatch(r"(documents|photos)/[0-9a-f-]{36}\.[a-z0-9]+", document["new_filename"]), document


def test_hostile_filenames_are_kept_as_plain_names(uploader):
    problems = []
    for filename in HOSTILE_FILENAMES:
        answer = uploader.upload("/api/documents", "document", filename, b"plain text")
        if answer.status_code != 201:
            problems.append(f"{filename[:40]!r}: {answer.status_code} {answer.text[:200]}")
            continue
        document = answer.json()["data"]
        _assert_safe_name(document, repr(filename[:40]))
        download = uploader.client.get(f"/api/documents/{document['id']}/download")
        assert download.status_code == 200 and download.content == b"plain text", filename
        disposition = download.headers["Content-Disposition"]
        assert disposition.startswith("attachment;") and "\r" not in disposition and "\n" not in disposition
    for extended in EXTENDED_FILENAMES:
        headers = b'Content-Disposition: form-data; name="document"; filename="fallback.txt"; filename*=' + extended
        answer = uploader.send("POST", "/api/documents", multipart(
            [field("contact_id", uploader.contact), part(headers, b"plain text")]))
        if answer.status_code != 201:
            problems.append(f"filename*={extended!r}: {answer.status_code} {answer.text[:200]}")
            continue
        _assert_safe_name(answer.json()["data"], f"filename*={extended!r}")
    assert not problems, "\n".join(problems)
    assert uploader.kept()["/api/documents"] == len(HOSTILE_FILENAMES) + len(EXTENDED_FILENAMES)
    listed = uploader.client.get("/api/documents", params={"limit": 100}).json()["data"]
    for document in listed:
        _assert_safe_name(document, "listed")


# --- what the bytes are ------------------------------------------------------------------------------

NOT_IMAGES = [
    ("HTML named .png", b"a.png", HTML, b"image/png"),
    ("SVG", b"a.svg", SVG, b"image/svg+xml"),
    ("SVG named .png", b"a.png", SVG, b"image/png"),
    ("an empty file", b"empty.png", b"", b"image/png"),
    ("a PDF", b"a.png", b"%PDF-1.4\n%%EOF\n", b"image/png"),
    ("a NUL", b"a.png", b"\x00", b"image/png"),
]


@pytest.mark.parametrize("method,route", [("POST", "/api/photos"), ("PUT", "/api/contacts/{contact}/avatar")])
def test_photos_that_are_not_images_are_422_and_keep_nothing(uploader, method, route):
    problems = []
    for why, filename, data, content_type in NOT_IMAGES:
        fields = [field("source", "photo")] if "avatar" in route else [field("contact_id", uploader.contact)]
        answer = uploader.send(method, route, multipart(fields + [file_part("photo", filename, data, content_type)]))
        if answer.status_code != 422:
            problems.append(f"{why}: {answer.status_code} {answer.text[:200]}")
    assert not problems, "\n".join(problems)
    uploader.assert_nothing_kept(f"files that are not images to {route}")


def test_pages_kept_as_documents_are_never_served_as_pages(uploader):
    for filename, data, claimed in ((b"invoice.html", HTML, b"text/html"), (b"logo.svg", SVG, b"image/svg+xml")):
        answer = uploader.upload("/api/documents", "document", filename, data)
        assert answer.status_code == 201, answer.text[:300]
        document = answer.json()["data"]
        assert "html" not in document["mime_type"] and "svg" not in document["mime_type"], document
        served = uploader.client.get(f"/api/documents/{document['id']}/download")
        assert served.status_code == 200 and served.content == data
        assert "html" not in served.headers["Content-Type"] and "svg" not in served.headers["Content-Type"]
        assert served.headers["X-Content-Type-Options"] == "nosniff"
        assert served.headers["Content-Security-Policy"].startswith("sandbox")
        assert served.headers["Content-Disposition"].startswith("attachment;")


def test_an_empty_document_is_kept_empty_or_refused(uploader):
    answer = uploader.upload("/api/documents", "document", b"empty.txt", b"")
    assert answer.status_code in (201, 422), answer.text[:300]
    if answer.status_code == 422:
        uploader.assert_nothing_kept("an empty document")
        return
    document = answer.json()["data"]
    assert document["filesize"] == 0, document
    served = uploader.client.get(f"/api/documents/{document['id']}/download")
    assert served.status_code == 200 and served.content == b""


# --- data URLs -------------------------------------------------------------------------------------

def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


BAD_DATA_URLS = [
    "data:image/png;base64,!!!this is not base64***",
    "data:image/png;base64,iVBORw0KGgo",  # cut short: no whole group of four
    "data:image/png;base64,",
    "data:image/png," + PNG.decode("latin-1"),  # not base64 at all
    "data:image/png;base64" + _b64(PNG),  # no comma
    "data:;base64," + _b64(HTML),
    "data:text/html;base64," + _b64(HTML),
    "data:image/png;base64," + _b64(HTML),
    "data:image/svg+xml;base64," + _b64(SVG),
    "data:image/svg+xml," + SVG.decode(),
    "image/png;base64," + _b64(PNG),
    "javascript:alert(1)",
    "http://127.0.0.1:1/a.png",
    "file:///etc/passwd",
    "data:",
    "\u0000",
]
# Readable, as PHP's base64_decode reads them (what is no base64 character is skipped): kept as the
# PNG they carry, or refused; never anything else.
LENIENT_DATA_URLS = [
    "data:image/png;base64," + "\u0000" + _b64(PNG),
    "data:image/png;base64," + "\r\n".join(_b64(PNG)[i:i + 16] for i in range(0, len(_b64(PNG)), 16)),
    "data:image/png;name=a.png;base64," + _b64(PNG),
]
BAD_DATA_VALUES = [1, -1, True, [PNG_DATA_URL], {"url": PNG_DATA_URL}]


@pytest.mark.parametrize("method,route", [("POST", "/api/photos"), ("PUT", "/api/contacts/{contact}/avatar"),
                                          ("PATCH", "/api/contacts/{contact}/avatar")])
def test_data_urls_that_are_not_base64_images_are_422_and_keep_nothing(uploader, method, route):
    problems = []
    for value in BAD_DATA_URLS + BAD_DATA_VALUES:
        body = {"source": "photo", "data": value} if "avatar" in route else {"contact_id": uploader.contact,
                                                                              "data": value}
        answer = uploader.client.request(method, uploader.path(route), json=body)
        if answer.status_code != 422:
            problems.append(f"{str(value)[:50]!r}: {answer.status_code} {answer.text[:200]}")
    # The same as form fields, as a browser would send them.
    for value in BAD_DATA_URLS[:4]:
        form = {"source": "photo", "data": value} if "avatar" in route else {"contact_id": uploader.contact,
                                                                              "data": value}
        answer = uploader.client.request(method, uploader.path(route), data=form)
        if answer.status_code != 422:
            problems.append(f"form {value[:50]!r}: {answer.status_code} {answer.text[:200]}")
    assert not problems, "\n".join(problems)
    uploader.assert_nothing_kept(f"bad data URLs to {route}")


def test_good_and_lenient_data_urls_keep_the_picture_they_carry(uploader):
    for value in [PNG_DATA_URL] + LENIENT_DATA_URLS:
        answer = uploader.client.post("/api/photos", json={"contact_id": uploader.contact, "data": value})
        if value != PNG_DATA_URL and answer.status_code == 422:
            continue
        assert answer.status_code == 201, f"{value[:40]!r}: {answer.status_code} {answer.text[:300]}"
        served = uploader.client.get(f"/api/photos/{answer.json()['data']['id']}/file")
        assert served.status_code == 200 and served.content == PNG, value[:40]
        assert served.headers["Content-Type"] == "image/png"


def test_a_picture_that_is_also_a_page_is_only_ever_served_as_a_picture(uploader):
    """A type is read from a file's first bytes (as Laravel's `image` rule, by libmagic): a GIF
    header followed by a page is a GIF. It must come back as one, which the browser may not sniff
    and in which nothing may run."""
    polyglot = b"GIF89a\x01\x00\x01\x00\x00\x00\x00;" + HTML
    answer = uploader.upload("/api/photos", "photo", b"a.html", polyglot)
    assert answer.status_code in (201, 422), answer.text[:300]
    if answer.status_code == 422:
        uploader.assert_nothing_kept("a polyglot photo")
        return
    served = uploader.client.get(f"/api/photos/{answer.json()['data']['id']}/file")
    assert served.status_code == 200 and served.content == polyglot
    assert served.headers["Content-Type"] == "image/gif"
    assert served.headers["X-Content-Type-Options"] == "nosniff"
    assert served.headers["Content-Security-Policy"].startswith("sandbox")


# --- sizes -----------------------------------------------------------------------------------------

def _declared(server, token: str, method: str, path: str, length: int) -> int:
    head = (f"{method} {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\nContent-Type: {MULTIPART}\r\n"
            f"Content-Length: {length}\r\nConnection: close\r\n\r\n").encode()
    answer = raw_request(server.host, server.port, head + b"--" + BOUNDARY.encode() + b"\r\n", timeout=5,
                         until_status=True)
    return answer.status


@pytest.mark.parametrize("method,path", [("POST", "/api/documents"), ("POST", "/api/photos"),
                                         ("PUT", "/api/contacts/{contact}/avatar"),
                                         ("PATCH", "/api/contacts/{contact}/avatar"), ("POST", "/api/documents/"),
                                         ("POST", "/api/photos?contact_id=1")])
def test_a_declared_length_past_10_mib_and_64_kib_is_413_at_once(server, uploader, method, path):
    path = uploader.path(path)
    for length in (LARGEST_BODY + 1, 2 ** 40, 2 ** 63 - 1):
        assert _declared(server, uploader.client.token, method, path, length) == 413, f"{method} {path} {length}"
        server.assert_healthy(f"{method} {path} declaring {length} bytes")
    uploader.assert_nothing_kept(f"{method} {path} declaring too much")


def test_the_body_after_a_413_is_never_read_as_a_request(server, uploader):
    head = (f"POST /api/documents HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {uploader.client.token}\r\n"
            f"Content-Type: {MULTIPART}\r\nContent-Length: {LARGEST_BODY + 1}\r\n\r\n").encode()
    smuggled = b"DELETE /api/contacts/%d HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\n\r\n" % (
        uploader.contact, uploader.client.token.encode())
    with socket.create_connection((server.host, server.port), timeout=5) as sock:
        sock.sendall(head)
        time.sleep(0.1)
        try:
            sock.sendall(smuggled)
        except OSError:
            pass  # closed after the 413: nothing more is read
        _, _, received = wait_closed(sock, 1.0)
    assert STATUS_LINE.findall(received) == [b"HTTP/1.1 413"], received[:500]
    server.assert_healthy("a body after a 413")
    assert uploader.client.get(f"/api/contacts/{uploader.contact}").status_code == 200


@pytest.mark.parametrize("method,path", [("POST", "/api/contacts"), ("PUT", "/api/contacts/{contact}"),
                                         ("POST", "/api/documents/1"), ("POST", "/api/photosx"),
                                         ("POST", "/api//photos"), ("POST", "/api/documents/../photos"),
                                         ("PUT", "/api/contacts/abc/avatar"), ("PUT", "/api/contacts//avatar"),
                                         ("PUT", "/api/contacts/{contact}/avatarx"),
                                         ("POST", "/api/contacts/{contact}/avatar"),
                                         ("POST", "/api/conversations/1/messages")])
def test_only_upload_routes_take_more_than_one_mib(server, uploader, method, path):
    path = uploader.path(path)
    assert _declared(server, uploader.client.token, method, path, ONE_MIB + 1) == 413, f"{method} {path}"
    server.assert_healthy(f"{method} {path} declaring a MiB")


def test_files_past_10_mib_are_refused_and_keep_nothing(uploader):
    """A body within the limit carrying a file one byte past 10,240 KB is 422 (Laravel's max); a
    chunked body past the limit, which declares no length, is 413 once it has sent too much."""
    too_big = b"A" * (LARGEST_FILE + 1)
    answer = uploader.upload("/api/documents", "document", b"big.txt", too_big)
    assert_refused(answer, why="a document of 10 MiB + 1 byte")
    assert "10240 kilobytes" in answer.text

    def chunks():
        yield multipart([field("contact_id", uploader.contact)], close=False)
        yield b'--%s\r\nContent-Disposition: form-data; name="document"; filename="a.txt"\r\n\r\n' % BOUNDARY.encode()
        for _ in range(LARGEST_BODY // (256 * 1024) + 1):
            yield b"A" * (256 * 1024)
        yield b"\r\n--%s--\r\n" % BOUNDARY.encode()

    answer = uploader.client.post("/api/documents", data=chunks(), headers={"Content-Type": MULTIPART})
    assert answer.status_code == 413, f"chunked: {answer.status_code} {answer.text[:300]}"
    # A data URL past the limit (its base64 alone is 13 MiB) is refused the same way.
    answer = uploader.client.post("/api/photos", json={"contact_id": uploader.contact,
                                                       "data": "data:image/png;base64," + "A" * (LARGEST_BODY + 4)})
    assert answer.status_code == 413, f"a huge data URL: {answer.status_code} {answer.text[:300]}"
    uploader.assert_nothing_kept("files past 10 MiB")


def test_a_file_of_exactly_10_mib_is_kept(uploader):
    answer = uploader.upload("/api/documents", "document", b"exact.bin", b"\x01" * LARGEST_FILE)
    assert answer.status_code == 201, answer.text[:300]
    assert answer.json()["data"]["filesize"] == LARGEST_FILE


# --- the avatar ------------------------------------------------------------------------------------

def test_avatar_refusals_keep_the_avatar_and_no_photo(uploader, server):
    contact = uploader.contact
    other = Hostile(server, server.personal_token(server.signup()["accessToken"]))
    theirs = Uploader(other)
    their_photo = theirs.upload("/api/photos", "photo", b"a.png", PNG)
    assert their_photo.status_code == 201, their_photo.text[:300]
    cases = [
        ({"source": "photo", "photo_id": their_photo.json()["data"]["id"]}, (404,)),
        ({"source": "photo"}, (422,)),
        ({"source": "adorable"}, (422,)),
        ({"source": "PHOTO", "data": PNG_DATA_URL}, (422,)),
        ({"source": ["photo"], "data": PNG_DATA_URL}, (422,)),
        ({"source": "photo", "data": PNG_DATA_URL, "photo_id": "x"}, (422,)),
        ({"data": PNG_DATA_URL}, (422,)),
        ({}, (422,)),
    ]
    for body, statuses in cases:
        answer = uploader.client.put(f"/api/contacts/{contact}/avatar", json=body)
        assert answer.status_code in statuses, f"{body!r}: {answer.status_code} {answer.text[:300]}"
    # A file under another name, or beside a source that is not photo: not the avatar.
    answer = uploader.send("PUT", f"/api/contacts/{contact}/avatar", multipart(
        [field("source", "photo"), file_part("document", b"a.png", PNG, b"image/png")]))
    assert_refused(answer, why="the avatar's file as `document`")
    # Another account's contact is 404 whatever the body, and nothing is kept for anyone.
    answer = uploader.upload(f"/api/contacts/{theirs.contact}/avatar", "photo", b"a.png", PNG)
    assert answer.status_code == 404, answer.text[:300]
    uploader.assert_nothing_kept("avatar refusals")
    assert theirs.kept()["/api/photos"] == 1 and theirs.kept()["avatar"] == "default"
