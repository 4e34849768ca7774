"""Three real `kith serve` processes on one PostgreSQL database, reached directly or through PgBouncer
in transaction mode, and what the tests need to speak to them: accounts, pushes, pulls, live sockets,
the database read with psql, waiting with a deadline.

Servers are started through Tests/hostile/kith_hostile.py, as the hostile and DAV suites start theirs.

Environment:
  KITH_BINARY              the `kith` executable (required)
  KITH_TEST_DATABASE_URL   a PostgreSQL superuser URL (required): every test makes its databases there
  KITH_TEST_PGBOUNCER_URL  a PgBouncer in transaction mode in front of it (else one is started here)
"""

import email
import email.policy
import json
import os
import re
import secrets
import subprocess
import sys
import threading
import time
import urllib.parse
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import requests
import websocket

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(HERE.parent / "hostile"))
import kith_hostile  # noqa: E402
from kith_hostile import PASSWORD, KithServer, ServerError, fresh_email  # noqa: E402

# Where mailed links point: the address a load balancer in front of the three would have.
PUBLIC_URL = "http://kith.cluster.test"
MAIL_FROM = "kith@cluster.test"
# A nudge crosses servers (NOTIFY) in milliseconds; the deadline is for a machine busy with other suites.
NUDGE_WITHIN = 10.0
NAMES = ("A", "B", "C")


class ClusterError(Exception):
    pass


# ---------------------------------------------------------------------------
# Waiting for something, never for a while.
# ---------------------------------------------------------------------------

def wait_until(what: str, probe, within: float, every: float = 0.1):
    """Calls probe() until it returns something truthy, which it returns; fails after `within` seconds
    saying `what` did not happen and what the last probe saw."""
    deadline = time.monotonic() + within
    last = None
    while True:
        last = probe()
        if last:
            return last
        if time.monotonic() >= deadline:
            raise AssertionError(f"{what}: not within {within} s (last seen: {last!r})")
        time.sleep(every)


# ---------------------------------------------------------------------------
# PostgreSQL: databases made for a test, read with psql.
# ---------------------------------------------------------------------------

def admin_url() -> str:
    url = os.environ.get("KITH_TEST_DATABASE_URL", "")
    if not url:
        raise ClusterError("KITH_TEST_DATABASE_URL is not set: the cluster tests need a PostgreSQL superuser URL "
                           "(scripts/lib/postgres.sh starts a throwaway one).")
    return url


def with_database(url: str, name: str) -> str:
    parts = urllib.parse.urlsplit(url)
    return urllib.parse.urlunsplit(parts._replace(path="/" + name))


def psql(url: str, statement: str) -> list:
    """Rows of a query as tuples of text (NULL as "")."""
    done = subprocess.run(["psql", "-X", "-q", "-A", "-t", "-F", "\t", "-v", "ON_ERROR_STOP=1", url, "-c", statement],
                          capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        raise ClusterError(f"psql failed ({done.returncode}) on {statement!r}: {done.stderr.strip()}")
    return [tuple(line.split("\t")) for line in done.stdout.splitlines() if line]


class Database:
    """A fresh database on the test cluster, dropped by drop()."""

    def __init__(self):
        self.admin = admin_url()
        self.name = f"kith_cluster_{secrets.token_hex(6)}"
        psql(self.admin, f"CREATE DATABASE {self.name}")
        self.url = with_database(self.admin, self.name)
        # The same database over PostgreSQL's Unix socket, when whoever started it says where.
        socket = os.environ.get("KITH_TEST_DATABASE_SOCKET_URL", "")
        self.socket_url = with_database(socket, self.name) if socket else None

    def query(self, statement: str) -> list:
        return psql(self.url, statement)

    def scalar(self, statement: str) -> str:
        rows = self.query(statement)
        return rows[0][0] if rows else None

    def drop(self):
        try:
            psql(self.admin, f"DROP DATABASE IF EXISTS {self.name} WITH (FORCE)")
        except (ClusterError, subprocess.SubprocessError, OSError):
            pass


# ---------------------------------------------------------------------------
# PgBouncer, through scripts/lib/pgbouncer.sh.
# ---------------------------------------------------------------------------

class PgBouncer:
    """A PgBouncer in transaction mode in front of the test PostgreSQL: KITH_TEST_PGBOUNCER_URL when
    it is set (one started by whoever runs the tests), else one started here and stopped by stop()."""

    def __init__(self):
        self.directory = None
        given = os.environ.get("KITH_TEST_PGBOUNCER_URL", "")
        if given:
            self.url = given
            return
        helper = REPO / "scripts" / "lib" / "pgbouncer.sh"
        done = subprocess.run(
            ["bash", "-c", 'source "$1" && kith_pgbouncer_start "$2" >/dev/null && echo "$KITH_PGBOUNCER_DIR" && '
             'echo "$KITH_PGBOUNCER_URL"', "bash", str(helper), admin_url()],
            capture_output=True, text=True, timeout=60)
        lines = done.stdout.split()
        if done.returncode != 0 or len(lines) != 2:
            raise ClusterError(f"could not start PgBouncer ({helper}):\n{done.stderr.strip()}")
        self.directory, self.url = lines

    def url_for(self, database: Database) -> str:
        return with_database(self.url, database.name)

    def stop(self):
        if self.directory:
            helper = REPO / "scripts" / "lib" / "pgbouncer.sh"
            subprocess.run(["bash", "-c", 'source "$1" && kith_pgbouncer_stop "$2"', "bash", str(helper),
                            self.directory], capture_output=True, timeout=60)
            self.directory = None


# ---------------------------------------------------------------------------
# The three servers.
# ---------------------------------------------------------------------------

class Connection:
    """How the servers reach the database: "direct", or "pgbouncer" (transaction pooling, with LISTEN
    straight to PostgreSQL through KITH_DATABASE_LISTEN_URL, since LISTEN needs a session, and
    statements unnamed, since Debian's PgBouncer 1.18 can't carry prepared ones between its
    connections)."""

    def __init__(self, name: str, bouncer: PgBouncer = None):
        self.name = name
        self.bouncer = bouncer

    def environment(self, database: Database) -> dict:
        if self.name == "direct":
            return {"KITH_DATABASE_URL": database.url}
        return {"KITH_DATABASE_URL": self.bouncer.url_for(database), "KITH_DATABASE_LISTEN_URL": database.url,
                "KITH_DATABASE_PREPARED_STATEMENTS": "off"}


class Cluster:
    """Servers A, B and C on one database, each with its own data directory."""

    def __init__(self, database: Database, connection: Connection, env: dict = None):
        self.database = database
        self.connection = connection
        settings = connection.environment(database)
        self.database_url = settings.pop("KITH_DATABASE_URL")
        # Connected straight, C goes over the Unix socket when there is one: servers on the
        # database's machine and servers elsewhere share it.
        self.database_urls = [self.database_url] * len(NAMES)
        if connection.name == "direct" and database.socket_url:
            self.database_urls[-1] = database.socket_url
        self.env = {"KITH_PUBLIC_URL": PUBLIC_URL, "KITH_MAIL_FROM": MAIL_FROM, **settings, **(env or {})}
        self.servers = []

    def start(self):
        """Starts the three at the same moment and returns once each says it is serving."""
        servers = [KithServer(env=self.env, database_url=url) for url in self.database_urls]
        for name, server in zip(NAMES, servers):
            server.name = name
        self.servers = servers
        gate = threading.Barrier(len(servers))

        def start(server):
            gate.wait()
            return server.start()

        with ThreadPoolExecutor(len(servers)) as pool:
            outcomes = [pool.submit(start, server) for server in servers]
        problems = [f"{server.name}: {outcome.exception()}" for server, outcome in zip(servers, outcomes)
                    if outcome.exception()]
        if problems:
            self.stop()
            raise ServerError("not every server started:\n" + "\n".join(problems))
        return self

    def stop(self):
        """SIGTERM (SIGKILL after 10 s) to each server still running, in parallel; removes their data."""
        with ThreadPoolExecutor(max(len(self.servers), 1)) as pool:
            list(pool.map(lambda server: server.stop(), self.servers))

    def logs(self) -> str:
        return "\n".join(f"--- server {server.name} ---\n{server.recent_log(30)}" for server in self.servers)


# ---------------------------------------------------------------------------
# The public API.
# ---------------------------------------------------------------------------

def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def call(server: KithServer, method: str, path: str, token: str = None, expect: int = None, timeout: float = 30,
         **kwargs):
    """One request; with `expect`, fails unless that is the status. Returns the response."""
    answer = requests.request(method, server.url(path), headers=bearer(token) if token else None, timeout=timeout,
                              **kwargs)
    if expect is not None and answer.status_code != expect:
        raise AssertionError(f"{method} {path} on {server.name} answered {answer.status_code}, not {expect}: "
                             f"{answer.text[:500]}\n{server.name}'s log:\n{server.recent_log(20)}")
    return answer


def sign_up(server: KithServer, email: str = None) -> dict:
    email = email or fresh_email("cluster")
    body = call(server, "POST", "/v1/auth/signup", json={"email": email, "password": PASSWORD}, expect=201).json()
    body["email"] = email
    body["scope"] = f"user:{body['user']['id']}"
    return body


def sign_in(server: KithServer, email: str, password: str = PASSWORD) -> dict:
    return call(server, "POST", "/v1/auth/login", json={"email": email, "password": password}, expect=200).json()


def hlc_now(node: str, after: str = None) -> str:
    """A device's stamp for now (docs/sync.md: `<ms>-<counter>-<node>`), later than `after` when given,
    as a device's clock is once it has seen that stamp."""
    millis = int(time.time() * 1000)
    if after:
        millis = max(millis, int(after.split("-", 1)[0]) + 1)
    return f"{millis:015d}-00000-{node}"


def year_mutation(scope: str, name: str, node: str = "cluster-test") -> dict:
    return {"mutationId": str(uuid.uuid4()), "entity": "outreach.year", "id": str(uuid.uuid4()), "scope": scope,
            "op": "upsert", "hlc": hlc_now(node),
            "fields": {"name": name, "createdAt": "2026-01-01T00:00:00.000Z"}}


def person_mutation(scope: str, year_id: str, first_name: str, node: str = "cluster-test") -> dict:
    return {"mutationId": str(uuid.uuid4()), "entity": "outreach.contact", "id": str(uuid.uuid4()), "scope": scope,
            "op": "upsert", "hlc": hlc_now(node),
            "fields": {"yearId": year_id, "firstName": first_name, "lastName": "Cluster", "enterpriseName": "Kith"}}


def push(server: KithServer, token: str, mutations: list, timeout: float = 30) -> dict:
    """POST /v1/sync/push; the answer's body (fails on any status but 200)."""
    answer = requests.post(server.url("/v1/sync/push"), headers=bearer(token), timeout=timeout,
                           json={"clientId": str(uuid.uuid4()), "mutations": mutations})
    if answer.status_code != 200:
        raise AssertionError(f"push on {server.name} answered {answer.status_code}: {answer.text[:500]}")
    return answer.json()


def statuses(pushed: dict) -> list:
    return [result["status"] for result in pushed["results"]]


def pull_everything(server: KithServer, token: str) -> list:
    """Every change readable by the token's user, from an empty cursor, page after page."""
    changes, cursor = [], None
    while True:
        params = {"limit": 1000}
        if cursor:
            params["cursor"] = cursor
        page = call(server, "GET", "/v1/sync/pull", token=token, params=params, expect=200).json()
        changes += page["changes"]
        cursor = page["cursor"]
        if not page["hasMore"]:
            return changes


def ws_url(server: KithServer, path: str) -> str:
    return server.base_url.replace("http://", "ws://", 1) + path


class LiveSocket:
    """A device's live socket (/v1/live) on one server, authenticated with a bearer token on the
    upgrade. open() returns once the server said ready: every change committed after that reaches it."""

    def __init__(self, server: KithServer, token: str):
        self.server = server
        self.messages = []
        self.socket = websocket.create_connection(ws_url(server, "/v1/live"), header=bearer(token), timeout=30)
        first = self.next_message(within=30)
        if first != {"type": "ready"}:
            self.close()
            raise AssertionError(f"live socket on {server.name}: the first message was {first!r}, not ready")

    def next_message(self, within: float):
        """The next message, or None when none came within `within` seconds."""
        self.socket.settimeout(max(within, 0.01))
        try:
            text = self.socket.recv()
        except websocket.WebSocketTimeoutException:
            return None
        message = json.loads(text)
        self.messages.append(message)
        return message

    def wait_for(self, what: str, matches, within: float = NUDGE_WITHIN) -> dict:
        """The first message from now on for which matches(message) holds; fails after `within` s."""
        deadline = time.monotonic() + within
        seen = []
        while True:
            remaining = deadline - time.monotonic()
            message = self.next_message(remaining) if remaining > 0 else None
            if message is None:
                raise AssertionError(f"live socket on {self.server.name}: no {what} within {within} s "
                                     f"(messages meanwhile: {seen})")
            if matches(message):
                return message
            seen.append(message)

    def close(self):
        try:
            self.socket.close()
        except (OSError, websocket.WebSocketException):
            pass


# ---------------------------------------------------------------------------
# Mail: Tests/support/smtp_sink.py on loopback.
# ---------------------------------------------------------------------------

class SmtpSink:
    """The SMTP sink, writing every message it takes to a directory (<n>.eml, then <n>.json)."""

    def __init__(self, maildir: Path):
        self.maildir = maildir
        # Its complaints go to a file beside the mail, so a full pipe never blocks it.
        errors = maildir / "sink-errors.log"
        with errors.open("w") as errors_file:
            self.process = subprocess.Popen(
                [sys.executable, str(REPO / "Tests" / "support" / "smtp_sink.py"), "--port", "0",
                 "--maildir", str(maildir)], stdout=subprocess.PIPE, stderr=errors_file, text=True)
        line = self.process.stdout.readline()
        match = re.fullmatch(r"READY (\d+)\n", line)
        if not match:
            self.stop()
            raise ClusterError(f"smtp_sink.py did not start: {line!r} {errors.read_text()[:500]}")
        self.port = int(match.group(1))
        self.url = f"smtp://127.0.0.1:{self.port}"

    def mails_to(self, recipients: set) -> list:
        """(recipient, plain text body) of every message taken so far for any of `recipients`."""
        found = []
        for meta_file in sorted(self.maildir.glob("*.json")):
            meta = json.loads(meta_file.read_text())
            for recipient in meta["rcpt_tos"]:
                if recipient.lower() in recipients:
                    message = email.message_from_bytes(meta_file.with_suffix(".eml").read_bytes(),
                                                       policy=email.policy.default)
                    body = message.get_body(("plain",))
                    found.append((recipient.lower(), body.get_content() if body else ""))
        return found

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
