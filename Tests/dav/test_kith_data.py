"""Kith only: what a DAV client writes becomes Kith's own data, and Kith's own data reaches the DAV
client; and the rules Kith keeps that a plain DAV server has not.

- A contact made on the phone and synced by vdirsyncer is a Kith contact in `/api/contacts` (the
  Monica-compatible API, bearer token) with its names, nickname, both emails, the phone, the address
  and its country, company and job, tags, the note and the birthday. Edited on the phone, the edit
  is in /api; deleted on the phone, the contact is gone from /api.
- A contact made through `POST /api/contacts` (with an email and an address) is on the phone after
  the next sync.
- A task made on the phone is a family reminder (`GET /v1/sync/pull`): title, due time, for the
  member who made it (assignee and creator), weekly repeat days, interval, start and time, and the
  checklist as items; and the server's VTODO is in Kith's normal form (DUE with TZID=Europe/Berlin
  and its VTIMEZONE, VALARMs 3, 2, 1 minutes before and at DUE).
- A monthly task (the second Tuesday, as Apple's apps write it with BYSETPOS) is a monthly
  reminder on "2TU", served back as Kith's RRULE; changed on the phone to every 2 months on the
  15th, and then to every 3 days, the reminder follows.
- Completing a task through the caldav library completes the family reminder.
- Refusals, each with a sentence: a new task due in the past (403), a repeat Kith cannot count
  (yearly, several days of the month, a COUNT) (403 or 415); nothing is stored. The collections exist by themselves: MKCOL, MKCALENDAR and
  DELETE of a collection are 403 and change nothing.
- vCard 4.0 when the client asks for it (Accept on GET, address-data version in a multiget), 3.0
  otherwise.
"""

import datetime as dt
import re
import urllib.parse

import requests

import dav_http
import dav_items
from dav_items import ZONE
from dav_servers import MKCALENDAR_TASKS, MKCOL_ADDRESSBOOK
from test_caldav_library import client_for, task_calendar
from vdir import Vdirsyncer

TIMEOUT = 30


def api(account, method: str, path: str, **kwargs) -> requests.Response:
    return requests.request(method, account.base_url + path, timeout=TIMEOUT,
                            headers={"Authorization": f"Bearer {account.extra['pat']}"}, **kwargs)


def api_contact(account, query: str) -> dict:
    """The one contact /api finds for `query`, in full (with its contact fields)."""
    found = api(account, "GET", "/api/contacts", params={"query": query})
    assert found.status_code == 200, found.text[:300]
    matches = found.json()["data"]
    assert len(matches) == 1, f"/api/contacts?query={query} found {len(matches)}: {found.text[:500]}"
    answer = api(account, "GET", f"/api/contacts/{matches[0]['id']}", params={"with": "contactfields"})
    assert answer.status_code == 200, answer.text[:300]
    return answer.json()["data"]


def fields_by_type(contact: dict, kind: str) -> list:
    return sorted(f["content"] for f in contact.get("contactFields") or []
                  if (f.get("contact_field_type") or {}).get("type") == kind)


def test_phone_contact_becomes_a_kith_contact(kith, tmp_path):
    account = kith.new_account()
    vdir = Vdirsyncer(tmp_path, account, "contacts")
    vdir.discover()
    spec = dav_items.grace("phone-grace")
    vdir.write("phone-grace.vcf", dav_items.vcard(**spec))
    vdir.sync()

    contact = api_contact(account, "Hopper")
    assert (contact["first_name"], contact["last_name"], contact["nickname"]) == ("Grace", "Hopper", "Amazing Grace")
    assert fields_by_type(contact, "email") == sorted(spec["emails"])
    assert [dav_items.phone_digits(p) for p in fields_by_type(contact, "phone")] == ["+49301234567"]
    [address] = contact["addresses"]
    assert (address["street"], address["city"], address["postal_code"], address["country"]["iso"]) == \
        ("Unter den Linden 1", "Berlin", "10117", "DE")
    career = contact["information"]["career"]
    assert (career["company"], career["job"]) == ("US Navy", "Rear Admiral")
    assert sorted(t["name"] for t in contact["tags"]) == ["friends", "navy"]
    assert (contact["information"]["dates"]["birthdate"]["date"] or "").startswith("1906-12-09")
    notes = api(account, "GET", f"/api/contacts/{contact['id']}/notes").json().get("data", [])
    assert spec["note"] in [contact.get("description")] + [n.get("body") for n in notes], \
        f"the vCard's NOTE is neither the description nor a note: {contact.get('description')!r}, {notes}"

    # Edited on the phone: the edit is in /api. Deleted on the phone: gone from /api.
    name = vdir.file_of("phone-grace", dav_http.fields_of)
    vdir.write(name, dav_items.vcard(**dict(spec, nickname="Grandma COBOL", title="Commodore")))
    vdir.sync()
    contact = api_contact(account, "Hopper")
    assert (contact["nickname"], contact["information"]["career"]["job"]) == ("Grandma COBOL", "Commodore")
    # Another contact stays on both sides: vdirsyncer refuses to empty one side of a pair ("storage empty").
    created = api(account, "POST", "/api/contacts", json={"first_name": "Stays", "is_birthdate_known": False,
                                                           "is_deceased": False, "is_deceased_date_known": False})
    assert created.status_code == 201, created.text[:300]
    vdir.sync()
    vdir.remove(name)
    vdir.sync()
    gone = api(account, "GET", f"/api/contacts/{contact['id']}")
    assert gone.status_code == 404, f"deleted on the phone, /api still answers {gone.status_code}"


def test_api_contact_reaches_the_phone(kith, tmp_path):
    account = kith.new_account()
    vdir = Vdirsyncer(tmp_path, account, "contacts")
    vdir.discover()
    vdir.sync()
    assert vdir.files() == {}

    created = api(account, "POST", "/api/contacts", json={
        "first_name": "Katherine", "last_name": "Johnson", "nickname": "Kathy", "is_birthdate_known": False,
        "is_deceased": False, "is_deceased_date_known": False})
    assert created.status_code == 201, created.text[:300]
    contact_id = created.json()["data"]["id"]
    types = api(account, "GET", "/api/contactfieldtypes").json()["data"]
    email_type = next(t["id"] for t in types if t.get("type") == "email")
    for path, body in (("/api/contactfields", {"data": "katherine@nasa.example", "contact_id": contact_id,
                                               "contact_field_type_id": email_type}),
                       ("/api/addresses", {"street": "1 NASA Drive", "city": "Hampton", "postal_code": "23666",
                                           "country": "US", "contact_id": contact_id})):
        answer = api(account, "POST", path, json=body)
        assert answer.status_code == 201, f"POST {path}: {answer.status_code} {answer.text[:300]}"

    vdir.sync()
    [text] = vdir.files().values()
    fields = dav_items.contact_fields(text)
    assert (fields["fn"], fields["n"][:2], fields["nickname"]) == ("Katherine Johnson", ["Johnson", "Katherine"], "Kathy")
    assert fields["emails"] == ["katherine@nasa.example"]
    assert fields["addresses"] == ["1 NASA Drive|Hampton||23666|US"]
    assert fields["uid"], "a contact made in Kith needs a UID in its vCard"


def pull(account) -> list:
    answer = api(account, "GET", "/v1/sync/pull", params={"limit": 1000})
    assert answer.status_code == 200, answer.text[:300]
    return [c for c in answer.json()["changes"] if not c["deleted"]]


def instant(value) -> dt.datetime:
    if isinstance(value, (int, float)):
        return dt.datetime.fromtimestamp(value / 1000, dt.timezone.utc)
    return dt.datetime.fromisoformat(str(value).replace("Z", "+00:00"))


def test_phone_task_becomes_a_family_reminder(kith, tmp_path):
    account = kith.new_account()
    vdir = Vdirsyncer(tmp_path, account, "tasks")
    vdir.discover()
    spec = dav_items.weekly_task("phone-groceries")
    vdir.write("phone-groceries.ics", dav_items.vtodo(**spec))
    vdir.sync()

    changes = pull(account)
    reminders = [c["fields"] for c in changes if c["entity"] == "family.reminder"]
    assert len(reminders) == 1, f"expected one family reminder, found {reminders}"
    [reminder] = reminders
    user = account.extra["userId"]
    due = spec["due"].replace(tzinfo=ZONE)
    assert reminder["title"] == "Buy groceries"
    assert (reminder["assigneeId"], reminder["creatorId"]) == (user, user), "a member's task is a reminder for them"
    assert instant(reminder["dueAt"]) == due
    assert reminder["status"] == "pending"
    assert (reminder.get("repeatInterval"), reminder.get("repeatTime"), reminder.get("repeatStart")) == \
        (2, "18:00", due.date().isoformat())
    expected_days = spec["rrule"].split("BYDAY=")[1].split(",")
    assert sorted((reminder.get("repeatDays") or "").split(","), key=dav_items.WEEKDAYS.index) == \
        sorted(expected_days, key=dav_items.WEEKDAYS.index)
    items = sorted((c["fields"]["position"], c["fields"]["text"], c["fields"]["done"]) for c in changes
                   if c["entity"] == "family.checklistItem")
    assert [(text, done) for _pos, text, done in items] == [("milk", False), ("bread", True)]

    # The server's own text is in Kith's normal form.
    [(_url, _etag, text)] = dav_http.server_texts(account, "tasks").values()
    assert f"DUE;TZID={dav_items.FAMILY_ZONE}:" in text.replace("\r\n ", "")
    assert any(props and _has(props, "TZID", dav_items.FAMILY_ZONE) for props in dav_items.components(text, "VTIMEZONE"))
    assert sorted(dav_items.trigger_minutes(t) for t in dav_items.alarm_triggers(text)) == [-3, -2, -1, 0]


def _has(props, name, value) -> bool:
    return any(p == name and v.strip() == value for p, _params, v in props)


def test_phone_monthly_task_becomes_a_monthly_reminder(kith):
    account = kith.new_account()
    day = dav_items.tomorrow()
    while not (day.weekday() == 1 and 8 <= day.day <= 14):  # the second Tuesday of a month
        day += dt.timedelta(days=1)
    due = dt.datetime.combine(day, dt.time(8))
    dav_http.create(account, "tasks", "rent", dav_items.vtodo("rent", "Pay the rent", due,
                                                               rrule="FREQ=MONTHLY;BYDAY=TU;BYSETPOS=2"))

    def reminder():
        [fields] = [c["fields"] for c in pull(account) if c["entity"] == "family.reminder"]
        return fields

    stored = reminder()
    assert (stored.get("repeatFrequency"), stored.get("repeatMonthWeekday"), stored.get("repeatInterval")) == \
        ("monthly", "2TU", 1), stored
    assert stored.get("repeatDays") is None and stored.get("repeatMonthDay") is None
    assert instant(stored["dueAt"]) == due.replace(tzinfo=ZONE)
    [(_url, _etag, text)] = dav_http.server_texts(account, "tasks").values()
    assert "RRULE:FREQ=MONTHLY;INTERVAL=1;BYDAY=2TU" in text.replace("\r\n ", ""), text

    # Changed on the phone: every 2 months on the 15th, then every 3 days.
    fifteenth = day.replace(day=15)
    dav_http.update(account, "tasks", "rent", dav_items.vtodo(
        "rent", "Pay the rent", dt.datetime.combine(fifteenth, dt.time(8)), rrule="FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=15"))
    stored = reminder()
    assert (stored.get("repeatFrequency"), stored.get("repeatMonthDay"), stored.get("repeatInterval")) == \
        ("monthly", 15, 2), stored
    assert stored.get("repeatMonthWeekday") is None
    assert instant(stored["dueAt"]) == dt.datetime.combine(fifteenth, dt.time(8), tzinfo=ZONE)
    dav_http.update(account, "tasks", "rent", dav_items.vtodo(
        "rent", "Pay the rent", dt.datetime.combine(fifteenth, dt.time(8)), rrule="FREQ=DAILY;INTERVAL=3"))
    stored = reminder()
    assert (stored.get("repeatFrequency"), stored.get("repeatInterval"), stored.get("repeatMonthDay")) == \
        ("daily", 3, None), stored
    [(_url, _etag, text)] = dav_http.server_texts(account, "tasks").values()
    assert "RRULE:FREQ=DAILY;INTERVAL=3" in text.replace("\r\n ", ""), text


def test_completing_through_caldav_completes_the_reminder(kith):
    account = kith.new_account()
    calendar = task_calendar(client_for(account), account)
    due = dt.datetime.combine(dav_items.tomorrow(), dt.time(18))
    calendar.save_todo(dav_items.vtodo("bins", "Take out the bins", due))
    calendar.get_todo_by_uid("bins").complete()
    assert dav_items.task_fields(calendar.get_todo_by_uid("bins").data)["status"] == "COMPLETED"
    [reminder] = [c["fields"] for c in pull(account) if c["entity"] == "family.reminder"]
    assert reminder["status"] == "completed" and reminder.get("completedBy") == account.extra["userId"]


def sentence(answer: requests.Response) -> str:
    """The refusal's words (an XML error body's text, or a plain one)."""
    text = re.sub(r"<[^>]+>", " ", answer.text)
    return " ".join(text.split())


def test_task_refusals(kith):
    account = kith.new_account()
    http = account.http()
    calendar = account.calendar_url
    past = dt.datetime.now(ZONE).replace(tzinfo=None, microsecond=0) - dt.timedelta(hours=1)
    cases = {
        "due in the past": (dav_items.vtodo("past", "Too late", past), (403,)),
        "a yearly repeat": (dav_items.vtodo("yearly", "Every year", dt.datetime.combine(dav_items.tomorrow(), dt.time(9)),
                                            rrule="FREQ=YEARLY"), (403, 415)),
        "two days a month": (dav_items.vtodo("twice", "Twice a month", dt.datetime.combine(dav_items.tomorrow(), dt.time(9)),
                                             rrule="FREQ=MONTHLY;BYMONTHDAY=1,15"), (403, 415)),
        "a counted repeat": (dav_items.vtodo("counted", "Five days", dt.datetime.combine(dav_items.tomorrow(), dt.time(9)),
                                             rrule="FREQ=DAILY;COUNT=5"), (403, 415)),
    }
    for name, (text, statuses) in cases.items():
        answer = dav_http.put(http, calendar + f"{name.replace(' ', '-')}.ics", text, "tasks", create=True, expected=None)
        assert answer.status_code in statuses, f"{name}: {answer.status_code} {answer.text[:300]}"
        words = sentence(answer)
        assert len(re.findall(r"[A-Za-z]+", words)) >= 4, f"{name}: the refusal needs a sentence, got {answer.text[:300]!r}"
    assert dav_http.server_fields(account, "tasks") == {}, "a refused task was stored"


def test_collections_exist_by_themselves(kith):
    account = kith.new_account()
    http = account.http()
    dav_http.create(account, "contacts", "keep", dav_items.vcard(**dav_items.grace("keep")))
    book_home = account.addressbook_url.rsplit("/contacts/", 1)[0] + "/"
    calendar_home = account.calendar_url.rsplit("/family/", 1)[0] + "/"
    attempts = {
        "MKCOL a second address book": http.request("MKCOL", book_home + "second/", data=MKCOL_ADDRESSBOOK,
                                                     headers={"Content-Type": "application/xml"}, timeout=TIMEOUT),
        "MKCALENDAR a second calendar": http.request("MKCALENDAR", calendar_home + "second/", data=MKCALENDAR_TASKS,
                                                     headers={"Content-Type": "application/xml"}, timeout=TIMEOUT),
        "MKCOL over the address book": http.request("MKCOL", account.addressbook_url, data=MKCOL_ADDRESSBOOK,
                                                    headers={"Content-Type": "application/xml"}, timeout=TIMEOUT),
        "DELETE the address book": http.delete(account.addressbook_url, timeout=TIMEOUT),
        "DELETE the task calendar": http.delete(account.calendar_url, timeout=TIMEOUT),
    }
    wrong = {name: f"{a.status_code} {a.text[:200]}" for name, a in attempts.items() if a.status_code != 403}
    assert not wrong, f"expected 403 for each: {wrong}"
    assert list(dav_http.server_fields(account, "contacts")) == ["keep"]
    dav_http.propfind(http, account.calendar_url, "<d:resourcetype/>")
    for home in (book_home + "second/", calendar_home + "second/"):
        assert http.request("PROPFIND", home, headers={"Depth": "0"}, timeout=TIMEOUT).status_code == 404


def test_vcard_4_when_asked(kith):
    account = kith.new_account()
    http = account.http()
    url = dav_http.create(account, "contacts", "versions", dav_items.vcard(**dav_items.grace("versions")))

    def version(text: str) -> str:
        return next(v for p, _params, v in dav_items.components(text, "VCARD")[0] if p == "VERSION").strip()

    assert version(dav_http.get(http, url).text) == "3.0"
    asked = http.get(url, headers={"Accept": "text/vcard;version=4.0"}, timeout=TIMEOUT)
    assert asked.status_code == 200 and version(asked.text) == "4.0", asked.text[:300]
    path = urllib.parse.urlsplit(url).path
    for attributes, expected in (('content-type="text/vcard" version="4.0"', "4.0"), ("", "3.0")):
        root = dav_http.report(http, account.addressbook_url, (
            '<?xml version="1.0" encoding="utf-8"?><cr:addressbook-multiget xmlns:d="DAV:" '
            f'xmlns:cr="urn:ietf:params:xml:ns:carddav"><d:prop><d:getetag/><cr:address-data {attributes}/>'
            f'</d:prop><d:href>{path}</d:href></cr:addressbook-multiget>'))
        [(_href, props, _status)] = dav_http.responses(root)
        text = props[dav_http.tag("cr", "address-data")].text
        assert version(text) == expected, f"address-data {attributes or '(no version)'}: {text[:300]}"
        # The same person either way.
        assert dav_items.contact_fields(text) == dav_items.contact_fields(dav_http.get(http, url).text)
