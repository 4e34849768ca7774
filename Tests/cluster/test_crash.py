"""A server killed (SIGKILL) while pushes are in flight: what it acknowledged is kept, a batch whose
answer never came is sent again to another server, which applies what is missing and answers
`duplicate` for what was already applied, and the other servers answer all along."""

import collections
import threading
from concurrent.futures import ThreadPoolExecutor

import requests

from kith_cluster import call, person_mutation, pull_everything, push, sign_up, statuses, wait_until, year_mutation

BATCHES = 40
PER_BATCH = 50
PUSHERS = 4
# Batches A answers before it is killed: enough that the kill falls mid-run, with pushes still to send.
ANSWERED_BEFORE_KILL = 8


class Watch:
    """Asks B and C, one after the other, for their health and a pull until stopped; keeps every answer
    that was not a 200, and counts the answers after `mark()`."""

    def __init__(self, servers, token):
        self.servers = servers
        self.token = token
        self.failures = []
        self.answered_since_mark = collections.Counter()
        self.marked = False
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.run, name="watch-b-c", daemon=True)

    def run(self):
        while not self.stopping.is_set():
            for server in self.servers:
                for path, token in (("/healthz", None), ("/v1/sync/pull?limit=1", self.token)):
                    try:
                        answer = call(server, "GET", path, token=token, timeout=10)
                        problem = None if answer.status_code == 200 else f"{answer.status_code} {answer.text[:200]}"
                    except Exception as error:  # noqa: BLE001 - any failure to answer is what this records
                        problem = repr(error)
                    if problem:
                        self.failures.append(f"{server.name} GET {path}: {problem}")
                    elif self.marked:
                        self.answered_since_mark[server.name] += 1

    def mark(self):
        self.marked = True

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stopping.set()
        self.thread.join(30)


def test_a_server_killed_mid_push_loses_nothing_acknowledged_and_duplicates_nothing(new_cluster):
    cluster = new_cluster().start()
    a, b, c = cluster.servers
    account = sign_up(b)
    token, scope, user_id = account["accessToken"], account["scope"], account["user"]["id"]
    year = year_mutation(scope, "2030")
    assert statuses(push(a, token, [year])) == ["applied"]
    batches = [[person_mutation(scope, year["id"], f"P{batch}-{index}") for index in range(PER_BATCH)]
               for batch in range(BATCHES)]

    lock = threading.Lock()
    next_batch = iter(range(BATCHES))
    answered_by_a = 0
    in_flight = 0
    outcome = [None] * BATCHES  # (the server that answered, the statuses it gave)

    def pusher():
        nonlocal answered_by_a, in_flight
        while True:
            with lock:
                batch = next(next_batch, None)
                if batch is None:
                    return
                in_flight += 1
            try:
                answer = push(a, token, batches[batch])
                outcome[batch] = ("A", statuses(answer))
                with lock:
                    answered_by_a += 1
            except requests.RequestException:
                # No answer from A: the same mutations, with the same ids, to B.
                outcome[batch] = ("B", statuses(push(b, token, batches[batch])))
            finally:
                with lock:
                    in_flight -= 1

    with Watch((b, c), token) as watch:
        with ThreadPoolExecutor(PUSHERS) as pool:
            pushing = [pool.submit(pusher) for _ in range(PUSHERS)]
            wait_until("A answering pushes with more in flight",
                       lambda: answered_by_a >= ANSWERED_BEFORE_KILL and in_flight > 0, within=120, every=0.002)
            a.process.kill()
            watch.mark()
            killed_with = {"answered by A": answered_by_a, "in flight": in_flight}
            a.process.wait(10)
            for future in pushing:
                future.result()
        # B and C answer after the pushes end too.
        wait_until("B and C answering after the pushes",
                   lambda: min(watch.answered_since_mark[name] for name in ("B", "C")) >= 4, within=30, every=0.05)

    print(f"killed A with {killed_with}; answered by A: {sum(1 for o in outcome if o[0] == 'A')} batches, "
          f"retried on B: {sum(1 for o in outcome if o[0] == 'B')}, of which already applied (duplicate): "
          f"{sum(o[1].count('duplicate') for o in outcome if o[0] == 'B')} mutations")
    assert not watch.failures, f"B or C did not answer: {watch.failures[:10]}"
    assert all(outcome), "every batch was answered by A or by B"
    acknowledged_by_a = [batch for batch, (server, _) in enumerate(outcome) if server == "A"]
    retried = [batch for batch, (server, _) in enumerate(outcome) if server == "B"]
    assert acknowledged_by_a and retried, f"the kill did not fall mid-run: {outcome}"
    for batch in acknowledged_by_a:
        assert outcome[batch][1] == ["applied"] * PER_BATCH, f"batch {batch} on A: {outcome[batch]}"
    for batch in retried:
        assert set(outcome[batch][1]) <= {"applied", "duplicate"}, f"batch {batch} on B: {outcome[batch]}"
    # Whether or not the kill fell between a commit and its answer, a batch A did acknowledge, sent
    # again, is a duplicate on another server.
    assert statuses(push(c, token, batches[acknowledged_by_a[-1]])) == ["duplicate"] * PER_BATCH

    # From an empty cursor, C has every person once, as pushed.
    changes = pull_everything(c, token)
    pushed = {mutation["id"]: mutation["fields"]["firstName"] for batch in batches for mutation in batch}
    people = [change for change in changes if change["entity"] == "outreach.contact"]
    counts = collections.Counter(change["id"] for change in people)
    assert set(counts) == set(pushed), f"missing: {len(set(pushed) - set(counts))}, " \
                                       f"unexpected: {len(set(counts) - set(pushed))}"
    assert max(counts.values()) == 1, f"pulled more than once: {[id for id, n in counts.items() if n > 1][:10]}"
    assert all(change["fields"]["firstName"] == pushed[change["id"]] and not change["deleted"] for change in people)
    assert [change["id"] for change in changes if change["entity"] == "outreach.year"] == [year["id"]]

    made = BATCHES * PER_BATCH + 1
    database = cluster.database
    assert database.scalar(f"SELECT count(*) FROM sync_records WHERE scope = '{scope}'") == str(made)
    assert database.scalar(f"SELECT count(*) FROM sync_mutations WHERE user_id = '{user_id}'") == str(made)
