"""The web forms (docs/accounts.md, docs/outreach.md, docs/nutrition-web.md, docs/family.md) with hostile bodies: missing or wrong CSRF,
huge fields, invalid UTF-8 escapes, repeated fields, NUL bytes. Answers are 4xx, a redirect or the form
shown again; never 5xx. Each engine gets a server of its own: hostile sign-ins count as failures."""

import re
import urllib.parse
import uuid

import pytest
import requests

from conftest import DEFAULT_ENV, Hostile
from kith_hostile import PASSWORD, KithServer, fresh_email


@pytest.fixture(scope="module")
def forms_server(engine):
    server = KithServer(engine, env=DEFAULT_ENV).start()
    yield server
    server.stop()


@pytest.fixture
def signed_in(forms_server):
    """(Hostile client with a signed-in web session, its CSRF token, the year id, a person id, account)."""
    forms_server.assert_healthy("the previous test")
    # Signed up through the form, not signed in: this module's hostile sign-ins may have the address
    # throttled by now.
    email = fresh_email("forms")
    session = forms_server.web_signup(email)
    account = {"email": email, "password": PASSWORD}
    client = Hostile(forms_server, session=session)
    page = client.get("/outreach")
    assert page.status_code == 200, page.text[:300]
    csrf = re.search(r'name="_csrf" value="([^"]+)"', page.text).group(1)
    year = re.search(r'name="year" value="([0-9a-fA-F-]{36})"', page.text).group(1)
    added = client.post("/outreach/people", data={"_csrf": csrf, "year": year, "firstName": "Ada", "lastName": "Lovelace",
                                                  "enterpriseName": "Engines"})
    assert added.status_code in (200, 302, 303), added.text[:300]
    page = client.get("/outreach", params={"year": year})
    person = re.search(r'/outreach/people/([0-9a-fA-F-]{36})', page.text).group(1)
    return client, csrf, year, person, account


# Forms of a signed-in user (never /account/delete with the right password, never /signout here).
def signed_in_forms(year, person):
    return [
        ("/account/password", {"currentPassword": "wrong password", "newPassword": "new password 123"}),
        ("/account/tokens", {"name": "token"}),
        (f"/account/tokens/{uuid.uuid4()}/revoke", {}),
        ("/account/delete", {"deletePassword": "wrong password", "confirm": "yes"}),
        (f"/account/devices/{uuid.uuid4()}", {"kind.due": "on", "kind.before_1": "on"}),
        (f"/account/devices/{uuid.uuid4()}/remove", {}),
        ("/account/reminder-time", {"hour": "9", "timeZone": "Europe/Paris"}),
        ("/account/currency", {"currency": "EUR"}),
        ("/outreach/select", {"year": year}),
        ("/outreach/years", {"name": "2031", "currentYear": year, "copyFrom": year}),
        (f"/outreach/years/{year}/rename", {"name": "Renamed"}),
        ("/outreach/people", {"year": year, "firstName": "A", "lastName": "B", "enterpriseName": "C", "comments": "D"}),
        (f"/outreach/people/{person}", {"firstName": "A", "lastName": "B", "enterpriseName": "C", "comments": "D"}),
        ("/outreach/delivered", {"set": f"{person}:true"}),
        ("/outreach/import", {"year": year, "csv": "First Name,Last Name,Enterprise\r\nA,B,C\r\n"}),
        (f"/outreach/people/{uuid.uuid4()}/delete", {}),
        (f"/outreach/years/{uuid.uuid4()}/delete", {}),
        ("/food/items", {"date": "2026-11-24", "source": "manual", "name": "A", "calories": "1", "protein": "2",
                         "carbs": "3", "fat": "4", "servingSize": "1", "servingUnit": "g"}),
        (f"/food/items/{uuid.uuid4()}", {"name": "A", "calories": "1"}),
        (f"/food/items/{uuid.uuid4()}/delete", {}),
        ("/food/goal", {"date": "2026-11-24", "dailyCalories": "2000", "timeZone": "Europe/Paris"}),
        ("/food/goal/clear", {"date": "2026-11-24", "timeZone": "Europe/Paris"}),
        ("/food/meals", {"name": "M", "ingredients.0.name": "A", "ingredients.0.calories": "1"}),
        (f"/food/meals/{uuid.uuid4()}/log", {"date": "2026-11-24"}),
        (f"/food/meals/{uuid.uuid4()}/delete", {}),
        (f"/food/meals/{uuid.uuid4()}", {"name": "M", "ingredients.0.name": "A", "ingredients.0.calories": "1",
                                          "ingredients.0.amount": "2"}),
        ("/food/copy", {"date": "2026-11-24", "from": "2026-11-23", "meal": "breakfast"}),
        ("/food/favorites", {"date": "2026-11-24", "name": "A", "calories": "1", "amount": "2"}),
        (f"/food/favorites/{uuid.uuid4()}/delete", {"date": "2026-11-24"}),
    ]


PUBLIC_FORMS = [
    ("/signin", {"email": "nobody@example.com", "password": "wrong password"}),
    ("/signup", {"email": "x@example.com", "password": "short"}),
    ("/forgot-password", {"email": "nobody@example.com"}),
    ("/reset-password", {"token": "kpr_nope", "newPassword": "new password 123"}),
]


def hostile_forms(fields: dict, csrf: str):
    """(name, raw body) pairs built around a form's own fields."""
    good = dict(fields, _csrf=csrf)
    encode = urllib.parse.urlencode
    yield "missing CSRF", encode(fields).encode()
    yield "wrong CSRF", encode(dict(fields, _csrf="kws_" + "A" * 43)).encode()
    yield "empty CSRF", encode(dict(fields, _csrf="")).encode()
    yield "huge fields", encode({k: "a" * 200_000 for k in good} | {"_csrf": csrf}).encode()
    yield "invalid UTF-8 escapes", (encode({"_csrf": csrf}) + "&" + "&".join(
        f"{k}=%ff%fe%C3%28%ED%A0%80" for k in fields)).encode()
    yield "broken escapes", (encode({"_csrf": csrf}) + "&" + "&".join(f"{k}=%&{k}%zz=%4" for k in fields)).encode()
    yield "raw invalid UTF-8", encode({"_csrf": csrf}).encode() + b"&" + b"&".join(
        k.encode() + b"=\xff\xfe\x00" for k in fields)
    yield "NUL bytes", encode({k: "a\u0000b" for k in good} | {"_csrf": csrf}).encode()
    yield "repeated fields", "&".join([encode(good)] * 3 + [encode({k: "" for k in fields})]).encode()
    yield "combining marks", encode({k: "e" + "\u0301" * 1000 for k in fields} | {"_csrf": csrf}).encode()
    yield "10000 fields", (encode(good) + "&" + "&".join(f"f{i}={i}" for i in range(10_000))).encode()
    yield "no equals signs", b"&&&&" + b"&".join(k.encode() for k in fields) + b"&_csrf=" + csrf.encode()
    yield "empty body", b""


def _check(client, path, name, body, content_type="application/x-www-form-urlencoded"):
    answer = client.request("POST", path, data=body, headers={"Content-Type": content_type}, check_health=False,
                            allow_5xx=True)
    problem = None
    if answer.status_code >= 500:
        problem = f"{path} [{name}]: {answer.status_code} {answer.text[:200]}"
    elif name in ("missing CSRF", "wrong CSRF", "empty CSRF") and answer.status_code != 403:
        problem = f"{path} [{name}]: {answer.status_code}, expected 403"
    return answer, problem


def test_signed_in_forms_with_hostile_bodies(signed_in):
    client, csrf, year, person, account = signed_in
    problems = []
    for path, fields in signed_in_forms(year, person):
        for name, body in hostile_forms(fields, csrf):
            _, problem = _check(client, path, name, body)
            if problem:
                problems.append(problem)
        client.server.assert_healthy(f"hostile forms on {path}")
    assert not problems, "\n".join(problems)
    # Still signed in, the account and the page fine.
    assert client.get("/account").status_code == 200
    assert client.get("/outreach").status_code == 200
    assert requests.post(client.server.url("/v1/auth/login"), json={"email": account["email"],
                                                                     "password": account["password"]}).status_code == 200


def family_forms(reminder, item, me):
    """The /family forms (docs/family.md, "Web app /family") of a parent with one reminder."""
    repeat = {"repeat.MO": "on", "repeatInterval": "2", "repeatStart": "2031-01-06", "repeatTime": "07:30"}
    reminder_form = {"title": "Bins", "dueAt": "2031-01-01T08:00", "assigneeId": me, "checklist.0.text": "Paper",
                     "checklist.0.id": item, **repeat}
    return [
        ("/family/create", {"name": "Other", "timeZone": "Europe/Paris", "displayName": "Ada"}),
        ("/family/join", {"code": "ACDE-FGHJ", "displayName": "Ada"}),
        ("/family/settings", {"name": "Renamed", "timeZone": "America/New_York"}),
        ("/family/name", {"displayName": "Ada L."}),
        ("/family/codes", {"role": "child"}),
        (f"/family/codes/{uuid.uuid4()}/revoke", {}),
        (f"/family/members/{me}/role", {"role": "child"}),
        (f"/family/members/{uuid.uuid4()}/remove", {}),
        ("/family/reminders", dict(reminder_form, preview="1")),
        ("/family/reminders", reminder_form),
        (f"/family/reminders/{reminder}/edit", reminder_form),
        (f"/family/reminders/{reminder}/items/{item}", {"done": "true"}),
        (f"/family/reminders/{reminder}/snooze", {"minutes": "10"}),
        ("/family/reminders", dict(reminder_form, latitude="48.85", longitude="2.29", locationAccuracy="8")),
        ("/family/notices/read", {"id": str(uuid.uuid4())}),
        ("/family/notices/read", {"all": "1"}),
        (f"/family/reminders/{reminder}/complete", {"back": "/family"}),
        (f"/family/reminders/{uuid.uuid4()}/delete", {}),
    ]


def test_family_forms_with_hostile_bodies(signed_in):
    client, csrf, _, _, _ = signed_in
    created = client.post("/family/create", data={"_csrf": csrf, "name": "Lovelace", "timeZone": "Europe/Paris",
                                                  "displayName": "Ada"})
    assert created.status_code == 302, created.text[:300]
    me = re.search(r'<option value="([0-9a-f-]{36})"', client.get("/family/reminders/new").text).group(1)
    made = client.post("/family/reminders", data={"_csrf": csrf, "title": "Bins", "dueAt": "2031-01-01T08:00",
                                                  "assigneeId": me, "checklist.0.text": "Paper"})
    assert made.status_code == 302, made.text[:300]
    reminder = made.headers["Location"].rsplit("/", 1)[-1]
    page = client.get(f"/family/reminders/{reminder}")
    item = re.search(r'/items/([0-9a-fA-F-]{36})', page.text).group(1)
    problems = []
    for path, fields in family_forms(reminder, item, me):
        for name, body in hostile_forms(fields, csrf):
            _, problem = _check(client, path, name, body)
            if problem:
                problems.append(problem)
        client.server.assert_healthy(f"hostile forms on {path}")
    assert not problems, "\n".join(problems)
    assert client.get("/family").status_code == 200


def test_public_forms_with_hostile_bodies(forms_server):
    forms_server.assert_healthy("the previous test")
    session = requests.Session()
    client = Hostile(forms_server, session=session)
    csrf = forms_server.csrf(session, "/signin")
    problems = []
    for path, fields in PUBLIC_FORMS:
        for name, body in hostile_forms(fields, csrf):
            _, problem = _check(client, path, name, body)
            if problem:
                problems.append(problem)
        forms_server.assert_healthy(f"hostile forms on {path}")
    assert not problems, "\n".join(problems)


def test_form_bodies_over_one_mib_are_413(signed_in):
    client, csrf, year, _, _ = signed_in
    body = f"_csrf={csrf}&year={year}&csv=".encode() + b"a" * (1024 * 1024 + 1)
    for path in ("/outreach/import", "/signin", "/account/tokens"):
        answer = client.post(path, data=body, headers={"Content-Type": "application/x-www-form-urlencoded"})
        assert answer.status_code == 413, f"{path}: {answer.status_code}"


def test_forms_with_other_content_types(signed_in):
    client, csrf, year, _, _ = signed_in
    for content_type, body in (("application/json", b'{"_csrf":"%s","name":"2040"}' % csrf.encode()),
                               ("multipart/form-data; boundary=x", b"--x\r\n\r\n--x--"),
                               ("text/plain", b"_csrf=" + csrf.encode() + b"&name=2040"),
                               ("\x7f", b"x"), ("", b"")):
        for path in ("/outreach/years", "/account/tokens", "/signin"):
            answer = client.request("POST", path, data=body, headers={"Content-Type": content_type})
            assert answer.status_code < 500


def test_hostile_query_strings_on_pages(signed_in):
    client, _, year, person, _ = signed_in
    for path in ("/outreach", "/outreach/export", "/contacts", "/account", "/signin", "/reset-password",
                 f"/outreach/people/{person}", f"/outreach/years/{year}/delete", "/food", "/food/meals/new"):
        for query in ("date=%ff", "date=0001-01-01", "date=9999-12-31", "date=" + "9" * 5000, "loggedMeal=%00",
                      "year=%ff", "year=" + "a" * 10_000, "year=00000000-0000-0000-0000-000000000000", "notice=%00",
                      "token=" + "k" * 5000, "year=1&year=2", "imported=99999999999999999999", "imported=-1",
                      "%zz=%zz", "page=9223372036854775807", "meal=%00", "meal=" + "b" * 5000,
                      "copied=99999999999999999999&from=0001-01-01&fromMeal=x", "favorite=%ff"):
            answer = client.get(f"{path}?{query}")
            assert answer.status_code < 500, f"{path}?{query[:40]}: {answer.status_code}"
    for value in ("0", "-1", "9223372036854775807", "99999999999999999999", "abc", "%00"):
        answer = client.get(f"/contacts/{value}")
        assert answer.status_code in (200, 400, 404), f"/contacts/{value}: {answer.status_code}"
        for path in (f"/outreach/people/{value}", f"/outreach/years/{value}/delete", f"/food/items/{value}",
                     f"/food/meals/{value}/delete", f"/food/meals/{value}"):
            answer = client.get(path)
            assert answer.status_code in (400, 404), f"{path}: {answer.status_code}"
