"""Hostile inputs, shared by the pytest suite and bench/run-fuzz: the /api world to aim at, its
routes, hostile bodies and values, /v1 push mutations. Nothing here sends a request by itself except
`seed_monica`, which takes the caller's request function."""

import base64
import json
import os
import random
import struct
import uuid
import zlib

INT64_MAX = 9223372036854775807
INT64_MIN = -9223372036854775808

# Query values at and past the edges of Int32/Int64, and not numbers at all.
QUERY_EDGES = [str(INT64_MAX), str(INT64_MIN), "99999999999999999999", "-1", "0", "abc",
               str(INT64_MAX + 1), str(INT64_MIN - 1), "2147483647", "2147483648", "-2147483649", "1e10",
               "0x10", "1.5", "", " 1", "\uff11", "1" * 400, "NaN", "%00"]

# Ids for paths and bodies: never the caller's.
ID_EDGES = [INT64_MAX, INT64_MIN, 99999999999999999999, -1, 0, "abc", INT64_MAX + 1, 2147483648, 1.5, "1e400",
            "9" * 400, None, True, [], {}]
PATH_ID_EDGES = [str(INT64_MAX), str(INT64_MIN), "99999999999999999999", "-1", "0", "abc", "1.5", "%00",
                 "9" * 400, "1%20"]

# The Monica list routes with `page` and `limit` (contacts/{id}/notes filled in by world()).
MONICA_LISTS = ["/api/contacts", "/api/notes", "/api/tags", "/api/activities", "/api/reminders",
                "/api/contacts/{contact}/notes",
                "/api/calls", "/api/contacts/{contact}/calls", "/api/conversations",
                "/api/contacts/{contact}/conversations", "/api/debts", "/api/contacts/{contact}/debts", "/api/pets",
                "/api/contacts/{contact}/pets", "/api/journal", "/api/journal/days", "/api/places", "/api/companies",
                "/api/occupations", "/api/lifeevents", "/api/contacts/{contact}/lifeevents", "/api/documents",
                "/api/contacts/{contact}/documents", "/api/photos", "/api/contacts/{contact}/photos"]

# Every list an account has (checked after storing edge dates).
MONICA_ALL_LISTS = MONICA_LISTS + [
    "/api/tasks", "/api/gifts", "/api/addresses", "/api/genders", "/api/contactfieldtypes", "/api/activitytypes",
    "/api/activitytypecategories", "/api/relationshiptypes", "/api/relationshiptypegroups", "/api/countries",
    "/api/me", "/api", "/api/contacts/{contact}", "/api/contacts/{contact}/reminders", "/api/contacts/{contact}/gifts",
    "/api/contacts/{contact}/activities", "/api/contacts/{contact}/tasks", "/api/contacts/{contact}/addresses",
    "/api/contacts/{contact}/contactfields", "/api/contacts/{contact}/relationships", "/api/tags/{tag}/contacts",
    "/api/contacts?with=contactfields", "/api/contacts?query=a",
    "/api/petcategories", "/api/lifeeventtypes", "/api/lifeeventcategories", "/api/calls?sort=-called_at",
    "/api/journal/days?sort=created_at",
]

# Every /api route that takes a body (docs/monica.md), with {names} from world(). DELETEs are here
# too: a body where none is expected must not hurt either.
MONICA_WRITES = [
    ("POST", "/api/me/contact"),
    ("POST", "/api/contacts"), ("PUT", "/api/contacts/{contact}"), ("PATCH", "/api/contacts/{contact}"),
    ("PUT", "/api/contacts/{contact}/work"), ("PUT", "/api/contacts/{contact}/food"),
    ("PUT", "/api/contacts/{contact}/introduction"),
    ("POST", "/api/contactfields"), ("PUT", "/api/contactfields/{contactfield}"),
    ("POST", "/api/contactfieldtypes"), ("PUT", "/api/contactfieldtypes/{contactfieldtype}"),
    ("POST", "/api/addresses"), ("PUT", "/api/addresses/{address}"),
    ("POST", "/api/tags"), ("PUT", "/api/tags/{tag}"),
    ("POST", "/api/contacts/{contact}/setTags"), ("POST", "/api/contacts/{contact}/unsetTag"),
    ("POST", "/api/contacts/{contact}/unsetTags"),
    ("POST", "/api/genders"), ("PUT", "/api/genders/{gender}"),
    ("POST", "/api/notes"), ("PUT", "/api/notes/{note}"),
    ("POST", "/api/tasks"), ("PUT", "/api/tasks/{task}"),
    ("POST", "/api/gifts"), ("PUT", "/api/gifts/{gift}"),
    ("POST", "/api/reminders"), ("PUT", "/api/reminders/{reminder}"),
    ("POST", "/api/activities"), ("PUT", "/api/activities/{activity}"),
    ("POST", "/api/activitytypes"), ("PUT", "/api/activitytypes/{activitytype}"),
    ("POST", "/api/activitytypecategories"), ("PUT", "/api/activitytypecategories/{activitytypecategory}"),
    ("POST", "/api/relationships"), ("PUT", "/api/relationships/{relationship}"),
    ("POST", "/api/calls"), ("PUT", "/api/calls/{call}"),
    ("POST", "/api/conversations"), ("PUT", "/api/conversations/{conversation}"),
    ("POST", "/api/conversations/{conversation}/messages"),
    ("PUT", "/api/conversations/{conversation}/messages/{message}"),
    ("POST", "/api/debts"), ("PUT", "/api/debts/{debt}"),
    ("POST", "/api/pets"), ("PUT", "/api/pets/{pet}"),
    ("POST", "/api/journal"), ("PUT", "/api/journal/{entry}"),
    ("POST", "/api/journal/days"), ("PUT", "/api/journal/days/{day}"),
    ("POST", "/api/places"), ("PUT", "/api/places/{place}"),
    ("POST", "/api/companies"), ("PUT", "/api/companies/{company}"),
    ("POST", "/api/occupations"), ("PUT", "/api/occupations/{occupation}"),
    ("POST", "/api/lifeevents"), ("PUT", "/api/lifeevents/{lifeevent}"),
    ("POST", "/api/documents"), ("POST", "/api/photos"),
    ("PUT", "/api/contacts/{contact}/avatar"), ("PATCH", "/api/contacts/{contact}/avatar"),
    ("DELETE", "/api/me/contact"), ("DELETE", "/api/notes/{note}"),
    ("DELETE", "/api/conversations/{conversation}/messages/{message2}"),
    ("POST", "/oauth/login"),
]

# Routes with an {id}: GET/PUT/DELETE at the id edges must be 404 (or 422/400), never 5xx.
MONICA_ID_ROUTES = ["/api/contacts/{}", "/api/notes/{}", "/api/tasks/{}", "/api/gifts/{}", "/api/reminders/{}",
                    "/api/addresses/{}", "/api/tags/{}", "/api/genders/{}", "/api/activities/{}",
                    "/api/activitytypes/{}", "/api/activitytypecategories/{}", "/api/contactfields/{}",
                    "/api/contactfieldtypes/{}", "/api/relationships/{}", "/api/contacts/{}/notes",
                    "/api/contacts/{}/reminders", "/api/contacts/{}/activities", "/api/contacts/{}/relationships",
                    "/api/contacts/{}/work", "/api/contacts/{}/setTags", "/api/tags/{}/contacts",
                    "/api/calls/{}", "/api/conversations/{}", "/api/conversations/{}/messages",
                    "/api/conversations/{0}/messages/{0}", "/api/debts/{}", "/api/pets/{}", "/api/journal/{}",
                    "/api/journal/days/{}", "/api/places/{}", "/api/companies/{}", "/api/occupations/{}",
                    "/api/lifeevents/{}", "/api/documents/{}", "/api/documents/{}/download", "/api/photos/{}",
                    "/api/photos/{}/file", "/api/contacts/{}/calls", "/api/contacts/{}/conversations",
                    "/api/contacts/{}/debts", "/api/contacts/{}/pets", "/api/contacts/{}/lifeevents",
                    "/api/contacts/{}/documents", "/api/contacts/{}/photos", "/api/contacts/{}/avatar"]

# Writes whose path names a world object and an id at the edge ("{}"), with a body that is valid
# but for that id: each must be 404 (400/422 for what is no id at all), and change nothing.
MONICA_WORLD_ID_ROUTES = [
    ("POST", "/api/conversations/{}/messages", {"written_at": "2020-01-01", "written_by_me": True, "content": "x"}),
    ("PUT", "/api/conversations/{conversation}/messages/{}",
     {"written_at": "2020-01-01", "written_by_me": True, "content": "x"}),
    ("DELETE", "/api/conversations/{conversation}/messages/{}", None),
    ("PUT", "/api/conversations/{}/messages/{message}",
     {"written_at": "2020-01-01", "written_by_me": True, "content": "x"}),
    ("DELETE", "/api/conversations/{}/messages/{message}", None),
    ("PUT", "/api/contacts/{}/avatar", {"source": "default"}),
    ("PATCH", "/api/contacts/{}/avatar", {"source": "gravatar"}),
    ("PUT", "/api/contacts/{}/avatar", {"source": "photo", "photo_id": "{photo}"}),
]


def id_path(route: str, world: dict, value) -> str:
    """`route` with its world "{name}"s filled and the edge `value` in its "{}" (or "{0}"s)."""
    return fill(route.replace("{}", "{_edge}").replace("{0}", "{_edge}"), {**world, "_edge": value})


def png_bytes(width: int = 1, height: int = 1) -> bytes:
    """A real PNG (RGB, black), made here rather than read from a file."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    rows = b"".join(b"\x00" + b"\x00\x00\x00" * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


PNG = png_bytes()
PNG_DATA_URL = "data:image/png;base64," + base64.b64encode(PNG).decode()

# Body fields that name another object: each gets the id edges.
MONICA_ID_FIELDS = [
    ("/api/notes", {"body": "b"}, "contact_id"),
    ("/api/tasks", {"title": "t"}, "contact_id"),
    ("/api/gifts", {"name": "g", "status": "idea"}, "contact_id"),
    ("/api/gifts", {"name": "g", "status": "idea", "contact_id": "{contact}"}, "recipient_id"),
    ("/api/reminders", {"title": "t", "initial_date": "2020-01-01", "frequency_type": "week", "frequency_number": 1},
     "contact_id"),
    ("/api/addresses", {"city": "Paris"}, "contact_id"),
    ("/api/contactfields", {"data": "x", "contact_field_type_id": "{contactfieldtype}"}, "contact_id"),
    ("/api/contactfields", {"data": "x", "contact_id": "{contact}"}, "contact_field_type_id"),
    ("/api/activities", {"summary": "s", "happened_at": "2020-01-01", "contacts": ["{contact}"]}, "activity_type_id"),
    ("/api/activitytypes", {"name": "n"}, "activity_type_category_id"),
    ("/api/relationships", {"of_contact": "{contact}", "relationship_type_id": "{relationshiptype}"}, "contact_is"),
    ("/api/relationships", {"contact_is": "{contact}", "of_contact": "{contact2}"}, "relationship_type_id"),
    ("/api/contacts", {"first_name": "a", "is_birthdate_known": False, "is_deceased": False,
                       "is_deceased_date_known": False}, "gender_id"),
    ("/api/me/contact", {}, "contact_id"),
    ("/api/calls", {"called_at": "2020-01-01"}, "contact_id"),
    ("/api/conversations", {"happened_at": "2020-01-01", "contact_field_type_id": "{contactfieldtype}"}, "contact_id"),
    ("/api/conversations", {"happened_at": "2020-01-01", "contact_id": "{contact}"}, "contact_field_type_id"),
    ("/api/debts", {"in_debt": "yes", "status": "inprogress", "amount": 1}, "contact_id"),
    ("/api/pets", {"pet_category_id": "{petcategory}"}, "contact_id"),
    ("/api/pets", {"contact_id": "{contact}"}, "pet_category_id"),
    ("/api/occupations", {"title": "t", "company_id": "{company}"}, "contact_id"),
    ("/api/occupations", {"title": "t", "contact_id": "{contact}"}, "company_id"),
    ("/api/lifeevents", {"life_event_type_id": "{lifeeventtype}", "happened_at": "2020-01-01", "has_reminder": False,
                         "happened_at_month_unknown": False, "happened_at_day_unknown": False}, "contact_id"),
    ("/api/lifeevents", {"contact_id": "{contact}", "happened_at": "2020-01-01", "has_reminder": False,
                         "happened_at_month_unknown": False, "happened_at_day_unknown": False}, "life_event_type_id"),
    ("/api/photos", {"data": PNG_DATA_URL}, "contact_id"),
    # "METHOD path": a write that is not a POST.
    ("PUT /api/contacts/{contact}/avatar", {"source": "photo"}, "photo_id"),
]


def contact_body(**fields) -> dict:
    body = {"first_name": "Ada", "is_birthdate_known": False, "is_deceased": False, "is_deceased_date_known": False}
    body.update(fields)
    return body


def seed_monica(call) -> dict:
    """Makes one of every /api object through `call(method, path, json=...) -> requests.Response` and
    returns their ids by name (contact, contact2, note, …): the targets the hostile writes aim at."""

    def make(path, body, key="id", **upload):
        answer = call("POST", path, **upload) if upload else call("POST", path, json=body)
        assert answer.status_code in (200, 201), f"seeding POST {path}: {answer.status_code} {answer.text[:300]}"
        return answer.json()["data"][key]

    def first(path):
        answer = call("GET", path)
        assert answer.status_code == 200, f"seeding GET {path}: {answer.status_code} {answer.text[:300]}"
        return answer.json()["data"][0]["id"]

    world = {}
    world["contact"] = make("/api/contacts", contact_body(first_name="Ada", last_name="Lovelace"))
    world["contact2"] = make("/api/contacts", contact_body(first_name="Charles", last_name="Babbage"))
    world["gender"] = first("/api/genders")
    world["contactfieldtype"] = first("/api/contactfieldtypes")
    world["activitytype"] = first("/api/activitytypes")
    world["activitytypecategory"] = first("/api/activitytypecategories")
    world["relationshiptype"] = first("/api/relationshiptypes")
    world["note"] = make("/api/notes", {"body": "note", "contact_id": world["contact"]})
    world["task"] = make("/api/tasks", {"title": "task", "contact_id": world["contact"]})
    world["gift"] = make("/api/gifts", {"name": "gift", "status": "idea", "contact_id": world["contact"]})
    world["reminder"] = make("/api/reminders", {"title": "r", "contact_id": world["contact"], "initial_date": "2020-02-29",
                                                "frequency_type": "year", "frequency_number": 1})
    world["address"] = make("/api/addresses", {"city": "Paris", "country": "FR", "contact_id": world["contact"]})
    world["tag"] = make("/api/tags", {"name": f"tag-{uuid.uuid4().hex[:8]}"})
    world["activity"] = make("/api/activities", {"summary": "tea", "happened_at": "2020-01-01",
                                                 "contacts": [world["contact"]]})
    world["contactfield"] = make("/api/contactfields", {"data": "a@example.com", "contact_id": world["contact"],
                                                        "contact_field_type_id": world["contactfieldtype"]})
    world["relationship"] = make("/api/relationships", {"contact_is": world["contact"], "of_contact": world["contact2"],
                                                        "relationship_type_id": world["relationshiptype"]})
    tagged = call("POST", f"/api/contacts/{world['contact']}/setTags", json={"tags": ["friends"]})
    assert tagged.status_code == 200, tagged.text[:300]
    contact = world["contact"]
    world["petcategory"] = first("/api/petcategories")
    world["lifeeventtype"] = first("/api/lifeeventtypes")
    world["call"] = make("/api/calls", {"contact_id": contact, "called_at": "2020-01-01", "content": "hi"})
    world["conversation"] = make("/api/conversations", {"contact_id": contact, "happened_at": "2020-01-01",
                                                        "contact_field_type_id": world["contactfieldtype"]})
    for name in ("message", "message2"):
        answer = call("POST", f"/api/conversations/{world['conversation']}/messages",
                      json={"written_at": "2020-01-01", "written_by_me": True, "content": name})
        assert answer.status_code == 200, f"seeding a message: {answer.status_code} {answer.text[:300]}"
        world[name] = answer.json()["data"]["messages"][-1]["id"]
    world["debt"] = make("/api/debts", {"contact_id": contact, "in_debt": "yes", "status": "inprogress", "amount": 10})
    world["pet"] = make("/api/pets", {"contact_id": contact, "pet_category_id": world["petcategory"], "name": "Rex"})
    world["entry"] = make("/api/journal", {"title": "entry", "post": "post"})
    world["day"] = make("/api/journal/days", {"date": "2020-01-01", "rate": 2})
    world["place"] = make("/api/places", {"city": "Paris", "country": "FR"})
    world["company"] = make("/api/companies", {"name": "Engines Ltd"})
    world["occupation"] = make("/api/occupations", {"contact_id": contact, "company_id": world["company"],
                                                    "title": "Analyst"})
    world["lifeevent"] = make("/api/lifeevents", {"contact_id": contact, "life_event_type_id": world["lifeeventtype"],
                                                  "happened_at": "2020-01-01", "has_reminder": False,
                                                  "happened_at_month_unknown": False,
                                                  "happened_at_day_unknown": False})
    world["document"] = make("/api/documents", None, data={"contact_id": contact},
                             files={"document": ("notes.txt", b"plain text", "text/plain")})
    world["photo"] = make("/api/photos", None, data={"contact_id": contact},
                          files={"photo": ("dot.png", PNG, "image/png")})
    return world


def fill(template, world: dict):
    """Puts world ids into "{name}" placeholders, in a path or (recursively) in a JSON value."""
    if isinstance(template, str):
        if template.startswith("{") and template.endswith("}") and template[1:-1] in world:
            return world[template[1:-1]]
        return template.format(**world) if "{" in template else template
    if isinstance(template, dict):
        return {k: fill(v, world) for k, v in template.items()}
    if isinstance(template, list):
        return [fill(v, world) for v in template]
    return template


# ---------------------------------------------------------------------------
# Hostile bodies: (name, bytes, content type, must_be_4xx). must_be_4xx False means "valid JSON with
# odd values": any answer but a 5xx.
# ---------------------------------------------------------------------------

def _nested(depth: int) -> bytes:
    return b'{"a":' * depth + b"1" + b"}" * depth


def hostile_bodies(rng: random.Random = None) -> list:
    rng = rng or random.Random(13)
    random_bytes = bytes(rng.randrange(256) for _ in range(2048))
    return [
        ("random bytes", random_bytes, "application/json", True),
        ("random bytes as a form", random_bytes, "application/x-www-form-urlencoded", False),
        ("invalid JSON", b'{"first_name": "a",', "application/json", True),
        ("JSON array", b'[{"first_name":"a"},1,null]', "application/json", True),
        ("JSON string", b'"first_name"', "application/json", True),
        ("JSON null", b"null", "application/json", True),
        ("deeply nested arrays", b"[" * 100_000 + b"]" * 100_000, "application/json", True),
        ("deeply nested objects", _nested(20_000), "application/json", False),
        ("raw NUL bytes", b'{"first_name":"a\x00b","body":"\x00"}', "application/json", True),
        ("escaped NUL in strings", json.dumps(contact_body(first_name="a\u0000b", body="\u0000", name="\u0000",
                                                           title="\u0000", summary="\u0000")).encode(),
         "application/json", False),
        ("lone surrogate", b'{"first_name":"\\ud800","name":"\\udfff"}', "application/json", False),
        ("invalid UTF-8", b'{"first_name":"\xff\xfe\xc3(","name":"\xed\xa0\x80"}', "application/json", True),
        ("huge numbers", b'{"contact_id":1e400,"first_name":"a","frequency_number":1e400,"amount":-1e400,'
                         b'"latitude":1e400,"birthdate_year":1e400,"is_birthdate_known":1e400}',
         "application/json", False),
        ("huge integers", ('{"contact_id":%s,"frequency_number":%s,"gender_id":%s,"relationship_type_id":%s}'
                           % ("9" * 400, "-" + "9" * 400, INT64_MAX + 1, INT64_MIN - 1)).encode(), "application/json", False),
        ("wrong types", json.dumps({"first_name": {"a": 1}, "contact_id": [1], "body": 1, "tags": "x", "contacts": {},
                                    "is_birthdate_known": "maybe", "labels": 3}).encode(), "application/json", False),
        ("duplicate keys", b'{"contact_id":1,"contact_id":"x","first_name":"a","first_name":null}', "application/json",
         False),
        ("empty", b"", "application/json", False),
        ("BOM", b'\xef\xbb\xbf{"first_name":"a"}', "application/json", False),
        ("form with hostile escapes", b"first_name=%ff%fe&contact_id=%00&first_name=%&tags[]=%C3%28&a[b][c][d]=1",
         "application/x-www-form-urlencoded", False),
        ("multipart garbage", b"--x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n\x00\r\n--x--",
         "multipart/form-data; boundary=x", False),
        ("odd content type", b'{"first_name":"a"}', "\x7f", False),
    ]


OVER_ONE_MIB = 1024 * 1024 + 1


def big_json_body() -> bytes:
    return b'{"first_name":"' + b"a" * OVER_ONE_MIB + b'"}'


# ---------------------------------------------------------------------------
# /v1 sync.
# ---------------------------------------------------------------------------

def hlc(ms: int, counter: int = 0, node: str = None) -> str:
    return f"{ms:015d}-{counter:05d}-{node or uuid.uuid4()}"


HLC_EDGES = [
    "000000000000000-00000-a",
    "999999999999999-99999-a",  # far in the future: clock_skew
    "-00000000000001-00000-a",
    "000000000000000-99999-" + "n" * 1000,
    "1-1-1",
    "",
    "x" * 10_000,
    "001763740800000-00000-\u0000",
    "001763740800000-00000-\U0001F600",
    "9223372036854775807-00000-a",
    "001763740800000-4294967296-a",
]


def now_hlc(node: str = "hostile") -> str:
    import time
    return hlc(int(time.time() * 1000), 0, node)


def year_mutation(scope: str, name: str = None, record_id: str = None, created_at: str = None, hlc_value: str = None,
                  op: str = "upsert") -> dict:
    mutation = {"mutationId": str(uuid.uuid4()), "entity": "outreach.year", "id": record_id or str(uuid.uuid4()),
                "scope": scope, "op": op, "hlc": hlc_value or now_hlc()}
    if op == "upsert":
        mutation["fields"] = {"name": name or f"Y{uuid.uuid4().hex[:6]}",
                              "createdAt": created_at or "2026-01-01T00:00:00.000Z"}
    return mutation


def contact_mutation(scope: str, year_id: str, record_id: str = None, hlc_value: str = None, **fields) -> dict:
    values = {"yearId": year_id, "firstName": "Ada", "lastName": "Lovelace", "enterpriseName": "Engines"}
    values.update(fields)
    return {"mutationId": str(uuid.uuid4()), "entity": "outreach.contact", "id": record_id or str(uuid.uuid4()),
            "scope": scope, "op": "upsert", "hlc": hlc_value or now_hlc(), "fields": values}


TIMESTAMP_EDGES = ["0001-01-01T00:00:00.000Z", "9999-12-31T23:59:59.999Z", "0000-01-01T00:00:00.000Z",
                   "10000-01-01T00:00:00.000Z", "-0001-01-01T00:00:00.000Z", "2026-02-30T00:00:00.000Z",
                   "2026-01-01T24:00:00.000Z", "2026-01-01T00:00:00.000+99:00", "1970-01-01T00:00:00Z",
                   "2026-01-01", "", "x" * 5000, 0, -1, INT64_MAX, 1e308, None, True]


def random_text(rng: random.Random, max_length: int = 300) -> str:
    alphabet = ["a", "Z", "0", " ", "\u0301", "\u200d", "\U0001F600", "\u0000", "\ud7ff", "\uffff", "<", "'", '"',
                "%", "\\", "\n", "é", "ß", "\u202e"]
    return "".join(rng.choice(alphabet) for _ in range(rng.randrange(max_length)))


def random_json_value(rng: random.Random, depth: int = 0):
    kind = rng.randrange(9 if depth < 4 else 6)
    if kind == 0:
        return rng.choice([INT64_MAX, INT64_MIN, 0, -1, 1, 2 ** 70, -(2 ** 70), 2147483648])
    if kind == 1:
        return rng.choice([1e308, -1e308, 0.5, -0.0, 1e-320])
    if kind == 2:
        return random_text(rng)
    if kind == 3:
        return rng.choice([True, False, None])
    if kind == 4:
        return rng.choice(["0001-01-01", "9999-12-31", "0000-00-00", "10000-01-01", "2020-02-30", "2020-13-01"])
    if kind == 5:
        return str(rng.choice([INT64_MAX, INT64_MIN, 0, -1, 10 ** 30]))
    if kind == 6:
        return [random_json_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {random_text(rng, 12): random_json_value(rng, depth + 1) for _ in range(rng.randrange(4))}


def random_bytes(rng: random.Random, size: int) -> bytes:
    return bytes(rng.randrange(256) for _ in range(size))


def urandom(size: int) -> bytes:
    return os.urandom(size)
