"""The DAV servers the real-client tests run against, behind one small abstraction.

A `DavTarget` is a running server (`start()`, `stop()`); `new_account()` gives a fresh `DavAccount`
on it: the credentials a person types into a DAV client and the two collections every scenario
starts from, empty: one address book and one calendar of tasks (VTODO).

- `RadicaleTarget`: Radicale (PyPI `radicale`), the reference DAV server, on a free loopback port
  with a temporary storage folder and htpasswd `plain` users. Its collections do not exist by
  themselves, so `new_account()` makes them (extended MKCOL, MKCALENDAR) at the URLs the scenarios
  use: `/<user>/contacts/` and `/<user>/family/`.
- `KithTarget`: the real `kith serve` (KITH_BINARY) on SQLite or PostgreSQL, started through
  Tests/hostile/kith_hostile.py. An account is a sign-up, a personal access token (the DAV
  password: Basic auth with the email as the user name) and a family founded in Europe/Berlin, so
  that the task calendar exists. The collections are where the contract puts them:
  `/dav/addressbooks/<userId>/contacts/` and `/dav/calendars/<userId>/family/`.
"""

import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import requests

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "hostile"))
import kith_hostile  # noqa: E402
from kith_hostile import KithServer, ServerError  # noqa: E402

# The family's zone: the tasks' DUE carries it as TZID on Kith, and the tests write it so everywhere.
FAMILY_ZONE = "Europe/Berlin"
START_TIMEOUT = 30


def target_names() -> list:
    """radicale always; kith-sqlite always; kith-postgres when KITH_TEST_DATABASE_URL is set."""
    return ["radicale"] + [f"kith-{engine}" for engine in kith_hostile.engines()]


@dataclass
class DavAccount:
    target: str                 # "radicale", "kith-sqlite", "kith-postgres"
    base_url: str               # the server's root, http://127.0.0.1:PORT
    dav_url: str                # where a DAV client starts (PROPFIND gives current-user-principal)
    username: str
    password: str
    principal_url: str
    addressbook_url: str
    calendar_url: str
    extra: dict = field(default_factory=dict)   # Kith: userId, email, accountPassword, accessToken, pat
    another: object = field(default=None, repr=False)  # () -> a second, fresh account on the same server

    @property
    def auth(self) -> tuple:
        return (self.username, self.password)

    @property
    def is_kith(self) -> bool:
        return self.target.startswith("kith")

    def http(self) -> requests.Session:
        """A requests session speaking as this account (HTTP Basic)."""
        session = requests.Session()
        session.auth = self.auth
        return session

    def collection_url(self, kind: str) -> str:
        return self.addressbook_url if kind == "contacts" else self.calendar_url


class DavTarget:
    name = ""

    def start(self):
        raise NotImplementedError

    def stop(self):
        raise NotImplementedError

    def new_account(self) -> DavAccount:
        raise NotImplementedError

    def alive(self) -> bool:
        raise NotImplementedError

    def recent_log(self) -> str:
        return ""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# ---------------------------------------------------------------------------
# Radicale
# ---------------------------------------------------------------------------

MKCOL_ADDRESSBOOK = b"""<?xml version="1.0" encoding="utf-8"?>
<D:mkcol xmlns:D="DAV:" xmlns:CR="urn:ietf:params:xml:ns:carddav">
  <D:set><D:prop>
    <D:resourcetype><D:collection/><CR:addressbook/></D:resourcetype>
    <D:displayname>Contacts</D:displayname>
  </D:prop></D:set>
</D:mkcol>"""

MKCALENDAR_TASKS = b"""<?xml version="1.0" encoding="utf-8"?>
<C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
  <D:set><D:prop>
    <D:displayname>Family</D:displayname>
    <C:supported-calendar-component-set><C:comp name="VTODO"/></C:supported-calendar-component-set>
  </D:prop></D:set>
</C:mkcalendar>"""


class RadicaleTarget(DavTarget):
    name = "radicale"

    def __init__(self):
        self.directory = None
        self.process = None
        self.port = 0
        self.base_url = ""
        self.users_file = None
        self.log_file = None

    def start(self):
        self.directory = Path(tempfile.mkdtemp(prefix="kith-dav-radicale-"))
        self.users_file = self.directory / "users"
        self.users_file.write_text("")
        last_error = ""
        for _attempt in range(3):  # a free port can be taken between the probe and the bind
            self.port = free_port()
            config = self.directory / "config"
            config.write_text(f"""[server]
hosts = 127.0.0.1:{self.port}
max_connections = 20

[auth]
type = htpasswd
htpasswd_filename = {self.users_file}
htpasswd_encryption = plain
# Wrong credentials are answered after this long (1 s by default).
delay = 0.01

[storage]
filesystem_folder = {self.directory / "storage"}

[rights]
type = owner_only

[logging]
level = warning
""")
            self.log_file = self.directory / "radicale.log"
            with open(self.log_file, "ab") as log:
                self.process = subprocess.Popen(
                    [sys.executable, "-m", "radicale", "--config", str(config)],
                    stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
            self.base_url = f"http://127.0.0.1:{self.port}"
            deadline = time.monotonic() + START_TIMEOUT
            while time.monotonic() < deadline and self.process.poll() is None:
                try:
                    requests.get(self.base_url + "/.web/", timeout=1)
                    return self
                except requests.RequestException as error:
                    last_error = str(error)
                    time.sleep(0.05)
            self._end_process()
        raise ServerError(f"Radicale did not start ({last_error}). Its log:\n{self.recent_log()}")

    def _end_process(self):
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)

    def stop(self):
        self._end_process()
        if self.directory:
            shutil.rmtree(self.directory, ignore_errors=True)

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def recent_log(self) -> str:
        try:
            return "\n".join(self.log_file.read_text(errors="replace").splitlines()[-40:])
        except (OSError, AttributeError):
            return ""

    def new_account(self) -> DavAccount:
        user = f"user-{secrets.token_hex(6)}"
        password = secrets.token_urlsafe(18)
        # Radicale reads the htpasswd file again on every login (htpasswd_cache is off).
        with open(self.users_file, "a") as users:
            users.write(f"{user}:{password}\n")
        account = DavAccount(
            target=self.name, base_url=self.base_url, dav_url=self.base_url + "/", username=user,
            password=password, principal_url=f"{self.base_url}/{user}/",
            addressbook_url=f"{self.base_url}/{user}/contacts/", calendar_url=f"{self.base_url}/{user}/family/",
            another=self.new_account)
        http = account.http()
        for method, url, body in (("MKCOL", account.addressbook_url, MKCOL_ADDRESSBOOK),
                                  ("MKCALENDAR", account.calendar_url, MKCALENDAR_TASKS)):
            answer = http.request(method, url, data=body, timeout=30,
                                  headers={"Content-Type": "application/xml; charset=utf-8"})
            if answer.status_code != 201:
                raise ServerError(f"Radicale: {method} {url} answered {answer.status_code}: {answer.text[:300]}")
        return account


# ---------------------------------------------------------------------------
# Kith
# ---------------------------------------------------------------------------

class KithTarget(DavTarget):
    # /api's 60 requests a minute would slow the tests' own /api calls; DAV itself is the server's.
    ENV = {"KITH_API_RATE_LIMIT": "100000"}

    def __init__(self, engine: str):
        self.engine = engine
        self.name = f"kith-{engine}"
        self.server = None

    def start(self):
        self.server = KithServer(self.engine, env=self.ENV).start()
        return self

    def stop(self):
        if self.server is not None:
            self.server.stop()

    def alive(self) -> bool:
        return self.server is not None and self.server.alive()

    def recent_log(self) -> str:
        return self.server.recent_log() if self.server else ""

    def new_account(self, family: bool = True) -> DavAccount:
        """A fresh account; `family` founds a family (Europe/Berlin), so the task calendar exists."""
        server = self.server
        body = server.signup(email=kith_hostile.fresh_email("dav"))
        user_id = body["user"]["id"].lower()  # the DAV paths spell ids in lower case
        pat = server.personal_token(body["accessToken"], name="DAV tests")
        if family:
            answer = requests.post(server.url("/v1/family"), json={"name": "DAV family", "timeZone": FAMILY_ZONE},
                                   headers={"Authorization": f"Bearer {body['accessToken']}"}, timeout=30)
            if answer.status_code != 201:
                raise ServerError(f"POST /v1/family answered {answer.status_code}: {answer.text[:300]}")
        base = server.base_url
        return DavAccount(
            target=self.name, base_url=base, dav_url=base + "/dav/", username=body["email"], password=pat,
            principal_url=f"{base}/dav/principals/{user_id}/",
            addressbook_url=f"{base}/dav/addressbooks/{user_id}/contacts/",
            calendar_url=f"{base}/dav/calendars/{user_id}/family/",
            extra={"userId": user_id, "email": body["email"], "accountPassword": body["password"],
                   "accessToken": body["accessToken"], "pat": pat},
            another=self.new_account)


def make_target(name: str) -> DavTarget:
    if name == "radicale":
        return RadicaleTarget()
    if name.startswith("kith-"):
        engine = name.split("-", 1)[1]
        if engine == "postgres" and not os.environ.get("KITH_TEST_DATABASE_URL"):
            raise ServerError("kith-postgres needs KITH_TEST_DATABASE_URL")
        return KithTarget(engine)
    raise ValueError(name)
