#!/usr/bin/env python3
"""Do two servers on one PostgreSQL serve more than one? (bench/run-servers runs this.)

The same load (wrk, two processes of one thread, --connections keep-alive connections between them)
on each route, first against one `kith serve`, then split between two on the same database. For
each: requests a second, CPU per request of the servers and of PostgreSQL, and how many of the
machine's cores were busy (all CPU time over the wall time, the load generator's included).
"""

import argparse
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pg_profile import Client, cpu_seconds, sign_up, tree_cpu  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def machine_busy_seconds():
    with open("/proc/stat") as stat:
        fields = [int(value) for value in stat.readline().split()[1:]]
    idle = fields[3] + fields[4]
    return (sum(fields[:8]) - idle) / TICKS


class Server:
    def __init__(self, kith_bin, database_url, directory, cores=None):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = open(os.path.join(directory, f"server-{self.port}.log"), "w")
        environment = dict(os.environ, KITH_GEOCODER_URL="off")
        pinned = ["taskset", "-c", ",".join(map(str, cores))] if cores else []
        self.process = subprocess.Popen(
            pinned + [kith_bin, "serve", "--data", os.path.join(directory, f"data-{self.port}"), "--port", str(self.port),
             "--database-url", database_url],
            stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=environment)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"bench: the server on port {self.port} exited; see {self.log.name}")
            try:
                if urllib.request.urlopen(self.url + "/healthz", timeout=2).status == 200:
                    return
            except OSError:
                time.sleep(0.2)
        raise SystemExit(f"bench: the server on port {self.port} did not become healthy")

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def wrk(url, path, token, connections, seconds, script_directory, body=None):
    """Starts one wrk process (one thread) against url + path; returns it (read its output after)."""
    script = os.path.join(script_directory, f"wrk-{abs(hash((url, path, body)))}.lua")
    with open(script, "w") as lua:
        lua.write(f'wrk.headers["Authorization"] = "Bearer {token}"\n')
        lua.write('wrk.headers["Content-Type"] = "application/json"\n')
        if body is not None:
            lua.write(f'wrk.method = "POST"\nwrk.body = [[{body}]]\n')
    return subprocess.Popen(
        ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "-s", script, url + path],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def completed_requests(output):
    done = re.search(r"(\d+) requests in", output)
    failed = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    bad = (int(failed.group(1)) if failed else 0) + (sum(int(value) for value in errors.groups()) if errors else 0)
    return int(done.group(1)) if done else 0, bad


def measure(servers, postgres_pid, routes, connections, seconds, directory):
    """One route's load split evenly between two wrk processes, each against one of `servers`
    (both against the same one when there is one)."""
    targets = [servers[index % len(servers)] for index in range(2)]
    results = []
    for label, path, token, body in routes:
        server_before = sum(cpu_seconds(server.process.pid) for server in servers)
        postgres_before = tree_cpu(postgres_pid)
        busy_before = machine_busy_seconds()
        started = time.monotonic()
        loads = [wrk(target.url, path, token, connections // 2, seconds, directory, body) for target in targets]
        outputs = [load.communicate()[0] for load in loads]
        elapsed = time.monotonic() - started
        server_cpu = sum(cpu_seconds(server.process.pid) for server in servers) - server_before
        postgres_after = tree_cpu(postgres_pid)
        postgres_cpu = sum(postgres_after[pid] - postgres_before.get(pid, 0) for pid in postgres_after)
        busy = machine_busy_seconds() - busy_before
        counts = [completed_requests(output) for output in outputs]
        done = sum(count for count, _ in counts)
        bad = sum(failed for _, failed in counts)
        if done == 0 or bad:
            raise SystemExit(f"bench: {label}: {done} requests, {bad} failed:\n" + "\n".join(outputs))
        results.append((label, done / elapsed, server_cpu * 1000 / done, postgres_cpu * 1000 / done, busy / elapsed))
    return results


def routes_of(server, name, contacts):
    """A new user with `contacts` contacts and a personal token, and the routes measured on them:
    each phase has its own, so what one phase's creates add does not change the next one's list."""
    user = sign_up(server.url, f"servers-{name}@example.com")
    client = Client(server.url)
    for index in range(contacts):
        status, made = client.send("POST", "/api/contacts", user["accessToken"], {
            "first_name": "Ada", "last_name": f"Lovelace {index}", "is_birthdate_known": False,
            "is_deceased": False, "is_deceased_date_known": False})
        assert status == 201, (status, made)
    status, token = client.send("POST", "/v1/tokens", user["accessToken"], {"name": "servers"})
    assert status == 201, (status, token)
    personal = token["token"]
    return [
        ("floor: GET /healthz", "/healthz", personal, None),
        ("read: GET /api/contacts/ID", f"/api/contacts/{made['data']['id']}", personal, None),
        ("list: GET /api/contacts?limit=50", "/api/contacts?limit=50&page=1", personal, None),
        # Last: it adds contacts.
        ("create: POST /api/contacts", "/api/contacts", personal,
         '{"first_name":"Ada","last_name":"Byron","is_birthdate_known":false,"is_deceased":false,'
         '"is_deceased_date_known":false}'),
    ]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kith-bin", required=True)
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--postgres-pid", type=int, required=True)
    parser.add_argument("--seconds", type=int, default=8)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--contacts", type=int, default=100, help="each phase's user's contacts")
    parser.add_argument("--pin", action="store_true",
                        help="each server on a core of its own (taskset): the first on core 0, the second on core 1")
    args = parser.parse_args()
    directory = tempfile.mkdtemp(prefix="kith-servers.")
    pin = [0] if args.pin else None
    servers = [Server(args.kith_bin, args.database_url, directory, pin)]
    try:
        one = measure(servers, args.postgres_pid, routes_of(servers[0], "one", args.contacts), args.connections,
                      args.seconds, directory)
        servers.append(Server(args.kith_bin, args.database_url, directory, [1] if args.pin else None))
        two = measure(servers, args.postgres_pid, routes_of(servers[0], "two", args.contacts), args.connections,
                      args.seconds, directory)
    finally:
        for server in servers:
            server.stop()
        shutil.rmtree(directory, ignore_errors=True)

    print(f"{os.cpu_count()} cores; {args.connections} connections from two wrk threads; {args.seconds} s a route; "
          f"{args.contacts} contacts; " + ("each server on a core of its own" if args.pin else "servers on every core"))
    print("| route | servers | req/s | servers' CPU ms/req | PostgreSQL CPU ms/req | cores busy | two / one |")
    print("|---|---|---|---|---|---|---|")
    for (label, rate1, server1, pg1, busy1), (_, rate2, server2, pg2, busy2) in zip(one, two):
        print(f"| {label} | 1 | {rate1:,.0f} | {server1:.3f} | {pg1:.3f} | {busy1:.2f} | |")
        print(f"| {label} | 2 | {rate2:,.0f} | {server2:.3f} | {pg2:.3f} | {busy2:.2f} | {rate2 / rate1:.2f}x |")


if __name__ == "__main__":
    main()
