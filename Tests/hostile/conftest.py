"""Fixtures for the hostile-input suite: real `kith serve` processes (SQLite, and PostgreSQL when
KITH_TEST_DATABASE_URL is set), accounts, and a client that checks after every hostile request that
the server process is alive and `GET /healthz` answers 200 within 2 s.

Environment:
  KITH_BINARY              the built `kith` executable (required)
  KITH_TEST_DATABASE_URL   a PostgreSQL superuser URL: every engine-parametrized test runs on both
"""

import sys
from pathlib import Path

import pytest
import requests

sys.path.insert(0, str(Path(__file__).resolve().parent))
import kith_hostile  # noqa: E402
from kith_hostile import KithServer, ServerError  # noqa: E402

# Monica's 60 requests a minute would refuse most of the suite with 429.
DEFAULT_ENV = {"KITH_API_RATE_LIMIT": "100000"}


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: takes several seconds (timeouts, many connections)")
    config.addinivalue_line("markers", "one_engine: runs on SQLite only (what it tests never reaches storage)")


def pytest_collection_modifyitems(config, items):
    """Drops the PostgreSQL cases of tests marked one_engine: HTTP framing is read and refused
    before any storage is reached, so on PostgreSQL they would run the same code again (and cost
    a CI run a minute)."""
    kept, dropped = [], []
    for item in items:
        engine = getattr(item, "callspec", None) and item.callspec.params.get("engine")
        one_engine = item.get_closest_marker("one_engine") is not None
        (dropped if one_engine and engine not in (None, "sqlite") else kept).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def _require_binary():
    try:
        kith_hostile.binary()
    except ServerError as error:
        pytest.fail(f"{error} ./scripts/test sets it; by hand: KITH_BINARY=.build/debug/kith "
                    "python3 -m pytest -q Tests/hostile", pytrace=False)


class _Servers:
    """One shared server per engine for the whole run, started again if a test killed it (that test
    fails on its own health check; the next ones get a fresh server instead of a cascade)."""

    def __init__(self):
        self.running = {}

    def get(self, engine: str) -> KithServer:
        server = self.running.get(engine)
        if server is not None and server.alive():
            return server
        if server is not None:
            server.stop()
        server = KithServer(engine, env=DEFAULT_ENV).start()
        self.running[engine] = server
        return server

    def stop_all(self):
        failures = []
        for engine, server in self.running.items():
            alive = server.alive()
            status = server.stop()
            if alive and status not in (0, None, -15):
                failures.append(f"{engine}: kith serve exited with {status} on SIGTERM")
        self.running.clear()
        return failures


@pytest.fixture(scope="session")
def _servers():
    _require_binary()
    servers = _Servers()
    yield servers
    failures = servers.stop_all()
    if failures:
        pytest.fail("; ".join(failures), pytrace=False)


@pytest.fixture(scope="session", params=kith_hostile.engines())
def engine(request):
    return request.param


@pytest.fixture
def server(_servers, engine) -> KithServer:
    """The shared server of this engine (rate limit lifted), healthy at the start of the test."""
    kith = _servers.get(engine)
    kith.assert_healthy("the previous test")
    return kith


@pytest.fixture
def spawn(engine):
    """spawn(env={...}) starts a server of this test's engine just for the test; stopped after it."""
    _require_binary()
    started = []

    def start(env=None, engine_name=None) -> KithServer:
        kith = KithServer(engine_name or engine, env={**DEFAULT_ENV, **(env or {})}).start()
        started.append(kith)
        return kith

    yield start
    for kith in started:
        kith.stop()


class Hostile:
    """A requests wrapper for one account: every call checks the answer is not 5xx, then that the
    process is alive and /healthz answers (the point of this suite)."""

    def __init__(self, server: KithServer, token: str = None, session: requests.Session = None):
        self.server = server
        self.token = token
        self.http = session or requests.Session()

    def request(self, method: str, path: str, *, check_health: bool = True, allow_5xx: bool = False,
                headers: dict = None, timeout: float = 30, **kwargs) -> requests.Response:
        headers = dict(headers or {})
        if self.token and "Authorization" not in headers:
            headers["Authorization"] = f"Bearer {self.token}"
        try:
            answer = self.http.request(method, self.server.url(path), headers=headers, timeout=timeout,
                                       allow_redirects=False, **kwargs)
        except requests.RequestException as error:
            self.server.assert_healthy(f"{method} {path} (which failed: {error})")
            raise AssertionError(f"{method} {path}: no answer: {error}") from error
        if check_health:
            self.server.assert_healthy(f"{method} {path}")
        if not allow_5xx:
            assert answer.status_code < 500, (
                f"{method} {path} answered {answer.status_code}: {answer.text[:500]}\nServer log:\n"
                + self.server.recent_log(20))
        return answer

    def get(self, path, **kwargs):
        return self.request("GET", path, **kwargs)

    def post(self, path, **kwargs):
        return self.request("POST", path, **kwargs)

    def put(self, path, **kwargs):
        return self.request("PUT", path, **kwargs)

    def delete(self, path, **kwargs):
        return self.request("DELETE", path, **kwargs)


@pytest.fixture
def account(server):
    """A fresh account on the shared server: its signup answer with "email", "password" and a
    personal access token "pat"."""
    body = server.signup()
    body["pat"] = server.personal_token(body["accessToken"])
    return body


@pytest.fixture
def api(server, account) -> Hostile:
    """A hostile client of /api and /v1 with the account's personal access token."""
    return Hostile(server, account["pat"])


_monica_worlds = {}


@pytest.fixture
def monica(server):
    """(Hostile client with a personal token, world ids) for an account shared by the /api tests of
    this server: one of every /api object, made once per server (cases.seed_monica)."""
    from cases import seed_monica

    key = (server.engine, server.port, server.process.pid)
    if key not in _monica_worlds:
        body = server.signup()
        client = Hostile(server, server.personal_token(body["accessToken"]))
        world = seed_monica(lambda method, path, **kw: client.request(method, path, check_health=False, **kw))
        _monica_worlds[key] = (client, world)
    return _monica_worlds[key]
