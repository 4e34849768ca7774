"""Two accounts on one server: the second one's credentials get nothing of the first's collections
(every method 403 or 404, and nothing changes), its own discovery leads to its own principal, and
its own address book is empty. On every target (Radicale with `owner_only` rights), compared with
Radicale's outcome; on Kith also: the account password is no DAV password (a personal access token
is), and a person in no family has no task calendar.
"""

import urllib.parse

import requests

import dav_http
import dav_items

REFUSED = (403, 404)


def isolation(first, _directory) -> dict:
    """`first` has a contact and a task; a second account on the same server tries them."""
    second = first.another()
    contact_url = dav_http.create(first, "contacts", "private-contact", dav_items.vcard(**dav_items.grace("private-contact")))
    task_url = dav_http.create(first, "tasks", "private-task", dav_items.vtodo(**dav_items.weekly_task("private-task")))
    before = {kind: dav_http.server_fields(first, kind) for kind in ("contacts", "tasks")}

    other = second.http()
    attempts = {
        "PROPFIND principal": other.request("PROPFIND", first.principal_url, headers={"Depth": "0"}, timeout=30),
        "PROPFIND address book": other.request("PROPFIND", first.addressbook_url, headers={"Depth": "1"}, timeout=30),
        "PROPFIND calendar": other.request("PROPFIND", first.calendar_url, headers={"Depth": "1"}, timeout=30),
        "GET contact": other.get(contact_url, timeout=30),
        "GET task": other.get(task_url, timeout=30),
        "PUT over contact": other.put(contact_url, data=dav_items.vcard(**dict(dav_items.grace("private-contact"),
                                                                             nickname="Intruder")).encode(),
                                      headers={"Content-Type": dav_http.MIME["contacts"]}, timeout=30),
        "PUT new task": other.put(first.calendar_url + "intruder.ics",
                                  data=dav_items.vtodo(**dav_items.weekly_task("intruder")).encode(),
                                  headers={"Content-Type": dav_http.MIME["tasks"]}, timeout=30),
        "DELETE task": other.delete(task_url, timeout=30),
        "REPORT sync-collection": other.request(
            "REPORT", first.addressbook_url, headers={"Depth": "0", "Content-Type": "application/xml"}, timeout=30,
            data=b'<?xml version="1.0"?><d:sync-collection xmlns:d="DAV:"><d:sync-token/><d:sync-level>1'
                 b'</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>'),
    }
    outcome = {name: "refused" if answer.status_code in REFUSED else f"{answer.status_code}: {answer.text[:200]}"
               for name, answer in attempts.items()}
    outcome["first's items unchanged"] = {kind: dav_http.server_fields(first, kind) for kind in before} == before

    root = dav_http.propfind(other, second.dav_url, "<d:current-user-principal/>")
    principal = urllib.parse.urljoin(second.dav_url, dav_http.href_in(root, "d:current-user-principal"))
    outcome["second's principal is its own"] = (urllib.parse.urlsplit(principal).path.rstrip("/")
                                                == urllib.parse.urlsplit(second.principal_url).path.rstrip("/"))
    outcome["second's address book"] = dav_http.server_fields(second, "contacts")
    outcome["second's task calendar"] = dav_http.server_fields(second, "tasks")
    return outcome


def test_second_account_gets_nothing_of_the_first(account, same_as_radicale):
    outcome = same_as_radicale(("isolation",), account, isolation)
    assert all(value == "refused" for name, value in outcome.items() if name.split()[0] in
               ("PROPFIND", "GET", "PUT", "DELETE", "REPORT")), outcome
    assert outcome["first's items unchanged"] and outcome["second's principal is its own"]
    assert outcome["second's address book"] == {} and outcome["second's task calendar"] == {}


def test_kith_refuses_the_account_password(kith):
    account = kith.new_account()
    for password, expected in ((account.extra["accountPassword"], 401), (account.password, 207)):
        answer = requests.request("PROPFIND", account.addressbook_url, auth=(account.username, password),
                                  headers={"Depth": "0"}, timeout=30)
        assert answer.status_code == expected, (
            f"PROPFIND with {'the account password' if expected == 401 else 'a personal access token'} "
            f"answered {answer.status_code}, expected {expected}: {answer.text[:300]}")
    assert "basic" in requests.request("PROPFIND", account.addressbook_url, auth=(account.username, "nope"),
                                       headers={"Depth": "0"}, timeout=30).headers.get("WWW-Authenticate", "").lower()


def test_kith_no_family_no_task_calendar(kith):
    account = kith.new_account(family=False)
    http = account.http()
    assert http.request("PROPFIND", account.calendar_url, headers={"Depth": "0"}, timeout=30).status_code == 404
    home = account.calendar_url.rsplit("/family/", 1)[0] + "/"
    listing = dav_http.propfind(http, home, "<d:resourcetype/>", depth="1")
    calendars = [href for href, props, _ in dav_http.responses(listing)
                 if props.get(dav_http.tag("d", "resourcetype")) is not None
                 and props[dav_http.tag("d", "resourcetype")].find("c:calendar", dav_http.NS) is not None]
    assert calendars == [], f"a person in no family has no calendar, found {calendars}"
    # Their address book is there all the same.
    assert dav_http.server_fields(account, "contacts") == {}
