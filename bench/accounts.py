#!/usr/bin/env python3
"""Load test for the accounts API: signup, login and refresh requests per second.

    python3 bench/accounts.py --url http://127.0.0.1:PORT [--concurrency 8] [--seconds 10]

Usually run through bench/run-accounts, which builds and starts a server.
Three phases, each for --seconds with --concurrency threads, one keep-alive
HTTP connection per thread (stdlib only: threads + http.client):

  signup   POST /v1/auth/signup   new accounts bench-<uuid>@example.com
  login    POST /v1/auth/login    the accounts this thread signed up, round-robin
  refresh  POST /v1/auth/refresh  refresh tokens rotate: each response's
                                  refreshToken is the one used next for that account

Each thread owns its accounts, so a rotated refresh token is never used by two
threads at once (reusing a rotated token would rightly be rejected).
Prints requests, errors, req/s (successful requests per second), p50 and p99
latency (of successful requests) per phase; exits 1 if any request failed.
"""

import argparse
import http.client
import json
import math
import sys
import threading
import time
import urllib.parse
import uuid

PASSWORD = "correct horse battery"
EXPECTED = {"signup": 201, "login": 200, "refresh": 200}
MAX_ERROR_SAMPLES = 5


class Client:
    """One keep-alive connection; reconnects once after a dropped connection."""

    def __init__(self, url, timeout):
        parsed = urllib.parse.urlsplit(url)
        if parsed.scheme != "http":
            raise SystemExit(f"only http:// URLs are supported, got {url!r}")
        self.host = parsed.hostname
        self.port = parsed.port or 80
        self.prefix = parsed.path.rstrip("/")
        self.timeout = timeout
        self.conn = None

    def _connect(self):
        self.conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)

    def post_json(self, path, body):
        """Returns (status, parsed JSON or None). Raises on network errors."""
        payload = json.dumps(body).encode()
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        for attempt in (1, 2):
            reused = self.conn is not None
            if not reused:
                self._connect()
            try:
                self.conn.request("POST", self.prefix + path, body=payload, headers=headers)
                resp = self.conn.getresponse()
                data = resp.read()
                if resp.getheader("Connection", "").lower() == "close":
                    self.close()
                break
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                # The server may close an idle keep-alive connection; then (only then)
                # retry once on a new one. A fresh connection failing is a real error.
                self.close()
                if not reused or attempt == 2:
                    raise
        try:
            parsed = json.loads(data) if data else None
        except ValueError:
            parsed = None
        return resp.status, parsed, data

    def close(self):
        if self.conn is not None:
            self.conn.close()
            self.conn = None


class PhaseStats:
    def __init__(self, name):
        self.name = name
        self.lock = threading.Lock()
        self.latencies = []  # seconds, successful requests only
        self.requests = 0
        self.errors = 0
        self.error_samples = []
        self.elapsed = 0.0

    def record(self, latency, error=None):
        with self.lock:
            self.requests += 1
            if error is None:
                self.latencies.append(latency)
            else:
                self.errors += 1
                if len(self.error_samples) < MAX_ERROR_SAMPLES and error not in self.error_samples:
                    self.error_samples.append(error)

    def percentile_ms(self, p):
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        # Nearest-rank percentile.
        rank = max(1, math.ceil(p / 100.0 * len(ordered)))
        return ordered[rank - 1] * 1000.0

    def as_dict(self):
        return {
            "phase": self.name,
            "requests": self.requests,
            "errors": self.errors,
            "seconds": round(self.elapsed, 3),
            # Successful requests only: fast failures (e.g. 429s) must not inflate it.
            "rps": round(len(self.latencies) / self.elapsed, 2) if self.elapsed else 0.0,
            "p50_ms": round(self.percentile_ms(50), 2),
            "p99_ms": round(self.percentile_ms(99), 2),
        }


class Account:
    __slots__ = ("email", "refresh_token")

    def __init__(self, email, refresh_token):
        self.email = email
        self.refresh_token = refresh_token


def check_auth_response(phase, status, body, raw):
    """None if the response is a well-formed auth response, else an error string."""
    if status != EXPECTED[phase]:
        snippet = raw[:200].decode("utf-8", "replace") if raw else ""
        return f"{phase}: HTTP {status} (expected {EXPECTED[phase]}): {snippet}"
    if not isinstance(body, dict):
        return f"{phase}: response is not a JSON object"
    for key in ("user", "accessToken", "refreshToken", "expiresIn"):
        if key not in body:
            return f"{phase}: response lacks {key!r}"
    return None


def timed(client, stats, phase, path, body):
    """One request; records it; returns the parsed body on success, else None."""
    start = time.perf_counter()
    try:
        status, parsed, raw = client.post_json(path, body)
        error = check_auth_response(phase, status, parsed, raw)
    except Exception as exc:  # network errors, timeouts
        client.close()
        stats.record(time.perf_counter() - start, f"{phase}: {type(exc).__name__}: {exc}")
        time.sleep(0.05)  # server unreachable: don't spin
        return None
    stats.record(time.perf_counter() - start, error)
    return parsed if error is None else None


def run_phase(name, threads_work, seconds):
    """Run threads_work[i](deadline, stats) in parallel until the deadline."""
    stats = PhaseStats(name)
    start = time.perf_counter()
    deadline = start + seconds
    threads = [
        threading.Thread(target=work, args=(deadline, stats), name=f"{name}-{i}", daemon=True)
        for i, work in enumerate(threads_work)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    stats.elapsed = time.perf_counter() - start
    return stats


class Worker:
    def __init__(self, url, timeout):
        self.client = Client(url, timeout)
        self.accounts = []

    def signup(self, deadline, stats):
        while time.perf_counter() < deadline:
            email = f"bench-{uuid.uuid4()}@example.com"
            body = timed(self.client, stats, "signup", "/v1/auth/signup",
                         {"email": email, "password": PASSWORD})
            if body is not None:
                self.accounts.append(Account(email, body["refreshToken"]))

    def login(self, deadline, stats):
        i = 0
        while self.accounts and time.perf_counter() < deadline:
            account = self.accounts[i % len(self.accounts)]
            i += 1
            body = timed(self.client, stats, "login", "/v1/auth/login",
                         {"email": account.email, "password": PASSWORD})
            if body is not None:
                # A fresh session; refresh from the newest one.
                account.refresh_token = body["refreshToken"]

    def refresh(self, deadline, stats):
        i = 0
        while time.perf_counter() < deadline:
            live = [a for a in self.accounts if a.refresh_token]
            if not live:
                return
            account = live[i % len(live)]
            i += 1
            body = timed(self.client, stats, "refresh", "/v1/auth/refresh",
                         {"refreshToken": account.refresh_token})
            # Tokens rotate: use the new one next time. On failure this account's
            # token is in an unknown state, so stop using it rather than pile up errors.
            account.refresh_token = body["refreshToken"] if body is not None else None


def print_table(results):
    header = f"{'phase':<8} {'requests':>9} {'errors':>7} {'req/s':>9} {'p50 ms':>9} {'p99 ms':>9}"
    print(header)
    print("-" * len(header))
    for r in results:
        print(f"{r['phase']:<8} {r['requests']:>9} {r['errors']:>7} {r['rps']:>9.1f} "
              f"{r['p50_ms']:>9.1f} {r['p99_ms']:>9.1f}")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--url", required=True, help="base URL, e.g. http://127.0.0.1:8080")
    p.add_argument("--concurrency", type=int, default=8)
    p.add_argument("--seconds", type=float, default=10.0, help="duration of each phase")
    p.add_argument("--timeout", type=float, default=30.0, help="per-request timeout (s)")
    p.add_argument("--json", metavar="PATH", help="also write the results as JSON here")
    args = p.parse_args(argv)
    if args.concurrency < 1 or args.seconds <= 0:
        p.error("--concurrency must be >= 1 and --seconds > 0")

    workers = [Worker(args.url, args.timeout) for _ in range(args.concurrency)]
    print(f"bench: {args.url}, {args.concurrency} threads, {args.seconds:g}s per phase", flush=True)

    phases = []
    for name in ("signup", "login", "refresh"):
        stats = run_phase(name, [getattr(w, name) for w in workers], args.seconds)
        phases.append(stats)
        r = stats.as_dict()
        print(f"  {name}: {r['requests']} requests, {r['errors']} errors, {r['rps']} req/s", flush=True)

    for w in workers:
        w.client.close()

    results = [s.as_dict() for s in phases]
    print()
    print_table(results)

    failed = False
    for s in phases:
        if s.errors:
            failed = True
            print(f"\n{s.name}: {s.errors} failed requests, e.g.:", file=sys.stderr)
            for sample in s.error_samples:
                print(f"  {sample}", file=sys.stderr)
        if s.requests == 0:
            failed = True
            print(f"\n{s.name}: no requests were made", file=sys.stderr)

    if args.json:
        with open(args.json, "w") as f:
            json.dump({"url": args.url, "concurrency": args.concurrency,
                       "seconds": args.seconds, "phases": results}, f, indent=2)
            f.write("\n")

    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
