"""Every server runs the job runner over the one `jobs` table; each job is claimed by one of them and
runs once (docs/jobs.md). What a person notices: one reset mail per request, one notice per
recipient, and the daily chores done once a day however many servers started that day."""

import re
import time
import uuid

from kith_cluster import (PASSWORD, PUBLIC_URL, call, hlc_now, push, sign_in, sign_up, statuses, wait_until)

DAILY_KINDS = ("nutrition.retention", "accounts.expired-sessions", "sync.expired-write-keys")


def jobs(cluster, kind: str, key_like: str = "%") -> list:
    """(key, status, attempts) of the jobs of a kind whose key is LIKE `key_like`."""
    return cluster.database.query(
        f"SELECT key, status, attempts FROM jobs WHERE kind = '{kind}' AND key LIKE '{key_like}' ORDER BY key")


def finished(cluster, kind: str, key_like: str):
    """The jobs as jobs() lists them once there are some and every one is done; else None."""
    rows = jobs(cluster, kind, key_like)
    return rows if rows and all(status == "done" for _, status, _ in rows) else None


# --- password reset mail -----------------------------------------------------------------------------

def test_each_reset_mail_asked_of_any_server_is_sent_once(cluster, smtp_sink):
    servers = cluster.servers
    accounts = [sign_up(servers[index % 3]) for index in range(6)]
    for index, account in enumerate(accounts):
        # Asked of another server than the one the account was made on.
        call(servers[(index + 1) % 3], "POST", "/v1/auth/password-reset", json={"email": account["email"]},
             expect=202)
    emails = {account["email"] for account in accounts}

    wait_until("a reset mail for each account", lambda: len(smtp_sink.mails_to(emails)) >= len(emails) or None,
               within=60)
    by_account = {}
    for account in accounts:
        key_like = f"mail.password-reset {account['user']['id']} %"
        by_account[account["email"]] = wait_until(f"the reset job of {account['email']} done",
                                                  lambda: finished(cluster, "mail.password-reset", key_like),
                                                  within=30)

    # Each job was claimed once and has finished, so no other mail for these accounts is on its way.
    for email_address, rows in by_account.items():
        assert [(status, attempts) for _, status, attempts in rows] == [("done", "1")], (email_address, rows)
    mails = smtp_sink.mails_to(emails)
    assert sorted(recipient for recipient, _ in mails) == sorted(emails), mails

    # The link works on any server, and the new password on any other.
    account = accounts[0]
    text = next(body for recipient, body in mails if recipient == account["email"])
    token = re.search(re.escape(PUBLIC_URL) + r"/reset-password\?token=(\S+)", text)
    assert token, f"no reset link in the mail:\n{text}"
    new_password = "a new horse battery"
    call(servers[2], "POST", "/v1/auth/password-reset/confirm",
         json={"token": token.group(1), "newPassword": new_password}, expect=204)
    assert sign_in(servers[1], account["email"], new_password)["user"]["id"] == account["user"]["id"]
    call(servers[0], "POST", "/v1/auth/login", json={"email": account["email"], "password": PASSWORD}, expect=401)


# --- family notices ----------------------------------------------------------------------------------

def stamp(epoch_seconds: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(epoch_seconds)) + f".{int(epoch_seconds * 1000) % 1000:03d}Z"


def join(server, person, parent_server, parent, role: str, name: str) -> dict:
    code = call(parent_server, "POST", "/v1/family/codes", token=parent["accessToken"], json={"role": role},
                expect=201).json()["code"]
    return call(server, "POST", "/v1/family/join", token=person["accessToken"],
                json={"code": code, "displayName": name}, expect=200).json()


def inbox(server, person) -> list:
    return call(server, "GET", "/v1/inbox", token=person["accessToken"], params={"limit": 200},
                expect=200).json()["notices"]


def test_family_notices_reach_each_recipient_once(cluster):
    a, b, c = cluster.servers
    marie, pierre, irene = sign_up(a), sign_up(b), sign_up(c)
    family = call(a, "POST", "/v1/family", token=marie["accessToken"],
                  json={"name": "Curie", "timeZone": "Europe/Paris", "displayName": "Marie"}, expect=201).json()
    join(b, pierre, a, marie, "parent", "Pierre")
    joined = join(c, irene, a, marie, "child", "Irène")
    assert {member["displayName"] for member in joined["members"]} == {"Marie", "Pierre", "Irène"}
    scope = family["scope"]

    # Marie asks Irène, through B, to be at a place in a few seconds.
    reminder_id = str(uuid.uuid4())
    now = time.time()
    due_in = 6
    reminder = {"mutationId": str(uuid.uuid4()), "entity": "family.reminder", "id": reminder_id, "scope": scope,
                "op": "upsert", "hlc": hlc_now("marie-phone"),
                "fields": {"title": "Piano lesson", "dueAt": stamp(now + due_in), "assigneeId": irene["user"]["id"],
                           "creatorId": marie["user"]["id"], "createdAt": stamp(now), "status": "pending",
                           "latitude": 48.8462, "longitude": 2.3444, "locationAccuracy": 10.0,
                           "locationAt": stamp(now), "tracking": True}}
    pushed = push(b, marie["accessToken"], [reminder])
    assert statuses(pushed) == ["applied"], pushed
    # Irène's phone, through C, reports her 55 m away: every parent and Irène are told at once, and
    # when it is due Irène is told that too.
    moved = time.time()
    movement = {"mutationId": str(uuid.uuid4()), "entity": "family.reminder", "id": reminder_id, "scope": scope,
                "op": "upsert", "hlc": hlc_now("irene-phone", after=reminder["hlc"]),
                "fields": {"readingLatitude": 48.8467, "readingLongitude": 2.3444, "readingAccuracy": 5.0,
                           "readingAt": stamp(moved), "movedAt": stamp(moved), "tracking": False}}
    pushed = push(c, irene["accessToken"], [movement])
    assert statuses(pushed) == ["applied"], pushed

    expected = {(marie["user"]["id"], "movement"), (pierre["user"]["id"], "movement"),
                (irene["user"]["id"], "movement"), (irene["user"]["id"], "due")}
    people = ((a, marie), (b, pierre), (c, irene))

    def delivered():
        seen = {(person["user"]["id"], notice["kind"]) for server, person in people
                for notice in inbox(server, person) if notice["reminderId"] == reminder_id}
        return seen if seen >= expected else None

    wait_until("the movement notices and the due notice in the inboxes", delivered, within=due_in + 30)
    notice_jobs = wait_until("the notice jobs done",
                             lambda: finished(cluster, "family.notice", f"family.notice:{reminder_id}:%"), within=30)

    # Each job claimed once and finished: no second delivery is on its way.
    assert sorted((key.rsplit(":", 1)[1], status, attempts) for key, status, attempts in notice_jobs) == [
        ("due", "done", "1"), ("movement", "done", "1")], notice_jobs
    for server, person in people:
        kinds = sorted(notice["kind"] for notice in inbox(server, person) if notice["reminderId"] == reminder_id)
        wanted = sorted(kind for user, kind in expected if user == person["user"]["id"])
        assert kinds == wanted, f"{person['email']} on {server.name}: {kinds}"
    rows = cluster.database.query(
        f"SELECT user_id, kind, count(*) FROM family_notices WHERE reminder_id = '{reminder_id}' GROUP BY 1, 2")
    assert sorted(rows) == sorted((user, kind, "1") for user, kind in expected), rows


# --- daily jobs --------------------------------------------------------------------------------------

def test_the_daily_jobs_run_once_a_day_however_many_servers_start(cluster):
    def daily_rows():
        rows = {kind: jobs(cluster, kind) for kind in DAILY_KINDS}
        return rows if all(any(status == "done" for _, status, _ in found) for found in rows.values()) else None

    rows = wait_until("a run of each daily job", daily_rows, within=60)
    for kind, found in rows.items():
        done = [row for row in found if row[1] == "done"]
        # Today's run, claimed once; it enqueued tomorrow's, which waits for its day.
        assert len(done) == 1 and done[0][2] == "1", f"{kind}: {found}"
        today = done[0][0].rsplit(" ", 1)[1]
        waiting = [row for row in found if row[1] == "pending"]
        assert len(found) == 2 and len(waiting) == 1 and waiting[0][0].rsplit(" ", 1)[1] > today, f"{kind}: {found}"
