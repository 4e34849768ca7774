"""Where one request ends and the next begins, when reads cut through them at awkward places: the
next request is served, never refused as if its head were a request line without a version."""

import pytest

from kith_hostile import paced_exchange

# HTTP framing is read before any storage is reached: SQLite alone tests it (conftest.py).
pytestmark = pytest.mark.one_engine

SPLIT_HEADS = [
    ("pipelined", [b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a", b"a\r\n\r\n"],
     [b"HTTP/1.1 200", b"HTTP/1.1 200"]),
    ("after an early answer", [b"POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n01234",
                               b"56789GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a", b"a\r\n\r\n"],
     [b"HTTP/1.1 405", b"HTTP/1.1 200"]),
    ("the next request line ends the read", [b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\n",
                                             b"Host: x\r\n\r\n"],
     [b"HTTP/1.1 200", b"HTTP/1.1 200"]),
    ("cut inside the Authorization header", [
        b"POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n01234",
        b"56789PATCH /v1/auth/password-reset HTTP/1.1\r\nHost: x\r\nAuthorization: Bear",
        b"er kpt_x\r\nContent-Length: 0\r\n\r\n"],
     [b"HTTP/1.1 405", b"HTTP/1.1 405"]),
]


def exchange(server, writes, expected):
    """Sends each write 0.2 s apart (so each is a read of its own) and returns the status lines."""
    return paced_exchange(server.host, server.port, writes, expected)


@pytest.mark.parametrize("name,writes,answers", SPLIT_HEADS, ids=[c[0] for c in SPLIT_HEADS])
def test_a_request_head_cut_in_a_header_after_another_request(server, name, writes, answers):
    got, received = exchange(server, writes, len(answers))
    server.assert_healthy(name)
    assert got == answers, f"{name}: {received[:500]!r}"
