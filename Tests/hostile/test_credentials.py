"""Credentials when the owner takes the account back, sign-in throttling, idempotency per account,
/metrics, another user's export, HSTS (issue 13, "Credentials and abuse"). Each test has a server of
its own: throttling counts per client address, and every request here comes from 127.0.0.1."""

import email
import email.policy
import re
import time
import uuid

import requests

from cases import year_mutation
from kith_hostile import PASSWORD, fresh_email

NEW_PASSWORD = "a brand new password"
RESET_LINK = re.compile(r"/reset-password\?token=(kpr_[A-Za-z0-9_-]+)")


# --- helpers -------------------------------------------------------------------------------------

def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def login(server, email_, password=PASSWORD, **extra):
    return requests.post(server.url("/v1/auth/login"), json={"email": email_, "password": password, **extra},
                         timeout=30)


def oauth_login(server, email_, password=PASSWORD):
    answer = requests.post(server.url("/oauth/login"), json={"email": email_, "password": password}, timeout=30)
    assert answer.status_code == 200, answer.text[:300]
    return answer.json()["access_token"]


def v1_me(server, token):
    return requests.get(server.url("/v1/me"), headers=bearer(token), timeout=30).status_code


def api_me(server, token):
    return requests.get(server.url("/api/me"), headers=bearer(token), timeout=30).status_code


def refresh(server, refresh_token):
    return requests.post(server.url("/v1/auth/refresh"), json={"refreshToken": refresh_token}, timeout=30).status_code


def web_signed_in(server, session) -> bool:
    answer = session.get(server.url("/account"), allow_redirects=False, timeout=30)
    return answer.status_code == 200


def reset_token(server, email_, timeout=10.0) -> str:
    outbox = server.data_dir / "outbox"
    before = set(outbox.glob("*.eml")) if outbox.is_dir() else set()
    answer = requests.post(server.url("/v1/auth/password-reset"), json={"email": email_}, timeout=30)
    assert answer.status_code == 202, answer.text[:300]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        new = [p for p in (outbox.glob("*.eml") if outbox.is_dir() else []) if p not in before]
        for path in new:
            try:
                message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
                part = message.get_body(preferencelist=("plain", "html")) if message.is_multipart() else message
                match = RESET_LINK.search(part.get_content())
            except (OSError, ValueError, LookupError):
                continue
            if match:
                return match.group(1)
        time.sleep(0.1)
    raise AssertionError(f"no reset mail for {email_} in {outbox} within {timeout} s")


class Credentials:
    """Every kind of credential one account can hold, made for the test."""

    def __init__(self, server):
        self.server = server
        signup = server.signup()
        self.email = signup["email"]
        self.signup = signup  # session A: the one that may change the password
        other = login(server, self.email)
        assert other.status_code == 200, other.text[:300]
        self.other = other.json()  # session B
        self.pat = server.personal_token(signup["accessToken"], "personal")
        self.oauth = oauth_login(server, self.email)
        self.web = server.web_session(self.email)

    def states(self) -> dict:
        s = self.server
        return {
            "session A access": v1_me(s, self.signup["accessToken"]),
            "session B access": v1_me(s, self.other["accessToken"]),
            "personal token (/v1)": v1_me(s, self.pat),
            "personal token (/api)": api_me(s, self.pat),
            "oauth/login token (/api)": api_me(s, self.oauth),
            "web session": 200 if web_signed_in(s, self.web) else 401,
        }


# --- password reset and change ---------------------------------------------------------------------

def test_password_reset_ends_every_credential(spawn):
    server = spawn()
    creds = Credentials(server)
    assert set(creds.states().values()) == {200}, creds.states()
    token = reset_token(server, creds.email)
    answer = requests.post(server.url("/v1/auth/password-reset/confirm"),
                           json={"token": token, "newPassword": NEW_PASSWORD}, timeout=30)
    assert answer.status_code == 204, answer.text[:300]
    states = creds.states()
    assert all(status == 401 for status in states.values()), f"still working after a reset: {states}"
    assert refresh(server, creds.signup["refreshToken"]) == 401
    assert refresh(server, creds.other["refreshToken"]) == 401
    assert login(server, creds.email).status_code == 401
    assert login(server, creds.email, NEW_PASSWORD).status_code == 200
    server.assert_healthy("a password reset")


def test_password_change_keeps_its_session_and_personal_tokens_only(spawn):
    server = spawn()
    creds = Credentials(server)
    answer = requests.post(server.url("/v1/auth/password"), headers=bearer(creds.signup["accessToken"]),
                           json={"currentPassword": PASSWORD, "newPassword": NEW_PASSWORD}, timeout=30)
    assert answer.status_code == 204, answer.text[:300]
    states = creds.states()
    expected = {"session A access": 200, "session B access": 401, "personal token (/v1)": 200,
                "personal token (/api)": 200, "oauth/login token (/api)": 401, "web session": 401}
    assert states == expected, states
    assert refresh(server, creds.other["refreshToken"]) == 401
    assert refresh(server, creds.signup["refreshToken"]) == 200
    server.assert_healthy("a password change")


def test_password_change_on_the_web_keeps_that_web_session(spawn):
    server = spawn()
    creds = Credentials(server)
    csrf = server.csrf(creds.web, "/account")
    answer = creds.web.post(server.url("/account/password"), allow_redirects=False, timeout=30,
                            data={"_csrf": csrf, "currentPassword": PASSWORD, "newPassword": NEW_PASSWORD})
    assert answer.status_code in (200, 302, 303), answer.text[:300]
    assert web_signed_in(server, creds.web)
    assert v1_me(server, creds.signup["accessToken"]) == 401
    assert api_me(server, creds.oauth) == 401
    assert v1_me(server, creds.pat) == 200


# --- sign-in throttling ----------------------------------------------------------------------------

def test_failures_across_emails_from_one_address_are_throttled(spawn):
    server = spawn()
    real = server.signup()
    statuses = [login(server, fresh_email("spray"), "wrong password 1").status_code for _ in range(20)]
    assert statuses == [401] * 20, statuses
    # More than 20 in 15 minutes: the address is refused whatever the email.
    answer = login(server, fresh_email("spray"), "wrong password 1")
    if answer.status_code == 401:
        answer = login(server, fresh_email("spray"), "wrong password 1")
    assert answer.status_code == 429, answer.text[:300]
    assert answer.json()["error"]["code"] == "too_many_attempts", answer.text[:300]
    assert answer.headers.get("Retry-After", "").isdigit(), answer.headers
    fresh = login(server, fresh_email("another"), "wrong password 1")
    assert fresh.status_code == 429, fresh.text[:300]
    # The reset path still works.
    assert requests.post(server.url("/v1/auth/password-reset"), json={"email": real["email"]},
                         timeout=30).status_code == 202
    server.assert_healthy("sign-in throttling")


def test_sign_in_answers_carry_a_device_token(spawn):
    server = spawn()
    signup = server.signup()
    assert signup.get("deviceToken", "").startswith("kdv_"), signup.keys()
    answer = login(server, signup["email"])
    assert answer.status_code == 200
    assert answer.json().get("deviceToken", "").startswith("kdv_"), answer.json().keys()


def test_per_email_limit_blocks_new_devices_but_not_a_known_one(spawn):
    server = spawn()
    owner = server.signup()
    device = owner["deviceToken"]
    stranger = server.signup()  # a device token of another account is no pass
    for _ in range(5):
        assert login(server, owner["email"], "wrong password 1").status_code == 401
    blocked = login(server, owner["email"])
    assert blocked.status_code == 429, blocked.text[:300]
    assert blocked.json()["error"]["code"] == "too_many_attempts"
    assert login(server, owner["email"], deviceToken=stranger["deviceToken"]).status_code == 429
    assert login(server, owner["email"], deviceToken="kdv_" + "A" * 43).status_code == 429
    known = login(server, owner["email"], deviceToken=device)
    assert known.status_code == 200, known.text[:300]
    # A wrong password from the known device is still wrong.
    assert login(server, owner["email"], "wrong password 1", deviceToken=device).status_code in (401, 429)
    # The reset path always works.
    token = reset_token(server, owner["email"])
    answer = requests.post(server.url("/v1/auth/password-reset/confirm"),
                           json={"token": token, "newPassword": NEW_PASSWORD}, timeout=30)
    assert answer.status_code == 204, answer.text[:300]
    server.assert_healthy("the per-email limit")


def test_web_sign_in_remembers_the_device_with_an_http_only_cookie(spawn):
    server = spawn()
    account = server.signup()
    known = server.web_session(account["email"])
    cookie = next((c for c in known.cookies if c.name == "kith_device"), None)
    assert cookie is not None, [c.name for c in known.cookies]
    assert cookie.value.startswith("kdv_"), cookie.value[:8]
    assert cookie.has_nonstandard_attr("HttpOnly") or cookie._rest.get("HttpOnly") is not None, cookie._rest
    known.post(server.url("/signout"), data={"_csrf": server.csrf(known, "/account")}, timeout=30)
    for _ in range(5):
        assert login(server, account["email"], "wrong password 1").status_code == 401
    stranger = requests.Session()
    answer = stranger.post(server.url("/signin"), allow_redirects=False, timeout=30,
                           data={"_csrf": server.csrf(stranger), "email": account["email"], "password": PASSWORD})
    assert answer.status_code not in (302, 303), "a new browser got in past the per-email limit"
    answer = known.post(server.url("/signin"), allow_redirects=False, timeout=30,
                        data={"_csrf": server.csrf(known), "email": account["email"], "password": PASSWORD})
    assert answer.status_code in (302, 303), f"the known browser was refused: {answer.status_code}"


# --- idempotency, metrics, export, HSTS ------------------------------------------------------------

def test_mutation_ids_are_per_account(spawn):
    server = spawn()
    first, second = server.signup(), server.signup()
    mutation_id = str(uuid.uuid4())
    for account in (first, second):
        mutation = year_mutation(f"user:{account['user']['id']}")
        mutation["mutationId"] = mutation_id
        answer = requests.post(server.url("/v1/sync/push"), headers=bearer(account["accessToken"]), timeout=30,
                               json={"clientId": str(uuid.uuid4()), "mutations": [mutation]})
        assert answer.status_code == 200, answer.text[:300]
        assert answer.json()["results"][0]["status"] == "applied", answer.text[:300]
        pulled = requests.get(server.url("/v1/sync/pull"), headers=bearer(account["accessToken"]), timeout=30).json()
        assert any(change["id"] == mutation["id"] for change in pulled["changes"]), pulled
    # The same id again from the same account is a duplicate.
    again = year_mutation(f"user:{first['user']['id']}")
    again["mutationId"] = mutation_id
    answer = requests.post(server.url("/v1/sync/push"), headers=bearer(first["accessToken"]), timeout=30,
                           json={"clientId": str(uuid.uuid4()), "mutations": [again]})
    assert answer.json()["results"][0]["status"] == "duplicate", answer.text[:300]


def test_metrics_are_not_public(spawn):
    server = spawn()
    assert requests.get(server.url("/metrics"), timeout=30).status_code == 404
    assert requests.get(server.url("/metrics"), headers=bearer("anything"), timeout=30).status_code == 404


def test_metrics_need_the_metrics_token(spawn):
    token = "metrics-" + uuid.uuid4().hex
    server = spawn(env={"KITH_METRICS_TOKEN": token})
    assert requests.get(server.url("/metrics"), timeout=30).status_code == 401
    assert requests.get(server.url("/metrics"), headers=bearer("wrong-" + token), timeout=30).status_code == 401
    account = server.signup()
    assert requests.get(server.url("/metrics"), headers=bearer(account["accessToken"]), timeout=30).status_code == 401
    answer = requests.get(server.url("/metrics"), headers=bearer(token), timeout=30)
    assert answer.status_code == 200, answer.text[:300]
    assert answer.headers["Content-Type"].startswith("text/plain")


def test_export_of_another_users_year_is_404(spawn):
    server = spawn()
    owner, other = server.signup(), server.signup()
    year_id = str(uuid.uuid4())
    answer = requests.post(server.url("/v1/sync/push"), headers=bearer(owner["accessToken"]), timeout=30,
                           json={"clientId": str(uuid.uuid4()),
                                 "mutations": [year_mutation(f"user:{owner['user']['id']}", record_id=year_id)]})
    assert answer.json()["results"][0]["status"] == "applied"
    web = server.web_session(other["email"])
    for year in (year_id, str(uuid.uuid4())):
        answer = web.get(server.url("/outreach/export"), params={"year": year}, timeout=30, allow_redirects=False)
        assert answer.status_code == 404, f"{answer.status_code}: {answer.text[:200]}"
    own = server.web_session(owner["email"])
    assert own.get(server.url("/outreach/export"), params={"year": year_id}, timeout=30).status_code == 200


HSTS_PATHS = ["/healthz", "/v1/me", "/signin", "/api/contacts", "/openapi.yaml", "/no-such-page", "/static/app.css"]


def test_https_public_url_sends_hsts_on_every_answer(spawn):
    server = spawn(env={"KITH_PUBLIC_URL": "https://kith.example"})
    missing = []
    for path in HSTS_PATHS:
        answer = requests.get(server.url(path), timeout=30, allow_redirects=False)
        value = answer.headers.get("Strict-Transport-Security", "")
        if not re.search(r"max-age=\d+", value):
            missing.append(f"{path} ({answer.status_code}): {value!r}")
    answer = requests.post(server.url("/v1/auth/login"), json={"email": "a@example.com", "password": "x" * 8}, timeout=30)
    if "max-age" not in answer.headers.get("Strict-Transport-Security", ""):
        missing.append(f"POST /v1/auth/login ({answer.status_code})")
    assert not missing, missing


def test_http_public_url_sends_no_hsts(spawn):
    server = spawn(env={"KITH_PUBLIC_URL": "http://kith.example"})
    for path in HSTS_PATHS:
        answer = requests.get(server.url(path), timeout=30, allow_redirects=False)
        assert "Strict-Transport-Security" not in answer.headers, path
