#!/usr/bin/env python3
"""Sync benchmark (issue 3): times and peak memory of `kith sync` as a real device.

1. push: a signed-in profile with N queued changes (filled by kith-bench) runs `kith sync`.
2. seed: more queued changes are pushed until the account holds M records.
3. first pull: a new profile of the same account runs `kith sync` into an empty store.

Each step is a separate process, so its peak RSS and CPU time (from wait4) are that step's alone;
the server's CPU time over the step is read from /proc when its pid is given, so a slow step shows
which side spent the time.
"""
import argparse
import os
import subprocess
import sys
import time


def server_cpu(pid):
    """The server's user + system CPU seconds so far (0 when no pid was given)."""
    if not pid:
        return 0.0
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run(command, env, stdin=None):
    """Runs a command; returns (seconds, peak RSS in MiB, stdout, client CPU s). Fails loudly on a non-zero exit."""
    started = time.monotonic()
    process = subprocess.Popen(command, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if stdin is not None:
        process.stdin.write(stdin.encode())
    process.stdin.close()
    out = process.stdout.read().decode()
    err = process.stderr.read().decode()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.monotonic() - started
    if process.returncode != 0:
        sys.exit(f"bench: {' '.join(command)} failed ({process.returncode}):\n{out}\n{err}")
    return seconds, usage.ru_maxrss / 1024, out, usage.ru_utime + usage.ru_stime


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kith", required=True)
    parser.add_argument("--filler", required=True)
    parser.add_argument("--url", required=True)
    parser.add_argument("--home", required=True)
    parser.add_argument("--push", type=int, default=10_000)
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--server-pid", type=int, default=0, help="the server's pid, to read its CPU time per step")
    args = parser.parse_args()

    env = dict(os.environ, KITH_HOME=args.home, KITH_TIMEOUT="120", KITH_PASSWORD="bench password 1")
    email = f"bench-{int(time.time())}@example.com"
    common = ["--server", args.url]

    _, _, out, _ = run([args.kith, "account", "signup", email, "--profile", "writer", "--json"] + common, env)
    import json

    user_id = json.loads(out)["id"]
    stores = os.path.join(args.home, "profiles", "writer", "data")
    rows = []

    run([args.filler, "fill", stores, user_id, str(args.push)], env)
    served = server_cpu(args.server_pid)
    seconds, rss, out, cpu = run([args.kith, "sync", "--profile", "writer", "--json"] + common, env)
    pushed = json.loads(out)["pushed"]
    rows.append((f"push {pushed:,} queued changes", seconds, rss, pushed / seconds, cpu, server_cpu(args.server_pid) - served))

    remaining = args.records - pushed
    while remaining > 0:
        chunk = min(remaining, 50_000)
        run([args.filler, "fill", stores, user_id, str(chunk - 1)], env)
        served = server_cpu(args.server_pid)
        seconds, rss, out, cpu = run([args.kith, "sync", "--profile", "writer", "--json"] + common, env)
        remaining -= json.loads(out)["pushed"]
        rows.append((f"seed: push {chunk:,} more", seconds, rss, chunk / seconds, cpu, server_cpu(args.server_pid) - served))

    run([args.kith, "account", "login", email, "--profile", "reader"] + common, env)
    served = server_cpu(args.server_pid)
    seconds, rss, out, cpu = run([args.kith, "sync", "--profile", "reader", "--json"] + common, env)
    pulled = json.loads(out)["pulled"]
    rows.append((f"first pull of {pulled:,} records", seconds, rss, pulled / seconds, cpu, server_cpu(args.server_pid) - served))

    print()
    server_column = "server CPU s" if args.server_pid else ""
    print(f"{'step':<34} {'seconds':>9} {'peak RSS MiB':>13} {'records/s':>10} {'device CPU s':>13} {server_column:>13}")
    for name, seconds, rss, rate, cpu, served in rows:
        server = f"{served:>13.2f}" if args.server_pid else ""
        print(f"{name:<34} {seconds:>9.2f} {rss:>13.1f} {rate:>10.0f} {cpu:>13.2f} {server}")
    if pulled < args.records:
        sys.exit(f"bench: the reader pulled {pulled} records, expected at least {args.records}")


if __name__ == "__main__":
    main()
