"""Raw DAV over `requests`: what "another client" does to the server side of a scenario (PUT,
DELETE, listing and reading a collection), and the XML the protocol tests send and read."""

import urllib.parse
import xml.etree.ElementTree as ET

import requests

import dav_items

NS = {"d": "DAV:", "cr": "urn:ietf:params:xml:ns:carddav", "c": "urn:ietf:params:xml:ns:caldav",
      "cs": "http://calendarserver.org/ns/"}
MIME = {"contacts": "text/vcard; charset=utf-8", "tasks": "text/calendar; charset=utf-8"}
EXT = {"contacts": ".vcf", "tasks": ".ics"}
TIMEOUT = 30


class DavError(AssertionError):
    pass


def xml_of(answer: requests.Response):
    try:
        return ET.fromstring(answer.content)
    except ET.ParseError as error:
        raise DavError(f"{answer.request.method} {answer.url} answered {answer.status_code} with no XML "
                       f"({error}): {answer.text[:500]!r}")


def expect(answer: requests.Response, *statuses) -> requests.Response:
    if answer.status_code not in statuses:
        raise DavError(f"{answer.request.method} {answer.url} answered {answer.status_code}, expected "
                       f"{' or '.join(map(str, statuses))}: {answer.text[:500]!r}")
    return answer


def propfind(session: requests.Session, url: str, props: str, depth: str = "0", expected=(207,)):
    body = (f'<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:" '
            f'xmlns:cr="{NS["cr"]}" xmlns:c="{NS["c"]}" xmlns:cs="{NS["cs"]}"><d:prop>{props}</d:prop></d:propfind>')
    answer = session.request("PROPFIND", url, data=body.encode(), timeout=TIMEOUT,
                             headers={"Depth": depth, "Content-Type": "application/xml; charset=utf-8"})
    expect(answer, *expected)
    return xml_of(answer)


def report(session: requests.Session, url: str, body: str, depth: str = "1", expected=(207,)):
    answer = session.request("REPORT", url, data=body.encode(), timeout=TIMEOUT,
                             headers={"Depth": depth, "Content-Type": "application/xml; charset=utf-8"})
    expect(answer, *expected)
    return xml_of(answer)


def path_of(href: str, base: str) -> str:
    """An href (absolute or not) as an unquoted absolute path, for comparing hrefs across servers."""
    return urllib.parse.unquote(urllib.parse.urlsplit(urllib.parse.urljoin(base, href)).path)


def responses(root) -> list:
    """[(href, {prop tag: element} of the 200 propstats, status of the response or None)]."""
    found = []
    for response in root.findall("d:response", NS):
        href = response.findtext("d:href", default="", namespaces=NS).strip()
        props = {}
        for propstat in response.findall("d:propstat", NS):
            if " 200 " in (propstat.findtext("d:status", default="", namespaces=NS) + " "):
                prop_element = propstat.find("d:prop", NS)
                for prop in (prop_element if prop_element is not None else []):
                    props[prop.tag] = prop
        found.append((href, props, response.findtext("d:status", default=None, namespaces=NS)))
    return found


def tag(prefix: str, name: str) -> str:
    return f"{{{NS[prefix]}}}{name}"


def href_in(root, prop_path: str) -> str:
    element = root.find(".//" + prop_path + "/d:href", NS)
    return element.text.strip() if element is not None and element.text else None


def list_items(session: requests.Session, collection_url: str) -> dict:
    """{absolute item URL: ETag} of the collection's members (PROPFIND Depth 1, as vdirsyncer lists)."""
    root = propfind(session, collection_url, "<d:resourcetype/><d:getetag/><d:getcontenttype/>", depth="1")
    items = {}
    for href, props, _status in responses(root):
        resourcetype = props.get(tag("d", "resourcetype"))
        if resourcetype is not None and resourcetype.find("d:collection", NS) is not None:
            continue
        if path_of(href, collection_url) == path_of(collection_url, collection_url):
            continue
        etag = props.get(tag("d", "getetag"))
        items[urllib.parse.urljoin(collection_url, href)] = etag.text.strip() if etag is not None and etag.text else None
    return items


def get(session: requests.Session, url: str) -> requests.Response:
    return expect(session.get(url, timeout=TIMEOUT), 200)


def put(session: requests.Session, url: str, text: str, kind: str, etag: str = None, create: bool = False,
        expected=(201, 204)) -> requests.Response:
    headers = {"Content-Type": MIME[kind]}
    if create:
        headers["If-None-Match"] = "*"
    if etag:
        headers["If-Match"] = etag
    answer = session.put(url, data=text.encode("utf-8"), headers=headers, timeout=TIMEOUT)
    return expect(answer, *expected) if expected else answer


def delete(session: requests.Session, url: str, etag: str = None, expected=(200, 204)) -> requests.Response:
    headers = {"If-Match": etag} if etag else {}
    answer = session.delete(url, headers=headers, timeout=TIMEOUT)
    return expect(answer, *expected) if expected else answer


def fields_of(kind: str, text: str) -> dict:
    return dav_items.contact_fields(text) if kind == "contacts" else dav_items.task_fields(text)


def server_texts(account, kind: str) -> dict:
    """{uid: (URL, ETag, text)} of everything in the account's collection of this kind (GET each)."""
    session = account.http()
    found = {}
    for url, etag in list_items(session, account.collection_url(kind)).items():
        text = get(session, url).text
        uid = fields_of(kind, text)["uid"]
        assert uid not in found, f"two items with UID {uid} on the server: {found[uid][0]} and {url}"
        found[uid] = (url, etag, text)
    return found


def server_fields(account, kind: str) -> dict:
    """{uid: person-visible fields} of the account's collection of this kind."""
    return {uid: fields_of(kind, text) for uid, (_url, _etag, text) in server_texts(account, kind).items()}


def create(account, kind: str, uid: str, text: str) -> str:
    """Stores a new item as another client would (PUT <uid>.ext with If-None-Match: *); its URL."""
    url = account.collection_url(kind) + urllib.parse.quote(uid) + EXT[kind]
    put(account.http(), url, text, kind, create=True)
    return url


def update(account, kind: str, uid: str, text: str):
    """Replaces the item with this UID as another client would: with If-Match its current ETag."""
    url, etag, _text = server_texts(account, kind)[uid]
    put(account.http(), url, text, kind, etag=etag)


def remove(account, kind: str, uid: str):
    url, etag, _text = server_texts(account, kind)[uid]
    delete(account.http(), url, etag=etag)
