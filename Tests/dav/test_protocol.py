"""The DAV protocol itself, request by request, on every target, each outcome compared with
Radicale's: what the clients above rely on, spelled out, so a difference names the request.

- discovery: /.well-known/carddav and /.well-known/caldav redirect (301/302/307/308, not 303: aiohttp,
  vdirsyncer's HTTP library, turns a 303 into a GET) to where a PROPFIND gives the account's
  current-user-principal; the principal gives addressbook-home-set and calendar-home-set; each home
  lists its collection with the right resourcetype (the calendar for VTODO);
- credentials: none, or a wrong password, get 401 with a Basic challenge;
- per collection (contacts, tasks): If-None-Match: * creates (201) once, then 412; GET answers the
  item with its Content-Type and the ETag its listing gives; a stale If-Match on PUT or DELETE is 412
  and changes nothing; the current one succeeds; a deleted item is 404;
- getctag and sync-collection (RFC 6578): the ctag moves on a change; a sync from no token lists
  the members; a sync from that token lists exactly what changed since (a new item with its ETag,
  a deleted one as 404); an unknown token is refused;
- addressbook-query (a text-match on EMAIL) and addressbook-multiget.
"""

import re
import urllib.parse
import uuid

import pytest
import requests

import dav_http
import dav_items
from dav_http import NS, tag

KINDS = ["contacts", "tasks"]


def path(url: str) -> str:
    return urllib.parse.unquote(urllib.parse.urlsplit(url).path).rstrip("/") + "/"


def item(kind: str, uid: str, variant: str = "") -> str:
    if kind == "contacts":
        spec = dav_items.grace(uid)
        if variant:
            spec["nickname"] = variant
        return dav_items.vcard(**spec)
    spec = dav_items.weekly_task(uid, "Buy groceries " + variant)
    return dav_items.vtodo(**spec)


def discovery(account, _directory) -> dict:
    http = account.http()
    outcome = {}
    for service in ("carddav", "caldav"):
        answer = http.request("PROPFIND", account.base_url + f"/.well-known/{service}", allow_redirects=False,
                              headers={"Depth": "0"}, timeout=30)
        location = answer.headers.get("Location")
        redirected = answer.status_code in (301, 302, 307, 308) and bool(location)
        principal = None
        if redirected:
            root = dav_http.propfind(http, urllib.parse.urljoin(answer.url, location),
                                     "<d:current-user-principal/>")
            principal = dav_http.href_in(root, "d:current-user-principal")
        outcome[service] = {"redirects": redirected,
                            "principal is the account's": principal is not None and
                            path(urllib.parse.urljoin(account.base_url, principal)) == path(account.principal_url)}

    root = dav_http.propfind(http, account.dav_url, "<d:current-user-principal/>")
    principal = urllib.parse.urljoin(account.dav_url, dav_http.href_in(root, "d:current-user-principal"))
    outcome["dav address gives the principal"] = path(principal) == path(account.principal_url)
    root = dav_http.propfind(http, principal, "<cr:addressbook-home-set/><c:calendar-home-set/>")
    for home_prop, kind, resourcetype in (("cr:addressbook-home-set", "contacts", ("cr", "addressbook")),
                                          ("c:calendar-home-set", "tasks", ("c", "calendar"))):
        home = urllib.parse.urljoin(principal, dav_http.href_in(root, home_prop))
        listing = dav_http.propfind(http, home, "<d:resourcetype/><c:supported-calendar-component-set/>", depth="1")
        found = {}
        for href, props, _status in dav_http.responses(listing):
            types = props.get(tag("d", "resourcetype"))
            if types is not None and types.find(f"{resourcetype[0]}:{resourcetype[1]}", NS) is not None:
                components = props.get(tag("c", "supported-calendar-component-set"))
                found[path(urllib.parse.urljoin(home, href))] = sorted(
                    c.get("name") for c in components.findall("c:comp", NS)) if components is not None else None
        collection = path(account.collection_url(kind))
        outcome[kind] = {"home lists the collection": collection in found, "collections of the kind": len(found),
                         "components": found.get(collection) if kind == "tasks" else None}
    return outcome


def credentials(account, _directory) -> dict:
    outcome = {}
    for name, auth in (("none", None), ("wrong password", (account.username, account.password + "x"))):
        answer = requests.request("PROPFIND", account.addressbook_url, auth=auth, headers={"Depth": "0"}, timeout=30)
        challenge = answer.headers.get("WWW-Authenticate", "")
        outcome[name] = {"status": answer.status_code, "challenge": challenge.split()[0].lower() if challenge else None}
    return outcome


def preconditions(kind: str):
    def scenario(account, _directory) -> dict:
        http = account.http()
        url = account.collection_url(kind) + f"precondition-{kind}{dav_http.EXT[kind]}"
        outcome = {}
        outcome["create"] = dav_http.put(http, url, item(kind, f"precondition-{kind}"), kind, create=True,
                                         expected=None).status_code
        outcome["create again"] = dav_http.put(http, url, item(kind, f"precondition-{kind}", "again"), kind,
                                               create=True, expected=None).status_code
        answer = http.get(url, timeout=30)
        listed = dav_http.list_items(http, account.collection_url(kind))
        etag = answer.headers.get("ETag")
        outcome["get"] = {"status": answer.status_code,
                          "content type": answer.headers.get("Content-Type", "").split(";")[0].strip().lower(),
                          "ETag is the listing's": etag is not None and listed.get(url) == etag,
                          "nickname or summary": _visible(kind, answer.text)}
        outcome["stale If-Match PUT"] = dav_http.put(http, url, item(kind, f"precondition-{kind}", "stale"), kind,
                                                     etag='"not-the-etag"', expected=None).status_code
        outcome["after the stale PUT"] = _visible(kind, http.get(url, timeout=30).text)
        updated = dav_http.put(http, url, item(kind, f"precondition-{kind}", "current"), kind, etag=etag,
                               expected=None)
        outcome["current If-Match PUT"] = "2xx" if updated.status_code in (200, 201, 204) else updated.status_code
        after = dav_http.list_items(http, account.collection_url(kind))
        outcome["ETag moved"] = after.get(url) not in (None, etag)
        outcome["after the PUT"] = _visible(kind, http.get(url, timeout=30).text)
        outcome["stale If-Match DELETE"] = dav_http.delete(http, url, etag=etag, expected=None).status_code
        deleted = dav_http.delete(http, url, etag=after.get(url), expected=None)
        outcome["current If-Match DELETE"] = "2xx" if deleted.status_code in (200, 204) else deleted.status_code
        outcome["GET after DELETE"] = http.get(url, timeout=30).status_code
        return outcome

    return scenario


def _visible(kind: str, text: str):
    fields = dav_http.fields_of(kind, text)
    return fields["nickname"] if kind == "contacts" else fields["summary"]


SYNC_BODY = ('<?xml version="1.0" encoding="utf-8"?><d:sync-collection xmlns:d="DAV:">'
             '<d:sync-token>{token}</d:sync-token><d:sync-level>1</d:sync-level>'
             '<d:prop><d:getetag/></d:prop></d:sync-collection>')


def sync_collection(http, collection: str, token: str):
    root = dav_http.report(http, collection, SYNC_BODY.format(token=token), depth="0")
    changes = {}
    for href, props, status in dav_http.responses(root):
        name = path(urllib.parse.urljoin(collection, href)).rstrip("/").rsplit("/", 1)[-1]
        if path(urllib.parse.urljoin(collection, href)) == path(collection):
            continue
        if status and " 404 " in status + " ":
            changes[name] = "deleted"
        else:
            changes[name] = "changed" if props.get(tag("d", "getetag")) is not None else "no ETag"
    new_token = root.findtext("d:sync-token", default="", namespaces=NS).strip()
    return changes, new_token


def sync_tokens(kind: str):
    def scenario(account, _directory) -> dict:
        http = account.http()
        collection = account.collection_url(kind)
        ext = dav_http.EXT[kind]
        props = "<cs:getctag/><d:sync-token/>"

        def ctag():
            root = dav_http.propfind(http, collection, props)
            return root.findtext(".//cs:getctag", default="", namespaces=NS).strip()

        outcome = {}
        empty_ctag = ctag()
        dav_http.put(http, collection + "first" + ext, item(kind, "first"), kind, create=True)
        first_ctag = ctag()
        outcome["ctag moves on a PUT"] = bool(first_ctag) and first_ctag != empty_ctag
        outcome["from no token"], token = sync_collection(http, collection, "")
        outcome["token given"] = bool(token)
        dav_http.put(http, collection + "second" + ext, item(kind, "second"), kind, create=True)
        dav_http.delete(http, collection + "first" + ext)
        outcome["ctag moves on a DELETE"] = ctag() not in (first_ctag, "")
        outcome["since the token"], new_token = sync_collection(http, collection, token)
        outcome["new token"] = bool(new_token) and new_token != token
        outcome["since the new token"], _ = sync_collection(http, collection, new_token)
        unknown = http.request("REPORT", collection, timeout=30, headers={"Depth": "0", "Content-Type": "application/xml"},
                               data=SYNC_BODY.format(token=token + "-unknown-" + uuid.uuid4().hex).encode())
        outcome["unknown token"] = {"status": unknown.status_code,
                                    "valid-sync-token": "valid-sync-token" in unknown.text}
        return outcome

    return scenario


QUERY = ('<?xml version="1.0" encoding="utf-8"?><cr:addressbook-query xmlns:d="DAV:" '
         'xmlns:cr="urn:ietf:params:xml:ns:carddav"><d:prop><d:getetag/><cr:address-data/></d:prop>'
         '<cr:filter><cr:prop-filter name="EMAIL"><cr:text-match collation="i;unicode-casemap" '
         'match-type="contains">{needle}</cr:text-match></cr:prop-filter></cr:filter></cr:addressbook-query>')

MULTIGET = ('<?xml version="1.0" encoding="utf-8"?><cr:addressbook-multiget xmlns:d="DAV:" '
            'xmlns:cr="urn:ietf:params:xml:ns:carddav"><d:prop><d:getetag/><cr:address-data/></d:prop>'
            '{hrefs}</cr:addressbook-multiget>')


def contact_queries(account, _directory) -> dict:
    http = account.http()
    book = account.addressbook_url
    for spec in (dav_items.grace("grace"), dav_items.ada("ada"),
                 dict(dav_items.ada("charles"), given="Charles", family="Babbage", emails=["charles@example.com"])):
        dav_http.put(http, book + spec["uid"] + ".vcf", dav_items.vcard(**spec), "contacts", create=True)

    def found(root) -> list:
        result = []
        for href, props, _status in dav_http.responses(root):
            data = props.get(tag("cr", "address-data"))
            if data is not None and data.text:
                result.append((dav_items.contact_fields(data.text)["fn"], props.get(tag("d", "getetag")) is not None))
        return sorted(result)

    outcome = {
        "EMAIL contains HOPPER": found(dav_http.report(http, book, QUERY.format(needle="HOPPER"))),
        "EMAIL contains example.com": found(dav_http.report(http, book, QUERY.format(needle="example.com"))),
        "EMAIL contains nobody": found(dav_http.report(http, book, QUERY.format(needle="nobody@nowhere"))),
    }
    hrefs = "".join(f"<d:href>{urllib.parse.urlsplit(book).path}{uid}.vcf</d:href>" for uid in ("ada", "charles"))
    outcome["multiget ada and charles"] = found(dav_http.report(http, book, MULTIGET.format(hrefs=hrefs)))
    missing = dav_http.report(http, book, MULTIGET.format(
        hrefs=f"<d:href>{urllib.parse.urlsplit(book).path}nobody.vcf</d:href>"))
    outcome["multiget of a missing href"] = [status and re.search(r" (\d{3}) ", status + " ").group(1)
                                             for _h, _p, status in dav_http.responses(missing)]
    return outcome


def test_discovery(account, same_as_radicale):
    outcome = same_as_radicale(("protocol", "discovery"), account, discovery)
    assert outcome["carddav"] == outcome["caldav"] == {"redirects": True, "principal is the account's": True}
    assert outcome["dav address gives the principal"]
    assert outcome["contacts"]["home lists the collection"] and outcome["tasks"]["components"] == ["VTODO"]


def test_credentials_are_asked_for(account, same_as_radicale):
    outcome = same_as_radicale(("protocol", "credentials"), account, credentials)
    assert outcome == {"none": {"status": 401, "challenge": "basic"},
                       "wrong password": {"status": 401, "challenge": "basic"}}


@pytest.mark.parametrize("kind", KINDS)
def test_etags_and_preconditions(account, kind, same_as_radicale):
    outcome = same_as_radicale(("protocol", "preconditions", kind), account, preconditions(kind))
    assert outcome["create"] == 201 and outcome["create again"] == 412
    assert outcome["stale If-Match PUT"] == 412 and outcome["stale If-Match DELETE"] == 412
    assert outcome["get"]["ETag is the listing's"] and outcome["GET after DELETE"] == 404


@pytest.mark.parametrize("kind", KINDS)
def test_ctag_and_sync_collection(account, kind, same_as_radicale):
    outcome = same_as_radicale(("protocol", "sync-collection", kind), account, sync_tokens(kind))
    ext = dav_http.EXT[kind]
    assert outcome["from no token"] == {"first" + ext: "changed"}
    assert outcome["since the token"] == {"second" + ext: "changed", "first" + ext: "deleted"}
    assert outcome["since the new token"] == {}


def test_addressbook_query_and_multiget(account, same_as_radicale):
    outcome = same_as_radicale(("protocol", "addressbook queries"), account, contact_queries)
    assert outcome["EMAIL contains HOPPER"] == [("Grace Hopper", True)]
    assert outcome["multiget ada and charles"] == [("Ada Lovelace", True), ("Charles Babbage", True)]
