"""Shared by the hostile suite (conftest.py, test_*.py), run_schemathesis.py and bench/run-fuzz: start a
real `kith serve` (SQLite, or a fresh PostgreSQL database), sign up, make tokens, speak raw HTTP over
sockets, and check after hostile input that the process is alive and `/healthz` answers.

Environment:
  KITH_BINARY              the `kith` executable (required)
  KITH_TEST_DATABASE_URL   postgres:// URL of a superuser; when set, PostgreSQL is an engine too
"""

import collections
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.parse
import uuid
from pathlib import Path

import requests

SERVING = re.compile(r"http://127\.0\.0\.1:(\d+)")
START_TIMEOUT = 60
STOP_TIMEOUT = 10
HEALTH_TIMEOUT = 2.0
PASSWORD = "correct horse battery"

# Every variable that changes the server; each start sets its own.
SERVER_VARIABLES = (
    "KITH_SMTP_URL", "KITH_DATABASE_URL", "KITH_PUBLIC_URL", "KITH_DATA", "KITH_HOST", "KITH_PORT",
    "KITH_API_RATE_LIMIT", "KITH_IDLE_TIMEOUT", "KITH_REQUEST_TIMEOUT", "KITH_MAX_CONNECTIONS",
    "KITH_METRICS_TOKEN", "KITH_LOG_LEVEL", "KITH_GEOCODER_URL", "KITH_DATABASE_LISTEN_URL", "KITH_MAIL_FROM",
    "KITH_DATABASE_PREPARED_STATEMENTS", "KITH_DATABASE_CONNECTIONS_PER_CORE",
)


class ServerError(Exception):
    pass


def binary() -> str:
    path = os.environ.get("KITH_BINARY", "")
    if not path:
        raise ServerError("KITH_BINARY is not set: point it at a built `kith` (e.g. .build/debug/kith).")
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        raise ServerError(f"KITH_BINARY={path!r} is not an executable file.")
    return path


def engines() -> list:
    """SQLite always; PostgreSQL when KITH_TEST_DATABASE_URL is set."""
    return ["sqlite", "postgres"] if os.environ.get("KITH_TEST_DATABASE_URL") else ["sqlite"]


# ---------------------------------------------------------------------------
# PostgreSQL: a fresh database per server start, dropped afterwards.
# ---------------------------------------------------------------------------

def _psql(admin_url: str, statement: str):
    subprocess.run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", admin_url, "-c", statement],
                   check=True, capture_output=True, text=True, timeout=60)


def create_database(admin_url: str) -> str:
    name = f"kith_hostile_{secrets.token_hex(6)}"
    _psql(admin_url, f"CREATE DATABASE {name}")
    parts = urllib.parse.urlsplit(admin_url)
    return urllib.parse.urlunsplit(parts._replace(path="/" + name))


def drop_database(admin_url: str, database_url: str):
    name = urllib.parse.urlsplit(database_url).path.lstrip("/")
    if not re.fullmatch(r"kith_hostile_[0-9a-f]+", name):
        return
    try:
        _psql(admin_url, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    except (subprocess.SubprocessError, OSError):
        pass


# ---------------------------------------------------------------------------
# The server process.
# ---------------------------------------------------------------------------

class KithServer:
    """A `kith serve` on a free loopback port with a fresh data directory (and database)."""

    def __init__(self, engine: str = "sqlite", env: dict = None, binary_path: str = None, database_url: str = None):
        """`database_url`: a PostgreSQL database to use as it is (kept afterwards); without it, engine
        "postgres" makes a fresh database with KITH_TEST_DATABASE_URL and drops it at stop()."""
        self.engine = "postgres" if database_url else engine
        self.extra_env = dict(env or {})
        self.binary = binary_path or binary()
        self.data_dir = Path(tempfile.mkdtemp(prefix="kith-hostile-"))
        self.database_url = database_url
        self.admin_url = (os.environ.get("KITH_TEST_DATABASE_URL")
                          if self.engine == "postgres" and not database_url else None)
        self.process = None
        self.log = collections.deque(maxlen=2000)
        self.base_url = ""
        self.port = 0
        self.host = "127.0.0.1"
        self._reader = None

    # -- lifecycle ---------------------------------------------------------

    def start(self, port: int = 0):
        """Starts `kith serve`; `port` 0 takes a free one (resume() passes the one it had)."""
        if self.engine == "postgres" and not self.database_url:
            if not self.admin_url:
                raise ServerError("engine postgres needs KITH_TEST_DATABASE_URL")
            self.database_url = create_database(self.admin_url)
        env = dict(os.environ)
        for name in SERVER_VARIABLES:
            env.pop(name, None)
        env["KITH_BCRYPT_COST"] = os.environ.get("KITH_BCRYPT_COST", "4")
        env["KITH_LOG_LEVEL"] = "warning"
        # Never OpenStreetMap's public geocoder from a test: a test that locates addresses passes
        # its stand-in's URL in `env`.
        env["KITH_GEOCODER_URL"] = "off"
        env.update({k: str(v) for k, v in self.extra_env.items()})
        args = [self.binary, "serve", "--data", str(self.data_dir), "--port", str(port), "--host", "127.0.0.1"]
        if self.database_url:
            args += ["--database-url", self.database_url]
        self.process = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, env=env, text=True, bufsize=1,
                                        errors="replace")
        found = threading.Event()

        def pump():
            # Reads for the whole run so the server never blocks on a full pipe.
            for line in self.process.stdout:
                self.log.append(line.rstrip("\n"))
                if not found.is_set():
                    match = SERVING.search(line)
                    if match:
                        self.port = int(match.group(1))
                        found.set()

        self._reader = threading.Thread(target=pump, name="kith-stdout", daemon=True)
        self._reader.start()
        deadline = time.monotonic() + START_TIMEOUT
        while not found.is_set() and time.monotonic() < deadline and self.process.poll() is None:
            found.wait(0.05)
        if not found.is_set():
            exited = self.process.poll()
            self.stop()
            why = f"exited with status {exited}" if exited is not None else f"printed no URL within {START_TIMEOUT} s"
            raise ServerError(f"kith serve {why}. Its output:\n" + "\n".join(self.log))
        self.base_url = f"http://127.0.0.1:{self.port}"
        return self

    def pause(self):
        """Ends the process at once (SIGKILL), keeping its data, database and port: the server is
        gone, as for a phone that lost its connection (or a crash), until resume(). Not SIGTERM: a
        graceful stop is ServeCommandTests' subject, and this must not depend on it."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)
        if self._reader:
            self._reader.join(2)

    def resume(self):
        """Starts the paused server again, on the same port, with the same data."""
        return self.start(port=self.port)

    def _end_process(self):
        status = None
        if self.process is not None:
            if self.process.poll() is None:
                self.process.send_signal(signal.SIGTERM)
                try:
                    self.process.wait(STOP_TIMEOUT)
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    self.process.wait(5)
            status = self.process.returncode
            if self._reader:
                self._reader.join(2)
        return status

    def stop(self):
        """SIGTERM, then SIGKILL; returns the exit status (None if it was never started)."""
        status = self._end_process()
        if self.database_url and self.admin_url:
            drop_database(self.admin_url, self.database_url)
            self.database_url = None
        shutil.rmtree(self.data_dir, ignore_errors=True)
        return status

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    # -- checks ------------------------------------------------------------

    def url(self, path: str) -> str:
        return self.base_url + path

    def recent_log(self, lines: int = 40) -> str:
        return "\n".join(list(self.log)[-lines:])

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def health_problem(self, timeout: float = HEALTH_TIMEOUT):
        """None when the process runs and GET /healthz answers 200 within `timeout`; else why not."""
        if not self.alive():
            return f"the server process exited with status {self.process.returncode}"
        deadline = time.monotonic() + timeout
        last = ""
        while True:
            remaining = deadline - time.monotonic()
            try:
                answer = requests.get(self.url("/healthz"), timeout=max(remaining, 0.2),
                                      headers={"Connection": "close"})
                if answer.status_code == 200:
                    return None
                last = f"GET /healthz answered {answer.status_code}"
            except requests.RequestException as error:
                last = f"GET /healthz failed: {error}"
            if time.monotonic() >= deadline:
                return last
            if not self.alive():
                return f"the server process exited with status {self.process.returncode}"
            time.sleep(0.05)

    def assert_healthy(self, after: str = ""):
        problem = self.health_problem()
        if problem:
            raise AssertionError(f"{problem} (after {after or 'the last request'}). Server log:\n"
                                 + self.recent_log())

    # -- accounts ----------------------------------------------------------

    def signup(self, email: str = None, password: str = PASSWORD) -> dict:
        """Signs up a fresh account; returns the answer plus "email" and "password"."""
        email = email or fresh_email()
        answer = requests.post(self.url("/v1/auth/signup"), json={"email": email, "password": password}, timeout=30)
        if answer.status_code != 201:
            raise ServerError(f"signup answered {answer.status_code}: {answer.text[:300]}")
        body = answer.json()
        body["email"] = email
        body["password"] = password
        return body

    def personal_token(self, access_token: str, name: str = "x") -> str:
        answer = requests.post(self.url("/v1/tokens"), json={"name": name},
                               headers={"Authorization": f"Bearer {access_token}"}, timeout=30)
        if answer.status_code != 201:
            raise ServerError(f"POST /v1/tokens answered {answer.status_code}: {answer.text[:300]}")
        return answer.json()["token"]

    def web_session(self, email: str, password: str = PASSWORD) -> requests.Session:
        """A requests.Session signed in through the web form (cookies kws_…, kith_csrf)."""
        session = requests.Session()
        csrf = self.csrf(session, "/signin")
        answer = session.post(self.url("/signin"), data={"_csrf": csrf, "email": email, "password": password},
                              allow_redirects=False, timeout=30)
        if answer.status_code not in (302, 303):
            raise ServerError(f"POST /signin answered {answer.status_code}: {answer.text[:300]}")
        return session

    def web_signup(self, email: str = None, password: str = PASSWORD) -> requests.Session:
        """A requests.Session of a new account made through the web sign-up form (no sign-in, so
        sign-in throttling never stands in the way)."""
        session = requests.Session()
        csrf = self.csrf(session, "/signup")
        answer = session.post(self.url("/signup"), data={"_csrf": csrf, "email": email or fresh_email(),
                                                          "password": password}, allow_redirects=False, timeout=30)
        if answer.status_code not in (302, 303):
            raise ServerError(f"POST /signup answered {answer.status_code}: {answer.text[:300]}")
        return session

    def csrf(self, session: requests.Session, page: str = "/signin") -> str:
        answer = session.get(self.url(page), timeout=30)
        match = re.search(r'name="_csrf" value="([^"]+)"', answer.text)
        if not match:
            raise ServerError(f"no CSRF field on {page} ({answer.status_code})")
        return match.group(1)


def fresh_email(prefix: str = "hostile") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:12]}@example.com"


# ---------------------------------------------------------------------------
# Raw HTTP over sockets.
# ---------------------------------------------------------------------------

class RawAnswer:
    def __init__(self, data: bytes, closed: bool, elapsed: float):
        self.data = data
        self.closed = closed  # the server closed (or reset) the connection
        self.elapsed = elapsed

    @property
    def status(self):
        match = re.match(rb"HTTP/1\.[01] (\d{3})", self.data)
        return int(match.group(1)) if match else None

    def header(self, name: str):
        head = self.data.split(b"\r\n\r\n", 1)[0].decode("latin-1")
        for line in head.split("\r\n")[1:]:
            key, _, value = line.partition(":")
            if key.strip().lower() == name.lower():
                return value.strip()
        return None

    @property
    def body(self) -> bytes:
        return self.data.split(b"\r\n\r\n", 1)[1] if b"\r\n\r\n" in self.data else b""

    def __repr__(self):
        return f"RawAnswer(status={self.status}, closed={self.closed}, {self.elapsed:.2f}s, {self.data[:200]!r})"


def raw_request(host: str, port: int, data: bytes, timeout: float = 5.0, half_close: bool = False,
                until_status: bool = False) -> RawAnswer:
    """Sends `data` and reads until the server closes or `timeout` passes. With `until_status`, stops
    as soon as a whole head arrived (for keep-alive answers)."""
    start = time.monotonic()
    received = b""
    closed = False
    with socket.create_connection((host, port), timeout=timeout) as sock:
        try:
            if data:
                sock.sendall(data)
            if half_close:
                sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass  # the server answered and closed before taking everything: read what it sent
        deadline = start + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            sock.settimeout(remaining)
            try:
                chunk = sock.recv(65536)
            except socket.timeout:
                break
            except ConnectionResetError:
                closed = True
                break
            if not chunk:
                closed = True
                break
            received += chunk
            if until_status and b"\r\n\r\n" in received:
                break
    return RawAnswer(received, closed, time.monotonic() - start)


STATUS_LINE = re.compile(rb"HTTP/1\.1 \d{3}")


def paced_exchange(host: str, port: int, writes: list, answers: int) -> tuple:
    """Sends each write 0.2 s apart on one connection (so each is a read of its own on the server)
    and reads until `answers` status lines arrived, the server closed, or 3 s passed. Returns the
    status lines ("HTTP/1.1 200") and everything received."""
    with socket.create_connection((host, port), timeout=5) as sock:
        for data in writes:
            sock.sendall(data)
            time.sleep(0.2)
        received = b""
        sock.settimeout(3)
        try:
            while len(STATUS_LINE.findall(received)) < answers:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                received += chunk
        except socket.timeout:
            pass
    return STATUS_LINE.findall(received), received


def wait_closed(sock: socket.socket, timeout: float) -> tuple:
    """Reads from `sock` until the server closes it; returns (closed, seconds waited, bytes read)."""
    start = time.monotonic()
    received = b""
    while True:
        remaining = start + timeout - time.monotonic()
        if remaining <= 0:
            return False, time.monotonic() - start, received
        sock.settimeout(remaining)
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            return False, time.monotonic() - start, received
        except (ConnectionResetError, BrokenPipeError):
            return True, time.monotonic() - start, received
        if not chunk:
            return True, time.monotonic() - start, received
        received += chunk


# ---------------------------------------------------------------------------
# Malformed HTTP, shared by the suite and bench/run-fuzz (other hostile values are in cases.py).
# ---------------------------------------------------------------------------

# Raw requests each of which must get a 4xx at once and a closed connection (name, bytes, statuses).
MALFORMED_REQUESTS = [
    ("garbage request line", b"\x16\x03\x01\x02\x00garbage\r\n\r\n", (400,)),
    ("words request line", b"HELLO THERE\r\n\r\n", (400, 501)),
    ("unknown method", b"FOO / HTTP/1.1\r\nHost: x\r\n\r\n", (400, 405, 501)),
    ("invalid UTF-8 in the path", b"GET /v1/\xff\xfe\xc3\x28 HTTP/1.1\r\nHost: x\r\n\r\n", (400,)),
    ("negative Content-Length", b"POST /v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n", (400,)),
    ("duplicate Content-Length",
     b"POST /v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 4\r\n\r\n{}{}", (400,)),
    ("Content-Length with chunked",
     b"POST /v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
     (400,)),
    ("HTTP/0.9", b"GET /\r\n", (400,)),
    ("bad chunk size",
     b"POST /v1/auth/login HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n", (400,)),
    ("Content-Type DEL",
     b"POST /v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: \x7f\r\nContent-Length: 2\r\n\r\n{}", (400, 415)),
    ("NUL in a header", b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\x00b\r\n\r\n", (400,)),
    ("space before colon", b"GET /healthz HTTP/1.1\r\nHost : x\r\n\r\n", (400,)),
    ("HTTP/2.0 on HTTP/1 port", b"GET / HTTP/2.0\r\nHost: x\r\n\r\n", (400, 505)),
    ("HTTP/1.1 without CR", b"GET /healthz HTTP/1.1\nHost: x\nTransfer-Encoding: foo\n\n", (400, 501)),
    ("CONNECT", b"CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n", (405,)),
    ("CONNECT with tunnel bytes", b"CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: x\r\n\r\nSSH-2.0-probe\r\n", (405,)),
]
