#!/usr/bin/env python3
"""Monica API benchmark: a page of 50 contacts and a contact search, at 10,000 and 100,000
contacts in one account, requests per second and latency.

    python3 bench/monica.py --url http://127.0.0.1:PORT --sqlite PATH | --database-url URL

Usually run through bench/run-monica, which builds and starts a release server. The account is
made through the API (sign-up, personal token, one contact); the other contacts are written
straight into the server's database, the way a large import would leave them, because making
100,000 through the API would take longer than the measurement itself. Each phase runs for
--seconds with --concurrency threads, one keep-alive connection each.
"""

import argparse
import http.client
import json
import os
import random
import subprocess
import sys
import threading
import time
import unicodedata
import urllib.parse
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from accounts import PhaseStats  # noqa: E402

FIRST = ["John", "Jon", "Jonathan", "Mary", "Maria", "Robert", "Rupert", "Anna", "Hannah", "Élodie", "José",
         "Zoë", "Liam", "Noah", "Olivia", "Emma", "Ava", "Sophia", "Isabella", "Mia", "Lucas", "Mason", "Ethan",
         "Logan", "Amelia", "Harper", "Evelyn", "Abigail", "Emily", "Ella", "Chloe", "Grace", "Victoria", "Lily"]
LAST = ["Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez",
        "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin",
        "Lee", "Perez", "Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson", "Müller"]
QUERIES = ["john", "Jonathan", "mary", "rob", "smith", "elodie", "garcia", "Hanna", "Jon Smith", "zoe", "mueller"]
COLORS = ["#fdb660", "#93521e", "#bd5067", "#b3d5fe"]


def fold(text):
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def request(conn, method, path, token=None, body=None):
    headers = {"Accept": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    payload = None
    if body is not None:
        payload = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    conn.request(method, path, body=payload, headers=headers)
    response = conn.getresponse()
    data = response.read()
    return response.status, data


def connect(url):
    parsed = urllib.parse.urlsplit(url)
    return http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=60)


def set_up_account(url):
    conn = connect(url)
    email = f"monica-bench-{uuid.uuid4()}@example.com"
    status, data = request(conn, "POST", "/v1/auth/signup", body={"email": email, "password": "correct horse"})
    assert status == 201, data
    access = json.loads(data)["accessToken"]
    status, data = request(conn, "POST", "/v1/tokens", token=access, body={"name": "bench"})
    assert status == 201, data
    token = json.loads(data)["token"]
    status, data = request(conn, "POST", "/api/contacts", token=token, body={
        "first_name": "First", "is_birthdate_known": False, "is_deceased": False, "is_deceased_date_known": False})
    assert status == 201, data
    account = json.loads(data)["data"]["account"]["id"]
    conn.close()
    return token, account


def rows(account, start, count):
    now = int(time.time() * 1000)
    for index in range(start, start + count):
        first = FIRST[index % len(FIRST)]
        last = LAST[(index // len(FIRST)) % len(LAST)] + ("" if index < 1000 else str(index % 97))
        words = [fold(first), fold(last)]
        yield (str(uuid.uuid4()), account, first, last, random.choice(COLORS), " ".join(words), now + index, now + index)


# What the server does with every contact change, so its search index reads the new contacts.
BUMP = "UPDATE monica_accounts SET contacts_version = contacts_version + 1 WHERE id = ?"
COLUMNS = "uuid, account_id, first_name, last_name, avatar_color, search_text, created_at, updated_at"


def seed_sqlite(path, account, start, count):
    import sqlite3
    db = sqlite3.connect(path, timeout=30)
    db.executemany(f"INSERT INTO monica_contacts ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                   rows(account, start, count))
    db.execute(BUMP, (account,))
    db.commit()
    db.close()


def seed_postgres(url, account, start, count):
    def escape(value):
        return str(value).replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")
    text = "".join("\t".join(escape(v) for v in row) + "\n" for row in rows(account, start, count))
    subprocess.run(["psql", url, "-q", "-c", f"COPY monica_contacts ({COLUMNS}) FROM STDIN"],
                   input=text.encode(), check=True)
    subprocess.run(["psql", url, "-q", "-c", "ANALYZE monica_contacts"], check=True)
    subprocess.run(["psql", url, "-q", "-c", BUMP.replace("?", str(int(account)))], check=True)


def run_phase(name, url, token, seconds, concurrency, make_path):
    stats = PhaseStats(name)
    deadline = time.monotonic() + seconds

    def worker(seed):
        rng = random.Random(seed)
        conn = connect(url)
        while time.monotonic() < deadline:
            path = make_path(rng)
            started = time.monotonic()
            try:
                status, data = request(conn, "GET", path, token=token)
                error = None if status == 200 else f"{path}: HTTP {status} {data[:120]!r}"
            except (OSError, http.client.HTTPException) as problem:
                conn.close()
                conn = connect(url)
                error = f"{path}: {problem}"
            stats.record(time.monotonic() - started, error)
        conn.close()

    began = time.monotonic()
    threads = [threading.Thread(target=worker, args=(i,)) for i in range(concurrency)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    stats.elapsed = time.monotonic() - began
    return stats


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True)
    parser.add_argument("--sqlite", help="the server's SQLite file")
    parser.add_argument("--database-url", help="the server's PostgreSQL database")
    parser.add_argument("--counts", default="10000,100000")
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--concurrency", type=int, default=4)
    args = parser.parse_args()
    if bool(args.sqlite) == bool(args.database_url):
        raise SystemExit("give exactly one of --sqlite and --database-url")

    token, account = set_up_account(args.url)
    have = 1
    failed = False
    print(f"{'contacts':>9}  {'phase':<14} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'errors':>6}")
    for count in (int(c) for c in args.counts.split(",")):
        started = time.monotonic()
        if args.sqlite:
            seed_sqlite(args.sqlite, account, have, count - have)
        else:
            seed_postgres(args.database_url, account, have, count - have)
        print(f"# seeded {count - have} contacts in {time.monotonic() - started:.1f} s", file=sys.stderr)
        have = count
        last_page = count // 50
        phases = [
            ("list limit=50", lambda rng: f"/api/contacts?limit=50&page={rng.randint(1, last_page)}"),
            ("search", lambda rng: "/api/contacts?limit=50&query=" + urllib.parse.quote(rng.choice(QUERIES))),
        ]
        for name, make_path in phases:
            stats = run_phase(name, args.url, token, args.seconds, args.concurrency, make_path)
            result = stats.as_dict()
            print(f"{count:>9}  {name:<14} {result['rps']:>8} {result['p50_ms']:>8} {result['p99_ms']:>8} "
                  f"{result['errors']:>6}", flush=True)
            for sample in stats.error_samples:
                print(f"  error: {sample}", file=sys.stderr)
            failed = failed or stats.errors > 0
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
