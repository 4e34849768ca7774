#!/usr/bin/env python3
"""Long hostile-input run: the generators of Tests/hostile in a loop, with schemathesis beside them,
against one `kith serve`, for --minutes; prints counts and exits non-zero on any 5xx, crash or hang.

    python3 bench/fuzz.py --binary PATH [--minutes 30] [--database-url URL] [--seed N]

Usually run through bench/run-fuzz. Counted: requests sent per class, answers per status class,
5xx answers, crashes (the server process exited; it is started again and the run goes on), hangs
(no answer, and no close, within 10 s), and connections the server still holds once every client
has gone and its idle deadline has passed.
"""

import argparse
import collections
import json
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "Tests" / "hostile"))

import requests  # noqa: E402

import cases  # noqa: E402
import run_schemathesis  # noqa: E402
from kith_hostile import MALFORMED_REQUESTS, KithServer, raw_request, wait_closed  # noqa: E402

HANG = 10.0  # seconds without an answer (or a close) that count as a hang
DEADLINE = 3  # the fuzz server's request and idle deadlines (KITH_REQUEST_TIMEOUT / KITH_IDLE_TIMEOUT)
SERVER_ENV = {"KITH_API_RATE_LIMIT": "1000000000", "KITH_REQUEST_TIMEOUT": DEADLINE, "KITH_IDLE_TIMEOUT": DEADLINE}


class Tally:
    def __init__(self):
        self.lock = threading.Lock()
        self.sent = collections.Counter()  # per class
        self.statuses = collections.Counter()  # "2xx", "4xx", "5xx", "closed", "hang"
        self.server_errors = []  # (class, request, status, body) samples
        self.hangs = []
        self.misread = []  # well-formed requests refused as malformed, or answers lost
        self.crashes = []
        self.left_open = []

    def record(self, kind: str, outcome, request: str = ""):
        """outcome: an HTTP status, "closed" (closed without an answer) or "hang"."""
        with self.lock:
            self.sent[kind] += 1
            if outcome == "hang":
                self.statuses["hang"] += 1
                if len(self.hangs) < 20:
                    self.hangs.append(f"{kind}: {request[:300]}")
            elif outcome == "closed":
                self.statuses["closed"] += 1
            elif outcome == "misread":
                self.statuses["misread"] += 1
                if len(self.misread) < 20:
                    self.misread.append(f"{kind}: {request[:600]}")
            elif outcome == 501 and kind.startswith("raw"):
                self.statuses["501 (unknown method)"] += 1  # what issue 13 asks for, not a server error
            else:
                self.statuses[f"{outcome // 100}xx"] += 1
                if outcome >= 500 and len(self.server_errors) < 20:
                    self.server_errors.append(f"{kind}: {request[:300]} -> {outcome}")


class Target:
    """The server and what the generators aim at: tokens, a seeded /api world, a web session."""

    def __init__(self, args):
        self.args = args
        self.server = None
        self.start()

    def start(self):
        self.server = KithServer("sqlite", env=SERVER_ENV, binary_path=self.args.binary,
                                 database_url=self.args.database_url or None).start()
        s = self.server
        self.account = s.signup()
        self.scope = f"user:{self.account['user']['id']}"
        self.pat = s.personal_token(self.account["accessToken"], "fuzz")
        self.http = requests.Session()
        self.http.headers["Authorization"] = f"Bearer {self.pat}"

        def call(method, path, **kw):
            return self.http.request(method, s.url(path), timeout=HANG, **kw)

        self.world = cases.seed_monica(call)
        self.year = str(uuid.uuid4())
        self.push([cases.year_mutation(self.scope, name="Fuzz", record_id=self.year)])
        self.web = s.web_signup()
        page = self.web.get(s.url("/outreach"), timeout=HANG).text
        self.csrf = re.search(r'name="_csrf" value="([^"]+)"', page).group(1)
        self.web_year = re.search(r'name="year" value="([0-9a-fA-F-]{36})"', page).group(1)
        self.st_tokens = run_schemathesis.run_tokens(s)

    def push(self, mutations):
        return self.http.post(self.server.url("/v1/sync/push"), timeout=HANG,
                              json={"clientId": str(uuid.uuid4()), "mutations": mutations})


# ---------------------------------------------------------------------------
# Generators: each sends one hostile request and returns (what was sent, outcome).
# ---------------------------------------------------------------------------

def _http(target, session, method, path, **kwargs):
    described = f"{method} {path} {str(kwargs.get('params') or kwargs.get('json') or kwargs.get('data') or '')[:200]}"
    try:
        answer = session.request(method, target.server.url(path), timeout=HANG, allow_redirects=False, **kwargs)
        return described, answer.status_code
    except requests.exceptions.Timeout:
        return described, "hang"
    except requests.exceptions.ConnectionError:
        return described, "closed"


def gen_raw_malformed(target, rng):
    name, data, _ = rng.choice(MALFORMED_REQUESTS)
    data = bytearray(data)
    for _ in range(rng.randrange(4)):  # a few random bytes changed, inserted or dropped
        if not data:
            break
        i = rng.randrange(len(data))
        op = rng.randrange(3)
        if op == 0:
            data[i] = rng.randrange(256)
        elif op == 1:
            data.insert(i, rng.randrange(256))
        else:
            del data[i]
    return _raw(target, bytes(data), f"raw {name}")


def gen_raw_random(target, rng):
    return _raw(target, cases.random_bytes(rng, rng.choice([1, 16, 300, 5000])), "random bytes")


def _raw(target, data, described):
    s = target.server
    try:
        # Up to the answer's head; without one, until the server closes (its request deadline at
        # the latest) or HANG passes.
        answer = raw_request(s.host, s.port, data, timeout=HANG, until_status=True)
    except OSError:
        return described, "closed"
    if answer.status is not None:
        return f"{described} {data[:80]!r}", answer.status
    return f"{described} {data[:80]!r}", "closed" if answer.closed else "hang"


def gen_api_query(target, rng):
    route = cases.fill(rng.choice(cases.MONICA_LISTS), target.world)
    value = rng.choice(cases.QUERY_EDGES + [str(rng.randint(-2 ** 70, 2 ** 70))])
    name = rng.choice(["page", "limit", "sort", "query", "with"])
    return _http(target, target.http, "GET", route, params={name: value})


def gen_api_ids(target, rng):
    path = rng.choice(cases.MONICA_ID_ROUTES).format(rng.choice(cases.PATH_ID_EDGES + [str(rng.getrandbits(64))]))
    method = rng.choice(["GET", "PUT", "DELETE", "POST", "PATCH"])
    return _http(target, target.http, method, path, json=cases.random_json_value(rng))


def gen_api_bodies(target, rng):
    method, route = rng.choice([w for w in cases.MONICA_WRITES if w[0] != "DELETE"])
    path = cases.fill(route, target.world)
    if rng.random() < 0.5:
        name, body, content_type, _ = rng.choice(cases.hostile_bodies(rng))
        return _http(target, target.http, method, path, data=body, headers={"Content-Type": content_type})
    fields = ["contact_id", "first_name", "last_name", "body", "title", "name", "status", "date", "initial_date",
              "frequency_type", "frequency_number", "happened_at", "summary", "contacts", "latitude", "longitude",
              "birthdate_year", "birthdate_day", "is_birthdate_known", "is_deceased", "tags", "amount", "data",
              "contact_field_type_id", "relationship_type_id", "of_contact", "contact_is", "is_date_known", "year"]
    body = {rng.choice(fields): cases.random_json_value(rng) for _ in range(rng.randrange(1, 8))}
    return _http(target, target.http, method, path, data=json.dumps(body).encode(),
                 headers={"Content-Type": "application/json"})


def gen_api_dates(target, rng):
    day = rng.choice(["0001-01-01", "9999-12-31", "0000-01-01", "10000-01-01", "2020-02-30",
                      f"{rng.randrange(0, 10000):04d}-{rng.randrange(0, 14):02d}-{rng.randrange(0, 33):02d}"])
    contact = target.world["contact"]
    kind = rng.randrange(4)
    if kind == 0:
        body = {"contact_id": contact, "title": "t", "initial_date": day, "frequency_number": rng.choice([1, 1000, 7]),
                "frequency_type": rng.choice(["week", "month", "year", "one_time"])}
        return _http(target, target.http, "POST", "/api/reminders", json=body)
    if kind == 1:
        return _http(target, target.http, "POST", "/api/gifts",
                     json={"contact_id": contact, "name": "g", "status": "idea", "date": day})
    if kind == 2:
        return _http(target, target.http, "POST", "/api/activities",
                     json={"summary": "s", "happened_at": day, "contacts": [contact]})
    return _http(target, target.http, "GET", f"/api/reminders/upcoming/{rng.randrange(-5, 1300)}")


def gen_v1_pull(target, rng):
    cursor = rng.choice([
        "", "garbage", cases.random_text(rng, 50),
        urllib.parse.quote(__import__("base64").urlsafe_b64encode(
            f"{target.scope}={rng.choice([cases.INT64_MAX, cases.INT64_MIN, -1, 0, 10 ** 30])}".encode()).decode())])
    limit = rng.choice(["1", "1000", "0", "1001", str(cases.INT64_MAX), "-1", "x"])
    return _http(target, target.http, "GET", "/v1/sync/pull", params={"cursor": cursor, "limit": limit})


def gen_v1_push(target, rng):
    mutations = []
    for _ in range(rng.randrange(1, 6)):
        if rng.random() < 0.5:
            mutation = cases.contact_mutation(target.scope, target.year, delivered=rng.choice([True, False, None]),
                                              deliveredAt=rng.choice(cases.TIMESTAMP_EDGES))
        else:
            mutation = cases.year_mutation(target.scope, created_at=rng.choice(cases.TIMESTAMP_EDGES),
                                           name=cases.random_text(rng, 30) or "y")
        if rng.random() < 0.3:
            mutation["hlc"] = rng.choice(cases.HLC_EDGES)
        if rng.random() < 0.3:
            mutation[rng.choice(list(mutation))] = cases.random_json_value(rng)
        mutations.append(mutation)
    return _http(target, target.http, "POST", "/v1/sync/push", json={"clientId": str(uuid.uuid4()), "mutations": mutations})


def gen_web_forms(target, rng):
    paths = ["/outreach/people", "/outreach/years", f"/outreach/years/{target.web_year}/rename", "/outreach/import",
             "/outreach/delivered", "/outreach/select", "/account/tokens", "/account/password"]
    fields = {"_csrf": target.csrf if rng.random() < 0.8 else "", "year": target.web_year}
    for name in rng.sample(["firstName", "lastName", "enterpriseName", "comments", "name", "csv", "set", "copyFrom",
                            "currentPassword", "newPassword"], 4):
        fields[name] = rng.choice([cases.random_text(rng, 200), "a" * rng.choice([1, 100, 600]), "%ff%00"])
    body = urllib.parse.urlencode(fields).encode()
    if rng.random() < 0.3:
        body += b"&" + cases.random_bytes(rng, 50)
    return _http(target, target.web, "POST", rng.choice(paths), data=body,
                 headers={"Content-Type": "application/x-www-form-urlencoded"})


def gen_auth(target, rng):
    path = rng.choice(["/v1/auth/login", "/v1/auth/signup", "/v1/auth/password-reset", "/v1/auth/refresh",
                       "/v1/auth/password-reset/confirm", "/oauth/login", "/v1/tokens"])
    body = {k: cases.random_json_value(rng) for k in rng.sample(
        ["email", "password", "newPassword", "token", "refreshToken", "deviceToken", "name"], 3)}
    session = target.http if path == "/v1/tokens" else requests
    return _http(target, session, "POST", path, json=body)


def gen_keep_alive(target, rng):
    """Well-formed requests in a row on one connection, heads and bodies cut into writes at random
    places (a read can end a request and begin the next): each must get its own answer."""
    s = target.server
    paths = ["/healthz", "/v1/me", "/v1/sync/pull", "/v1/sync/push", "/v1/tokens", "/api/contacts", "/api/notes",
             "/v1/auth/password-reset", "/openapi.yaml", "/no-such-page"]
    sent = []
    stream = b""
    for _ in range(rng.randrange(2, 7)):
        method = rng.choice(["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"])
        body = json.dumps(cases.random_json_value(rng)).encode() if rng.random() < 0.7 else b""
        path = rng.choice(paths)
        stream += (f"{method} {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {target.pat}\r\n"
                   f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n").encode() + body
        sent.append(f"{method} {path} ({len(body)} bytes)")
    cuts = sorted(rng.sample(range(1, len(stream)), min(len(stream) - 1, rng.randrange(1, 6))))
    pieces = [stream[a:b] for a, b in zip([0] + cuts, cuts + [len(stream)])]
    described = f"{' | '.join(sent)} cut at {cuts}"
    received = b""
    try:
        with socket.create_connection((s.host, s.port), timeout=HANG) as sock:
            try:
                for piece in pieces:
                    sock.sendall(piece)
                    time.sleep(rng.choice([0, 0.001, 0.02]))
            except OSError:
                pass  # closed on us: what it answered before is read below
            sock.settimeout(HANG)
            while len(re.findall(rb"HTTP/1\.1 \d{3}", received)) < len(sent):
                chunk = sock.recv(65536)
                if not chunk:
                    break
                received += chunk
    except socket.timeout:
        return described, "hang"
    except OSError:
        pass
    statuses = [int(code) for code in re.findall(rb"HTTP/1\.1 (\d{3})", received)]
    if len(statuses) < len(sent) or b"no HTTP version" in received or b"not valid HTTP" in received:
        return f"{described} -> {statuses} {received[-200:]!r}", "misread"
    return described, max(statuses)


GENERATORS = {
    "raw-malformed": gen_raw_malformed, "raw-random": gen_raw_random, "api-query": gen_api_query,
    "api-ids": gen_api_ids, "api-bodies": gen_api_bodies, "api-dates": gen_api_dates, "v1-pull": gen_v1_pull,
    "v1-push": gen_v1_push, "web-forms": gen_web_forms, "auth": gen_auth, "keep-alive": gen_keep_alive,
}


# ---------------------------------------------------------------------------
# Slow clients, beside the loop: half-sent requests the server must close by its deadline.
# ---------------------------------------------------------------------------

SLOW = [b"", b"GET /healthz HTTP/1.1\r\nHost: x\r\n", b"POST /v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n{",
        b"GET /api/contacts HTTP/1.1\r\nHost: x\r\nX-Drip: aaaa"]


def slow_clients(target_ref, tally, stop, rng):
    while not stop.is_set():
        server = target_ref[0].server
        data = rng.choice(SLOW)
        try:
            with socket.create_connection((server.host, server.port), timeout=HANG) as sock:
                if data:
                    sock.sendall(data)
                closed, waited, _ = wait_closed(sock, DEADLINE + HANG)
            tally.record("slow-client", "closed" if closed else "hang", f"{data[:60]!r} (open {waited:.0f} s)")
        except OSError:
            tally.record("slow-client", "closed", repr(data[:60]))


TCP_STATES = {"01": "ESTABLISHED", "02": "SYN_SENT", "03": "SYN_RECV", "04": "FIN_WAIT1", "05": "FIN_WAIT2",
              "06": "TIME_WAIT", "07": "CLOSE", "08": "CLOSE_WAIT", "09": "LAST_ACK", "0B": "CLOSING"}


def server_connections(server) -> list:
    """TCP connections the server process holds on its port (established or half-closed): their
    states and the clients' ports."""
    pid = server.process.pid
    inodes = set()
    try:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                link = os.readlink(f"/proc/{pid}/fd/{fd}")
            except OSError:
                continue
            if link.startswith("socket:["):
                inodes.add(link[8:-1])
    except OSError:
        return []
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            parts = line.split()
            local_port = int(parts[1].split(":")[1], 16)
            state = parts[3]
            if parts[9] in inodes and local_port == server.port and state != "0A":  # 0A: LISTEN
                found.append(f"{TCP_STATES.get(state, state)} from port {int(parts[2].split(':')[1], 16)}")
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--database-url", default="")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--no-schemathesis", action="store_true")
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(2 ** 32)
    rng = random.Random(seed)
    tally = Tally()
    seconds = max(10, int(args.minutes * 60))
    print(f"==> fuzz for {seconds} s (seed {seed}), {'PostgreSQL' if args.database_url else 'SQLite'}", flush=True)
    target_ref = [Target(args)]
    stop = threading.Event()
    slow = threading.Thread(target=slow_clients, args=(target_ref, tally, stop, random.Random(seed + 1)), daemon=True)
    slow.start()
    work = Path(tempfile.mkdtemp(prefix="kith-fuzz-"))
    schemathesis = None
    schemathesis_log = work / "schemathesis.log"

    def start_schemathesis(remaining):
        if args.no_schemathesis or remaining < 20:
            return None
        target = target_ref[0]
        command = run_schemathesis.schemathesis_command(target.server.url("/openapi.yaml"), target.server.base_url,
                                                        int(remaining), workers=1, seed=seed)
        return subprocess.Popen(command, cwd=work, env=run_schemathesis.schemathesis_env(*target.st_tokens),
                                stdout=open(schemathesis_log, "a"), stderr=subprocess.STDOUT)

    started = time.monotonic()
    deadline = started + seconds
    schemathesis = start_schemathesis(seconds)
    schemathesis_failed = False
    last_health = 0.0
    last_report = started
    names = list(GENERATORS)
    while time.monotonic() < deadline:
        target = target_ref[0]
        kind = rng.choice(names)
        try:
            described, outcome = GENERATORS[kind](target, rng)
        except (requests.RequestException, OSError) as error:
            described, outcome = f"{kind}: {error}", "closed"
        tally.record(kind, outcome, described)
        now = time.monotonic()
        if not target.server.alive() or (now - last_health > 2 and target.server.health_problem(HANG)):
            status = target.server.process.poll()
            if status is None:
                tally.record("healthz", "hang", f"after {kind}: {described}")
            tally.crashes.append(f"after {kind}: {described[:300]} (exit status {status}); log tail:\n"
                                 + target.server.recent_log(15))
            print(f"!!! server down after {kind}: {described[:200]}", flush=True)
            if schemathesis and schemathesis.poll() is None:
                schemathesis.terminate()
                schemathesis.wait(30)
            target.server.stop()
            target_ref[0] = Target(args)
            schemathesis = start_schemathesis(deadline - time.monotonic())
            last_health = time.monotonic()
            continue
        if now - last_health > 2:
            last_health = now
        if now - last_report > 60:
            last_report = now
            print(f"... {int(now - started)} s: {sum(tally.sent.values())} requests, {dict(tally.statuses)}", flush=True)
    stop.set()
    if schemathesis:
        try:
            schemathesis_status = schemathesis.wait(timeout=120)
        except subprocess.TimeoutExpired:
            schemathesis.kill()
            schemathesis_status = schemathesis.wait()
        schemathesis_failed = schemathesis_status != 0
    slow.join(DEADLINE + HANG + 5)

    # Every client has gone: after the idle deadline the server should hold no connection.
    target = target_ref[0]
    time.sleep(DEADLINE + 2)
    tally.left_open = server_connections(target.server) if target.server.alive() else []
    target.server.stop()

    print("\n==> Counts")
    print(f"{'class':<16} requests")
    for kind in names + ["slow-client", "healthz"]:
        if tally.sent[kind]:
            print(f"{kind:<16} {tally.sent[kind]}")
    print(f"{'total':<16} {sum(tally.sent.values())}")
    print("answers: " + ", ".join(f"{k} {tally.statuses[k]}" for k in sorted(tally.statuses)))
    print(f"5xx: {tally.statuses['5xx']}")
    print(f"crashes (process exits): {len(tally.crashes)}")
    print(f"hangs (no answer within {HANG:.0f} s): {tally.statuses['hang']}")
    print(f"misread (a well-formed request refused or unanswered on a kept-alive connection): {tally.statuses['misread']}")
    print(f"connections left open: {len(tally.left_open)}" + (f" ({', '.join(tally.left_open)})" if tally.left_open else ""))
    if schemathesis is not None or args.no_schemathesis:
        summary = ""
        if schemathesis_log.exists():
            lines = [l for l in schemathesis_log.read_text(errors="replace").splitlines() if "generated," in l]
            summary = lines[-1].strip() if lines else ""
        where = f" (log: {schemathesis_log})" if schemathesis_failed else ""
        print(f"schemathesis: {'skipped' if args.no_schemathesis else ('FAILED' if schemathesis_failed else 'ok')}"
              f" {summary}{where}")
    for title, items in (("5xx answers", tally.server_errors), ("hangs", tally.hangs), ("crashes", tally.crashes),
                         ("misread requests", tally.misread)):
        if items:
            print(f"\n{title} (first {len(items)}):")
            for item in items:
                print(f"  {item}")
    if not schemathesis_failed:
        shutil.rmtree(work, ignore_errors=True)
    bad = (tally.statuses["5xx"] or tally.crashes or tally.statuses["hang"] or tally.statuses["misread"]
           or tally.left_open or schemathesis_failed)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
