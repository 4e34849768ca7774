"""Helpers the browser tests share: finding, filling and submitting, waiting for pages, mail,
screenshots' surroundings and accessibility checks."""

import email
import email.policy
import json
import re
import time
import urllib.error
import urllib.request
import uuid
from urllib.parse import urlparse

from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

WAIT = 10
# How long a change made elsewhere (another browser, the command line) may take to show.
LIVE_WAIT = 20
RESET_LINK = re.compile(r"https?://\S+/reset-password\?token=[^\s\"'<>]+")


def fresh_email(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}@example.com"


def path_of(driver) -> str:
    return urlparse(driver.current_url).path


def wait_for_path(driver, path: str):
    try:
        WebDriverWait(driver, WAIT).until(lambda d: path_of(d) == path)
    except Exception as error:
        raise AssertionError(f"expected to reach {path}, still at {driver.current_url}") from error
    wait_loaded(driver)


def wait_loaded(driver):
    def complete(d):
        try:
            return d.execute_script("return document.readyState") == "complete"
        except WebDriverException:
            return False

    WebDriverWait(driver, WAIT).until(complete)


def until(driver, condition, message: str, timeout: float = WAIT):
    """What `condition` returns once it is truthy, or an AssertionError saying `message`. Pages
    redraw lists when answers arrive (their own writes come back over the live socket too), so
    what a look finds can be replaced before it is read: such a look, or an assertion inside the
    condition, just looks again."""
    def look(d):
        try:
            return condition(d)
        except WebDriverException as error:
            # Chrome's word for an element replaced while it was being read: stale, so look again.
            if "does not belong to the document" in (error.msg or ""):
                return False
            raise

    try:
        wait = WebDriverWait(driver, timeout, ignored_exceptions=(StaleElementReferenceException, AssertionError))
        return wait.until(look)
    except Exception as error:
        raise AssertionError(message) from error


def texts(driver, css: str) -> list:
    """The visible texts of everything `css` matches, read in one step in the page, so a redraw
    cannot replace the elements halfway through reading them."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll(arguments[0])).map(element => element.innerText)", css)


def text_of(driver, css: str) -> str:
    """The text of the first element `css` matches, once there is one."""
    return until(driver, lambda d: (d.find_element(By.CSS_SELECTOR, css).text,), f"{css} shows")[0]


def wait_text(driver, css: str, text: str, timeout: float = WAIT):
    """Waits until some element `css` matches contains `text`."""
    until(driver, lambda d: any(text in shown for shown in texts(d, css)), f"{text!r} in {css}", timeout)


def wait_status(driver, text: str):
    """Waits until the page's sync status says `text` ("live" once its live socket is open)."""
    wait_text(driver, "#sync-status", text, LIVE_WAIT)


def set_value(driver, css: str, value: str):
    """Sets a field as a person's picker would (a date or time field takes its value whole), with
    the events it sends."""
    driver.execute_script(
        "const field = document.querySelector(arguments[0]); field.value = arguments[1];"
        "field.dispatchEvent(new Event('input', {bubbles: true}));"
        "field.dispatchEvent(new Event('change', {bubbles: true}));", css, value)


def open_details(driver, css: str):
    """Opens a <details> unless it is open."""
    element = find(driver, css)
    if element.get_attribute("open") is None:
        element.find_element(By.TAG_NAME, "summary").click()


def find(driver, css: str):
    return WebDriverWait(driver, WAIT).until(EC.presence_of_element_located((By.CSS_SELECTOR, css)))


def visible(driver, css: str):
    return WebDriverWait(driver, WAIT).until(EC.visibility_of_element_located((By.CSS_SELECTOR, css)))


def absent(driver, css: str) -> bool:
    return not driver.find_elements(By.CSS_SELECTOR, css)


def interactable(driver, css: str):
    """`css` once a person could type in it: shown and enabled. A form that has just opened is in
    the page before it is shown, and typing into it then fails ("not currently interactable")."""
    return WebDriverWait(driver, WAIT).until(EC.element_to_be_clickable((By.CSS_SELECTOR, css)))


def fill(driver, css: str, value: str):
    field = interactable(driver, css)
    field.clear()
    field.send_keys(value)


def click_when_still(driver, css: str):
    """Clicks `css` once it has stopped moving: a form that opens and scrolls itself into view,
    or a notice appearing above it, moves what a click aims at between finding and clicking."""
    def still(d):
        first = d.find_element(By.CSS_SELECTOR, css).rect
        time.sleep(0.1)
        element = d.find_element(By.CSS_SELECTOR, css)
        return element if element.rect == first else None
    until(driver, still, f"{css} stops moving").click()


def mark_page(driver):
    """Marks the current document so wait_new_page can tell when another one replaced it."""
    driver.execute_script("window.__kithOldPage = true")


def still_same_page(driver) -> bool:
    """Whether the document mark_page marked is still the one shown (no page was loaded)."""
    return driver.execute_script("return window.__kithOldPage === true")


def wait_new_page(driver):
    # Not EC.staleness_of: chromedriver can answer a lookup made mid-navigation with a generic
    # error ("Node with given id does not belong to the document") instead of a stale element.
    def loaded(d):
        try:
            return d.execute_script("return !window.__kithOldPage && document.readyState === 'complete'")
        except WebDriverException:
            return False

    WebDriverWait(driver, WAIT).until(loaded)


def submit(driver, form_css: str, button_css: str = "button[type=submit]"):
    """Clicks the form's submit button and waits until the next page has loaded."""
    button = find(driver, f"{form_css} {button_css}")
    mark_page(driver)
    button.click()
    wait_new_page(driver)


def open_page(driver, server, path: str):
    driver.get(server.url(path))
    wait_loaded(driver)


def notice_text(driver) -> str:
    return visible(driver, "#notice").text


def form_error_text(driver) -> str:
    return visible(driver, "#form-error").text


def sign_up(driver, server, address: str, password: str):
    """Creates an account through the sign-up form (the browser is then signed in)."""
    open_page(driver, server, "/signup")
    fill(driver, "#email", address)
    fill(driver, "#password", password)
    submit(driver, "#signup-form")


def sign_in(driver, server, address: str, password: str):
    if path_of(driver) != "/signin":
        open_page(driver, server, "/signin")
    fill(driver, "#email", address)
    fill(driver, "#password", password)
    submit(driver, "#signin-form")


def sign_out(driver):
    submit(driver, "#signout-form")
    wait_for_path(driver, "/signin")
    assert "signed out" in notice_text(driver).lower()


def assert_wrong_credentials(driver, address: str):
    assert path_of(driver) == "/signin", driver.current_url
    assert "incorrect" in form_error_text(driver)
    # The email is kept, the password is not.
    assert find(driver, "#email").get_attribute("value") == address
    assert find(driver, "#password").get_attribute("value") == ""


def token_names(driver) -> list:
    return [element.text for element in driver.find_elements(By.CSS_SELECTOR, "#token-list .token-name")]


def eml_files(server):
    outbox = server.data_dir / "outbox"
    return sorted(outbox.glob("*.eml")) if outbox.is_dir() else []


def wait_for_new_mail(server, before: set, timeout: float = 10.0):
    """The newest .eml file that was not in `before`, parsed."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        new = [path for path in eml_files(server) if path not in before]
        if new:
            newest = max(new, key=lambda path: (path.stat().st_mtime_ns, path.name))
            try:
                return email.message_from_bytes(newest.read_bytes(), policy=email.policy.default)
            except OSError:
                pass  # still being written; try again
        time.sleep(0.2)
    raise AssertionError(f"no new mail in {server.data_dir / 'outbox'} within {timeout} s")


def mail_text(message) -> str:
    part = message.get_body(preferencelist=("plain", "html")) if message.is_multipart() else message
    return part.get_content()


def browser_problems(driver) -> list:
    """Console messages about blocked scripts/styles (CSP) or broken static files."""
    try:
        entries = driver.get_log("browser")
    except Exception:
        return []
    return [
        entry["message"] for entry in entries
        if "Content Security Policy" in entry["message"] or "/static/" in entry["message"]
    ]


def set_color_scheme(driver, scheme: str):
    driver.execute_cdp_cmd(
        "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    assert driver.execute_script(f"return matchMedia('(prefers-color-scheme: {scheme})').matches")
    # Let the colour transitions finish before a screenshot.
    WebDriverWait(driver, WAIT).until(lambda d: d.execute_script("return document.getAnimations().length === 0"))


def background_of(driver, css: str) -> str:
    return driver.execute_script(
        "return getComputedStyle(document.querySelector(arguments[0])).backgroundColor", css)


def no_horizontal_scroll(driver) -> bool:
    return driver.execute_script(
        "return document.documentElement.scrollWidth <= window.innerWidth")


def unlabeled_inputs(driver) -> list:
    """Visible form controls without an accessible label: <label for>, a wrapping label, or aria-label."""
    return driver.execute_script(
        """
        return Array.from(document.querySelectorAll('input, select, textarea'))
          .filter(el => el.type !== 'hidden')
          .filter(el => {
            const byFor = el.id && Array.from(document.querySelectorAll('label'))
              .some(label => label.htmlFor === el.id && label.textContent.trim() !== '');
            const wrapped = el.closest('label') && el.closest('label').textContent.trim() !== '';
            const aria = (el.getAttribute('aria-label') || '').trim() !== '' || el.hasAttribute('aria-labelledby');
            return !(byFor || wrapped || aria);
          })
          .map(el => el.outerHTML);
        """)




class WebAPI:
    """The server's Monica-compatible /api called as the signed-in browser's pages call it: with its
    session cookie and the CSRF token in X-CSRF-Token (so, like the pages, not rate limited)."""

    def __init__(self, driver, server):
        cookies = {cookie["name"]: cookie["value"] for cookie in driver.get_cookies()}
        assert "kith_session" in cookies, "sign in first"
        self.base_url = server.base_url
        self.cookie = "; ".join(f"{name}={value}" for name, value in cookies.items())
        self.csrf = cookies["kith_csrf"]

    def call(self, method: str, path: str, body=None):
        """(status, parsed JSON answer)."""
        request = urllib.request.Request(
            self.base_url + path, method=method, data=None if body is None else json.dumps(body).encode(),
            headers={"Cookie": self.cookie, "Accept": "application/json", "Content-Type": "application/json",
                     "X-CSRF-Token": self.csrf})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")

    def data(self, method: str, path: str, body=None):
        """The answer's `data`, after checking the call succeeded."""
        status, answer = self.call(method, path, body)
        assert 200 <= status < 300, f"{method} {path} answered {status}: {answer}"
        return answer["data"]

    def contact(self, first: str, last: str = None, **fields) -> int:
        body = {"first_name": first, "last_name": last, "is_birthdate_known": False, "is_deceased": False,
                "is_deceased_date_known": False, **fields}
        return self.data("POST", "/api/contacts", body)["id"]
