"""/api (Monica) with hostile numbers, ids, dates, strings and bodies: never a 5xx, never a crash;
the limits of docs/monica.md answer as Monica does."""

import json

import pytest
import requests

from conftest import Hostile
from cases import (INT64_MAX, INT64_MIN, MONICA_ALL_LISTS, MONICA_ID_FIELDS, MONICA_ID_ROUTES, MONICA_LISTS,
                   MONICA_WORLD_ID_ROUTES, MONICA_WRITES, OVER_ONE_MIB, PATH_ID_EDGES, QUERY_EDGES, ID_EDGES,
                   big_json_body, contact_body, fill, hostile_bodies, id_path)

PAGE_TOO_BIG = {"error": {"message": "The page parameter is too big", "error_code": 30}}


def error_code(answer):
    try:
        return answer.json()["error"]["error_code"]
    except (ValueError, KeyError, TypeError):
        return None


@pytest.mark.parametrize("route", MONICA_LISTS)
def test_page_and_limit_edges_never_5xx(monica, route):
    client, world = monica
    path = fill(route, world)
    for name in ("page", "limit"):
        for value in QUERY_EDGES:
            answer = client.get(path, params={name: value})
            assert answer.status_code in (200, 400), f"{path}?{name}={value!r}: {answer.status_code} {answer.text[:200]}"
        for page, limit in ((INT64_MAX, 100), (2147483647, 100), (2147483647, 1), (1, 100), (INT64_MIN, INT64_MIN)):
            answer = client.get(path, params={"page": page, "limit": limit})
            assert answer.status_code in (200, 400), f"{path}?page={page}&limit={limit}: {answer.text[:200]}"


@pytest.mark.parametrize("route", MONICA_LISTS)
@pytest.mark.parametrize("page", ["2147483648", str(INT64_MAX), str(INT64_MAX + 1), "99999999999999999999",
                                  "1" + "0" * 60])
def test_page_above_int32_is_400_code_30(monica, route, page):
    client, world = monica
    answer = client.get(fill(route, world), params={"page": page})
    assert answer.status_code == 400, answer.text[:300]
    assert answer.json() == PAGE_TOO_BIG


@pytest.mark.parametrize("route", MONICA_LISTS)
@pytest.mark.parametrize("limit", ["101", "1000", "2147483648", str(INT64_MAX), "99999999999999999999", "9" * 300])
def test_limit_above_100_is_400_code_30(monica, route, limit):
    client, world = monica
    answer = client.get(fill(route, world), params={"limit": limit})
    assert answer.status_code == 400, answer.text[:300]
    assert error_code(answer) == 30, answer.text[:300]


def test_limit_100_and_page_int32_max_are_fine(monica):
    client, _ = monica
    assert client.get("/api/contacts", params={"limit": 100}).status_code == 200
    answer = client.get("/api/contacts", params={"page": 2147483647, "limit": 100})
    assert answer.status_code == 200, answer.text[:300]
    assert answer.json()["data"] == []


@pytest.mark.parametrize("month", ["-1", "1201", str(INT64_MAX), str(INT64_MIN), "99999999999999999999", "abc",
                                   "1.5", "%20", "01200"])
def test_upcoming_month_outside_0_to_1200_is_404(monica, month):
    client, _ = monica
    answer = client.get(f"/api/reminders/upcoming/{month}")
    if month == "01200":
        assert answer.status_code in (200, 404), answer.text[:300]
    else:
        assert answer.status_code == 404, f"{month}: {answer.status_code} {answer.text[:300]}"


@pytest.mark.parametrize("number", [INT64_MAX, INT64_MIN, 0, -1, 1001, 2147483648, "9223372036854775807", 1e400,
                                    "1e400", 1.5])
def test_reminder_frequency_out_of_range_is_422_and_nothing_stored(monica, number):
    client, world = monica
    before = client.get(f"/api/contacts/{world['contact']}/reminders").json()["meta"]["total"]
    body = {"contact_id": world["contact"], "title": "t", "initial_date": "1900-01-01", "frequency_type": "week",
            "frequency_number": number}
    if number == 1e400:
        data = json.dumps(body).replace("Infinity", "1e400").encode()
        answer = client.post("/api/reminders", data=data, headers={"Content-Type": "application/json"})
        assert answer.status_code in (400, 422), answer.text[:300]
    else:
        answer = client.post("/api/reminders", json=body)
        assert answer.status_code == 422, f"{number!r}: {answer.status_code} {answer.text[:300]}"
    updated = client.put(f"/api/reminders/{world['reminder']}", json={**body, "frequency_number": number}
                         if number != 1e400 else {**body, "frequency_number": "1e400"})
    assert updated.status_code == 422, updated.text[:300]
    assert client.get(f"/api/contacts/{world['contact']}/reminders").json()["meta"]["total"] == before
    assert client.get(f"/api/reminders/{world['reminder']}").json()["data"]["frequency_number"] == 1
    assert client.get("/api/reminders/upcoming/0").status_code == 200


@pytest.mark.parametrize("frequency_type", ["week", "month", "year", "one_time"])
def test_reminder_frequencies_1_to_1000_are_accepted(monica, frequency_type):
    client, world = monica
    for number in (1, 2, 7, 500, 999, 1000):
        answer = client.post("/api/reminders", json={
            "contact_id": world["contact"], "title": f"every {number}", "initial_date": "1900-01-01",
            "frequency_type": frequency_type, "frequency_number": number})
        assert answer.status_code == 201, f"{number}: {answer.text[:300]}"
        client.delete(f"/api/reminders/{answer.json()['data']['id']}")
    for month in (0, 1, 12, 600, 1199, 1200):
        assert client.get(f"/api/reminders/upcoming/{month}").status_code == 200


@pytest.mark.parametrize("route", MONICA_ID_ROUTES)
def test_ids_at_the_edges_in_paths_are_404(monica, route):
    client, _ = monica
    for value in PATH_ID_EDGES:
        path = route.format(value)
        for method in ("GET", "PUT", "DELETE"):
            answer = client.request(method, path, json={"first_name": "a"})
            assert answer.status_code in (400, 404, 405, 422), f"{method} {path}: {answer.status_code} {answer.text[:200]}"


@pytest.mark.parametrize("method,route,body", MONICA_WORLD_ID_ROUTES,
                         ids=[f"{m} {r}" for m, r, _ in MONICA_WORLD_ID_ROUTES])
def test_ids_at_the_edges_beside_real_ones_are_404_and_change_nothing(monica, method, route, body):
    client, world = monica
    conversation = f"/api/conversations/{world['conversation']}"
    before = client.get(conversation).json()["data"]["messages"]
    for value in PATH_ID_EDGES:
        path = id_path(route, world, value)
        answer = client.request(method, path, json=fill(body, world) if body is not None else None)
        assert answer.status_code in (400, 404, 422), f"{method} {path}: {answer.status_code} {answer.text[:200]}"
        if value.lstrip("-").isdigit():
            # A well-formed id that is not the account's: Monica's 404, whatever the body.
            assert answer.status_code == 404, f"{method} {path}: {answer.status_code} {answer.text[:200]}"
    assert client.get(conversation).json()["data"]["messages"] == before


@pytest.mark.parametrize("route,base,field", MONICA_ID_FIELDS, ids=[f"{r}:{f}" for r, _, f in MONICA_ID_FIELDS])
def test_ids_at_the_edges_in_bodies_are_404_or_422(monica, route, base, field):
    client, world = monica
    method, _, route = route.rpartition(" ")
    method = method or "POST"
    route = fill(route, world)
    for value in ID_EDGES:
        body = fill(base, world)
        body[field] = value
        if value == "1e400":
            data = json.dumps(body).replace('"1e400"', "1e400").encode()
            answer = client.request(method, route, data=data, headers={"Content-Type": "application/json"})
        else:
            answer = client.request(method, route, json=body)
        if value in (None, [], {}) and field in ("recipient_id", "activity_type_id", "gender_id") or (
                value in (None, [], {}) and route == "/api/tasks"):
            # Nullable: no id (Kith takes [] and {} as none too).
            assert answer.status_code in (200, 201, 422), f"{route} {field}={value!r}: {answer.text[:200]}"
            continue
        assert answer.status_code in (400, 404, 422), f"{route} {field}={value!r}: {answer.status_code} {answer.text[:200]}"


# --- dates at years 1 and 9999 --------------------------------------------------------------------

EDGE_DAYS = ["0001-01-01", "9999-12-31", "0001-12-31", "9999-01-01", "0004-02-29", "9996-02-29"]
BAD_DAYS = ["0000-01-01", "0000-12-31", "10000-01-01", "-0001-01-01", "9999-12-32", "0001-00-01", "0001-02-29",
            "99999-01-01", "+9999-01-01", "1e4-01-01"]


def _dated_world(client):
    contact = client.post("/api/contacts", json=contact_body(first_name="Edge")).json()["data"]["id"]
    return contact


def _dated_things(client, contact):
    """What the dated writes of the calls, conversations, occupations and life events need: a
    conversation, a contact field type, a company and a life event type of this account."""
    field_type = client.get("/api/contactfieldtypes").json()["data"][0]["id"]
    conversation = client.post("/api/conversations", json={"contact_id": contact, "happened_at": "2020-01-01",
                                                           "contact_field_type_id": field_type})
    assert conversation.status_code == 201, conversation.text[:300]
    company = client.post("/api/companies", json={"name": "Edge Ltd"})
    assert company.status_code == 201, company.text[:300]
    return {"contact": contact, "field_type": field_type, "conversation": conversation.json()["data"]["id"],
            "company": company.json()["data"]["id"],
            "life_event_type": client.get("/api/lifeeventtypes").json()["data"][0]["id"]}


def _dated_writes(client, things, day):
    """Every date of the calls, conversations, messages, journal, occupations and life events set to
    `day`: the answers by name."""
    contact = things["contact"]
    return {
        "call": client.post("/api/calls", json={"contact_id": contact, "called_at": day}),
        "conversation": client.post("/api/conversations", json={"contact_id": contact, "happened_at": day,
                                                                "contact_field_type_id": things["field_type"]}),
        "message": client.post(f"/api/conversations/{things['conversation']}/messages",
                               json={"written_at": day, "written_by_me": False, "content": day}),
        "journal entry": client.post("/api/journal", json={"title": day, "post": "p", "date": day}),
        "day rating": client.post("/api/journal/days", json={"date": day, "rate": 3, "comment": day}),
        "occupation": client.post("/api/occupations", json={"contact_id": contact, "company_id": things["company"],
                                                            "title": day, "start_date": day, "end_date": day}),
        "life event": client.post("/api/lifeevents", json={
            "contact_id": contact, "life_event_type_id": things["life_event_type"], "happened_at": day,
            "has_reminder": True, "happened_at_month_unknown": False, "happened_at_day_unknown": False}),
    }


def test_edge_dates_are_accepted_everywhere_and_every_list_still_answers(server, api):
    contact = _dated_world(api)
    things = _dated_things(api, contact)
    for day in EDGE_DAYS:
        for what, answer in _dated_writes(api, things, day).items():
            # A day not yet begun anywhere on Earth is no day to rate.
            expected = (422,) if what == "day rating" and day > "3000" else (200, 201)
            assert answer.status_code in expected, f"{what} {day}: {answer.status_code} {answer.text[:300]}"
        for frequency_type in ("week", "month", "year", "one_time"):
            answer = api.post("/api/reminders", json={"contact_id": contact, "title": f"{day} {frequency_type}",
                                                      "initial_date": day, "frequency_type": frequency_type,
                                                      "frequency_number": 1000 if frequency_type != "one_time" else 1})
            assert answer.status_code == 201, f"reminder {day} {frequency_type}: {answer.text[:300]}"
        answer = api.post("/api/gifts", json={"contact_id": contact, "name": "g", "status": "idea", "date": day})
        assert answer.status_code == 201, f"gift {day}: {answer.text[:300]}"
        answer = api.post("/api/activities", json={"summary": "s", "happened_at": day, "contacts": [contact]})
        assert answer.status_code == 201, f"activity {day}: {answer.text[:300]}"
    for year in (1, 9999):
        for age_based in (False, True):
            body = contact_body(first_name=f"Born {year}", is_birthdate_known=True, birthdate_day=1, birthdate_month=1,
                                birthdate_year=year, birthdate_is_age_based=False, birthdate_add_reminder=True,
                                is_deceased=True, is_deceased_date_known=True, deceased_date_day=31,
                                deceased_date_month=12, deceased_date_year=year, deceased_date_add_reminder=True)
            if age_based:
                body.update(birthdate_is_age_based=True, birthdate_age=0 if year == 9999 else 2025)
            answer = api.post("/api/contacts", json=body)
            if age_based:
                assert answer.status_code in (201, 422), f"age-based birthdate {year}: {answer.text[:300]}"
            elif year == 9999:
                # A birth or a death in the last year has not happened yet: refused in words, not a 5xx.
                assert answer.status_code == 422, f"birthdate year {year}: {answer.text[:300]}"
                assert "before or equal to today" in answer.text
            else:
                assert answer.status_code == 201, f"birthdate year {year}: {answer.text[:300]}"
        answer = api.put(f"/api/contacts/{contact}/introduction", json={
            "is_date_known": True, "day": 1, "month": 1, "year": year, "add_reminder": True})
        expected = (422,) if year == 9999 else (200, 201)
        assert answer.status_code in expected, f"first met {year}: {answer.text[:300]}"
    # Every list, and every upcoming month.
    for route in MONICA_ALL_LISTS:
        path = route.replace("{contact}", str(contact)).replace("{tag}", "0")
        answer = api.get(path)
        if "{tag}" in route:
            continue
        assert answer.status_code == 200, f"{path}: {answer.status_code} {answer.text[:300]}"
    for page in (1, 2, 3):
        assert api.get("/api/reminders", params={"page": page, "limit": 100}).status_code == 200
    failures = []
    for month in range(0, 1201):
        answer = api.get(f"/api/reminders/upcoming/{month}", check_health=(month % 100 == 0))
        if answer.status_code != 200:
            failures.append((month, answer.status_code, answer.text[:200]))
    server.assert_healthy("upcoming 0..1200")
    assert not failures, failures[:5]


@pytest.mark.parametrize("day", BAD_DAYS)
def test_dates_outside_years_1_to_9999_are_422(api, day):
    contact = _dated_world(api)
    answers = {
        "reminder": api.post("/api/reminders", json={"contact_id": contact, "title": "t", "initial_date": day,
                                                     "frequency_type": "year", "frequency_number": 1}),
        "gift": api.post("/api/gifts", json={"contact_id": contact, "name": "g", "status": "idea", "date": day}),
        "activity": api.post("/api/activities", json={"summary": "s", "happened_at": day, "contacts": [contact]}),
    }
    things = _dated_things(api, contact)
    answers.update(_dated_writes(api, things, day))
    for what, answer in answers.items():
        assert answer.status_code == 422, f"{what} dated {day}: {answer.status_code} {answer.text[:300]}"
    for path in ("/api/reminders", "/api/gifts", "/api/activities", "/api/calls", "/api/journal", "/api/journal/days",
                 "/api/occupations", "/api/lifeevents"):
        assert api.get(path).json()["meta"]["total"] == 0, path
    assert api.get("/api/conversations").json()["meta"]["total"] == 1
    assert api.get(f"/api/conversations/{things['conversation']}").json()["data"]["messages"] == []


@pytest.mark.parametrize("year", [0, 10000, -1, INT64_MAX, INT64_MIN, 2147483648])
def test_birth_and_death_years_outside_1_to_9999_are_422(api, year):
    for prefix in ("birthdate", "deceased_date"):
        known = "is_birthdate_known" if prefix == "birthdate" else "is_deceased_date_known"
        body = contact_body(first_name="Bad", **{known: True, f"{prefix}_day": 1, f"{prefix}_month": 1,
                                                  f"{prefix}_year": year})
        if prefix == "deceased_date":
            body["is_deceased"] = True
        answer = api.post("/api/contacts", json=body)
        if year == 0 and answer.status_code == 201:
            # Kith (like Monica's forms) reads year 0 as "year unknown": stored without a year.
            date = answer.json()["data"]["information"]["dates"]["birthdate" if prefix == "birthdate" else prefix]
            assert date["is_year_unknown"] is True, answer.text[:300]
            continue
        assert answer.status_code == 422, f"{prefix}_year {year}: {answer.status_code} {answer.text[:300]}"
    answer = api.post("/api/contacts", json=contact_body(first_name="Age", is_birthdate_known=True,
                                                         birthdate_is_age_based=True, birthdate_age=year))
    assert answer.status_code in (201, 422), f"birthdate_age {year}: {answer.text[:300]}"
    assert api.get("/api/reminders/upcoming/0").status_code == 200
    assert api.get("/api/contacts").status_code == 200


# --- coordinates and strings -------------------------------------------------------------------------

@pytest.mark.parametrize("latitude,longitude", [(90.0001, 0), (-90.0001, 0), (0, 180.0001), (0, -180.0001),
                                                (1e400, 0), (0, INT64_MIN), ("NaN", 0), (0, "Infinity"),
                                                ("91", 0), (0, "-181")])
def test_coordinates_out_of_range_are_422(monica, latitude, longitude):
    client, world = monica
    body = {"contact_id": world["contact"], "city": "Nowhere", "latitude": latitude, "longitude": longitude}
    data = json.dumps(body).replace("Infinity", "1e400") if latitude == 1e400 else json.dumps(body)
    # 1e400 is not a number JSON parsers take: 400 code 37 (not JSON) is as good a refusal.
    refusals = (400, 422) if latitude == 1e400 else (422,)
    answer = client.post("/api/addresses", data=data.encode(), headers={"Content-Type": "application/json"})
    assert answer.status_code in refusals, f"{latitude},{longitude}: {answer.status_code} {answer.text[:300]}"
    answer = client.put(f"/api/addresses/{world['address']}", data=data.encode(),
                        headers={"Content-Type": "application/json"})
    assert answer.status_code in refusals, answer.text[:300]


def test_coordinates_at_the_edges_are_accepted(monica):
    client, world = monica
    for latitude, longitude in ((90, 180), (-90, -180), ("-90", "180.0")):
        answer = client.post("/api/addresses", json={"contact_id": world["contact"], "latitude": latitude,
                                                     "longitude": longitude, "city": "Edge"})
        assert answer.status_code == 201, answer.text[:300]
    assert client.get("/api/addresses").status_code == 200


def test_limits_count_code_points_not_graphemes(monica):
    client, world = monica
    heavy = "e" + "\u0301" * 300  # one grapheme, 301 code points
    answer = client.post("/api/contacts", json=contact_body(first_name=heavy))
    assert answer.status_code == 422, answer.text[:300]
    answer = client.put(f"/api/contacts/{world['contact']}", json=contact_body(first_name=heavy))
    assert answer.status_code == 422, answer.text[:300]
    answer = client.post("/api/tags", json={"name": heavy})
    assert answer.status_code == 422, answer.text[:300]
    exactly = "e" + "\u0301" * 254  # 255 code points
    answer = client.post("/api/contacts", json=contact_body(first_name=exactly))
    assert answer.status_code == 201, answer.text[:300]
    assert answer.json()["data"]["first_name"] == exactly
    over = "e" + "\u0301" * 255  # 256 code points
    assert client.post("/api/contacts", json=contact_body(first_name=over)).status_code == 422
    emoji = "\U0001F468\u200D\U0001F469\u200D\U0001F467" * 51  # 255 code points, 51 graphemes
    assert client.post("/api/contacts", json=contact_body(first_name=emoji)).status_code == 201
    assert client.post("/api/contacts", json=contact_body(first_name=emoji + "a")).status_code == 422


# Fields of the newer resources with Monica's 255-character limit: (route, body, field).
NAMED_255 = [
    ("/api/companies", {}, "name"),
    ("/api/pets", {"contact_id": "{contact}", "pet_category_id": "{petcategory}"}, "name"),
    ("/api/journal", {"post": "p"}, "title"),
    ("/api/occupations", {"contact_id": "{contact}", "company_id": "{company}"}, "title"),
    ("/api/lifeevents", {"contact_id": "{contact}", "life_event_type_id": "{lifeeventtype}", "happened_at": "2020-01-01",
                         "has_reminder": False, "happened_at_month_unknown": False, "happened_at_day_unknown": False},
     "name"),
    ("/api/places", {}, "city"),
]


@pytest.mark.parametrize("route,base,field", NAMED_255, ids=[f"{r}:{f}" for r, _, f in NAMED_255])
def test_newer_limits_count_code_points_too(monica, route, base, field):
    client, world = monica
    before = client.get(route).json()["meta"]["total"]
    for text in ("e" + "\u0301" * 255, "\U0001F468\u200D\U0001F469\u200D\U0001F467" * 51 + "a", "a" * 100_000):
        answer = client.post(route, json={**fill(base, world), field: text})
        assert answer.status_code == 422, f"{len(text)} code points: {answer.status_code} {answer.text[:300]}"
    assert client.get(route).json()["meta"]["total"] == before
    exactly = "e" + "\u0301" * 254
    answer = client.post(route, json={**fill(base, world), field: exactly})
    assert answer.status_code in (200, 201), answer.text[:300]
    assert answer.json()["data"][field] == exactly
    assert client.delete(f"{route}/{answer.json()['data']['id']}").status_code == 200


# Numbers of the newer resources outside Kith's bounds (docs/monica.md): (route, body, field, values).
NUMBERS_OUT_OF_RANGE = [
    ("/api/debts", {"contact_id": "{contact}", "in_debt": "no", "status": "completed"}, "amount",
     [-1, -0.01, 1_000_000_000_001, INT64_MAX, INT64_MIN, "1e400", "NaN", "abc", [], True]),
    ("/api/companies", {"name": "n"}, "number_of_employees",
     [-1, 10_000_001, INT64_MAX, INT64_MIN, 2 ** 70, 1.5, "1e400", "abc"]),
    ("/api/occupations", {"contact_id": "{contact}", "company_id": "{company}", "title": "t"}, "salary",
     [-1, 1_000_000_000_001, INT64_MAX, INT64_MIN, 2 ** 70, 1.5, "1e400", "abc"]),
    ("/api/journal/days", {"date": "2019-01-01"}, "rate", [0, 4, -1, INT64_MAX, INT64_MIN, 2 ** 70, 1.5, "1e400", "abc"]),
    ("/api/pets", {"contact_id": "{contact}"}, "pet_category_id", [0, -1, 1000, INT64_MAX, INT64_MIN, 2 ** 70, "abc"]),
]


@pytest.mark.parametrize("route,base,field,values", NUMBERS_OUT_OF_RANGE,
                         ids=[f"{r}:{f}" for r, _, f, _ in NUMBERS_OUT_OF_RANGE])
def test_newer_numbers_out_of_range_are_422_and_nothing_stored(monica, route, base, field, values):
    client, world = monica
    before = client.get(route).json()["meta"]["total"]
    target = {"/api/debts": "debt", "/api/companies": "company", "/api/occupations": "occupation",
              "/api/journal/days": "day", "/api/pets": "pet"}[route]
    kept = client.get(f"{route}/{world[target]}").json()["data"]
    for value in values:
        body = {**fill(base, world), field: value}
        data = json.dumps(body)
        if value == "1e400":
            data = data.replace('"1e400"', "1e400")
        for method, path in (("POST", route), ("PUT", f"{route}/{world[target]}")):
            answer = client.request(method, path, data=data.encode(), headers={"Content-Type": "application/json"})
            refusals = (400, 422) if value == "1e400" else (422,)
            assert answer.status_code in refusals, f"{method} {field}={value!r}: {answer.status_code} {answer.text[:300]}"
    assert client.get(route).json()["meta"]["total"] == before
    assert client.get(f"{route}/{world[target]}").json()["data"] == kept


@pytest.mark.parametrize("path", ["/api/contacts", "/api/notes", "/api/tags", "/oauth/login", "/api/journal",
                                  "/api/calls", "/api/documents/1", "/api/contacts/1/photos"])
def test_bodies_over_one_mib_are_413(monica, path):
    client, _ = monica
    answer = client.post(path, data=big_json_body(), headers={"Content-Type": "application/json"})
    assert answer.status_code == 413, f"{path}: {answer.status_code} {answer.text[:300]}"
    form = b"first_name=" + b"a" * OVER_ONE_MIB
    answer = client.post(path, data=form, headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert answer.status_code == 413, f"{path} (form): {answer.status_code} {answer.text[:300]}"


def test_chunked_body_over_one_mib_is_413(monica):
    client, _ = monica

    def chunks():
        yield b'{"first_name":"'
        for _ in range(17):
            yield b"a" * 65536
        yield b'"}'

    answer = client.post("/api/contacts", data=chunks(), headers={"Content-Type": "application/json"})
    assert answer.status_code == 413, answer.text[:300]


BODIES = hostile_bodies()


@pytest.mark.parametrize("name,body,content_type,must_be_4xx", BODIES, ids=[b[0] for b in BODIES])
def test_hostile_bodies_on_every_write_route(monica, name, body, content_type, must_be_4xx):
    client, world = monica
    problems = []
    for method, route in MONICA_WRITES:
        if route == "/oauth/login":
            continue  # a sign-in: on a server of its own (test_hostile_bodies_on_oauth_login)
        path = fill(route, world)
        try:
            answer = client.request(method, path, data=body, headers={"Content-Type": content_type},
                                    check_health=False, allow_5xx=True)
        except AssertionError as error:
            problems.append(f"{method} {path}: {error}")
            continue
        reads_body = method != "DELETE" and not route.endswith("/unsetTags")
        if answer.status_code >= 500 or (must_be_4xx and reads_body and not 400 <= answer.status_code < 500):
            problems.append(f"{method} {path}: {answer.status_code} {answer.text[:150]}")
        problem = client.server.health_problem()
        if problem:
            problems.append(f"{method} {path}: {problem}")
            break
    client.server.assert_healthy(name)
    assert not problems, "\n".join(problems)


def test_hostile_bodies_on_oauth_login(spawn):
    server = spawn()
    client = Hostile(server)
    for name, body, content_type, must_be_4xx in BODIES:
        answer = client.post("/oauth/login", data=body, headers={"Content-Type": content_type})
        assert 400 <= answer.status_code < 500, f"{name}: {answer.status_code} {answer.text[:200]}"


def test_unauthenticated_hostile_requests_are_401(server):
    for token in ("", "kpt_", "kpt_" + "A" * 10_000, "kat_\u0000", "Bearer", "kpt_%00", "\xff"):
        try:
            answer = requests.get(server.url("/api/contacts"), headers={"Authorization": f"Bearer {token}"}, timeout=10)
            assert answer.status_code in (400, 401), f"{token[:20]!r}: {answer.status_code}"
        except (requests.RequestException, UnicodeError, ValueError):
            pass
        server.assert_healthy(f"a bearer token {token[:20]!r}")


def test_search_queries_never_5xx(monica):
    client, _ = monica
    for query in ("", "a" * 100_000, "%", "\u0000", "\U0001F600" * 1000, "email:", "Phone:+", "a:b:c", "'; DROP TABLE x;--",
                  " ".join(["jo"] * 2000), "e" + "\u0301" * 5000, "_%_%", "\\"):
        answer = client.get("/api/contacts", params={"query": query})
        assert answer.status_code in (200, 400, 414, 422), f"{query[:30]!r}: {answer.status_code}"
    for sort in ("", "-", "--created_at", "created_at;", "id", "x" * 10_000):
        answer = client.get("/api/contacts", params={"sort": sort})
        assert answer.status_code in (200, 400), f"sort {sort[:30]!r}: {answer.status_code}"
