"""The web app as a phone app: installable (Chromium's own installability check), and usable with the
server really stopped. A person opens their pages, the server goes down, they log two foods, tick a
delivery and complete a reminder; the pages show each change at once as waiting; they close the tab;
the server comes back and, while they were away, the reminder was completed on another computer; they
open the app again and every change reaches the server exactly once, in the order made, and the one
the server now refuses is shown on its reminder with the server's sentence, Try again and Discard.
Signing out with changes waiting asks first, and another account on the same browser never sees the
first one's pages."""

import json
import urllib.request

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC

from conftest import start_server, stop_server
from pages import (fill, find, fresh_email, mark_page, open_page, path_of, set_color_scheme, sign_in, sign_up, submit,
                   texts, until, visible, wait_new_page, wait_text)

PASSWORD = "correct horse battery"


@pytest.fixture
def own_server():
    """A server of the test's own, which the test stops and starts again."""
    kith = start_server({})
    yield kith
    stop_server(kith)


def worker_ready(driver):
    """Waits until the service worker controls the page (it claims pages as it activates, after
    keeping the app's files: on a loaded machine that took over 10 s)."""
    until(driver, lambda d: d.execute_script(
        "return !!(navigator.serviceWorker && navigator.serviceWorker.controller)"), "the service worker controls the page",
        timeout=60)


def offline_status(driver) -> str:
    return visible(driver, "#offline-status").text


def test_the_app_is_installable_with_a_manifest_icons_and_a_worker(server, driver, shot):
    sign_up(driver, server, fresh_email("install"), PASSWORD)
    open_page(driver, server, "/")
    worker_ready(driver)
    # What Chromium checks before it offers "Install app": a manifest with a name, start URL,
    # standalone display and 192/512 px icons that load, and a service worker with a fetch handler.
    errors = driver.execute_cdp_cmd("Page.getInstallabilityErrors", {})
    assert errors.get("installabilityErrors") == [], errors
    manifest_url = driver.execute_script("return document.querySelector('link[rel=manifest]').href")
    with urllib.request.urlopen(manifest_url) as answer:
        assert answer.headers["Content-Type"].startswith("application/manifest+json")
        manifest = json.load(answer)
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    sizes = {(icon["sizes"], icon.get("purpose", "any")) for icon in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    assert [shortcut["url"] for shortcut in manifest["shortcuts"]] == ["/contacts", "/outreach", "/food", "/family"]
    for icon in manifest["icons"] + [{"src": "/apple-touch-icon.png"}]:
        with urllib.request.urlopen(server.url(icon["src"])) as answer:
            assert answer.status == 200 and answer.read(8)[:4] in (b"\x89PNG", b"<svg")
    # iOS reads its own tags for the home screen.
    assert driver.find_element(By.CSS_SELECTOR, 'link[rel="apple-touch-icon"]')
    assert driver.find_element(By.CSS_SELECTOR, 'meta[name="apple-mobile-web-app-capable"]')
    scope = driver.execute_async_script(
        "const done = arguments[0]; navigator.serviceWorker.ready.then(r => done(r.scope));")
    assert scope == server.url("/")


def set_up_an_account(driver, server):
    """An account with a family and a reminder for its founder, a year with two people to deliver to,
    and the Food, Outreach and Family pages opened (so the browser keeps them)."""
    address = fresh_email("offline")
    sign_up(driver, server, address, PASSWORD)
    open_page(driver, server, "/family")
    fill(driver, "#create-name", "The Hoppers")
    fill(driver, "#create-displayName", "Grace")
    submit(driver, "#create-form")
    open_page(driver, server, "/family/reminders/new")
    fill(driver, "#reminder-title", "Water the plants")
    submit(driver, "#reminder-form", "#save-reminder")
    reminder_id = path_of(driver).rsplit("/", 1)[1]
    open_page(driver, server, "/outreach")
    for first, last in (("Ada", "Byron"), ("Alan", "Turing")):
        fill(driver, "#firstName", first)
        fill(driver, "#lastName", last)
        fill(driver, "#enterpriseName", "Analytical Engines")
        submit(driver, "#add-person-form")
    worker_ready(driver)
    for path in ("/food", "/outreach", "/family"):
        open_page(driver, server, path)
    return address, reminder_id


def person_row(driver, last_name):
    rows = [row for row in driver.find_elements(By.CSS_SELECTOR, "#people-table tbody tr")
            if last_name in row.find_element(By.CSS_SELECTOR, ".person-name").text]
    assert len(rows) == 1, f"one row for {last_name}"
    return rows[0]


def test_changes_made_offline_reach_the_server_once_in_order(own_server, driver, other_driver, shot):
    server = own_server
    address, reminder_id = set_up_an_account(driver, server)

    server.pause()

    # Food: the kept page says it is a copy; two foods logged by hand wait in the day's list and total.
    open_page(driver, server, "/food")
    assert "Offline: showing what you had at" in offline_status(driver)
    before = int(find(driver, "#total-calories").text.replace(",", ""))
    for name, calories in (("Porridge on the train", "350"), ("Apple on the platform", "95")):
        if find(driver, "#by-hand").get_attribute("open") is None:
            find(driver, "#by-hand summary").click()
        fill(driver, "#food-name", name)
        fill(driver, "#food-calories", calories)
        submit(driver, "#add-item-form")
        assert path_of(driver) == "/food"
        wait_text(driver, "#food-list", name)
    assert texts(driver, "#food-list .outbox-item .food-name") == ["Porridge on the train", "Apple on the platform"]
    assert texts(driver, "#food-list .outbox-item .outbox-mark-text") == ["Waiting to be sent"] * 2
    assert int(find(driver, "#total-calories").text.replace(",", "")) == before + 445
    assert "2 changes waiting" in offline_status(driver)
    shot(driver, "offline-food-waiting")

    # Outreach: a tick is kept, the row stays ticked and says it waits.
    open_page(driver, server, "/outreach")
    person_row(driver, "Byron").find_element(By.CSS_SELECTOR, ".deliver-box").click()
    until(driver, lambda d: "Waiting to be sent" in person_row(d, "Byron").text, "the tick waits on its row")
    assert person_row(driver, "Byron").find_element(By.CSS_SELECTOR, ".deliver-box").is_selected()
    wait_text(driver, "#offline-status", "3 changes waiting")
    shot(driver, "offline-outreach-waiting")

    # Family: the reminder shows completed, waiting.
    open_page(driver, server, "/family")
    submit(driver, f"#reminder-{reminder_id} .complete-form")
    assert path_of(driver) == "/family"
    row = find(driver, f"#reminder-{reminder_id}")
    assert "Completed" in row.find_element(By.CSS_SELECTOR, ".badge").text
    assert "Waiting to be sent" in row.text
    wait_text(driver, "#offline-status", "4 changes waiting")
    shot(driver, "offline-family-waiting")
    set_color_scheme(driver, "dark")
    shot(driver, "offline-family-waiting-dark")
    set_color_scheme(driver, "light")

    # A page never opened says so and lists what can be opened.
    open_page(driver, server, "/account")
    assert "Not available offline" in find(driver, "h1").text
    kept = driver.execute_script(
        "return Array.from(document.querySelectorAll('#kept-pages a')).map(a => a.getAttribute('href'))")
    assert {"/food", "/outreach", "/family"} <= set(kept), kept
    assert not [path for path in kept if path.startswith("/api/")], kept
    shot(driver, "offline-not-kept")

    # The tab is closed; the server comes back; on another computer the reminder is completed first.
    driver.switch_to.new_window("tab")
    first_tab = driver.window_handles[0]
    driver.switch_to.window(first_tab)
    driver.close()
    driver.switch_to.window(driver.window_handles[0])
    server.resume()
    sign_in(other_driver, server, address, PASSWORD)
    open_page(other_driver, server, f"/family/reminders/{reminder_id}")
    submit(other_driver, "#reminder-actions .complete-form")
    wait_text(other_driver, "#reminder-status", "Completed")

    # The app opened again (on the reminder) sends what waited, in order; the server refuses the
    # completion now, and says why on the reminder.
    open_page(driver, server, f"/family/reminders/{reminder_id}")
    until(driver, lambda d: "Not saved" in d.find_element(By.ID, "reminder-detail").text,
          "the refused completion shows on its reminder", timeout=20)
    refused = find(driver, "#reminder-detail .outbox-mark-text").text
    assert refused == "Not saved: A completed reminder can't be changed.", refused
    assert find(driver, "#reminder-detail .outbox-retry").is_displayed()
    assert find(driver, "#offline-status").text == "1 change was not saved: see it below."
    shot(driver, "offline-refused-on-its-item")

    # On the server: each food once, in the order logged, and the tick.
    open_page(other_driver, server, "/food")
    names = texts(other_driver, "#food-list .food-name")
    assert names.count("Porridge on the train") == 1 and names.count("Apple on the platform") == 1, names
    assert names.index("Porridge on the train") < names.index("Apple on the platform"), names
    open_page(other_driver, server, "/outreach")
    assert person_row(other_driver, "Byron").find_element(By.CSS_SELECTOR, ".deliver-box").is_selected()
    assert not person_row(other_driver, "Turing").find_element(By.CSS_SELECTOR, ".deliver-box").is_selected()

    # Sent again (a second page load, the online event): nothing changes twice.
    open_page(driver, server, "/food")
    driver.execute_script("window.dispatchEvent(new Event('online'))")
    open_page(other_driver, server, "/food")
    assert texts(other_driver, "#food-list .food-name").count("Porridge on the train") == 1

    # Try again sends it again (with this page's session token); the server still refuses it, and
    # says so on the reminder again.
    open_page(driver, server, f"/family/reminders/{reminder_id}")
    before = find(driver, "#reminder-detail .outbox-mark")
    find(driver, "#reminder-detail .outbox-retry").click()
    until(driver, EC.staleness_of(before), "the change is drawn again as it is sent")
    until(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#reminder-detail .outbox-mark-text").text
          == "Not saved: A completed reminder can't be changed.", "refused again")

    # Discard drops the refused change; the page then shows the server's state only.
    find(driver, "#reminder-detail .outbox-discard").click()
    until(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, ".outbox-mark"), "the refused change is gone")
    until(driver, lambda d: not d.find_elements(By.ID, "offline-banner"), "no banner once nothing waits")


def test_signing_out_asks_about_waiting_changes_and_clears_the_account(own_server, driver, shot):
    server = own_server
    address, _ = set_up_an_account(driver, server)
    server.pause()
    open_page(driver, server, "/food")
    find(driver, "#by-hand summary").click()
    fill(driver, "#food-name", "Late snack")
    fill(driver, "#food-calories", "120")
    submit(driver, "#add-item-form")
    wait_text(driver, "#food-list", "Late snack")
    server.resume()
    # Before the page noticed the server is back: signing out offers to send or discard.
    driver.execute_script("document.getElementById('signout-form').requestSubmit()")
    dialog = visible(driver, "#signout-dialog")
    assert "1 change is not sent yet" in dialog.text
    shot(driver, "offline-signout-dialog", full_page=False)
    mark_page(driver)
    dialog.find_element(By.XPATH, ".//button[text()='Send them, then sign out']").click()
    wait_new_page(driver)
    until(driver, lambda d: path_of(d) == "/signin", "signed out")
    # The account's pages and outbox are gone from this browser.
    left = driver.execute_async_script("""
        const done = arguments[0];
        Promise.all([caches.keys(), KithOutboxStore.getMeta('account')]).then(([names, account]) =>
          done({pages: names.filter(n => n.startsWith('kith-pages-')), account: account || ''}));""")
    assert left == {"pages": [], "account": ""}, left

    # Another person signs in on this browser; offline, the first one's pages are not shown.
    sign_up(driver, server, fresh_email("second"), PASSWORD)
    open_page(driver, server, "/")
    server.pause()
    open_page(driver, server, "/food")
    assert "Not available offline" in find(driver, "h1").text
    # Signing out needs the server there and then: offline, the worker says so instead of keeping it.
    open_page(driver, server, "/")
    mark_page(driver)
    driver.execute_script("document.getElementById('signout-form').requestSubmit()")
    wait_new_page(driver)
    assert find(driver, "h1").text == "Not sent"
    assert "cannot be reached" in find(driver, "#not-sent").text
    server.resume()

    # The snack was sent before the first person signed out, once.
    open_page(driver, server, "/")
    driver.execute_script("document.getElementById('signout-form').requestSubmit()")
    until(driver, lambda d: path_of(d) == "/signin", "the second person signed out")
    sign_in(driver, server, address, PASSWORD)
    open_page(driver, server, "/food")
    assert texts(driver, "#food-list .food-name").count("Late snack") == 1


def test_the_worker_sends_waiting_changes_with_no_page_open(own_server, driver, other_driver):
    """Background Sync: the browser wakes the service worker once the connection is back, and it
    sends the outbox though no Kith page is open."""
    server = own_server
    address = fresh_email("sync")
    sign_up(driver, server, address, PASSWORD)
    open_page(driver, server, "/food")
    worker_ready(driver)
    open_page(driver, server, "/food")
    server.pause()
    open_page(driver, server, "/food")
    find(driver, "#by-hand summary").click()
    fill(driver, "#food-name", "Soup in the tunnel")
    fill(driver, "#food-calories", "210")
    submit(driver, "#add-item-form")
    wait_text(driver, "#food-list", "Soup in the tunnel")
    driver.get("about:blank")
    server.resume()

    # What the browser does when the network returns: a `sync` event for the tag the worker asked for.
    driver.execute_cdp_cmd("ServiceWorker.enable", {})
    for registration in range(10):
        try:
            driver.execute_cdp_cmd("ServiceWorker.dispatchSyncEvent", {
                "origin": server.url(""), "registrationId": str(registration), "tag": "kith-outbox", "lastChance": False})
            break
        except Exception:
            continue
    else:
        raise AssertionError("Chromium knows no service worker registration for the app")

    sign_in(other_driver, server, address, PASSWORD)

    def logged(d):
        open_page(d, server, "/food")
        return texts(d, "#food-list .food-name") == ["Soup in the tunnel"]

    until(other_driver, logged, "the worker sent the soup, once", timeout=20)
