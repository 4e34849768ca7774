#!/usr/bin/env python3
"""Family notices at scale (issue 17), against a running `kith serve` (bench/run-notices starts it).

--families families of a parent and a child; the parent gives the child --per-family reminders
(pushed through /v1/sync/push, one push a family), their due times spread evenly over --minutes
starting --lead seconds from now. Each reminder has four notices for the child (3, 2 and 1 minute
before it is due, and due): --families x --per-family x 4 in all. Every child has a live socket
open on /v1/live. The bench waits until the last notice's time, then reads every child's inbox.

Measured:
- live: when each `notice` message arrives, minus the time it was meant for;
- inbox: each notice's deliveredAt minus its dueAt (the server's own record);
- exactly once: every (reminder, occurrence, kind) in each inbox once, on the socket once;
- the server's RSS, sampled from /proc every 0.5 s from before setup to the end.
Targets: p99 within 1 s on both, RSS under 200 MiB, nothing twice, nothing missing.
"""

import argparse
import asyncio
import concurrent.futures
import datetime
import os
import sys
import threading
import time
import uuid

import requests

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from live_socket import live_messages  # noqa: E402

PASSWORD = "bench password 1"
KINDS = ("before_3", "before_2", "before_1", "due")
LEADS = {"before_3": 180_000, "before_2": 120_000, "before_1": 60_000, "due": 0}


def stamp(ms: int) -> str:
    moment = datetime.datetime.fromtimestamp(ms / 1000, tz=datetime.timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"


def parse_ms(text: str) -> int:
    moment = datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc)
    return round(moment.timestamp() * 1000)


def percentile(values, fraction):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


class Api:
    """One keep-alive session per thread."""

    def __init__(self, url):
        self.url = url
        self.local = threading.local()

    def call(self, method, path, body=None, token=None, expect=(200, 201)):
        session = getattr(self.local, "session", None)
        if session is None:
            session = self.local.session = requests.Session()
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        answer = session.request(method, self.url + path, json=body, headers=headers, timeout=120)
        if answer.status_code not in expect:
            raise RuntimeError(f"{method} {path}: {answer.status_code} {answer.text[:300]}")
        return answer.json() if answer.content else None


class Family:
    def __init__(self, index):
        self.index = index
        self.parent = self.child = self.child_id = self.parent_id = self.scope = self.child_email = None
        self.reminders = {}  # reminder id -> due ms


def sign_up(api, email):
    session = api.call("POST", "/v1/auth/signup", {"email": email, "password": PASSWORD})
    return session["accessToken"], session["user"]["id"]


def set_up_family(api, family, run, start_ms, spacing_ms, families, per_family):
    family.parent, family.parent_id = sign_up(api, f"parent{family.index}.{run}@bench.example")
    family.child_email = f"child{family.index}.{run}@bench.example"
    family.child, family.child_id = sign_up(api, family.child_email)
    created = api.call("POST", "/v1/family", {"name": f"Family {family.index}", "timeZone": "UTC",
                                              "displayName": "Parent"}, token=family.parent)
    family.scope = created["scope"]
    code = api.call("POST", "/v1/family/codes", {"role": "child"}, token=family.parent)["code"]
    api.call("POST", "/v1/family/join", {"code": code, "displayName": "Child"}, token=family.child)
    now = int(time.time() * 1000)
    mutations = []
    for slot in range(per_family):
        # Families interleave, so notices come evenly, not family by family.
        due = start_ms + (slot * families + family.index) * spacing_ms
        reminder = str(uuid.uuid4())
        family.reminders[reminder] = due
        mutations.append({
            "mutationId": str(uuid.uuid4()), "entity": "family.reminder", "id": reminder, "scope": family.scope,
            "op": "upsert", "hlc": f"{now:015d}-{slot:05d}-bench{family.index}",
            "fields": {"title": f"Chore {slot}", "dueAt": stamp(due), "assigneeId": family.child_id,
                       "creatorId": family.parent_id, "createdAt": stamp(now), "status": "pending"}})
    answer = api.call("POST", "/v1/sync/push", {"clientId": str(uuid.uuid4()), "mutations": mutations},
                      token=family.parent)
    refused = [r for r in answer["results"] if r["status"] != "applied"]
    if refused:
        raise RuntimeError(f"family {family.index}: {len(refused)} reminders refused: {refused[0]}")


class Rss:
    """Samples the server's resident set from /proc."""

    def __init__(self, pid):
        self.pid, self.peak_kib, self.stop = pid, 0, threading.Event()
        self.thread = threading.Thread(target=self.sample, daemon=True)

    def sample(self):
        while not self.stop.is_set():
            try:
                with open(f"/proc/{self.pid}/status") as status:
                    for line in status:
                        if line.startswith("VmRSS:"):
                            self.peak_kib = max(self.peak_kib, int(line.split()[1]))
            except OSError:
                return
            self.stop.wait(0.5)


class Live:
    """Every child's live socket; records when each notice arrives."""

    def __init__(self, ws_url, sockets):
        self.ws_url, self.sockets = ws_url, sockets
        self.arrivals = {}  # (user, reminder, occurrence, kind) -> [latency ms]
        self.ready = 0
        self.errors = []

    async def follow(self, family, all_ready, done):
        try:
            async for arrived, message in live_messages(self.ws_url, family.child, done):
                if message["type"] == "ready":
                    self.ready += 1
                    if self.ready == self.sockets:
                        all_ready.set()
                elif message["type"] == "notice":
                    notice = message["notice"]
                    key = (family.child_id, notice["reminderId"], notice["occurrence"], notice["kind"])
                    self.arrivals.setdefault(key, []).append(arrived - parse_ms(notice["dueAt"]))
                elif message["type"] == "error":
                    self.errors.append(message)
        except Exception as error:  # a dropped socket is a finding, not a crash of the bench
            self.errors.append(f"family {family.index}: {error!r}")


def read_inbox(api, family):
    # A run with its setup and lead lasts longer than an access token (an hour): sign in again.
    token = api.call("POST", "/v1/auth/login", {"email": family.child_email, "password": PASSWORD})["accessToken"]
    notices, before = [], None
    while True:
        page = api.call("GET", "/v1/inbox?limit=200" + (f"&before={before}" if before else ""), token=token)
        notices += page["notices"]
        before = page.get("next")
        if before is None:
            return notices


def calibrated_lead(api, args, run):
    """Seconds to the first due time: the setup of the rest, estimated from families set up first
    with reminders due tomorrow (outside the measured window), plus the 3 minutes of before-due
    notices, with a margin."""
    sample = [Family(args.families + i) for i in range(args.threads * 2)]
    tomorrow = int(time.time() * 1000) + 86_400_000
    started = time.time()
    with concurrent.futures.ThreadPoolExecutor(args.threads) as pool:
        list(pool.map(lambda f: set_up_family(api, f, run, tomorrow, 1, len(sample), args.per_family), sample))
    per_family = (time.time() - started) / len(sample)
    lead = int(180 + 30 + 1.5 * per_family * args.families)
    print(f"calibration: {per_family * 1000:.0f} ms a family set up; first due time in {lead} s")
    return lead


async def main_async(args):
    api = Api(args.url)
    rss = Rss(args.pid)
    rss.thread.start()
    total = args.families * args.per_family
    spacing_ms = int(args.minutes * 60_000) // total
    setup_started = time.time()
    families = [Family(i) for i in range(args.families)]
    run = uuid.uuid4().hex[:6]
    lead = args.lead or calibrated_lead(api, args, run)
    start_ms = int(time.time() * 1000) + lead * 1000
    with concurrent.futures.ThreadPoolExecutor(args.threads) as pool:
        list(pool.map(lambda f: set_up_family(api, f, run, start_ms, spacing_ms, args.families, args.per_family),
                      families))
    setup_seconds = time.time() - setup_started
    print(f"setup: {args.families} families, {total:,} reminders ({total * 4:,} notices) in {setup_seconds:.1f} s")
    if args.setup_only:
        return 0

    live = Live(args.url.replace("http://", "ws://") + "/v1/live", len(families))
    all_ready, done = asyncio.Event(), asyncio.Event()
    tasks = [asyncio.create_task(live.follow(f, all_ready, done)) for f in families]
    try:
        await asyncio.wait_for(all_ready.wait(), timeout=120)
    except asyncio.TimeoutError:
        pass
    first_notice = start_ms - LEADS["before_3"]
    now = time.time() * 1000
    print(f"live: {live.ready} of {len(families)} sockets ready; first notice in {(first_notice - now) / 1000:.1f} s")
    if now > first_notice:
        print("bench: setup ran past the first notice; raise --lead", file=sys.stderr)
        return 1
    last_notice = start_ms + (total - 1) * spacing_ms
    while time.time() * 1000 < last_notice + args.grace * 1000:
        await asyncio.sleep(1)
    done.set()
    await asyncio.gather(*tasks)
    rss.stop.set()

    with concurrent.futures.ThreadPoolExecutor(args.threads) as pool:
        inboxes = list(pool.map(lambda f: read_inbox(api, f), families))
    expected = {(f.child_id, r, stamp(due), kind) for f in families for r, due in f.reminders.items() for kind in KINDS}
    inbox_keys, inbox_latency, twice_inbox, late = set(), [], 0, 0
    for family, notices in zip(families, inboxes):
        for notice in notices:
            key = (family.child_id, notice["reminderId"], notice["occurrence"], notice["kind"])
            twice_inbox += key in inbox_keys
            inbox_keys.add(key)
            inbox_latency.append(parse_ms(notice["deliveredAt"]) - parse_ms(notice["dueAt"]))
            late += notice["late"]
    live_latency = [ms for arrivals in live.arrivals.values() for ms in arrivals]
    twice_live = sum(len(arrivals) - 1 for arrivals in live.arrivals.values())

    def line(name, values):
        return (f"{name}: {len(values):,} notices, p50 {percentile(values, 0.5):.0f} ms, "
                f"p99 {percentile(values, 0.99):.0f} ms, max {max(values, default=float('nan')):.0f} ms after their time")

    print(f"engine {args.engine}: {total:,} reminders in {args.families} families due over {args.minutes} min "
          f"({total * 4 / (args.minutes * 60):.0f} notices/s)")
    print(line("inbox", inbox_latency))
    print(line("live ", live_latency))
    print(f"missing: inbox {len(expected - inbox_keys):,}, live {len(expected - set(live.arrivals)):,}; "
          f"delivered twice: inbox {twice_inbox}, live {twice_live}; unexpected: {len(inbox_keys - expected)}; "
          f"marked late: {late}")
    print(f"server peak RSS: {rss.peak_kib / 1024:.0f} MiB")
    if live.errors:
        print(f"live socket errors: {len(live.errors)}, first: {live.errors[0]}")
    failures = []
    if inbox_keys != expected or set(live.arrivals) != expected:
        failures.append("not every notice arrived exactly as planned")
    if twice_inbox or twice_live:
        failures.append("a notice came twice")
    if percentile(inbox_latency, 0.99) > 1000 or percentile(live_latency, 0.99) > 1000:
        failures.append("p99 over 1 s")
    if rss.peak_kib > 200 * 1024:
        failures.append("RSS over 200 MiB")
    for failure in failures:
        print(f"bench: target missed: {failure}", file=sys.stderr)
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True)
    parser.add_argument("--pid", type=int, required=True, help="the server's process id (for RSS)")
    parser.add_argument("--engine", default="sqlite")
    parser.add_argument("--families", type=int, default=1000)
    parser.add_argument("--per-family", type=int, default=100)
    parser.add_argument("--minutes", type=float, default=60, help="the due times spread over this long")
    parser.add_argument("--lead", type=int, default=0,
                        help="seconds from the start to the first due time (default: from a calibration)")
    parser.add_argument("--grace", type=int, default=15, help="seconds to wait after the last notice's time")
    parser.add_argument("--threads", type=int, default=8, help="setup requests in flight")
    parser.add_argument("--setup-only", action="store_true",
                        help="stop after the setup (every family's parent pushing its reminders): its time is the row")
    args = parser.parse_args()
    sys.exit(asyncio.run(main_async(args)))


if __name__ == "__main__":
    main()
