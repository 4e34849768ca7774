"""The Outreach page (seed 000) in a real browser against a real `kith serve`: years, people,
one-click delivery, comments, copy a year, CSV, confirmation steps, and changes made with the
`kith` command line appearing without a reload."""

import json
import os
import subprocess
import tempfile

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from pages import (WAIT, browser_problems, find, fill, form_error_text, fresh_email, mark_page, no_horizontal_scroll,
                   notice_text, open_page, path_of, sign_up, submit, unlabeled_inputs, visible, wait_loaded)

PASSWORD = "correct horse battery"
LIVE_WAIT = 20


def names(driver):
    return [cell.text for cell in driver.find_elements(By.CSS_SELECTOR, "#people-table .person-name")]


def row(driver, name):
    for element in driver.find_elements(By.CSS_SELECTOR, "#people-table tr.person"):
        if element.find_element(By.CSS_SELECTOR, ".person-name").text == name:
            return element
    raise AssertionError(f"no row for {name!r} in {names(driver)}")


def in_row(driver, name, selector, act):
    """act(element) on `selector` in the row of `name`, tried again when a live refresh replaced
    the rows in between (the table is redrawn whenever a change arrives)."""
    def attempt(d):
        return (act(row(d, name).find_element(By.CSS_SELECTOR, selector)),)
    return WebDriverWait(driver, WAIT, ignored_exceptions=(StaleElementReferenceException,)).until(attempt)[0]


def progress_text(driver):
    return find(driver, "#progress-text").text


def add_person(driver, first, last, enterprise, comments=""):
    fill(driver, "#firstName", first)
    fill(driver, "#lastName", last)
    fill(driver, "#enterpriseName", enterprise)
    if comments:
        fill(driver, "#comments", comments)
    submit(driver, "#add-person-form")


def still_same_page(driver):
    return driver.execute_script("return window.__kithOldPage === true")


def wait_status(driver, text):
    WebDriverWait(driver, LIVE_WAIT).until(lambda d: text in d.find_element(By.ID, "sync-status").text)


def open_details(driver, css):
    element = find(driver, css)
    if element.get_attribute("open") is None:
        element.find_element(By.TAG_NAME, "summary").click()


class Kith:
    """The `kith` command line as a second device of the same account."""

    def __init__(self, server, address):
        self.server = server
        self.home = tempfile.mkdtemp(prefix="kith-cli-")
        self.run("account", "login", "--server", server.base_url, "--password-stdin", address, stdin=PASSWORD + "\n")

    def run(self, *arguments, stdin=None):
        env = dict(os.environ, KITH_HOME=self.home)
        done = subprocess.run([os.environ["KITH_BINARY"], *arguments], input=stdin, capture_output=True, text=True,
                              env=env, timeout=60)
        assert done.returncode == 0, f"kith {' '.join(arguments)} failed: {done.stdout}\n{done.stderr}"
        return done.stdout

    def json(self, *arguments):
        return json.loads(self.run(*arguments, "--json"))


def test_outreach_year_of_deliveries(server, driver, shot):
    address = fresh_email("outreach")
    sign_up(driver, server, address, PASSWORD)
    open_page(driver, server, "/outreach")

    # First visit: the current year exists, alone, so no year selector.
    year = find(driver, "#year-name").text
    assert year.isdigit() and len(year) == 4, year
    assert not driver.find_elements(By.ID, "year-select"), "one year: the selector is hidden"
    assert "Nobody in" in find(driver, "#no-people").text
    wait_status(driver, "live")
    shot(driver, "outreach-empty")

    # People are listed by last name then first name, ignoring case and accents.
    add_person(driver, "Émile", "Zola", "Editions Charpentier")
    add_person(driver, "Teresa", "Ávila", "Carmelites", comments="Prefers mornings.\nRing twice at the side door.")
    add_person(driver, "Claude", "bernard", "Collège de France")
    assert names(driver) == ["Ávila, Teresa", "bernard, Claude", "Zola, Émile"]
    assert progress_text(driver) == "0 of 3 delivered"

    # A refused person: the reason is shown and what was typed is kept.
    fill(driver, "#firstName", "Nameless")
    fill(driver, "#lastName", "   ")
    fill(driver, "#enterpriseName", "Nowhere")
    driver.execute_script("document.getElementById('lastName').removeAttribute('required')")
    submit(driver, "#add-person-form")
    assert form_error_text(driver), "a refusal says why"
    assert find(driver, "#firstName").get_attribute("value") == "Nameless"
    assert len(names(driver)) == 3

    # Delivered: one click, saved at once (no new page), with the time of the click.
    wait_status(driver, "live")
    mark_page(driver)
    in_row(driver, "Zola, Émile", ".deliver-box", lambda e: e.click())
    WebDriverWait(driver, WAIT).until(lambda d: d.find_element(By.ID, "progress-text").text == "1 of 3 delivered")
    assert still_same_page(driver), "the checkbox saves without loading a page"
    assert in_row(driver, "Zola, Émile", ".delivered-at time", lambda e: e.text)
    # The comment indicator shows a preview.
    assert "Prefers mornings." in in_row(driver, "Ávila, Teresa", ".comment-indicator", lambda e: e.text)
    shot(driver, "outreach-delivered")

    driver.refresh()
    wait_loaded(driver)
    assert in_row(driver, "Zola, Émile", ".deliver-box", lambda e: e.is_selected()), "saved on the server"
    assert progress_text(driver) == "1 of 3 delivered"

    # Full comments and editing on the person's page.
    in_row(driver, "Ávila, Teresa", ".person-name a", lambda e: e.click())
    wait_loaded(driver)
    assert "Ring twice at the side door." in find(driver, "#full-comments").text
    shot(driver, "outreach-person")
    fill(driver, "#comments", "Call first.")
    submit(driver, "#edit-person-form")
    assert path_of(driver) == "/outreach"
    assert "Call first." in in_row(driver, "Ávila, Teresa", ".comment-indicator", lambda e: e.text)

    # The command line, signed in to the same account, is another device: its changes appear here
    # without a reload.
    cli = Kith(server, address)
    wait_status(driver, "live")
    mark_page(driver)
    cli.run("outreach", "add", "--first", "Grace", "--last", "Hopper", "--enterprise", "US Navy")
    WebDriverWait(driver, LIVE_WAIT).until(lambda d: "Hopper, Grace" in names(d))
    assert still_same_page(driver)
    people = cli.json("outreach", "list")
    bernard = next(person for person in people["contacts"] if person["lastName"] == "bernard")
    cli.run("outreach", "deliver", bernard["id"])
    # The rows can be replaced by a live refresh between finding the box and reading it: look again.
    WebDriverWait(driver, LIVE_WAIT, ignored_exceptions=(StaleElementReferenceException,)).until(
        lambda d: row(d, "bernard, Claude").find_element(By.CSS_SELECTOR, ".deliver-box").is_selected())
    assert progress_text(driver) == "2 of 4 delivered"
    assert still_same_page(driver)
    # And what the page did, the command line sees.
    zola_cli = next(person for person in cli.json("outreach", "list")["contacts"] if person["lastName"] == "Zola")
    assert zola_cli["delivered"] is True and zola_cli["deliveredAt"]
    shot(driver, "outreach-live")

    # A new year starting with this year's people, none delivered; the selector appears.
    open_details(driver, "#years")
    fill(driver, "#new-year-name", "2099")
    Select(find(driver, "#copy-from")).select_by_value(find(driver, "#outreach").get_attribute("data-year"))
    submit(driver, "#add-year-form")
    assert find(driver, "#year-name").text == "2099"
    assert names(driver) == ["Ávila, Teresa", "bernard, Claude", "Hopper, Grace", "Zola, Émile"]
    assert progress_text(driver) == "0 of 4 delivered"
    assert visible(driver, "#year-select")
    shot(driver, "outreach-new-year")

    # Renaming a year.
    open_details(driver, "#years")
    fill(driver, "#rename-year-name", "2099 reprint")
    submit(driver, "#rename-year-form")
    assert find(driver, "#year-name").text == "2099 reprint"

    # Year names are unique.
    open_details(driver, "#years")
    fill(driver, "#new-year-name", year)
    submit(driver, "#add-year-form")
    assert f"already a year named {year}" in form_error_text(driver)

    # Choosing a year in the selector shows it (and remembers it).
    mark_page(driver)
    Select(find(driver, "#year-select")).select_by_visible_text(year)
    WebDriverWait(driver, WAIT).until(lambda d: not still_same_page(d) and d.find_element(By.ID, "year-name").text == year)
    wait_loaded(driver)
    assert progress_text(driver) == "2 of 4 delivered", "each year keeps its own deliveries"
    open_page(driver, server, "/outreach")
    assert find(driver, "#year-name").text == year, "the year last chosen opens next time"

    # Export, then import: a bad row is reported by line and nothing is imported.
    csv = driver.execute_script(
        "return fetch(document.getElementById('export-link').href).then(r => r.text())")
    assert csv.startswith("First Name,Last Name,Enterprise,Delivered,Delivered At,Comments")
    assert "Zola,Editions Charpentier,yes," in csv
    open_details(driver, "#csv")
    fill(driver, "#import-csv", "First Name,Last Name,Enterprise,Delivered,Delivered At,Comments\n"
                                "Ada,Lovelace,Analytical Engines,no,,\n"
                                "Alan,Turing,Bletchley,maybe,,\n")
    submit(driver, "#import-form")
    assert "Line 3" in form_error_text(driver)
    assert len(names(driver)) == 4
    fill(driver, "#import-csv", "First Name,Last Name,Enterprise,Delivered,Delivered At,Comments\n"
                                "Ada,Lovelace,Analytical Engines,no,,\n"
                                "Alan,Turing,Bletchley,yes,2026-11-21T10:00:00Z,\"Met at the park, said \"\"hi\"\"\"\n")
    submit(driver, "#import-form")
    assert notice_text(driver) == "Added 2 people from the file."
    assert "Lovelace, Ada" in names(driver) and "Turing, Alan" in names(driver)
    assert progress_text(driver) == "3 of 6 delivered"

    # Deleting a person and a year asks first.
    in_row(driver, "Turing, Alan", ".person-name a", lambda e: e.click())
    wait_loaded(driver)
    find(driver, "#delete-person-link").click()
    wait_loaded(driver)
    assert "Delete Alan Turing?" in find(driver, "#confirm-heading").text
    submit(driver, "#confirm-form", "#confirm-button")
    assert "Turing, Alan" not in names(driver)

    Select(find(driver, "#year-select")).select_by_visible_text("2099 reprint")
    WebDriverWait(driver, WAIT).until(lambda d: d.find_element(By.ID, "year-name").text == "2099 reprint")
    wait_loaded(driver)
    open_details(driver, "#years")
    find(driver, "#delete-year-link").click()
    wait_loaded(driver)
    assert "4 people will be deleted" in find(driver, "#confirm-consequence").text
    shot(driver, "outreach-confirm-year-deletion")
    submit(driver, "#confirm-form", "#confirm-button")
    assert find(driver, "#year-name").text == year
    assert not driver.find_elements(By.ID, "year-select"), "one year again: no selector"
    # The last year can't be deleted.
    open_details(driver, "#years")
    find(driver, "#delete-year-link").click()
    wait_loaded(driver)
    assert "last year can't be deleted" in find(driver, "#confirm-refusal").text

    # Offline: a click that can't be saved says so and is undone.
    open_page(driver, server, "/outreach")
    wait_status(driver, "live")
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions",
                           {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    in_row(driver, "Lovelace, Ada", ".deliver-box", lambda e: e.click())
    wait_status(driver, "offline")
    assert not in_row(driver, "Lovelace, Ada", ".deliver-box", lambda e: e.is_selected())
    shot(driver, "outreach-offline")
    driver.execute_cdp_cmd("Network.emulateNetworkConditions",
                           {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})

    assert unlabeled_inputs(driver) == []
    assert browser_problems(driver) == []


def test_outreach_on_a_phone(server, driver, shot):
    driver.set_window_size(390, 844)
    sign_up(driver, server, fresh_email("phone"), PASSWORD)
    open_page(driver, server, "/outreach")
    add_person(driver, "Ada", "Lovelace", "Analytical Engines", comments="Bring the notes on the Bernoulli numbers.")
    in_row(driver, "Lovelace, Ada", ".deliver-box", lambda e: e.click())
    WebDriverWait(driver, WAIT).until(lambda d: d.find_element(By.ID, "progress-text").text == "1 of 1 delivered")
    shot(driver, "outreach-phone")
    assert no_horizontal_scroll(driver), driver.execute_script(
        "return Array.from(document.querySelectorAll('body *')).filter(e => e.getBoundingClientRect().right > "
        "window.innerWidth + 1).slice(0, 5).map(e => e.tagName + '#' + e.id + '.' + e.className)")
