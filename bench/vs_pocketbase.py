#!/usr/bin/env python3
"""Kith against PocketBase (issue 18): the same workloads on both servers, one after the other.

    python3 bench/vs_pocketbase.py --kith-bin PATH --pocketbase-bin PATH [--seconds S]
        [--concurrency C] [--records N] [--subscribers N] [--only a,b] [--bcrypt-cost K]
        [--database-url URL]

Usually run through bench/run-vs-pocketbase, which builds Kith, installs PocketBase and wrk.
Every workload starts each server afresh (an empty data directory; for Kith on PostgreSQL a new
database), PocketBase first, then Kith. HTTP load comes from wrk (bench/vs_pocketbase.lua), one
thread (--wrk-threads) for all keep-alive connections but refresh's (a thread each); bulk insert and realtime are driven from Python. Each server's
CPU time (utime + stime from /proc/PID/stat) is read before and after the measured part and
divided by the successful requests; its RSS is sampled every 0.2 s.

Workloads (--only takes these names):
  refresh      token refresh, each connection chaining its own rotating token
  create       one owned record: PocketBase record create; Kith Monica POST /api/contacts and a
               one-mutation /v1/sync/push (outreach.contact)
  read         one record by id, of --records
  list         50 of a user's --records sorted, with the total; at 4 clients and at --concurrency
  search       by name among --records, at 4 clients and at --concurrency
  insert       --records records in batches of 500 (Kith /v1/sync/push, PocketBase /api/batch)
  realtime     --subscribers of one user each get --changes changes (Kith /v1/live, PocketBase SSE)
  signup       sign-up, then sign-in, at the same bcrypt cost (--bcrypt-cost)
  floor        each server's health check (Kith GET /healthz, PocketBase GET /api/health): no
               user, no record, what the HTTP stack and the sockets cost alone; from one wrk
               thread, then from a thread per connection (refresh's load)
"""

import argparse
import asyncio
import concurrent.futures
import datetime
import http.client
import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from monica import rows as monica_rows, seed_postgres, seed_sqlite  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from live_socket import live_messages  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
LUA = os.path.join(HERE, "vs_pocketbase.lua")
PASSWORD = "correct horse battery"
SUPERUSER = ("bench@example.com", "bench-superuser-password")
# Last names of bench/monica.py's rows (index >= 1000 adds a number, which a substring finds).
QUERIES = ["smith", "johnson", "garcia", "miller", "davis", "wilson", "taylor", "martin", "lee", "clark"]
WORKLOADS = ["floor", "refresh", "create", "read", "list", "search", "insert", "realtime", "signup"]
TICKS = os.sysconf("SC_CLK_TCK")


def stamp(ms=None):
    ms = int(time.time() * 1000) if ms is None else ms
    moment = datetime.datetime.fromtimestamp(ms / 1000, tz=datetime.timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime (fields 14 and 15)


def cpu_seconds_tree(pid):
    """A PostgreSQL cluster's CPU: the postmaster's own and its reaped children's (cutime, cstime),
    plus every live child's (the backends)."""
    def fields_of(proc):
        with open(f"/proc/{proc}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()
    own = fields_of(pid)
    total = sum(int(v) for v in own[11:15])
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = fields_of(entry)
            except OSError:
                continue
            if fields[1] == str(pid):
                total += int(fields[11]) + int(fields[12])
    return total / TICKS


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


class RssSampler:
    def __init__(self, pid):
        self.pid, self.peak, self.stop = pid, 0, threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while not self.stop.is_set():
            try:
                self.peak = max(self.peak, rss_kib(self.pid))
            except OSError:
                return
            self.stop.wait(0.2)

    def close(self):
        self.stop.set()
        self.thread.join()
        return self.peak


class Http:
    """One keep-alive connection, JSON in and out."""

    def __init__(self, url):
        parsed = urllib.parse.urlsplit(url)
        self.host, self.port = parsed.hostname, parsed.port
        self.conn = None

    def call(self, method, path, body=None, auth=None, expect=(200, 201, 204)):
        headers = {"Accept": "application/json"}
        if auth:
            headers["Authorization"] = auth
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        for attempt in (1, 2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=300)
            try:
                self.conn.request(method, path, body=payload, headers=headers)
                answer = self.conn.getresponse()
                data = answer.read()
                break
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.conn.close()
                self.conn = None
                if attempt == 2:
                    raise
        if answer.status not in expect:
            raise RuntimeError(f"{method} {path}: HTTP {answer.status} {data[:300]!r}")
        return json.loads(data) if data else None

    def close(self):
        if self.conn is not None:
            self.conn.close()


def parallel(function, items, threads=8):
    with concurrent.futures.ThreadPoolExecutor(threads) as pool:
        return list(pool.map(function, items))


# Servers ---------------------------------------------------------------------------------------

class Server:
    name = "?"

    def __init__(self, args, tmp):
        self.args, self.tmp = args, tmp
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.data = tempfile.mkdtemp(prefix=f"{self.name}-", dir=tmp)
        self.log = open(os.path.join(self.data, "server.log"), "wb")
        self.process = None

    @property
    def pid(self):
        return self.process.pid

    def cpu(self):
        """This server's CPU seconds so far (for Kith on PostgreSQL, with the cluster's, when known)."""
        total = cpu_seconds(self.pid)
        if self.name == "kith" and self.args.postgres_pid:
            total += cpu_seconds_tree(self.args.postgres_pid)
        return total

    def wait_healthy(self, path):
        for _ in range(300):
            if self.process.poll() is not None:
                break
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                conn.request("GET", path)
                if conn.getresponse().status == 200:
                    conn.close()
                    return
            except OSError:
                pass
            time.sleep(0.2)
        self.log.flush()
        with open(self.log.name, "rb") as f:
            sys.stderr.write(f.read()[-3000:].decode(errors="replace"))
        raise RuntimeError(f"{self.name} did not become healthy at {self.url}{path}")

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
        self.cleanup()
        shutil.rmtree(self.data, ignore_errors=True)

    def cleanup(self):
        pass


class Kith(Server):
    name = "kith"

    def __init__(self, args, tmp):
        super().__init__(args, tmp)
        self.database_url = None
        command = [args.kith_bin, "serve", "--data", self.data, "--port", str(self.port)]
        if args.database_url:
            self.database_name = f"kith_vs_pb_{uuid.uuid4().hex[:10]}"
            self.psql(args.database_url, f"CREATE DATABASE {self.database_name}")
            parsed = urllib.parse.urlsplit(args.database_url)
            self.database_url = urllib.parse.urlunsplit(parsed._replace(path="/" + self.database_name))
            command += ["--database-url", self.database_url]
        env = dict(os.environ, KITH_BCRYPT_COST=str(args.bcrypt_cost), KITH_API_RATE_LIMIT="1000000000",
                   KITH_GEOCODER_URL="off",
                   KITH_LOG_LEVEL=os.environ.get("KITH_LOG_LEVEL", "warning"),
                   KITH_MAX_CONNECTIONS=str(max(4096, args.subscribers + 500)))
        self.process = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT,
                                        stdin=subprocess.DEVNULL, env=env)
        self.wait_healthy("/healthz")
        self.http = Http(self.url)

    @staticmethod
    def psql(url, statement):
        subprocess.run(["psql", url, "-q", "-X", "-c", statement], check=True, stdout=subprocess.DEVNULL)

    def cleanup(self):
        if self.database_url:
            self.psql(self.args.database_url, f"DROP DATABASE IF EXISTS {self.database_name}")

    # Accounts
    def sign_up(self, index, run, token_kind="pat", year=False):
        """A user; returns a dict with the wrk fields: token, user id, year id, scope, email."""
        http = Http(self.url)
        email = f"user{index}-{run}@example.com"
        session = http.call("POST", "/v1/auth/signup", {"email": email, "password": PASSWORD})
        user = {"email": email, "user": session["user"]["id"], "access": session["accessToken"],
                "refresh": session["refreshToken"], "scope": f"user:{session['user']['id']}", "year": "-"}
        if token_kind == "pat":
            user["pat"] = http.call("POST", "/v1/tokens", {"name": "bench"}, auth=f"Bearer {user['access']}")["token"]
            http.call("GET", "/api/me", auth=f"Bearer {user['pat']}")  # Monica's defaults, made on first use
        if year:
            user["year"] = str(uuid.uuid4())
            self.push(http, user, [self.mutation("outreach.year", user["year"], user["scope"],
                                                 {"name": "2026", "createdAt": stamp()})])
        http.close()
        return user

    @staticmethod
    def mutation(entity, record_id, scope, fields, counter=[0]):
        counter[0] += 1
        return {"mutationId": str(uuid.uuid4()), "entity": entity, "id": record_id, "scope": scope, "op": "upsert",
                "hlc": f"{int(time.time() * 1000):015d}-{counter[0] % 100000:05d}-bench", "fields": fields}

    @staticmethod
    def push(http, user, mutations):
        answer = http.call("POST", "/v1/sync/push", {"clientId": str(uuid.uuid4()), "mutations": mutations},
                           auth=f"Bearer {user['access']}")
        refused = [r for r in answer["results"] if r["status"] != "applied"]
        if refused:
            raise RuntimeError(f"push refused {len(refused)}: {refused[0]}")
        return answer

    def contact_fields(self, user, index):
        first, last = name_of(index)
        return {"yearId": user["year"], "firstName": first, "lastName": last, "enterpriseName": "Bench"}


class PocketBase(Server):
    name = "pocketbase"

    def __init__(self, args, tmp):
        super().__init__(args, tmp)
        # Its own directories only: by default PocketBase writes a migration for every collection
        # change next to its data directory (automigrate), which the next server would replay.
        flags = ["--dir", os.path.join(self.data, "pb_data"), "--automigrate=false",
                 "--migrationsDir", os.path.join(self.data, "pb_migrations"),
                 "--hooksDir", os.path.join(self.data, "pb_hooks"),
                 "--publicDir", os.path.join(self.data, "pb_public")]
        self.db_path = os.path.join(self.data, "pb_data", "data.db")
        subprocess.run([args.pocketbase_bin, "superuser", "upsert", *SUPERUSER, *flags],
                       check=True, stdout=subprocess.DEVNULL)
        self.process = subprocess.Popen(
            [args.pocketbase_bin, "serve", "--http", f"127.0.0.1:{self.port}", *flags],
            stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        self.wait_healthy("/api/health")
        self.http = Http(self.url)
        self.admin = self.http.call("POST", "/api/collections/_superusers/auth-with-password",
                                    {"identity": SUPERUSER[0], "password": SUPERUSER[1]})["token"]
        self.configure()

    def configure(self):
        """Batch API on (500 requests a batch, as Kith's push), rate limits off; the users' bcrypt cost
        set to --bcrypt-cost; a `contacts` collection owned by users, with an (owner, last_name) index."""
        self.http.call("PATCH", "/api/settings", {
            "batch": {"enabled": True, "maxRequests": 500, "timeout": 120, "maxBodySize": 0},
            "rateLimits": {"enabled": False}}, auth=self.admin)
        users = self.http.call("GET", "/api/collections/users", auth=self.admin)
        self.users_id = users["id"]
        fields = users["fields"]
        for field in fields:
            if field["type"] == "password":
                self.default_cost = field.get("cost") or 10
                field["cost"] = self.args.bcrypt_cost
        self.http.call("PATCH", "/api/collections/users", {"fields": fields}, auth=self.admin)
        rule = "owner = @request.auth.id"
        self.http.call("POST", "/api/collections", {
            "name": "contacts", "type": "base",
            "fields": [
                {"name": "first_name", "type": "text"},
                {"name": "last_name", "type": "text"},
                {"name": "owner", "type": "relation", "collectionId": self.users_id, "maxSelect": 1,
                 "required": True, "cascadeDelete": True},
                {"name": "created", "type": "autodate", "onCreate": True, "onUpdate": False},
                {"name": "updated", "type": "autodate", "onCreate": True, "onUpdate": True},
            ],
            "listRule": rule, "viewRule": rule, "createRule": rule, "updateRule": rule, "deleteRule": rule,
            "indexes": ["CREATE INDEX idx_contacts_owner_last_name ON contacts (owner, last_name)"],
        }, auth=self.admin)

    def sign_up(self, index, run, **_):
        http = Http(self.url)
        email = f"user{index}-{run}@example.com"
        record = http.call("POST", "/api/collections/users/records",
                           {"email": email, "password": PASSWORD, "passwordConfirm": PASSWORD})
        auth = http.call("POST", "/api/collections/users/auth-with-password", {"identity": email, "password": PASSWORD})
        http.close()
        return {"email": email, "user": record["id"], "access": auth["token"], "refresh": auth["token"],
                "pat": auth["token"], "scope": "-", "year": "-"}

    def password_cost(self):
        with sqlite3.connect(self.db_path, timeout=30) as db:
            row = db.execute("SELECT password FROM users LIMIT 1").fetchone()
        return int(row[0].split("$")[2]) if row else None


def name_of(index):
    rows = list(monica_rows(0, index, 1))
    return rows[0][2], rows[0][3]


# wrk ---------------------------------------------------------------------------------------------

class Result:
    def __init__(self, ok=0, seconds=0.0, cpu=0.0, p50=None, p99=None, errors=0, rss_kib=0, note="", sample="",
                 paced=False):
        self.paced = paced  # the rate is set by the writer's pace: compare latency, not req/s
        self.ok, self.seconds, self.cpu, self.p50, self.p99 = ok, seconds, cpu, p50, p99
        self.errors, self.rss_kib, self.note, self.sample = errors, rss_kib, note, sample

    @property
    def rate(self):
        return self.ok / self.seconds if self.seconds else 0.0

    @property
    def cpu_ms(self):
        return self.cpu * 1000 / self.ok if self.ok else float("nan")


def run_wrk(server, mode, users, concurrency, seconds, expect=200, thread_per_connection=False, **env):
    """wrk against the server for `seconds` from --wrk-threads threads (at most one per
    connection; refresh, or `thread_per_connection`, one per connection, each chaining its own
    token); each thread takes its share of `users` in turn (bench/vs_pocketbase.lua)."""
    lines_path = os.path.join(server.tmp, f"wrk-{mode}.tsv")
    with open(lines_path, "w") as f:
        for user in users:
            f.write("\t".join([user.get("token", "-"), user["user"], user["year"], user["scope"], user["email"]]) + "\n")
    threads = (concurrency if thread_per_connection or mode.endswith("-refresh")
               else min(server.args.wrk_threads, concurrency))
    environment = dict(os.environ, BENCH_MODE=mode, BENCH_FILE=lines_path, BENCH_EXPECT=str(expect),
                       BENCH_RUN=uuid.uuid4().hex[:8], BENCH_THREADS=str(threads), **{k: str(v) for k, v in env.items()})
    sampler = RssSampler(server.pid)
    cpu_before = server.cpu()
    command = ["wrk", "-t", str(threads), "-c", str(concurrency), "-d", f"{max(1, round(seconds))}s", "--timeout", "60s",
               "-s", LUA, server.url]
    answer = subprocess.run(command, env=environment, capture_output=True, text=True)
    cpu = server.cpu() - cpu_before
    peak = sampler.close()
    line = next((l for l in answer.stdout.splitlines() if l.startswith("BENCH_RESULT ")), None)
    if answer.returncode != 0 or line is None:
        raise RuntimeError(f"wrk {mode} failed: {answer.stdout[-2000:]} {answer.stderr[-2000:]}")
    data = json.loads(line.split(" ", 1)[1])
    errors = data["bad"] + data["socket_errors"]
    return Result(ok=data["ok"], seconds=data["duration_us"] / 1e6, cpu=cpu, p50=data["p50_us"] / 1000,
                  p99=data["p99_us"] / 1000, errors=errors, rss_kib=peak, sample=data["sample"])


def with_token(users, key):
    return [dict(user, token=user[key]) for user in users]


# Workloads -----------------------------------------------------------------------------------------
# Each takes (server, args) and returns {row name: Result}. The server is fresh.

def w_floor(server, args):
    """The health check, which every server answers without a user or a record: what a request
    costs before any of its own work (the HTTP stack, the sockets, the kernel's loopback)."""
    mode = "kith-health" if server.name == "kith" else "pb-health"
    nobody = [{"user": "-", "year": "-", "scope": "-", "email": "-"}]
    return {"floor": run_wrk(server, mode, nobody, args.concurrency, args.seconds),
            "floor, thread per connection": run_wrk(server, mode, nobody, args.concurrency, args.seconds,
                                                    thread_per_connection=True)}


def w_refresh(server, args):
    run = uuid.uuid4().hex[:8]
    users = parallel(lambda i: server.sign_up(i, run, token_kind=None), range(args.concurrency))
    mode = "kith-refresh" if server.name == "kith" else "pb-refresh"
    return {"refresh": run_wrk(server, mode, with_token(users, "refresh"), args.concurrency, args.seconds)}


def w_create(server, args):
    run = uuid.uuid4().hex[:8]
    if server.name == "pocketbase":
        users = parallel(lambda i: server.sign_up(i, run), range(args.concurrency))
        return {"create": run_wrk(server, "pb-create", with_token(users, "access"), args.concurrency, args.seconds)}
    users = parallel(lambda i: server.sign_up(i, run, year=True), range(args.concurrency))
    api = run_wrk(server, "kith-create-api", with_token(users, "pat"), args.concurrency, args.seconds, expect=201)
    push = run_wrk(server, "kith-create-push", with_token(users, "access"), args.concurrency, args.seconds)
    return {"create": api, "create (push)": push}


def fill(server, args):
    """One user with --records contacts (bench/monica.py's names), written straight into each
    server's database as a large import would leave them. Returns (user, lowest id, highest id)."""
    count = args.records
    started = time.monotonic()
    if server.name == "kith":
        user = server.sign_up(0, uuid.uuid4().hex[:8])
        first = server.http.call("POST", "/api/contacts", {
            "first_name": "First", "last_name": "Smith", "is_birthdate_known": False, "is_deceased": False,
            "is_deceased_date_known": False}, auth=f"Bearer {user['pat']}")["data"]
        account = first["account"]["id"]
        if server.database_url:
            seed_postgres(server.database_url, account, 1, count - 1)
        else:
            seed_sqlite(os.path.join(server.data, "kith.sqlite"), account, 1, count - 1)
        low, high = first["id"], first["id"] + count - 1
        server.http.call("GET", f"/api/contacts/{high}", auth=f"Bearer {user['pat']}")
        user["token"] = user["pat"]
    else:
        user = server.sign_up(0, uuid.uuid4().hex[:8])
        db = sqlite3.connect(server.db_path, timeout=60)
        now = datetime.datetime.now(datetime.timezone.utc)

        def records():
            for index in range(count):
                moment = (now + datetime.timedelta(milliseconds=index)).strftime("%Y-%m-%d %H:%M:%S.%f")[:-3] + "Z"
                first, last = (("First", "Smith") if index == 0 else
                               next(monica_rows(0, index, 1))[2:4])
                yield (f"c{index:014d}", first, last, user["user"], moment, moment)
        db.executemany("INSERT INTO contacts (id, first_name, last_name, owner, created, updated) "
                       "VALUES (?, ?, ?, ?, ?, ?)", records())
        db.commit()
        db.close()
        low, high = 0, count - 1
        server.http.call("GET", f"/api/collections/contacts/records/c{high:014d}", auth=user["access"])
        user["token"] = user["access"]
    print(f"#   {server.name}: filled {count:,} records in {time.monotonic() - started:.1f} s", file=sys.stderr)
    return user, low, high


def w_read(server, args):
    user, low, high = fill(server, args)
    mode = "kith-read" if server.name == "kith" else "pb-read"
    return {"read": run_wrk(server, mode, [user], args.concurrency, args.seconds,
                              BENCH_LO=low, BENCH_HI=high)}


def page_of(server, user, query=None, page=2):
    """(items on the page, total) of one list or search request, as the wrk runs make them."""
    if server.name == "kith":
        path = f"/api/contacts?limit=50&page={page}" + (f"&query={urllib.parse.quote(query)}" if query else "&sort=last_name")
        answer = server.http.call("GET", path, auth=f"Bearer {user['token']}")
        return len(answer["data"]), answer["meta"]["total"]
    path = f"/api/collections/contacts/records?perPage=50&page={page}"
    path += "&filter=" + urllib.parse.quote(f"(last_name~'{query}')") if query else "&sort=last_name"
    answer = server.http.call("GET", path, auth=user["token"])
    return len(answer["items"]), answer["totalItems"]


def w_list(server, args):
    user, _, _ = fill(server, args)
    items, total = page_of(server, user)
    if total != args.records or items != min(50, args.records - 50):
        raise RuntimeError(f"a list page has {items} items of {total}; expected 50 of {args.records}")
    mode = "kith-list" if server.name == "kith" else "pb-list"
    pages = max(1, args.records // 50)
    results = {}
    for clients in sorted({4, args.concurrency}):
        results[f"list c{clients}"] = run_wrk(server, mode, [user], clients, args.seconds,
                                                 BENCH_PAGES=pages)
    return results


def w_search(server, args):
    user, _, _ = fill(server, args)
    totals = [page_of(server, user, query, page=1)[1] for query in QUERIES]
    note = "matches " + ",".join(str(t) for t in totals) + " for " + ",".join(QUERIES)
    mode = "kith-search" if server.name == "kith" else "pb-search"
    results = {}
    for clients in sorted({4, args.concurrency}):
        results[f"search c{clients}"] = run_wrk(server, mode, [user], clients, args.seconds,
                                                BENCH_QUERIES=",".join(QUERIES))
        results[f"search c{clients}"].note = note if clients == 4 else ""
    return results


def w_insert(server, args):
    """--records records in batches of 500, one batch at a time from one client."""
    user = server.sign_up(0, uuid.uuid4().hex[:8], token_kind=None, year=server.name == "kith")
    http = Http(server.url)
    batches = []
    for start in range(0, args.records, 500):
        indexes = range(start, min(args.records, start + 500))
        if server.name == "kith":
            batches.append([server.mutation("outreach.contact", str(uuid.uuid4()), user["scope"],
                                            server.contact_fields(user, i)) for i in indexes])
        else:
            batches.append([{"method": "POST", "url": "/api/collections/contacts/records",
                             "body": dict(zip(("first_name", "last_name"), name_of(i)), owner=user["user"])}
                            for i in indexes])
    sampler = RssSampler(server.pid)
    latencies = []
    cpu_before = server.cpu()
    started = time.monotonic()
    for batch in batches:
        began = time.monotonic()
        if server.name == "kith":
            server.push(http, user, batch)
        else:
            answers = http.call("POST", "/api/batch", {"requests": batch}, auth=user["access"])
            bad = [a for a in answers if a.get("status") != 200]
            if bad:
                raise RuntimeError(f"batch refused {len(bad)}: {bad[0]}")
        latencies.append((time.monotonic() - began) * 1000)
    seconds = time.monotonic() - started
    cpu = server.cpu() - cpu_before
    http.close()
    latencies.sort()
    return {"insert (records)": Result(ok=args.records, seconds=seconds, cpu=cpu, rss_kib=sampler.close(),
                                       p50=percentile(latencies, 0.5), p99=percentile(latencies, 0.99),
                                       note="p50/p99 per batch of 500")}


def percentile(values, fraction):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def w_signup(server, args):
    cost_note = f"bcrypt cost {args.bcrypt_cost}"
    if server.name == "kith":
        signup = run_wrk(server, "kith-signup", [{"user": "-", "year": "-", "scope": "-", "email": "-"}],
                         args.concurrency, args.seconds, expect=201)
        mode = "kith-signin"
    else:
        signup = run_wrk(server, "pb-signup", [{"user": "-", "year": "-", "scope": "-", "email": "-"}],
                         args.concurrency, args.seconds)
        real = server.password_cost()
        cost_note = f"bcrypt cost {real} (stored hashes; PocketBase's default is {server.default_cost})"
        mode = "pb-signin"
    run = uuid.uuid4().hex[:8]
    users = parallel(lambda i: server.sign_up(i, run, token_kind=None), range(args.concurrency))
    signin = run_wrk(server, mode, users, args.concurrency, args.seconds)
    signup.note = signin.note = cost_note
    return {"signup": signup, "signin": signin}


# Realtime ----------------------------------------------------------------------------------------

class Fanout:
    """Subscribers of one user; the writer makes one change at a time and waits until every
    subscriber has it (or 5 s), so each arrival is timed against that change's write response."""

    def __init__(self, n, changes):
        self.n, self.changes = n, changes
        self.arrivals = {}  # change index -> list of monotonic times
        self.pending = {}  # key (seq or record id) -> change index
        self.early = {}  # key -> arrival times before the writer learnt the key
        self.response_at = {}
        self.errors = []
        self.ready = 0
        self.events = {}

    def arrived(self, key):
        now = time.monotonic()
        index = self.pending.get(key)
        if index is None:
            self.early.setdefault(key, []).append(now)
            return
        self.arrivals[index].append(now)
        if len(self.arrivals[index]) >= self.n:
            self.events[index].set()

    def register(self, key, index):
        self.pending[key] = index
        for moment in self.early.pop(key, []):
            self.arrivals[index].append(moment)
        if len(self.arrivals[index]) >= self.n:
            self.events[index].set()


async def kith_subscriber(server, user, fanout, ready_event, done):
    url = server.url.replace("http://", "ws://") + "/v1/live"
    try:
        async for _, message in live_messages(url, user["access"], done):
            if message["type"] == "ready":
                fanout.ready += 1
                if fanout.ready == fanout.n:
                    ready_event.set()
            elif message["type"] == "changed":
                fanout.arrived(message["seq"])
            elif message["type"] == "error":
                fanout.errors.append(message)
    except Exception as error:  # noqa: BLE001  a dropped socket is a finding
        fanout.errors.append(repr(error))


def subscribe(server, user, client_id):
    http = Http(server.url)
    try:
        http.call("POST", "/api/realtime", {"clientId": client_id, "subscriptions": ["contacts"]}, auth=user["access"])
    finally:
        http.close()


async def pb_subscriber(server, user, fanout, ready_event, done, loop_pool):
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port, limit=1 << 20)
        # HTTP/1.0: the answer is the raw event stream until the server closes (no chunking).
        writer.write("GET /api/realtime HTTP/1.0\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
        await writer.drain()
        await reader.readuntil(b"\r\n\r\n")
        subscribed = False

        async def close_when_done():
            await done.wait()
            writer.close()

        closer = asyncio.create_task(close_when_done())
        # Each event awaited plainly, as Kith's sockets are (bench/lib/live_socket.py): closing
        # the stream once `done` is set ends the loop.
        while not done.is_set():
            try:
                block = await reader.readuntil(b"\n\n")
            except (asyncio.IncompleteReadError, ConnectionError):
                break
            event, data = None, None
            for line in block.decode().splitlines():
                if line.startswith("event:"):
                    event = line[6:].strip()
                elif line.startswith("data:"):
                    data = line[5:].strip()
            if event == "PB_CONNECT" and not subscribed:
                client_id = json.loads(data)["clientId"]
                loop = asyncio.get_running_loop()
                await loop.run_in_executor(loop_pool, subscribe, server, user, client_id)
                subscribed = True
                fanout.ready += 1
                if fanout.ready == fanout.n:
                    ready_event.set()
            elif event == "contacts":
                fanout.arrived(json.loads(data)["record"]["id"])
        closer.cancel()
        writer.close()
    except Exception as error:  # noqa: BLE001
        fanout.errors.append(repr(error))


def kith_seq(answer):
    """The seq of a one-mutation push: its cursor is base64url of `<scope>=<seq>;…`."""
    import base64
    cursor = answer["cursor"]
    text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
    return max(int(part.rsplit("=", 1)[1]) for part in text.split(";") if "=" in part)


async def realtime_async(server, args):
    user = server.sign_up(0, uuid.uuid4().hex[:8], token_kind=None, year=server.name == "kith")
    fanout = Fanout(args.subscribers, args.changes)
    ready_event, done = asyncio.Event(), asyncio.Event()
    pool = concurrent.futures.ThreadPoolExecutor(8)
    time.sleep(0.5)
    rss_before = rss_kib(server.pid)
    sampler = RssSampler(server.pid)
    if server.name == "kith":
        tasks = [asyncio.create_task(kith_subscriber(server, user, fanout, ready_event, done))
                 for _ in range(args.subscribers)]
    else:
        tasks = [asyncio.create_task(pb_subscriber(server, user, fanout, ready_event, done, pool))
                 for _ in range(args.subscribers)]
    try:
        await asyncio.wait_for(ready_event.wait(), timeout=180)
    except asyncio.TimeoutError:
        pass
    await asyncio.sleep(1)
    rss_connected = rss_kib(server.pid)
    http = Http(server.url)
    loop = asyncio.get_running_loop()
    cpu_before = server.cpu()
    started = time.monotonic()
    latencies = []
    for index in range(args.changes):
        fanout.arrivals[index] = []
        fanout.events[index] = asyncio.Event()
        if server.name == "kith":
            mutation = server.mutation("outreach.contact", str(uuid.uuid4()), user["scope"],
                                       server.contact_fields(user, index))
            answer = await loop.run_in_executor(pool, lambda: server.push(http, user, [mutation]))
            key = kith_seq(answer)
        else:
            first, last = name_of(index)
            answer = await loop.run_in_executor(pool, lambda: http.call(
                "POST", "/api/collections/contacts/records",
                {"first_name": first, "last_name": last, "owner": user["user"]}, auth=user["access"]))
            key = answer["id"]
        fanout.response_at[index] = time.monotonic()
        fanout.register(key, index)
        try:
            await asyncio.wait_for(fanout.events[index].wait(), timeout=5)
        except asyncio.TimeoutError:
            pass
    seconds = time.monotonic() - started
    await asyncio.sleep(2)  # late arrivals still count as delivered
    cpu = server.cpu() - cpu_before
    done.set()
    await asyncio.gather(*tasks)
    pool.shutdown()
    http.close()
    received = 0
    for index, moments in fanout.arrivals.items():
        received += min(len(moments), fanout.n)
        latencies += [(moment - fanout.response_at[index]) * 1000 for moment in moments]
    expected = fanout.n * args.changes
    lost = expected - received
    per_connection = (rss_connected - rss_before) / max(1, fanout.ready)
    note = (f"{fanout.ready}/{fanout.n} subscribed, {received:,}/{expected:,} events, lost {lost:,}; "
            f"RSS {per_connection:.1f} KiB/connection")
    if fanout.errors:
        note += f"; {len(fanout.errors)} subscriber errors, first: {str(fanout.errors[0])[:120]}"
    result = Result(ok=received, seconds=seconds, cpu=cpu, rss_kib=sampler.close(), p50=percentile(latencies, 0.5),
                    p99=percentile(latencies, 0.99), errors=lost, note=note, paced=True)
    result.per_connection_kib = per_connection
    return {"realtime (events)": result}


def w_realtime(server, args):
    return asyncio.run(realtime_async(server, args))


# Main --------------------------------------------------------------------------------------------

RUNNERS = {"floor": w_floor, "refresh": w_refresh, "create": w_create, "read": w_read, "list": w_list, "search": w_search,
           "insert": w_insert, "realtime": w_realtime, "signup": w_signup}


def fmt_rate(result):
    if result is None:
        return "-"
    return f"{result.rate:,.0f} ({result.cpu_ms:.2f})" if result.rate >= 100 else f"{result.rate:,.1f} ({result.cpu_ms:.2f})"


def fmt_lat(result):
    if result is None or result.p50 is None:
        return "-"
    return f"{result.p50:.1f} / {result.p99:.1f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kith-bin", required=True)
    parser.add_argument("--pocketbase-bin", required=True)
    parser.add_argument("--seconds", type=float, default=10, help="per measured phase")
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument("--records", type=int, default=100_000, help="records for read/list/search and insert")
    parser.add_argument("--subscribers", type=int, default=1000)
    parser.add_argument("--changes", type=int, default=100)
    parser.add_argument("--bcrypt-cost", type=int, default=10,
                        help="both servers' bcrypt cost (PocketBase's default is 10)")
    parser.add_argument("--wrk-threads", type=int, default=1,
                        help="wrk threads (at most one per connection; refresh always one per "
                             "connection): each serves its share of the connections and users (decision 98)")
    parser.add_argument("--only", default=",".join(WORKLOADS))
    parser.add_argument("--database-url", help="Kith on PostgreSQL: a fresh database per workload is "
                                               "created (and dropped) with this URL's role")
    parser.add_argument("--postgres-pid", type=int,
                        help="the PostgreSQL postmaster's pid: its CPU is added to Kith's")
    args = parser.parse_args()
    chosen = [w.strip() for w in args.only.split(",") if w.strip()]
    unknown = [w for w in chosen if w not in RUNNERS]
    if unknown:
        parser.error(f"unknown workloads {unknown}; choose from {','.join(WORKLOADS)}")
    if args.records < 2:
        parser.error("--records must be at least 2")

    engine = "PostgreSQL" if args.database_url else "SQLite"
    if args.database_url:
        engine += ", its CPU counted with Kith's" if args.postgres_pid else ", whose CPU is not counted"
    print(f"# Kith ({engine}) vs PocketBase 0.40.6 (SQLite): {args.concurrency} clients, {args.seconds:g} s a phase, "
          f"{args.records:,} records, {args.subscribers:,} subscribers x {args.changes} changes, "
          f"bcrypt cost {args.bcrypt_cost} on both (KITH_BCRYPT_COST={args.bcrypt_cost})", flush=True)
    tmp = tempfile.mkdtemp(prefix="kith-vs-pb-")
    rows, peaks, failed = [], {"pocketbase": 0, "kith": 0}, False
    try:
        for workload in chosen:
            results = {}
            for kind in (PocketBase, Kith):
                print(f"# {workload}: {kind.name}", file=sys.stderr, flush=True)
                server = None
                try:
                    server = kind(args, tmp)
                    results[kind.name] = RUNNERS[workload](server, args)
                except Exception as error:  # noqa: BLE001  one failure must not hide the other rows
                    failed = True
                    print(f"bench: {workload} on {kind.name} failed: {error}", file=sys.stderr, flush=True)
                    if server is not None:
                        server.log.flush()
                        with open(server.log.name, "rb") as f:
                            sys.stderr.write(f.read()[-1500:].decode(errors="replace"))
                    results[kind.name] = {}
                finally:
                    if server is not None:
                        server.stop()
                for result in results[kind.name].values():
                    peaks[kind.name] = max(peaks[kind.name], result.rss_kib)
                    if result.errors:
                        print(f"#   {kind.name}: {result.errors} errors; sample: {result.sample[:200]}",
                              file=sys.stderr)
            pb_rows, kith_rows = results.get("pocketbase", {}), results.get("kith", {})
            new_rows = [(name, pb_rows.get(name) or pb_rows.get(name.split(" (")[0]), result)
                        for name, result in kith_rows.items()]
            new_rows += [(name, result, None) for name, result in pb_rows.items()
                         if not any(row[1] is result for row in new_rows)]
            print_table(new_rows, header=not rows)
            rows += new_rows
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print()
    print("## All workloads")
    print_table(rows, header=True)
    print(f"\npeak RSS: PocketBase {peaks['pocketbase'] / 1024:.0f} MiB, Kith {peaks['kith'] / 1024:.0f} MiB "
          f"(target: Kith under 300 MiB, {'met' if peaks['kith'] < 300 * 1024 else 'MISSED'})")
    print("req/s counts successful requests (events for realtime, records for insert); CPU ms is the server's "
          "utime+stime per one of them; p50/p99 are wrk's (latency after the write's answer for realtime; "
          "per batch of 500 for insert)")
    sys.exit(1 if failed else 0)


def print_table(rows, header):
    if header:
        print("| workload | PocketBase req/s (CPU ms/req) | Kith req/s (CPU ms/req) | Kith/PocketBase | "
              "p50/p99 ms PocketBase | p50/p99 ms Kith | errors PB/Kith | issue 18 target | notes |")
        print("|---|---|---|---|---|---|---|---|---|")
    for name, pb, kith in rows:
        ratio = f"{kith.rate / pb.rate:.2f}x" if pb and kith and pb.rate else "-"
        if pb and kith and kith.paced:
            ratio = f"p99 {kith.p99 / pb.p99:.2f}x (lower is better)" if pb.p99 and pb.p99 > 0 else "-"
        notes = "; ".join(n for n in (f"PB: {pb.note}" if pb and pb.note else "",
                                       f"Kith: {kith.note}" if kith and kith.note else "") if n)
        errors = f"{pb.errors if pb else '-'}/{kith.errors if kith else '-'}"
        print(f"| {name} | {fmt_rate(pb)} | {fmt_rate(kith)} | {ratio} | {fmt_lat(pb)} | {fmt_lat(kith)} | "
              f"{errors} | {target(name, pb, kith)} | {notes} |", flush=True)


def target(name, pb, kith):
    """Issue 18's target for this row: what it asks, and whether this run met it."""
    if kith is None:
        return "-"
    checks = []
    if name.split(" (")[0] in ("refresh", "create", "read") and pb:
        checks = [(">= 2x req/s", kith.rate >= 2 * pb.rate), ("<= 1/2 CPU", kith.cpu_ms <= pb.cpu_ms / 2)]
    elif name.startswith(("list", "search")) and name.endswith(" c4"):
        checks = [("p99 < 20 ms", kith.p99 < 20)]
    elif name.startswith("list") and pb:
        checks = [(">= 5x req/s", kith.rate >= 5 * pb.rate)]
    elif name.startswith("search") and pb:
        checks = [(">= 10x req/s", kith.rate >= 10 * pb.rate)]
    elif name.startswith("realtime"):
        checks = [("lost 0", kith.errors == 0), ("p99 < 50 ms", kith.p99 < 50),
                  ("< 30 KiB/socket (issue: at 10,000)", kith.per_connection_kib < 30)]
    if not checks:
        return "-"
    return ", ".join(f"{what} {'met' if ok else 'MISSED'}" for what, ok in checks)


if __name__ == "__main__":
    main()
