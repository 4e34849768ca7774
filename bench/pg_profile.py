#!/usr/bin/env python3
"""Where a request's time goes on PostgreSQL, route by route (bench/run-pg-profile runs this); on
SQLite (no --database-url) the same routes with the server's CPU only, to compare.

For each route: REQUESTS requests over CONNECTIONS keep-alive connections, then
  - the server's CPU per request and PostgreSQL's (postmaster and every backend), from /proc;
  - the server's thread switches per request (each time one of its threads went to sleep or was
    put aside), from /proc: a request that wakes another thread at each step pays for it here;
  - statements per request (each is a round trip: the driver sends one at a time) and their time
    in PostgreSQL (planning + execution), from pg_stat_statements, reset before each route;
  - the statements that ran most per request.
"""

import argparse
import http.client
import json
import os
import subprocess
import threading
import time
import urllib.parse
import uuid

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def thread_switches(pid):
    """Context switches of every thread of `pid` so far, voluntary and not."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/status") as status:
                total += sum(int(line.split()[1]) for line in status if "ctxt_switches" in line)
        except (FileNotFoundError, ProcessLookupError):
            pass  # a thread that ended meanwhile
    return total


def tree_cpu(root):
    """CPU of `root` and its children (PostgreSQL's backends are the postmaster's children)."""
    total = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            if int(name) == root or int(fields[1]) == root:
                total[int(name)] = (int(fields[11]) + int(fields[12])) / TICKS
        except (FileNotFoundError, ProcessLookupError):
            pass
    return total


def psql(database_url, sql):
    answer = subprocess.run(
        ["psql", "-X", "-q", "-A", "-t", "-F", "\t", database_url, "-c", sql],
        check=True, capture_output=True, text=True)
    return [line.split("\t") for line in answer.stdout.splitlines() if line]


class Client:
    def __init__(self, url):
        parts = urllib.parse.urlsplit(url)
        self.connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)

    def send(self, method, path, token=None, body=None):
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self.connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = self.connection.getresponse()
        data = response.read()
        return response.status, (json.loads(data) if data and data[:1] in (b"{", b"[") else None)


def sign_up(url, email):
    status, session = Client(url).send(
        "POST", "/v1/auth/signup", body={"email": email, "password": "correct horse battery"})
    assert status == 201, (status, session)
    return session


def mutation(user_id, counter, entity, fields):
    return {"mutationId": str(uuid.uuid4()), "entity": entity, "id": str(uuid.uuid4()), "scope": f"user:{user_id}",
            "op": "upsert", "hlc": f"{int(time.time() * 1000):015d}-{counter % 100000:05d}-bench", "fields": fields}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--database-url", help="PostgreSQL's; without it the server runs on SQLite")
    parser.add_argument("--server-pid", type=int, required=True)
    parser.add_argument("--postgres-pid", type=int)
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--connections", type=int, default=4)
    parser.add_argument("--only", default="")
    parser.add_argument("--top", type=int, default=4, help="statements listed per route")
    parser.add_argument("--width", type=int, default=70, help="characters of each statement listed")
    args = parser.parse_args()
    url = args.url

    # One user per connection (refresh chains each its own token), all with the same data.
    users = [sign_up(url, f"profile{index}@example.com") for index in range(args.connections)]
    contact_body = {"first_name": "Ada", "last_name": "Lovelace", "is_birthdate_known": False, "is_deceased": False,
                    "is_deceased_date_known": False}
    for user in users:
        client = Client(url)
        status, made = client.send("POST", "/api/contacts", user["accessToken"], contact_body)
        assert status == 201, (status, made)
        user["contact"] = made["data"]["id"]
        status, token = client.send("POST", "/v1/tokens", user["accessToken"], {"name": "profile"})
        user["personal"] = token["token"]
        year = mutation(user["user"]["id"], 0, "outreach.year", {"name": "2026", "createdAt": "2026-01-01T00:00:00.000Z"})
        status, answer = client.send("POST", "/v1/sync/push", user["accessToken"],
                                     {"clientId": str(uuid.uuid4()), "mutations": [year]})
        assert status == 200 and answer["results"][0]["status"] == "applied", answer
        user["year"] = year["id"]
        user["counter"] = 1

    def floor(client, user):
        return client.send("GET", "/healthz")

    def refresh(client, user):
        status, session = client.send("POST", "/v1/auth/refresh", body={"refreshToken": user["refreshToken"]})
        if status == 200:
            user["refreshToken"], user["accessToken"] = session["refreshToken"], session["accessToken"]
        return status, session

    def read(client, user):
        return client.send("GET", f"/api/contacts/{user['contact']}", user["personal"])

    def list_page(client, user):
        return client.send("GET", "/api/contacts?limit=50&page=1&sort=last_name", user["personal"])

    def create_api(client, user):
        return client.send("POST", "/api/contacts", user["personal"], contact_body)

    def create_push(client, user):
        user["counter"] += 1
        change = mutation(user["user"]["id"], user["counter"], "outreach.contact",
                          {"yearId": user["year"], "firstName": "Ada", "lastName": f"L{user['counter']}",
                           "enterpriseName": "Bench"})
        return client.send("POST", "/v1/sync/push", user["accessToken"],
                           {"clientId": str(uuid.uuid4()), "mutations": [change]})

    def pull(client, user):
        return client.send("GET", "/v1/sync/pull?limit=50", user["accessToken"])

    routes = [
        ("floor: GET /healthz", floor), ("refresh: POST /v1/auth/refresh", refresh),
        ("read: GET /api/contacts/ID", read), ("list: GET /api/contacts?limit=50", list_page),
        ("create: POST /api/contacts", create_api), ("create: POST /v1/sync/push (1)", create_push),
        ("pull: GET /v1/sync/pull?limit=50", pull),
    ]
    only = set(filter(None, args.only.split(",")))
    print("| route | req/s | server CPU ms/req | server thread switches/req | PostgreSQL CPU ms/req | statements/req "
          "| in PostgreSQL ms/req | most run |")
    print("|---|---|---|---|---|---|---|---|")
    for label, call in routes:
        if only and not any(name in label for name in only):
            continue
        if args.database_url:
            psql(args.database_url, "SELECT pg_stat_statements_reset()")
        per_connection = args.requests // args.connections
        failures = []
        server_before = cpu_seconds(args.server_pid)
        switches_before = thread_switches(args.server_pid)
        postgres_before = tree_cpu(args.postgres_pid) if args.postgres_pid else {}
        started = time.monotonic()

        def run(user):
            client = Client(url)
            for _ in range(per_connection):
                status, body = call(client, user)
                if status >= 300:
                    failures.append((status, body))

        threads = [threading.Thread(target=run, args=(user,)) for user in users]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - started
        server_cpu = cpu_seconds(args.server_pid) - server_before
        switches = (thread_switches(args.server_pid) - switches_before) / (per_connection * len(users))
        postgres_after = tree_cpu(args.postgres_pid) if args.postgres_pid else {}
        postgres_cpu = sum(postgres_after[pid] - postgres_before.get(pid, 0) for pid in postgres_after)
        done = per_connection * len(users)
        if not args.database_url:
            note = f"{len(failures)} FAILED, the first: {failures[0]}" if failures else ""
            print(f"| {label} | {done / elapsed:,.0f} | {server_cpu * 1000 / done:.3f} | {switches:.1f} | - | - | - | {note} |",
                  flush=True)
            continue
        rows = psql(args.database_url, """
            SELECT calls, total_exec_time + total_plan_time, regexp_replace(query, '\\s+', ' ', 'g')
            FROM pg_stat_statements
            WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
              AND query NOT ILIKE '%pg_stat_statements%'
            ORDER BY calls DESC""")
        statements = sum(int(row[0]) for row in rows)
        in_postgres = sum(float(row[1]) for row in rows)
        most = "; ".join(f"{int(row[0]) / done:.2f}× {row[2][:args.width]}" for row in rows[:args.top])
        if failures:
            most = f"{len(failures)} FAILED, the first: {failures[0]}; " + most
        print(f"| {label} | {done / elapsed:,.0f} | {server_cpu * 1000 / done:.3f} | {switches:.1f} "
              f"| {postgres_cpu * 1000 / done:.3f} "
              f"| {statements / done:.2f} | {in_postgres / done:.3f} | {most} |", flush=True)


if __name__ == "__main__":
    main()
