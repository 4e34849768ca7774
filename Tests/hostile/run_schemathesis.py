#!/usr/bin/env python3
"""schemathesis against a real `kith serve` and the /openapi.yaml it serves, for a bounded time,
with every check on. Fails on any 5xx, schema violation, network error or server crash.

    KITH_BINARY=.build/debug/kith python3 Tests/hostile/run_schemathesis.py [--minutes 3]
        [--engine sqlite|postgres] [--database-url URL] [--schema FILE] [--seed N] [--report-dir DIR]

The user is a fresh account whose personal access token authenticates the run: the run cannot
sign it out (a personal token has no session), cannot guess its password (so no password change
and no DELETE /v1/me, which is left out anyway), and GET /v1/tokens is read as a second account,
so the run never learns its own token's id to revoke it; the token is checked to still work at the end.
GET /v1/live is left out: schemathesis speaks no WebSocket (test_raw_http.py covers it). Settings
and the statuses each check accepts are in schemathesis.toml next to this file.

Environment: KITH_BINARY (required); KITH_SCHEMATHESIS_MINUTES (default 3); KITH_TEST_DATABASE_URL
(a PostgreSQL superuser URL, for --engine postgres: a fresh database is made and dropped).
Exit status: 0 when everything passed; 1 otherwise.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import requests  # noqa: E402

from kith_hostile import KithServer, ServerError  # noqa: E402

def schemathesis_command(schema: str, base_url: str, seconds: int, workers: int = 2, seed=None,
                         report_dir: str = None) -> list:
    """The schemathesis command line (this file's settings); run it with schemathesis_env()."""
    command = [sys.executable, "-c",
               "import sys; from schemathesis.cli import schemathesis; sys.argv[0] = 'schemathesis'; "
               "sys.exit(schemathesis())",
               "--config-file", str(HERE / "schemathesis.toml"), "--no-color",
               "run", schema, "--url", base_url, "--checks", "all", "--max-time", str(seconds),
               "--workers", str(workers), "--max-failures", "100", "--continue-on-failure"]
    if report_dir:
        command += ["--report", "junit", "--report-dir", report_dir]
    if seed is not None:
        command += ["--seed", str(seed)]
    return command


def run_tokens(server) -> tuple:
    """(the run's personal access token, a second account's) on a fresh server."""
    account = server.signup()
    token = server.personal_token(account["accessToken"], "schemathesis")
    other = server.signup()
    return token, server.personal_token(other["accessToken"], "schemathesis other")


def schemathesis_env(token: str, other_token: str) -> dict:
    return dict(os.environ, KITH_SCHEMATHESIS_TOKEN=token, KITH_SCHEMATHESIS_OTHER_TOKEN=other_token)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=float(os.environ.get("KITH_SCHEMATHESIS_MINUTES", "3")))
    parser.add_argument("--engine", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--database-url", help="PostgreSQL superuser URL (default KITH_TEST_DATABASE_URL)")
    parser.add_argument("--schema", help="a local openapi.yaml instead of the one the server serves")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int)
    parser.add_argument("--report-dir", default=None)
    args = parser.parse_args(argv)
    if args.database_url:
        os.environ["KITH_TEST_DATABASE_URL"] = args.database_url
        args.engine = "postgres"
    work = Path(tempfile.mkdtemp(prefix="kith-schemathesis-"))
    args.report_dir = args.report_dir or str(work / "report")

    try:
        server = KithServer(args.engine, env={"KITH_API_RATE_LIMIT": "100000"}).start()
    except ServerError as error:
        print(f"schemathesis: {error}", file=sys.stderr)
        return 1
    crashed = threading.Event()
    try:
        token, other_token = run_tokens(server)
        schema = server.url("/openapi.yaml")
        if args.schema:
            schema = args.schema if "://" in args.schema else str(Path(args.schema).resolve())
        seconds = max(1, int(args.minutes * 60))
        env = schemathesis_env(token, other_token)
        command = schemathesis_command(schema, server.base_url, seconds, args.workers, args.seed, args.report_dir)
        print(f"==> schemathesis on {args.engine} for {seconds} s against {schema}", flush=True)
        started = time.monotonic()
        process = subprocess.Popen(command, cwd=work, env=env)

        def watch():
            # A crash mid-run must not be mistaken for a network error: stop at once and say so.
            while process.poll() is None:
                if not server.alive():
                    crashed.set()
                    process.terminate()
                    return
                time.sleep(0.5)

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        try:
            status = process.wait(timeout=seconds + 600)
        except subprocess.TimeoutExpired:
            process.kill()
            status = process.wait()
            print("schemathesis: did not finish within 10 minutes of its time budget", file=sys.stderr)
            status = status or 1
        watcher.join(2)
        elapsed = time.monotonic() - started

        problems = []
        if crashed.is_set() or not server.alive():
            problems.append(f"the server process exited (status {server.process.poll()}) during the run; its log:\n"
                            + server.recent_log(60))
        else:
            health = server.health_problem()
            if health:
                problems.append(f"after the run: {health}")
            me = requests.get(server.url("/v1/me"), headers={"Authorization": f"Bearer {token}"}, timeout=10)
            if me.status_code != 200:
                problems.append(f"the run's personal access token no longer works (GET /v1/me: {me.status_code}); "
                                "the run tested less than it should have")
        if status != 0:
            problems.append(f"schemathesis exited with status {status} (failures above; JUnit in {args.report_dir})")
        print(f"==> schemathesis on {args.engine}: {elapsed:.0f} s, "
              + ("ok" if not problems else "FAILED"), flush=True)
        for problem in problems:
            print(f"schemathesis: {problem}", file=sys.stderr)
        if not problems:
            shutil.rmtree(work, ignore_errors=True)  # a failed run keeps its report
        return 1 if problems else 0
    finally:
        server.stop()


if __name__ == "__main__":
    sys.exit(main())
