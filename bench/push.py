#!/usr/bin/env python3
"""Web Push at scale (docs/push.md), against a running `kith serve` started with
KITH_PUSH_ALLOW_LOOPBACK=1 (bench/run-push starts it).

The issue's target: 10,000 subscribed devices and 1,000 notices a minute for 10 minutes; every push
sent once, p99 from a notice's time to its push request under 2 s, the server's CPU per push,
memory bounded.

Setup. --devices accounts (default 10,000) in families of --family-size (a parent and 9 children),
each account with one device subscribed through POST /v1/push/subscriptions with a bearer token.
The bench makes each device's keys as a browser would (a P-256 key pair and a 16-byte auth secret,
`cryptography`), and its endpoint is this bench's stand-in push service on loopback
(http://127.0.0.1:PORT/push/<device>). Then reminders, each for one child, their due times spread
evenly (the notices bench's approach) over --minutes + 3 at --rate / 4 a minute (3,250 by default),
pushed through /v1/sync/push, one push a family; consecutive reminders go to different families.
Each reminder has four notices to its assignee (before_3, before_2, before_1, due: 3, 2, 1 and 0
minutes before its due time), and each notice is pushed to the assignee's one device. So the
notices come at --rate a minute for --minutes (while all four kinds overlap), ramping up over the 3
minutes before and down over the 3 after: rate x (minutes + 3) in all, 13,000 by default. With
the defaults 3,250 of the 10,000 devices get four pushes each; the rest stay subscribed and quiet
(the parents' devices get nothing: before-due and due notices go to the assignee only,
docs/family.md). A child gets several reminders when there are more reminders than children.

The stand-in push service (a threaded http.server in this process) checks every message as
Tests/support/push_service.py does, with implementations other than Kith's: the VAPID header with
py-vapid (ES256 against the k= key, which must be the server's /v1/push/key, `aud` the origin, `exp`
within 24 h, `sub` present) on every --vapid-every'th message (default every one), and it decrypts
every message with http_ece (RFC 8291 aes128gcm, the device's private key and auth secret): the
decrypted JSON's noticeId, at, kind and tag are what the bench counts. It records when each request
arrived (before its body is read) and answers 201.

Measured, over the window from the first notice's time to the last push (or the last notice's time
plus --grace):
- pushes expected (one per notice and device) vs received, duplicates (the same device, reminder,
  occurrence and kind twice, or a noticeId twice), missing, unexpected, failed checks;
- latency: arrival of the push request minus the payload's `at` (the notice's time): p50, p99, max;
- the server's CPU seconds (utime + stime from /proc/PID/stat) over the window, per push (this
  includes the notice job that plans each push: inbox row, live nudge), and its idle CPU rate;
- the server's RSS (sampled every second): fresh, at the window's start, middle and end, peak;
- pushes a second over the window, and the busiest minute.
Targets: nothing missing or twice, p99 under 2 s, peak RSS under 200 MiB (as the notices bench).

--kinds none subscribes every device with no kinds: the same notices, no pushes, so the server's
CPU per notice without pushes is the baseline the CPU per push is compared with.
"""

import argparse
import base64
import concurrent.futures
import datetime
import json
import os
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import requests

try:
    import http_ece
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from py_vapid import jwt as vapid_jwt
except ImportError as error:  # pragma: no cover - message for humans
    sys.exit(f"bench/push.py needs cryptography, http-ece and py-vapid ({error})")

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "support"))
from push_service import authorization_fields  # noqa: E402  (the tests' reading of `vapid t=…, k=…`)

PASSWORD = "bench password 1"
KINDS = ("before_3", "before_2", "before_1", "due")
LEADS = {"before_3": 180_000, "before_2": 120_000, "before_1": 60_000, "due": 0}
TARGET_P99_MS = 2000
TARGET_RSS_MIB = 200


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


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


# --- the server's process ---------------------------------------------------------------------

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """utime + stime of the process (all its threads), from /proc/PID/stat."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # fields 14 and 15 of stat(5)


def rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


class Rss:
    """Samples the server's resident set every second: (time, MiB)."""

    def __init__(self, pid):
        self.pid, self.samples, self.stop = pid, [], threading.Event()
        self.thread = threading.Thread(target=self.sample, daemon=True)

    def sample(self):
        while not self.stop.is_set():
            try:
                self.samples.append((time.time(), rss_mib(self.pid)))
            except OSError:
                return
            self.stop.wait(1.0)

    def at(self, moment):
        """The sample nearest `moment`."""
        return min(self.samples, key=lambda sample: abs(sample[0] - moment))[1] if self.samples else float("nan")

    def peak(self, start=0.0):
        return max((mib for when, mib in self.samples if when >= start), default=float("nan"))


# --- the stand-in push service ----------------------------------------------------------------


class Device:
    """A browser's subscription: its keys, made here as a browser makes them."""

    def __init__(self, index: int):
        self.index = index
        self.private_key = ec.generate_private_key(ec.SECP256R1())
        self.public_bytes = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        self.auth = os.urandom(16)
        self.account = None  # the Account holding it


class PushService:
    """Accepts the server's messages at POST /push/<device index>, checks and records each."""

    def __init__(self, devices, vapid_every: int):
        self.devices = devices
        self.vapid_every = max(1, vapid_every)
        self.server_key = None  # the server's /v1/push/key, set before any push
        self.messages = []  # dicts, appended by the handler threads (list.append is atomic)
        self.count = 0
        self.lock = threading.Lock()
        service = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_POST(self):
                arrived = time.time()
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                status, reason = service.take(self.path, self.headers, body, arrived, self.server.server_address)
                data = reason.encode()
                self.send_response(status)
                if status == 201:
                    self.send_header("Location", f"/message/{time.monotonic_ns()}")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        class Server(ThreadingHTTPServer):
            daemon_threads = True
            request_queue_size = 512  # the default 5 would drop SYNs in a burst (a 1 s retry)

        self.server = Server(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def endpoint(self, device: Device) -> str:
        return f"http://127.0.0.1:{self.port}/push/{device.index}"

    def take(self, path, headers, body, arrived, address):
        entry = {"arrived": arrived, "device": None, "vapid": False}
        try:
            parts = path.strip("/").split("/")
            if len(parts) != 2 or parts[0] != "push" or not parts[1].isdigit() or int(parts[1]) >= len(self.devices):
                entry["error"] = f"no such subscription: {path}"
                self.messages.append(entry)
                return 404, "no such subscription"
            device = self.devices[int(parts[1])]
            entry["device"] = device.index
            with self.lock:
                self.count += 1
                check_vapid = self.count % self.vapid_every == 0
            if check_vapid:
                fields = authorization_fields(headers.get("Authorization") or "")
                if self.server_key and fields["k"] != self.server_key:
                    raise ValueError("k= is not the server's /v1/push/key")
                claims = vapid_jwt.decode(fields["t"], fields["k"])
                audience = f"http://{address[0]}:{address[1]}"
                if claims.get("aud") != audience:
                    raise ValueError(f"aud is {claims.get('aud')!r}, not {audience!r}")
                now = time.time()
                if not isinstance(claims.get("exp"), int) or not now < claims["exp"] <= now + 24 * 3600:
                    raise ValueError(f"exp {claims.get('exp')!r} is not within the next 24 hours")
                if not claims.get("sub"):
                    raise ValueError("sub is missing")
                entry["vapid"] = True
            if headers.get("Content-Encoding") != "aes128gcm":
                raise ValueError(f"Content-Encoding is {headers.get('Content-Encoding')!r}")
            if not headers.get("TTL", "").isdigit() or int(headers["TTL"]) <= 0:
                raise ValueError(f"TTL is {headers.get('TTL')!r}")
            if len(body) > 4096:
                raise ValueError(f"{len(body)} bytes, over 4,096")
            payload = json.loads(http_ece.decrypt(
                body, private_key=device.private_key, auth_secret=device.auth, version="aes128gcm"))
            entry.update(noticeId=payload.get("noticeId"), at=payload.get("at"), kind=payload.get("kind"),
                         tag=payload.get("tag"), urgency=headers.get("Urgency"))
        except Exception as error:  # a failed check is a finding: counted and answered 400
            entry["error"] = f"{type(error).__name__}: {error}"
            self.messages.append(entry)
            return 400, entry["error"]
        self.messages.append(entry)
        return 201, ""


# --- setup through the API --------------------------------------------------------------------


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


class Account:
    def __init__(self, family, role, index):
        self.family, self.role, self.index = family, role, index
        self.token = self.user_id = None
        self.device = None


class Family:
    def __init__(self, index):
        self.index = index
        self.members = []  # parent first
        self.scope = None
        self.reminders = {}  # reminder id -> (due ms, assignee Account)

    @property
    def parent(self):
        return self.members[0]


def sign_up(api, email):
    session = api.call("POST", "/v1/auth/signup", {"email": email, "password": PASSWORD})
    return session["accessToken"], session["user"]["id"]


def set_up_family(api, service, family, run, kinds):
    """The family, its members, and one subscribed device each."""
    parent = family.parent
    parent.token, parent.user_id = sign_up(api, f"parent{family.index}.{run}@bench.example")
    created = api.call("POST", "/v1/family", {"name": f"Family {family.index}", "timeZone": "UTC",
                                              "displayName": "Parent"}, token=parent.token)
    family.scope = created["scope"]
    for child in family.members[1:]:
        code = api.call("POST", "/v1/family/codes", {"role": "child"}, token=parent.token)["code"]
        child.token, child.user_id = sign_up(api, f"child{family.index}-{child.index}.{run}@bench.example")
        api.call("POST", "/v1/family/join", {"code": code, "displayName": f"Child {child.index}"}, token=child.token)
    for member in family.members:
        device = member.device
        answer = api.call("POST", "/v1/push/subscriptions", {
            "endpoint": service.endpoint(device),
            "keys": {"p256dh": b64url(device.public_bytes), "auth": b64url(device.auth)},
            "expirationTime": None, "name": f"Bench device {device.index}",
            **({} if set(KINDS) <= kinds else {"kinds": sorted(kinds)})}, token=member.token, expect=(201,))
        if answer.get("replaced"):
            raise RuntimeError(f"device {device.index} replaced another: {answer['replaced']}")


def push_reminders(api, family, reminders, tag):
    """The parent pushes `reminders` ([(id, due ms, assignee)]) in one /v1/sync/push."""
    now = int(time.time() * 1000)
    mutations = []
    for slot, (reminder, due, assignee) in enumerate(reminders):
        mutations.append({
            "mutationId": str(uuid.uuid4()), "entity": "family.reminder", "id": reminder, "scope": family.scope,
            "op": "upsert", "hlc": f"{now:015d}-{slot:05d}-{tag}{family.index}",
            "fields": {"title": f"Chore {slot}", "dueAt": stamp(due), "assigneeId": assignee.user_id,
                       "creatorId": family.parent.user_id, "createdAt": stamp(now), "status": "pending"}})
    answer = api.call("POST", "/v1/sync/push", {"clientId": str(uuid.uuid4()), "mutations": mutations},
                      token=family.parent.token)
    refused = [r for r in answer["results"] if r["status"] != "applied"]
    if refused:
        raise RuntimeError(f"family {family.index}: {len(refused)} reminders refused: {refused[0]}")


def calibrated_lead(api, families, threads):
    """Seconds from now to the first due time: the reminders' setup, estimated from a push of one
    reminder due tomorrow (outside the measured window) by each of the first families, with a
    margin, plus the 3 minutes of before-due notices and 30 s."""
    sample = families[:threads * 2]
    tomorrow = int(time.time() * 1000) + 86_400_000
    started = time.time()
    with concurrent.futures.ThreadPoolExecutor(threads) as pool:
        list(pool.map(lambda f: push_reminders(api, f, [(str(uuid.uuid4()), tomorrow, f.members[-1])], "cal"), sample))
    per_family = (time.time() - started) / len(sample)
    lead = int(180 + 30 + 2 * per_family * len(families))
    print(f"calibration: {per_family * 1000:.0f} ms a family's reminder push; first due time in {lead} s", flush=True)
    return lead


# --- the run ----------------------------------------------------------------------------------


def main_run(args):
    pid = args.pid
    rss = Rss(pid)
    rss.thread.start()
    fresh_rss = rss_mib(pid)
    api = Api(args.url)
    run = uuid.uuid4().hex[:6]
    if args.family_size < 2 or args.family_size > 10:
        sys.exit("--family-size must be 2 to 10 (a parent and children)")

    # Accounts and devices: families of a parent and family_size - 1 children, one device each.
    started = time.time()
    devices = [Device(i) for i in range(args.devices)]
    families = []
    for index in range(0, args.devices, args.family_size):
        family = Family(len(families))
        for position, device in enumerate(devices[index:index + args.family_size]):
            member = Account(family, "parent" if position == 0 else "child", position)
            member.device, device.account = device, member
            family.members.append(member)
        families.append(family)  # (a last family may be a parent alone: a quiet device)
    children = [m for f in families for m in f.members if m.role == "child"]
    print(f"keys: {len(devices):,} devices' P-256 keys made in {time.time() - started:.1f} s", flush=True)

    service = PushService(devices, args.vapid_every)
    service.thread.start()
    service.server_key = api.call("GET", "/v1/push/key")["publicKey"]
    print(f"push service: http://127.0.0.1:{service.port}/push/<device>; server key {service.server_key[:16]}…",
          flush=True)

    started = time.time()
    done = [0]

    def one_family(family):
        set_up_family(api, service, family, run, args.kinds)
        done[0] += 1
        if done[0] % max(1, len(families) // 10) == 0:
            print(f"  {done[0]:,} of {len(families):,} families set up ({time.time() - started:.0f} s)", flush=True)

    with concurrent.futures.ThreadPoolExecutor(args.threads) as pool:
        list(pool.map(one_family, families))
    accounts_seconds = time.time() - started
    print(f"setup: {len(families):,} families, {len(devices):,} accounts and devices subscribed "
          f"({len(children):,} children) in {accounts_seconds:.1f} s", flush=True)

    # Reminders: four notices each, due times spread evenly over minutes + 3 at rate / 4 a minute,
    # so that the four kinds overlap (rate notices a minute) for `minutes`. Reminder j goes to child
    # j in an order that takes each family's first child, then each family's second, so
    # consecutive reminders are in different families.
    due_span_ms = int((args.minutes + 3) * 60_000)
    total_reminders = max(1, round(args.rate / len(KINDS) * (args.minutes + 3)))
    spacing_ms = due_span_ms // total_reminders
    order = sorted(children, key=lambda c: (c.index, c.family.index))
    lead = args.lead or calibrated_lead(api, families, args.threads)
    setup_started = time.time()
    start_ms = int(time.time() * 1000) + lead * 1000
    planned = {}  # family index -> [(id, due, assignee)]
    notices = {}  # (device, reminder, occurrence ms, kind) -> notice time ms
    for j in range(total_reminders):
        assignee = order[j % len(order)]
        due = start_ms + j * spacing_ms
        reminder = str(uuid.uuid4())
        planned.setdefault(assignee.family.index, []).append((reminder, due, assignee))
        for kind in KINDS:
            notices[(assignee.device.index, reminder, due, kind)] = due - LEADS[kind]
    expected = {key: at for key, at in notices.items() if key[3] in args.kinds}  # the pushes
    with concurrent.futures.ThreadPoolExecutor(args.threads) as pool:
        list(pool.map(lambda f: push_reminders(api, f, planned[f.index], "bench"),
                      [f for f in families if f.index in planned]))
    print(f"setup: {total_reminders:,} reminders ({len(notices):,} notices, {len(expected):,} pushes) for "
          f"{len({k[0] for k in notices}):,} devices in {time.time() - setup_started:.1f} s", flush=True)
    if service.messages:
        print(f"bench: {len(service.messages)} pushes arrived during setup (counted as unexpected)", flush=True)

    first_notice = min(notices.values())
    last_notice = max(notices.values())
    now = time.time() * 1000
    if now > first_notice - 2000:
        print("bench: setup ran past the first notice; raise --lead", file=sys.stderr)
        return 1
    print(f"first notice in {(first_notice - now) / 1000:.0f} s; notices until "
          f"{(last_notice - first_notice) / 60_000:.1f} min after it", flush=True)
    # Idle: the server's CPU while nothing is due, over the wait before the first notice.
    idle_from, idle_cpu_from = time.time(), cpu_seconds(pid)
    while time.time() * 1000 < first_notice - 1000:
        time.sleep(0.2)
    idle_rate = (cpu_seconds(pid) - idle_cpu_from) / max(0.001, time.time() - idle_from)

    window_start, cpu_start = time.time(), cpu_seconds(pid)
    rss_start = rss_mib(pid)
    deadline = last_notice / 1000 + args.grace
    expected_count = len(expected)
    last_report = time.time()
    while time.time() < deadline:
        received = sum(1 for m in service.messages if "error" not in m)
        if received >= expected_count and time.time() * 1000 > last_notice:
            break
        if time.time() - last_report >= 60:
            last_report = time.time()
            print(f"  {(time.time() - window_start) / 60:.0f} min: {received:,} of {expected_count:,} pushes, "
                  f"server RSS {rss_mib(pid):.0f} MiB, CPU {cpu_seconds(pid) - cpu_start:.1f} s", flush=True)
        time.sleep(0.2)
    window_end, cpu_end = time.time(), cpu_seconds(pid)
    rss_end = rss_mib(pid)
    # Anything sent twice comes later (a retry waits 10 s): keep listening a while.
    time.sleep(args.settle)
    service.server.shutdown()
    rss.stop.set()

    # Count.
    messages = list(service.messages)
    if args.save:
        with open(args.save, "w") as saved:
            json.dump({"expected": [[*key, at] for key, at in expected.items()], "messages": messages,
                       "rss": rss.samples, "window": [window_start, window_end], "cpu": [cpu_start, cpu_end]},
                      saved)
    failed = [m for m in messages if "error" in m]
    good = [m for m in messages if "error" not in m]
    seen, notice_ids, latency, duplicates, unexpected, wrong_at = {}, set(), [], 0, 0, 0
    arrivals, full_rate = [], 0
    for message in sorted(good, key=lambda m: m["arrived"]):
        tag = (message.get("tag") or "").split(":")
        key = (message["device"], tag[1] if len(tag) == 3 else None,
               int(tag[2]) if len(tag) == 3 and tag[2].isdigit() else None, message.get("kind"))
        if key in seen or message.get("noticeId") in notice_ids:
            duplicates += 1
            continue
        seen[key] = message
        notice_ids.add(message.get("noticeId"))
        if key not in expected:
            unexpected += 1
            continue
        at = parse_ms(message["at"])
        wrong_at += at != expected[key]
        latency.append(message["arrived"] * 1000 - at)
        arrivals.append(message["arrived"])
        full_rate += first_notice + 180_000 <= at < first_notice + 180_000 + args.minutes * 60_000
    missing = len(set(expected) - set(seen))
    received = len(latency)
    window = window_end - window_start
    cpu = cpu_end - cpu_start
    busiest = 0
    if arrivals:
        base = arrivals[0]
        per_minute = {}
        for moment in arrivals:
            per_minute[int((moment - base) // 60)] = per_minute.get(int((moment - base) // 60), 0) + 1
        busiest = max(per_minute.values())
    span = (arrivals[-1] - arrivals[0]) if len(arrivals) > 1 else float("nan")
    middle = window_start + window / 2

    print()
    print(f"engine {args.engine}: {len(devices):,} devices subscribed in {len(families):,} families; "
          f"{total_reminders:,} reminders due over {args.minutes + 3:g} min, {len(notices):,} notices, "
          f"{args.rate:g} a minute for {args.minutes:g} min (3 min ramps either side), "
          f"{len(expected):,} of them pushed (devices asking for {', '.join(sorted(args.kinds)) or 'nothing'})")
    print(f"pushes: expected {expected_count:,}, received {received:,}, missing {missing:,}, "
          f"duplicates {duplicates}, unexpected {unexpected}, failed checks {len(failed)}, "
          f"`at` not the notice's time {wrong_at}")
    print(f"checked: VAPID on {sum(1 for m in messages if m['vapid']):,} messages, every one decrypted "
          f"(http_ece) and its JSON read")
    print(f"latency (push request arrival - notice time): p50 {percentile(latency, 0.5):.0f} ms, "
          f"p99 {percentile(latency, 0.99):.0f} ms, max {max(latency, default=float('nan')):.0f} ms")
    print(f"rate: {received / span if span == span and span > 0 else float('nan'):.1f} pushes/s over "
          f"{span / 60:.1f} min; {full_rate / (args.minutes * 60):.1f} pushes/s for the {args.minutes:g} min "
          f"at full rate; busiest minute {busiest:,}")
    print(f"server CPU: {cpu:.1f} s over the {window / 60:.1f} min window, "
          + (f"{cpu / received * 1000:.2f} ms per push, " if received else "")
          + f"{cpu / window * 100:.1f} % of a core; "
          f"{cpu / len(notices) * 1000:.2f} ms per notice; idle before it {idle_rate * 100:.2f} % of a core")
    print(f"server RSS: fresh {fresh_rss:.0f} MiB, window start {rss_start:.0f}, middle {rss.at(middle):.0f}, "
          f"end {rss_end:.0f}, peak in the window {rss.peak(window_start):.0f}, peak overall {rss.peak():.0f} MiB")
    if failed:
        print(f"first failed check: {failed[0].get('error')}")
    failures = []
    if missing or unexpected or wrong_at or failed:
        failures.append("not every push arrived exactly as planned")
    if duplicates:
        failures.append("a push came twice")
    if expected and (not latency or percentile(latency, 0.99) > TARGET_P99_MS):
        failures.append(f"p99 over {TARGET_P99_MS / 1000:g} s")
    if rss.peak() > TARGET_RSS_MIB:
        failures.append(f"RSS over {TARGET_RSS_MIB} MiB")
    for failure in failures:
        print(f"bench: target missed: {failure}", file=sys.stderr)
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True)
    parser.add_argument("--pid", type=int, required=True, help="the server's process id (CPU and RSS)")
    parser.add_argument("--engine", default="sqlite")
    parser.add_argument("--devices", type=int, default=10_000, help="accounts, one subscribed device each")
    parser.add_argument("--family-size", type=int, default=10, help="a parent and this many minus one children")
    parser.add_argument("--rate", type=float, default=1000, help="notices a minute at full rate (four a reminder)")
    parser.add_argument("--minutes", type=float, default=10, help="minutes at full rate (due times over this + 3)")
    parser.add_argument("--lead", type=int, default=0,
                        help="seconds from the reminders' setup to the first due time (default: calibrated)")
    parser.add_argument("--grace", type=int, default=60, help="seconds to wait for pushes after the last notice")
    parser.add_argument("--settle", type=int, default=15, help="seconds to keep listening for duplicates")
    parser.add_argument("--threads", type=int, default=8, help="setup requests in flight")
    parser.add_argument("--kinds", default="all",
                        help="the kinds each device asks for: all, none (a baseline: the notices' cost "
                             "without pushes) or a comma-separated list such as due,before_1")
    parser.add_argument("--save", help="write what was expected and every message received to this JSON file")
    parser.add_argument("--vapid-every", type=int, default=1, help="check the VAPID header of every Nth message")
    args = parser.parse_args()
    args.kinds = (set(KINDS) if args.kinds == "all" else set() if args.kinds == "none"
                  else {kind.strip() for kind in args.kinds.split(",") if kind.strip()})
    sys.exit(main_run(args))


if __name__ == "__main__":
    main()
