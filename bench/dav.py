#!/usr/bin/env python3
"""CardDAV benchmark: one account's address book of --contacts contacts (default 5,000), synced
the way a phone does it.

    python3 bench/dav.py --url http://127.0.0.1:PORT --pid SERVER_PID --sqlite PATH | --database-url URL
                         [--postgres-pid POSTMASTER_PID] [--contacts N] [--repeat R] [--full-repeat F]

Usually run through bench/run-dav, which builds and starts a release server. The account, its
app password, its tags and its first contact are made through the API; the other contacts (each
with one or two emails, a phone, an address with a country, one or two tags and a note) are written
straight into the server's database, as bench/monica.py does, since 5,000 contacts through /api
would take 30,000 requests. Then, over one keep-alive connection, as a phone:

1. The first request on the never-read address book (the server lists every card then); a first
   full sync as DAVx5 makes it: PROPFIND Depth 1 for getetag, then addressbook-multiget REPORTs of
   100 hrefs asking for getetag and address-data; the other way, sync-collection with an empty token.
2. After one contact changed through /api (a new last name, or one more email): the first DAV
   request (a Depth 0 PROPFIND for getctag and sync-token, as DAVx5 asks first; the server compares
   every card then), the sync-collection from the last token (exactly one card, or the bench
   fails), and one more sync-collection with nothing changed (no card). Also the sync-collection as
   the first request after a change.
3. A card edited on the phone: GET, PUT with If-Match, then sync-collection lists exactly that card.

Each step prints its median wall time, the response bytes (no compression: the server sends none),
the cards received, and the server's CPU per run (utime + stime from /proc, mean over the runs;
with --postgres-pid, the PostgreSQL cluster's CPU as well).
"""

import argparse
import base64
import http.client
import json
import os
import random
import re
import sqlite3
import statistics
import subprocess
import sys
import time
import uuid
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from monica import COLORS, FIRST, LAST, connect, fold, request  # noqa: E402
from sync import server_cpu  # noqa: E402

# More names beside bench/monica.py's, so an address book has a few thousand different ones.
MORE_FIRST = ["Aarav", "Aiko", "Amara", "Björn", "Chiara", "Dmitri", "Fatima", "Giulia", "Hiroshi", "Ingrid",
              "Jamal", "Kateřina", "Lars", "Leilani", "Mateo", "Nadia", "Oskar", "Priya", "Quentin", "Rania",
              "Siobhán", "Tomás", "Ulla", "Valentina", "Wei", "Xavier", "Yara", "Zeynep", "Benoît", "Søren"]
MORE_LAST = ["Nakamura", "O'Brien", "Kowalski", "Rossi", "Dubois", "Novák", "Andersson", "Papadopoulos", "Singh",
             "Nguyen", "Kim", "Okafor", "Fernández", "Schmidt", "Van der Berg", "Haddad", "Ivanova", "Costa",
             "Yilmaz", "Murphy", "Larsen", "Szabó", "Bianchi", "Lefèvre", "Jensen", "Horvat", "Tanaka", "Mendes"]
FIRST_NAMES = FIRST + MORE_FIRST
LAST_NAMES = LAST + MORE_LAST
DOMAINS = ["gmail.com", "outlook.com", "yahoo.com", "proton.me", "icloud.com", "example.org", "fastmail.com"]
# (street name, city, province, postal code, ISO country)
PLACES = [("High Street", "London", None, "SW1A 1AA", "GB"), ("Rue de Rivoli", "Paris", None, "75001", "FR"),
          ("Unter den Linden", "Berlin", None, "10117", "DE"), ("Main Street", "Springfield", "IL", "62701", "US"),
          ("Via del Corso", "Roma", "RM", "00186", "IT"), ("Calle Mayor", "Madrid", None, "28013", "ES"),
          ("Queen Street", "Auckland", None, "1010", "NZ"), ("King Street West", "Toronto", "ON", "M5H 1A1", "CA"),
          ("Damrak", "Amsterdam", None, "1012 LG", "NL"), ("George Street", "Sydney", "NSW", "2000", "AU"),
          ("Ginza", "Tokyo", None, "104-0061", "JP"), ("Avenida Paulista", "São Paulo", "SP", "01310-100", "BR")]
TAGS = ["Family", "Friends", "Work", "School", "Neighbours", "Football club", "Book club", "Doctors"]
NOTES = ["Met at Anna's wedding.", "Allergic to peanuts; likes dark chocolate.",
         "Owes me a book (The Left Hand of Darkness).", "Call before visiting: the dog is nervous.",
         "Birthday party every year in June.\nBring a cake.", "Works night shifts, text rather than call.",
         "Helped us move in 2019.", "Recommended the plumber."]

NS = {"d": "DAV:", "card": "urn:ietf:params:xml:ns:carddav", "cs": "http://calendarserver.org/ns/"}
ADDRESS_DATA = "{urn:ietf:params:xml:ns:carddav}address-data"
GETETAG = "{DAV:}getetag"
GETCTAG = "{http://calendarserver.org/ns/}getctag"


class BenchFailure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise BenchFailure(message)


# MARK: The address book's contents

def person(index, rng):
    """One contact's data: names, 1-2 emails, a phone, an address, 1-2 tags, a note."""
    first = rng.choice(FIRST_NAMES)
    last = rng.choice(LAST_NAMES)
    local = re.sub(r"[^a-z]", "", fold(first)) + "." + re.sub(r"[^a-z]", "", fold(last))
    emails = [f"{local}{index}@{rng.choice(DOMAINS)}"]
    if rng.random() < 0.5:
        emails.append(f"{local[0]}{re.sub(r'[^a-z]', '', fold(last))}@work{index % 300}.example.com")
    street, city, province, postal, country = rng.choice(PLACES)
    return {
        "uuid": str(uuid.uuid4()), "first": first, "last": last, "emails": emails,
        "phone": f"+1 555 {rng.randint(100, 999)} {rng.randint(1000, 9999)}",
        "address": {"street": f"{rng.randint(1, 250)} {street}", "city": city, "province": province,
                    "postal_code": postal, "country": country},
        "tags": rng.sample(TAGS, rng.choice([1, 2])),
        "note": rng.choice(NOTES),
    }


# The server closes a keep-alive connection left idle (a long step on the other one): send again.
STALE = (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError)


def api(conn, method, path, token, body=None, expect=(200, 201)):
    try:
        status, data = request(conn, method, path, token=token, body=body)
    except STALE:
        conn.close()
        status, data = request(conn, method, path, token=token, body=body)
    check(status in expect, f"{method} {path}: HTTP {status} {data[:300]!r}")
    return json.loads(data) if data else None


def set_up_account(conn, people):
    """Signs up, makes an app password and the tags, and the first contact through /api."""
    email = f"dav-bench-{uuid.uuid4()}@example.com"
    signed = api(conn, "POST", "/v1/auth/signup", None, {"email": email, "password": "correct horse"})
    access, user_id = signed["accessToken"], signed["user"]["id"].lower()
    token = api(conn, "POST", "/v1/tokens", access, {"name": "phone"})["token"]
    first = people[0]
    made = api(conn, "POST", "/api/contacts", token, {
        "first_name": first["first"], "last_name": first["last"], "is_birthdate_known": False,
        "is_deceased": False, "is_deceased_date_known": False})["data"]
    contact_id, account = made["id"], made["account"]["id"]
    first["uuid"] = made["uuid"].lower()
    types = {t["type"]: t["id"] for t in api(conn, "GET", "/api/contactfieldtypes?limit=100", token)["data"]}
    for address in first["emails"]:
        api(conn, "POST", "/api/contactfields", token,
            {"contact_id": contact_id, "contact_field_type_id": types["email"], "data": address})
    api(conn, "POST", "/api/contactfields", token,
        {"contact_id": contact_id, "contact_field_type_id": types["phone"], "data": first["phone"]})
    api(conn, "POST", "/api/addresses", token, {"contact_id": contact_id, **first["address"]})
    api(conn, "POST", "/api/notes", token, {"contact_id": contact_id, "body": first["note"]})
    api(conn, "POST", f"/api/contacts/{contact_id}/setTags", token, {"tags": first["tags"]})
    for name in TAGS:
        if name not in first["tags"]:
            api(conn, "POST", "/api/tags", token, {"name": name})
    tags = {t["name"]: t["id"] for t in api(conn, "GET", "/api/tags?limit=100", token)["data"]}
    return {"email": email, "user_id": user_id, "token": token, "account": account, "types": types, "tags": tags,
            "first_id": contact_id}


class Database:
    """The server's SQLite file (written with sqlite3, as bench/monica.py does) or PostgreSQL
    database (psql COPY, as bench/monica.py does)."""

    def __init__(self, sqlite_path=None, url=None):
        self.sqlite_path, self.url = sqlite_path, url
        self.db = sqlite3.connect(sqlite_path, timeout=30) if sqlite_path else None

    def insert(self, table, columns, rows):
        rows = list(rows)
        if self.db:
            marks = ", ".join("?" for _ in columns)
            self.db.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows)
            self.db.commit()
            return

        def escape(value):
            if value is None:
                return "\\N"
            return str(value).replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")
        text = "".join("\t".join(escape(v) for v in row) + "\n" for row in rows)
        subprocess.run(["psql", self.url, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-c",
                        f"COPY {table} ({', '.join(columns)}) FROM STDIN"], input=text.encode(), check=True)

    def query(self, sql):
        if self.db:
            return [tuple(str(v) for v in row) for row in self.db.execute(sql)]
        out = subprocess.run(["psql", self.url, "-X", "-q", "-At", "-F", "\t", "-v", "ON_ERROR_STOP=1", "-c", sql],
                             check=True, capture_output=True, text=True).stdout
        return [tuple(line.split("\t")) for line in out.splitlines() if line]

    def execute(self, sql):
        if self.db:
            self.db.execute(sql)
            self.db.commit()
        else:
            subprocess.run(["psql", self.url, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-c", sql], check=True)


def seed(database, setup, people):
    """Writes people[1:] with their fields, addresses, tags and notes, as /api would leave them."""
    account, now = setup["account"], int(time.time() * 1000)
    rest = people[1:]
    database.insert(
        "monica_contacts",
        ["uuid", "account_id", "first_name", "last_name", "avatar_color", "search_text", "created_at", "updated_at"],
        ((p["uuid"], account, p["first"], p["last"], COLORS[i % len(COLORS)],
          " ".join([fold(p["first"]), fold(p["last"])] + [fold(e) for e in p["emails"]]), now + i, now + i)
         for i, p in enumerate(rest)))
    ids = {u: int(i) for u, i in database.query(f"SELECT uuid, id FROM monica_contacts WHERE account_id = {account}")}
    email, phone = setup["types"]["email"], setup["types"]["phone"]
    fields = []
    for i, p in enumerate(rest):
        for address in p["emails"]:
            fields.append((str(uuid.uuid4()), account, ids[p["uuid"]], email, address, now + i, now + i))
        fields.append((str(uuid.uuid4()), account, ids[p["uuid"]], phone, p["phone"], now + i, now + i))
    database.insert("monica_contact_fields",
                    ["uuid", "account_id", "contact_id", "contact_field_type_id", "data", "created_at", "updated_at"],
                    fields)
    database.insert(
        "monica_addresses",
        ["uuid", "account_id", "contact_id", "street", "city", "province", "postal_code", "country", "created_at",
         "updated_at"],
        ((str(uuid.uuid4()), account, ids[p["uuid"]], p["address"]["street"], p["address"]["city"],
          p["address"]["province"], p["address"]["postal_code"], p["address"]["country"], now + i, now + i)
         for i, p in enumerate(rest)))
    database.insert("monica_contact_tags", ["contact_id", "tag_id", "account_id", "created_at"],
                    ((ids[p["uuid"]], setup["tags"][name], account, now + i)
                     for i, p in enumerate(rest) for name in p["tags"]))
    database.insert("monica_notes", ["uuid", "account_id", "contact_id", "body", "created_at", "updated_at"],
                    ((str(uuid.uuid4()), account, ids[p["uuid"]], p["note"], now + i, now + i)
                     for i, p in enumerate(rest)))
    if database.url:
        database.execute("ANALYZE")
    # What every /api write does: the search index and the address book look again.
    database.execute("UPDATE monica_accounts SET contacts_version = contacts_version + 1, "
                     f"cards_version = cards_version + 1 WHERE id = {account}")
    ids[people[0]["uuid"]] = setup["first_id"]
    return ids


# MARK: The phone

def cluster_cpu(pid):
    """A PostgreSQL cluster's CPU seconds: the postmaster's, its reaped children's and every live
    child's (the backends); as bench/vs_pocketbase.py counts it."""
    if not pid:
        return 0.0

    def fields_of(proc):
        with open(f"/proc/{proc}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()
    total = sum(int(v) for v in fields_of(pid)[11:15])
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = fields_of(entry)
            except OSError:
                continue
            if fields[1] == str(pid):
                total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


class Answer:
    def __init__(self, status, headers, data, seconds, cpu, db_cpu):
        self.status, self.headers, self.data = status, headers, data
        self.seconds, self.cpu, self.db_cpu = seconds, cpu, db_cpu
        self._parsed = None

    @property
    def parsed(self):
        """(members as (href, status, {property: text}), sync token) of a 207."""
        if self._parsed is None:
            root = ET.fromstring(self.data)
            members = []
            for response in root.findall("d:response", NS):
                properties = {}
                for propstat in response.findall("d:propstat", NS):
                    if "200" in (propstat.findtext("d:status", "", NS) or ""):
                        prop_element = propstat.find("d:prop", NS)
                        for prop in [] if prop_element is None else prop_element:
                            properties[prop.tag] = prop.text or ""
                members.append((response.findtext("d:href", "", NS), response.findtext("d:status", None, NS),
                                properties))
            self._parsed = (members, root.findtext("d:sync-token", None, NS))
        return self._parsed

    @property
    def members(self):
        return self.parsed[0]

    @property
    def sync_token(self):
        return self.parsed[1]

    @property
    def cards(self):
        return [m for m in self.members if m[2].get(ADDRESS_DATA)]


class Phone:
    def __init__(self, url, email, password, pid, postgres_pid):
        self.url, self.pid, self.postgres_pid = url, pid, postgres_pid
        self.auth = "Basic " + base64.b64encode(f"{email}:{password}".encode()).decode()
        self.conn = connect(url)
        self.conn.timeout = 600

    def send(self, method, path, body=None, headers=None, expect=(207,)):
        all_headers = {"Authorization": self.auth, "Content-Type": "application/xml; charset=utf-8"}
        all_headers.update(headers or {})
        payload = body.encode() if isinstance(body, str) else body
        for attempt in (1, 2):
            cpu, db_cpu = server_cpu(self.pid), cluster_cpu(self.postgres_pid)
            started = time.perf_counter()
            try:
                self.conn.request(method, path, body=payload, headers=all_headers)
                response = self.conn.getresponse()
                data = response.read()
                break
            except STALE:
                self.conn.close()
                if attempt == 2:
                    raise
        seconds = time.perf_counter() - started
        answer = Answer(response.status, dict(response.getheaders()), data, seconds,
                        server_cpu(self.pid) - cpu, cluster_cpu(self.postgres_pid) - db_cpu)
        check(response.status in expect, f"{method} {path}: HTTP {response.status} {data[:400]!r}")
        return answer

    def propfind(self, path, depth, properties):
        body = ('<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:" xmlns:cs="http://calendarserver.org/ns/"'
                f' xmlns:card="urn:ietf:params:xml:ns:carddav"><d:prop>{properties}</d:prop></d:propfind>')
        return self.send("PROPFIND", path, body, {"Depth": depth})

    def multiget(self, path, hrefs):
        body = ('<?xml version="1.0" encoding="utf-8"?><card:addressbook-multiget xmlns:d="DAV:" '
                'xmlns:card="urn:ietf:params:xml:ns:carddav"><d:prop><d:getetag/><card:address-data/></d:prop>'
                + "".join(f"<d:href>{h}</d:href>" for h in hrefs) + "</card:addressbook-multiget>")
        return self.send("REPORT", path, body, {"Depth": "1"})

    def sync_collection(self, path, token):
        body = ('<?xml version="1.0" encoding="utf-8"?><d:sync-collection xmlns:d="DAV:" '
                f'xmlns:card="urn:ietf:params:xml:ns:carddav"><d:sync-token>{token}</d:sync-token>'
                '<d:sync-level>1</d:sync-level><d:prop><d:getetag/><card:address-data/></d:prop></d:sync-collection>')
        return self.send("REPORT", path, body, {"Depth": "0"})


# MARK: Results

class Row:
    def __init__(self, name):
        self.name, self.runs = name, []

    def add(self, seconds, size, cards, cpu, db_cpu):
        self.runs.append((seconds, size, cards, cpu, db_cpu))

    def add_answers(self, answers, cards=None):
        self.add(sum(a.seconds for a in answers), sum(len(a.data) for a in answers),
                 cards if cards is not None else sum(len(a.cards) for a in answers),
                 sum(a.cpu for a in answers), sum(a.db_cpu for a in answers))

    def cells(self, with_db):
        seconds = [r[0] for r in self.runs]
        sizes = sorted({r[1] for r in self.runs})
        cards = sorted({r[2] for r in self.runs if r[2] is not None})
        size = f"{sizes[0]:,}" if len(sizes) == 1 else f"{int(statistics.median(r[1] for r in self.runs)):,}"
        out = [self.name, str(len(self.runs)), f"{statistics.median(seconds) * 1000:,.1f}",
               f"{min(seconds) * 1000:,.1f}-{max(seconds) * 1000:,.1f}", size,
               "/".join(f"{c:,}" for c in cards) or "-",
               f"{statistics.mean(r[3] for r in self.runs) * 1000:,.0f}"]
        if with_db:
            out.append(f"{statistics.mean(r[4] for r in self.runs) * 1000:,.0f}")
        return out


def print_table(rows, with_db):
    head = ["step", "runs", "median ms", "min-max ms", "bytes", "cards", "Kith CPU ms"]
    if with_db:
        head.append("PostgreSQL CPU ms")
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join("---" for _ in head) + "|")
    for row in rows:
        print("| " + " | ".join(row.cells(with_db)) + " |")


def replace_family_name(card, new):
    """The phone's edit: a new family name in N and FN."""
    lines = card.split("\r\n")
    given = ""
    for i, line in enumerate(lines):
        if line.startswith("N:"):
            parts = line[2:].split(";")
            parts[0] = new
            given = parts[1] if len(parts) > 1 else ""
            lines[i] = "N:" + ";".join(parts)
    return "\r\n".join(f"FN:{given} {new}" if line.startswith("FN:") else line for line in lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True)
    parser.add_argument("--pid", type=int, required=True, help="the kith server's pid, for its CPU time")
    parser.add_argument("--sqlite", help="the server's SQLite file")
    parser.add_argument("--database-url", help="the server's PostgreSQL database")
    parser.add_argument("--postgres-pid", type=int, help="the PostgreSQL postmaster's pid: its CPU is shown too")
    parser.add_argument("--contacts", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=5, help="runs of each cheap step")
    parser.add_argument("--full-repeat", type=int, default=3, help="runs of each full sync")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if bool(args.sqlite) == bool(args.database_url):
        raise SystemExit("give exactly one of --sqlite and --database-url")
    check(args.contacts >= 2, "--contacts must be at least 2")

    rng = random.Random(args.seed)
    people = [person(i, rng) for i in range(args.contacts)]
    conn = connect(args.url)
    started = time.monotonic()
    setup = set_up_account(conn, people)
    database = Database(args.sqlite, args.database_url)
    ids = seed(database, setup, people)
    check(len(ids) == args.contacts, f"{len(ids)} contacts in the database, expected {args.contacts}")
    print(f"# {args.contacts:,} contacts in {time.monotonic() - started:.1f} s "
          f"({len(setup['tags'])} tags; the first through /api, the rest written into the database)", file=sys.stderr)
    by_uuid = {p["uuid"]: p for p in people}
    token = setup["token"]

    phone = Phone(args.url, setup["email"], token, args.pid, args.postgres_pid)
    book = f"/dav/addressbooks/{setup['user_id']}/contacts/"
    n = args.contacts
    rows = []

    def row(name):
        rows.append(Row(name))
        return rows[-1]

    # 1. The first request ever on the address book records every card: one run only.
    ctag_props = "<cs:getctag/><d:sync-token/>"
    first = phone.propfind(book, "0", ctag_props)
    row("first request on the never-read book (PROPFIND depth 0 ctag)").add_answers([first], cards=None)

    # The cards are what /api shows: the first contact (made through /api) and a written one.
    for contact_uuid in [people[0]["uuid"], people[-1]["uuid"]]:
        card = phone.send("GET", f"{book}{contact_uuid}.vcf", expect=(200,)).data.decode()
        p = by_uuid[contact_uuid]
        for needle in ["EMAIL", "TEL", "ADR", "CATEGORIES:", "NOTE:", p["last"], p["emails"][0], p["address"]["city"]]:
            check(needle in card, f"{needle!r} is missing from the card of {contact_uuid}:\n{card}")
    print(f"# a card ({len(card)} bytes):\n#   " + card.strip().replace("\r\n", "\n#   "), file=sys.stderr)

    propfinds, multigets, fulls = row("PROPFIND depth 1 getetag"), row("addressbook-multiget, 100 hrefs a REPORT"), \
        row("= first full sync (PROPFIND + multigets)")
    for _ in range(args.full_repeat):
        listing = phone.propfind(book, "1", "<d:getetag/>")
        listed = [m for m in listing.members if m[0].rstrip("/") != book.rstrip("/")]
        hrefs = [m[0] for m in listed]
        check(len(hrefs) == n and all(GETETAG in m[2] for m in listed),
              f"PROPFIND listed {len(hrefs)} members with their tags, expected {n}")
        propfinds.add_answers([listing], cards=0)
        batches = [phone.multiget(book, hrefs[i:i + 100]) for i in range(0, len(hrefs), 100)]
        received = {m[0] for a in batches for m in a.cards}
        check(len(received) == n and received == set(hrefs),
              f"the multigets gave {len(received)} cards, expected {n}")
        multigets.add_answers(batches)
        fulls.add_answers([listing] + batches)
    multigets.name = f"addressbook-multiget x{len(batches)} (100 hrefs each, getetag + address-data)"

    syncs = row("sync-collection, empty token (getetag + address-data)")
    for _ in range(args.full_repeat):
        full = phone.sync_collection(book, "")
        check(len(full.cards) == n, f"sync-collection with an empty token gave {len(full.cards)} cards, expected {n}")
        syncs.add_answers([full])
    sync_token = full.sync_token
    check(sync_token, "sync-collection answered no sync-token")

    quiet = row("PROPFIND depth 0 ctag, nothing changed")
    for _ in range(args.repeat * 2):
        quiet.add_answers([phone.propfind(book, "0", ctag_props)], cards=0)

    # 2. One change through /api, then sync.
    def change_through_api(k):
        contact_uuid = rng.choice(people[1:])["uuid"]
        p, contact_id = by_uuid[contact_uuid], ids[contact_uuid]
        if k % 2 == 0:
            p["last"] = f"Changed{k}"
            api(conn, "PUT", f"/api/contacts/{contact_id}", token, {
                "first_name": p["first"], "last_name": p["last"], "is_birthdate_known": False,
                "is_deceased": False, "is_deceased_date_known": False})
            return contact_uuid, f"N:Changed{k};"
        address = f"new.address{k}@example.net"
        api(conn, "POST", "/api/contactfields", token,
            {"contact_id": contact_id, "contact_field_type_id": setup["types"]["email"], "data": address})
        return contact_uuid, address

    def expect_one(answer, contact_uuid, needle, what):
        hrefs = [m[0] for m in answer.members]
        check(len(answer.members) == 1 and len(answer.cards) == 1,
              f"{what}: the sync listed {len(answer.members)} members ({len(answer.cards)} cards), expected exactly 1: "
              f"{hrefs[:10]}")
        check(hrefs[0].endswith(f"/{contact_uuid}.vcf"), f"{what}: the sync listed {hrefs[0]}, not {contact_uuid}")
        check(needle in answer.cards[0][2][ADDRESS_DATA], f"{what}: {needle!r} not in the card received")

    def expect_none(answer, what):
        check(not answer.members, f"{what}: nothing changed, yet the sync listed {len(answer.members)} members")

    after_first, after_sync, after_again = (
        row("after an /api change: first request (PROPFIND depth 0 ctag; compares every card)"),
        row("  then sync-collection from the token"), row("  then sync-collection again, nothing changed"))
    ctag = phone.propfind(book, "0", ctag_props).members[0][2].get(GETCTAG)
    for k in range(args.repeat):
        contact_uuid, needle = change_through_api(k)
        probe = phone.propfind(book, "0", ctag_props)
        new_ctag = probe.members[0][2].get(GETCTAG)
        check(new_ctag != ctag, "the ctag did not move after a change through /api")
        ctag = new_ctag
        after_first.add_answers([probe], cards=0)
        changed = phone.sync_collection(book, sync_token)
        expect_one(changed, contact_uuid, needle, f"change {k} through /api")
        after_sync.add_answers([changed])
        again = phone.sync_collection(book, changed.sync_token)
        expect_none(again, f"change {k} through /api")
        after_again.add_answers([again])
        sync_token = again.sync_token

    direct = row("after an /api change: sync-collection as the first request")
    for k in range(args.repeat, args.repeat * 2):
        contact_uuid, needle = change_through_api(k)
        changed = phone.sync_collection(book, sync_token)
        expect_one(changed, contact_uuid, needle, f"change {k} through /api (sync first)")
        direct.add_answers([changed])
        sync_token = changed.sync_token

    # 3. A card edited on the phone.
    puts, after_put = row("phone: PUT an edited card with If-Match"), \
        row("  then sync-collection from the token")
    same_tag = 0
    for k in range(args.repeat):
        contact_uuid = rng.choice(people[1:])["uuid"]
        got = phone.send("GET", f"{book}{contact_uuid}.vcf", expect=(200,))
        edited = replace_family_name(got.data.decode(), f"Phoneedit{k}")
        put = phone.send("PUT", f"{book}{contact_uuid}.vcf", edited,
                         {"If-Match": got.headers["ETag"], "Content-Type": "text/vcard; charset=utf-8"},
                         expect=(204, 200))
        puts.add_answers([put], cards=0)
        changed = phone.sync_collection(book, sync_token)
        expect_one(changed, contact_uuid, f"N:Phoneedit{k};", f"PUT {k}")
        if put.headers.get("ETag") == f'"{changed.cards[0][2].get(GETETAG, "").strip(chr(34))}"':
            same_tag += 1
        after_put.add_answers([changed])
        sync_token = changed.sync_token
        last = api(conn, "GET", f"/api/contacts/{ids[contact_uuid]}", token)["data"]["last_name"]
        check(last == f"Phoneedit{k}", f"PUT {k}: /api shows the last name {last!r}")
        expect_none(phone.sync_collection(book, sync_token), f"PUT {k}")

    print()
    print_table(rows, with_db=bool(args.postgres_pid))
    card_sizes = [len(m[2][ADDRESS_DATA].encode()) for m in full.cards]
    with open(f"/proc/{args.pid}/status") as status:
        peak = next(line.split(":")[1].strip() for line in status if line.startswith("VmHWM"))
    print(f"\ncontacts {n:,}; a card is {statistics.mean(card_sizes):.0f} bytes on average; every incremental sync "
          f"listed exactly the 1 changed card; the PUT's ETag was the one the next sync listed in {same_tag} of "
          f"{args.repeat}; Kith's peak RSS {peak}")


if __name__ == "__main__":
    try:
        main()
    except BenchFailure as failure:
        print(f"bench: FAILED: {failure}", file=sys.stderr)
        sys.exit(1)
