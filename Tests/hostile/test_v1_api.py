"""/v1 (openapi.yaml) at its edges: pull limits and cursors, push mutations with HLCs and Outreach
timestamps at the edges, lengths in code points; the Outreach page still renders afterwards."""

import base64
import json
import uuid

import jsonschema_rs
import pytest
import requests
import yaml

from cases import (HLC_EDGES, INT64_MAX, INT64_MIN, QUERY_EDGES, TIMESTAMP_EDGES, contact_mutation, hostile_bodies,
                   now_hlc, year_mutation)
from conftest import DEFAULT_ENV, Hostile
from kith_hostile import KithServer


@pytest.fixture
def v1(server, account):
    """(Hostile client with the account's access token, the account's scope, the signup answer)."""
    return Hostile(server, account["accessToken"]), f"user:{account['user']['id']}", account


def cursor_of(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def push(client, mutations, client_id=None):
    return client.post("/v1/sync/push", json={"clientId": client_id or str(uuid.uuid4()), "mutations": mutations})


def statuses(answer):
    return [result["status"] for result in answer.json()["results"]]


@pytest.mark.parametrize("limit", ["0", "-1", "1001", str(INT64_MAX), str(INT64_MIN), "99999999999999999999", "abc",
                                   "", "1.5", "1e3", "1 1"])
def test_pull_limit_outside_1_to_1000_is_400(v1, limit):
    client, _, _ = v1
    answer = client.get("/v1/sync/pull", params={"limit": limit})
    assert answer.status_code == 400, f"limit={limit!r}: {answer.status_code} {answer.text[:300]}"


def test_pull_limit_edges_inside_are_200(v1):
    client, _, _ = v1
    for limit in ("1", "1000", "500"):
        assert client.get("/v1/sync/pull", params={"limit": limit}).status_code == 200


def test_pull_cursors_at_the_edges_never_5xx(v1):
    client, scope, _ = v1
    texts = [f"{scope}={INT64_MAX}", f"{scope}={INT64_MIN}", f"{scope}=99999999999999999999", f"{scope}=-1",
             f"{scope}=0;{scope}=5", f"{scope}=", f"={INT64_MAX}", f"user:{uuid.uuid4()}={INT64_MAX}",
             f"family:{uuid.uuid4()}=1", f"{scope}=1;" * 10_000, "\u0000", "=;=;=", f"{scope}=1e400",
             f"{scope}={'9' * 400}", ";" * 1000]
    cursors = [cursor_of(t) for t in texts] + [
        "", "!!!", "====", "a", "%00", "A" * 100_000, base64.b64encode(b"\xff\xfe\x00").decode(), "-_-_", "YQ==",
        base64.urlsafe_b64encode(json.dumps({"seq": INT64_MAX}).encode()).decode()]
    for cursor in cursors:
        answer = client.get("/v1/sync/pull", params={"cursor": cursor})
        assert answer.status_code in (200, 400, 414, 431), f"cursor {cursor[:40]!r}: {answer.status_code} {answer.text[:200]}"
        if answer.status_code == 200:
            body = answer.json()
            assert isinstance(body["changes"], list) and isinstance(body["hasMore"], bool)


@pytest.mark.parametrize("value", QUERY_EDGES)
def test_pull_query_edges_never_5xx(v1, value):
    client, _, _ = v1
    answer = client.get("/v1/sync/pull", params={"cursor": value, "limit": value})
    assert answer.status_code in (200, 400), answer.text[:200]


def test_push_hlc_edges_are_applied_or_rejected(v1):
    client, scope, _ = v1
    for stamp in HLC_EDGES:
        answer = push(client, [year_mutation(scope, hlc_value=stamp)])
        assert answer.status_code in (200, 400), f"hlc {stamp[:40]!r}: {answer.status_code} {answer.text[:300]}"
        if answer.status_code == 200:
            assert statuses(answer)[0] in ("applied", "rejected"), answer.text[:300]
    # Far ahead of the server's clock: clock_skew, whatever the digits.
    answer = push(client, [year_mutation(scope, hlc_value="999999999999999-00000-node")])
    assert answer.status_code == 400 or answer.json()["results"][0].get("code") == "clock_skew", answer.text[:300]
    assert client.get("/v1/sync/pull").status_code == 200


def test_outreach_timestamps_in_years_1_and_9999_then_the_page_renders(server, v1):
    client, scope, account = v1
    year_id = str(uuid.uuid4())
    answer = push(client, [year_mutation(scope, name="Edge", record_id=year_id, created_at="0001-01-01T00:00:00.000Z")])
    assert statuses(answer) == ["applied"] or statuses(answer) == ["rejected"], answer.text[:300]
    if statuses(answer) == ["rejected"]:
        answer = push(client, [year_mutation(scope, name="Edge", record_id=year_id)])
        assert statuses(answer) == ["applied"], answer.text[:300]
    other_year = str(uuid.uuid4())
    push(client, [year_mutation(scope, name="Late", record_id=other_year, created_at="9999-12-31T23:59:59.999Z")])
    results = []
    for stamp in TIMESTAMP_EDGES:
        mutation = contact_mutation(scope, year_id, delivered=True, deliveredAt=stamp)
        answer = push(client, [mutation])
        assert answer.status_code in (200, 400), f"deliveredAt {stamp!r}: {answer.status_code} {answer.text[:300]}"
        if answer.status_code == 200:
            results.append((stamp, statuses(answer)[0]))
            assert statuses(answer)[0] in ("applied", "rejected"), answer.text[:300]
        year = year_mutation(scope, created_at=stamp)
        answer = push(client, [year])
        assert answer.status_code in (200, 400), f"createdAt {stamp!r}: {answer.status_code} {answer.text[:300]}"
    accepted = dict(results)
    assert accepted.get("0001-01-01T00:00:00.000Z") == "applied", results
    assert accepted.get("9999-12-31T23:59:59.999Z") == "applied", results
    # Everything still reads: pull, the page, the CSV, for both years.
    assert client.get("/v1/sync/pull").status_code == 200
    web = Hostile(server, session=server.web_session(account["email"], account["password"]))
    for year in (year_id, other_year):
        page = web.get("/outreach", params={"year": year})
        assert page.status_code == 200, page.text[:300]
        export = web.get("/outreach/export", params={"year": year})
        assert export.status_code == 200, export.text[:300]
    assert web.get("/outreach").status_code == 200


def test_lengths_count_code_points(v1):
    client, scope, _ = v1
    heavy = "e" + "\u0301" * 300
    answer = client.post("/v1/tokens", json={"name": heavy})
    assert answer.status_code == 422, answer.text[:300]
    answer = client.post("/v1/tokens", json={"name": "e" + "\u0301" * 100})  # 101 code points
    assert answer.status_code == 422, answer.text[:300]
    answer = client.post("/v1/tokens", json={"name": "e" + "\u0301" * 99})  # 100 code points
    assert answer.status_code == 201, answer.text[:300]
    year_id = str(uuid.uuid4())
    answer = push(client, [year_mutation(scope, name="e" + "\u0301" * 20, record_id=year_id)])  # 21 code points
    assert statuses(answer) == ["rejected"], answer.text[:300]
    answer = push(client, [year_mutation(scope, name="e" + "\u0301" * 19, record_id=year_id)])  # 20
    assert statuses(answer) == ["applied"], answer.text[:300]
    for field, limit in (("firstName", 50), ("lastName", 50), ("enterpriseName", 100), ("comments", 500)):
        answer = push(client, [contact_mutation(scope, year_id, **{field: "e" + "\u0301" * limit})])
        assert statuses(answer) == ["rejected"], f"{field}: {answer.text[:300]}"
        answer = push(client, [contact_mutation(scope, year_id, **{field: "e" + "\u0301" * (limit - 1)})])
        assert statuses(answer) == ["applied"], f"{field}: {answer.text[:300]}"


def test_hostile_mutations_are_rejected_never_5xx(v1):
    client, scope, _ = v1
    year_id = str(uuid.uuid4())
    assert statuses(push(client, [year_mutation(scope, record_id=year_id)])) == ["applied"]
    weird = [
        {**year_mutation(scope), "entity": "outreach.nope"},
        {**year_mutation(scope), "entity": "\u0000"},
        {**year_mutation(scope), "scope": f"user:{uuid.uuid4()}"},
        {**year_mutation(scope), "scope": "family:" + "x" * 1000},
        {**year_mutation(scope), "scope": ""},
        {**year_mutation(scope), "op": "explode"},
        {**year_mutation(scope), "id": "not-a-uuid"},
        {**year_mutation(scope), "mutationId": "not-a-uuid"},
        {**year_mutation(scope), "fields": {"name": None, "createdAt": None}},
        {**year_mutation(scope), "fields": {"name": {"nested": [1, 2]}, "createdAt": [1]}},
        {**year_mutation(scope), "fields": {"name": 1e308, "createdAt": INT64_MAX}},
        {**year_mutation(scope), "fields": {"name": "x", "createdAt": "2026-01-01T00:00:00.000Z", "extra": "y" * 10_000}},
        {**year_mutation(scope), "fields": {f"f{i}": i for i in range(5000)}},
        {**year_mutation(scope), "fields": {"name": "a\u0000b", "createdAt": "2026-01-01T00:00:00.000Z"}},
        {**year_mutation(scope), "fields": {"name": "\ud800", "createdAt": "2026-01-01T00:00:00.000Z"}},
        year_mutation(scope, op="delete"),
        {**year_mutation(scope, op="delete"), "fields": None},
        {**year_mutation(scope, op="delete"), "fields": {"name": "x"}},
        contact_mutation(scope, str(uuid.uuid4())),
        contact_mutation(scope, year_id, delivered="yes", deliveredAt=1e308),
        contact_mutation(scope, year_id, yearId=year_id + "x"),
        contact_mutation(scope, "\u0000"),
        {"mutationId": str(uuid.uuid4()), "entity": "outreach.preferences", "id": str(uuid.uuid4()), "scope": scope,
         "op": "upsert", "hlc": now_hlc(), "fields": {"lastViewedYearId": str(uuid.uuid4())}},
    ]
    for mutation in weird:
        answer = push(client, [mutation])
        assert answer.status_code in (200, 400, 413, 422), f"{json.dumps(mutation)[:200]}: {answer.status_code} {answer.text[:300]}"
    # A batch: one bad mutation does not block the good one after it.
    good = year_mutation(scope)
    answer = push(client, [{**year_mutation(scope), "entity": "nope"}, good])
    assert answer.status_code == 200 and statuses(answer)[1] == "applied", answer.text[:300]
    # The same mutation twice: duplicate, not applied twice.
    again = push(client, [good])
    assert statuses(again) == ["duplicate"], again.text[:300]


def test_push_shape_edges(v1):
    client, scope, _ = v1
    answer = push(client, [year_mutation(scope) for _ in range(501)])
    assert answer.status_code == 413, answer.text[:300]
    for body in ({}, {"clientId": "x", "mutations": []}, {"clientId": str(uuid.uuid4()), "mutations": {}},
                 {"clientId": str(uuid.uuid4()), "mutations": [1, "a", None]}, {"clientId": None, "mutations": None},
                 [], {"clientId": str(uuid.uuid4()), "mutations": [[]]}):
        answer = client.post("/v1/sync/push", json=body)
        assert answer.status_code in (200, 400, 422), f"{body}: {answer.status_code} {answer.text[:300]}"


BODIES = hostile_bodies()
V1_WRITES = [("POST", "/v1/auth/signup"), ("POST", "/v1/auth/login"), ("POST", "/v1/auth/refresh"),
             ("POST", "/v1/auth/password-reset"), ("POST", "/v1/auth/password-reset/confirm"),
             ("POST", "/v1/auth/password"), ("POST", "/v1/tokens"), ("POST", "/v1/sync/push"), ("DELETE", "/v1/me")]


@pytest.fixture(scope="module")
def bodies_server(engine):
    # Its own server: hostile sign-in bodies may count as failed sign-ins from this address.
    server = KithServer(engine, env=DEFAULT_ENV).start()
    yield server
    server.stop()


@pytest.mark.parametrize("name,body,content_type,must_be_4xx", BODIES, ids=[b[0] for b in BODIES])
def test_hostile_bodies_on_every_v1_write_route(bodies_server, name, body, content_type, must_be_4xx):
    bodies_server.assert_healthy("the previous test")
    client = Hostile(bodies_server, bodies_server.signup()["accessToken"])
    problems = []
    for method, path in V1_WRITES:
        answer = client.request(method, path, data=body, headers={"Content-Type": content_type}, check_health=False,
                                allow_5xx=True)
        if answer.status_code >= 500 or not 400 <= answer.status_code < 500:
            problems.append(f"{method} {path}: {answer.status_code} {answer.text[:150]}")
    client.server.assert_healthy(name)
    assert not problems, "\n".join(problems)
    # The account is still there (DELETE /v1/me with a hostile body must not delete it).
    assert client.get("/v1/me").status_code == 200


@pytest.mark.parametrize("path", ["/v1/auth/signup", "/v1/auth/login", "/v1/sync/push", "/v1/tokens"])
def test_v1_bodies_over_one_mib_are_413(v1, path):
    client, _, _ = v1
    answer = client.post(path, data=b'{"email":"' + b"a" * (1024 * 1024 + 1) + b'"}',
                         headers={"Content-Type": "application/json"})
    assert answer.status_code == 413, f"{path}: {answer.status_code} {answer.text[:200]}"


def test_token_ids_at_the_edges_are_404(v1):
    client, _, _ = v1
    for value in ("0", "-1", str(INT64_MAX), "abc", str(uuid.uuid4()), "%00", "0" * 1000):
        answer = client.delete(f"/v1/tokens/{value}")
        assert answer.status_code in (400, 404), f"{value}: {answer.status_code} {answer.text[:200]}"


def test_timestamps_outside_years_1_to_9999_or_impossible_are_rejected(v1):
    client, scope, _ = v1
    year_id = str(uuid.uuid4())
    assert statuses(push(client, [year_mutation(scope, record_id=year_id)])) == ["applied"]
    applied = []
    for stamp in ("0000-01-01T00:00:00.000Z", "10000-01-01T00:00:00.000Z", "2026-02-30T00:00:00.000Z",
                  "2026-01-01T24:00:00.000Z"):
        answer = push(client, [contact_mutation(scope, year_id, delivered=True, deliveredAt=stamp)])
        if statuses(answer) != ["rejected"]:
            applied.append(stamp)
    assert not applied, f"applied: {applied}"


def test_every_hlc_node_the_server_applies_is_one_openapi_allows(server, v1):
    # openapi.yaml's pattern once said `.+`, which refuses a line break, while the server applies any
    # node: schemathesis sent a node "\n", saw 200 and called it a schema-violating request accepted.
    # The served schema and the server must agree on every node.
    client, scope, _ = v1
    schema = yaml.safe_load(requests.get(server.url("/openapi.yaml"), timeout=10).text)
    valid_hlc = jsonschema_rs.validator_for(schema["components"]["schemas"]["Mutation"]["properties"]["hlc"]).is_valid
    for node in ("\n", "a\n", "\r\n", "\u2028", "\u0000", "\t", " ", "web-1a2b"):
        stamp = now_hlc(node)
        answer = push(client, [year_mutation(scope, hlc_value=stamp)])
        assert answer.status_code == 200 and statuses(answer) == ["applied"], f"{node!r}: {answer.text[:300]}"
        assert valid_hlc(stamp), f"the server applies node {node!r}, openapi.yaml's hlc pattern refuses it"
    for stamp in ("001763740800000-00000-", "001763740800000-0000-a", "1763740800000-00000-a"):
        assert not valid_hlc(stamp), stamp
        assert push(client, [year_mutation(scope, hlc_value=stamp)]).status_code == 400, stamp


def test_hlc_nodes_starting_with_combining_marks_are_read(v1):
    # The node is everything after the second "-", even when it starts with a mark that would join
    # the "-" into one grapheme (found by schemathesis).
    client, scope, _ = v1
    for node in ("\u0301x", "\U0001F3FBabc", "\u200dz", "\u20dd"):
        answer = push(client, [year_mutation(scope, hlc_value=now_hlc(node))])
        assert answer.status_code == 200, f"{node!r}: {answer.status_code} {answer.text[:300]}"
        assert statuses(answer) == ["applied"], answer.text[:300]
