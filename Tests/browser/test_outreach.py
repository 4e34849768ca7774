"""The Outreach page (seed 000) in a real browser against a real `kith serve`: years, people,
one-click delivery, comments, copy a year, CSV, confirmation steps, and changes made with the
`kith` command line appearing without a reload."""

import json
import os
import subprocess
import tempfile

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from pages import (LIVE_WAIT, browser_problems, fill, find, form_error_text, fresh_email, mark_page,
                   no_horizontal_scroll, notice_text, open_details, open_page, path_of, sign_up, still_same_page,
                   submit, texts, unlabeled_inputs, until, visible, wait_loaded, wait_status, wait_text)

PASSWORD = "correct horse battery"
def names(driver):
    return texts(driver, "#people-table .person-name")


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
    return until(driver, attempt, f"{selector} in the row of {name}")[0]


def progress_text(driver):
    return find(driver, "#progress-text").text


def add_person(driver, first, last, enterprise, comments=""):
    fill(driver, "#firstName", first)
    fill(driver, "#lastName", last)
    fill(driver, "#enterpriseName", enterprise)
    if comments:
        fill(driver, "#comments", comments)
    submit(driver, "#add-person-form")


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

    # People are listed by last name then first name, ignoring case and accents; adding says so.
    add_person(driver, "Émile", "Zola", "Editions Charpentier")
    assert notice_text(driver) == f"Added Émile Zola to {year}."
    add_person(driver, "Teresa", "Ávila", "Carmelites", comments="Prefers mornings.\nRing twice at the side door.")
    add_person(driver, "Claude", "bernard", "Collège de France")
    assert names(driver) == ["Ávila, Teresa", "bernard, Claude", "Zola, Émile"]
    assert progress_text(driver) == "0 of 3 delivered"

    # A refused person: the reason in words next to the field, which is marked; what was typed is kept.
    fill(driver, "#firstName", "Nameless")
    fill(driver, "#lastName", "   ")
    fill(driver, "#enterpriseName", "Nowhere")
    driver.execute_script("document.getElementById('lastName').removeAttribute('required')")
    submit(driver, "#add-person-form")
    assert visible(driver, "#lastName-error").text == "Enter a last name."
    assert find(driver, "#lastName").get_attribute("aria-invalid") == "true"
    assert find(driver, "#lastName").get_attribute("aria-describedby") == "lastName-error"
    assert driver.switch_to.active_element.get_attribute("id") == "lastName", "the keyboard goes to the field"
    assert not driver.find_elements(By.ID, "form-error"), "not at the top of the page in code words"
    assert "lastName" not in find(driver, "main").text
    assert find(driver, "#firstName").get_attribute("value") == "Nameless"
    shot(driver, "outreach-field-error")
    assert len(names(driver)) == 3

    # Delivered: one click, saved at once (no new page), with the time of the click.
    wait_status(driver, "live")
    mark_page(driver)
    in_row(driver, "Zola, Émile", ".deliver-box", lambda e: e.click())
    until(driver, lambda d: progress_text(d) == "1 of 3 delivered", "one delivered")
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
    assert notice_text(driver) == "Saved Teresa Ávila."
    assert "Call first." in in_row(driver, "Ávila, Teresa", ".comment-indicator", lambda e: e.text)

    # The command line, signed in to the same account, is another device: its changes appear here
    # without a reload.
    cli = Kith(server, address)
    wait_status(driver, "live")
    mark_page(driver)
    cli.run("outreach", "add", "--first", "Grace", "--last", "Hopper", "--enterprise", "US Navy")
    until(driver, lambda d: "Hopper, Grace" in names(d), "the command line's person appears", LIVE_WAIT)
    assert still_same_page(driver)
    people = cli.json("outreach", "list")
    bernard = next(person for person in people["contacts"] if person["lastName"] == "bernard")
    cli.run("outreach", "deliver", bernard["id"])
    # The rows can be replaced by a live refresh between finding the box and reading it: look again.
    until(driver, lambda d: row(d, "bernard, Claude").find_element(By.CSS_SELECTOR, ".deliver-box").is_selected(),
          "the command line's delivery shows", LIVE_WAIT)
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
    until(driver, lambda d: not still_same_page(d) and d.find_element(By.ID, "year-name").text == year, "the year loads")
    wait_loaded(driver)
    assert progress_text(driver) == "2 of 4 delivered", "each year keeps its own deliveries"
    open_page(driver, server, "/outreach")
    assert find(driver, "#year-name").text == year, "the year last chosen opens next time"

    # Export, then import: a file that is not the CSV is refused whole (a bad line alone is skipped:
    # test_outreach_many.py). The file starts with a byte-order mark, so Excel reads it as UTF-8 and
    # keeps the accents.
    exported = driver.execute_async_script(
        "fetch(document.getElementById('export-link').href).then(r => r.arrayBuffer())"
        ".then(b => arguments[0](Array.from(new Uint8Array(b))))")
    assert exported[:3] == [0xEF, 0xBB, 0xBF], exported[:8]
    csv = bytes(exported[3:]).decode("utf-8")
    assert csv.startswith("First Name,Last Name,Enterprise,Delivered,Delivered At,Comments")
    assert "Émile,Zola,Editions Charpentier,yes," in csv
    open_details(driver, "#csv")
    fill(driver, "#import-csv", "Name,Enterprise\n"
                                "Ada Lovelace,Analytical Engines\n")
    submit(driver, "#import-form")
    assert "Line 1: the first row must be the header" in form_error_text(driver)
    assert len(names(driver)) == 4
    fill(driver, "#import-csv", "First Name,Last Name,Enterprise,Delivered,Delivered At,Comments\n"
                                "Ada,Lovelace,Analytical Engines,no,,\n"
                                "Alan,Turing,Bletchley,yes,2026-11-21T10:00:00Z,\"Met at the park, said \"\"hi\"\"\"\n")
    submit(driver, "#import-form")
    assert notice_text(driver) == "Imported 2 people."
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
    assert notice_text(driver) == "Deleted Alan Turing."
    assert path_of(driver) == "/outreach", "the address is the list's, so a reload reads it again"

    Select(find(driver, "#year-select")).select_by_visible_text("2099 reprint")
    until(driver, lambda d: d.find_element(By.ID, "year-name").text == "2099 reprint", "the renamed year shows")
    wait_loaded(driver)
    open_details(driver, "#years")
    find(driver, "#delete-year-link").click()
    wait_loaded(driver)
    assert "4 people will be deleted" in find(driver, "#confirm-consequence").text
    shot(driver, "outreach-confirm-year-deletion")
    submit(driver, "#confirm-form", "#confirm-button")
    assert find(driver, "#year-name").text == year
    assert notice_text(driver) == "Deleted the year 2099 reprint and its 4 people."
    assert not driver.find_elements(By.ID, "year-select"), "one year again: no selector"
    # The last year can't be deleted: no button offers it, and its address says why.
    open_details(driver, "#years")
    assert not driver.find_elements(By.ID, "delete-year-link")
    open_page(driver, server, f"/outreach/years/{find(driver, '#outreach').get_attribute('data-year')}/delete")
    assert "last year can't be deleted" in find(driver, "#confirm-refusal").text

    # Offline: a click is kept on this device and saved when the connection is back (the page's
    # `online` event, or the service worker's Background Sync, which this page-only emulation does
    # not hold back). test_offline.py stops the server itself and sees each change wait.
    open_page(driver, server, "/outreach")
    wait_status(driver, "live")
    was_delivered = in_row(driver, "Lovelace, Ada", ".deliver-box", lambda e: e.is_selected())
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions",
                           {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    in_row(driver, "Lovelace, Ada", ".deliver-box", lambda e: e.click())
    wait_text(driver, "#sync-status", "kept on this device")
    assert in_row(driver, "Lovelace, Ada", ".deliver-box", lambda e: e.is_selected()) != was_delivered
    shot(driver, "outreach-offline")
    driver.execute_cdp_cmd("Network.emulateNetworkConditions",
                           {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    until(driver, lambda d: "Waiting to be sent" not in row(d, "Lovelace, Ada").text, "the tick is sent", LIVE_WAIT)
    open_page(driver, server, "/outreach")
    assert in_row(driver, "Lovelace, Ada", ".deliver-box", lambda e: e.is_selected()) != was_delivered

    assert unlabeled_inputs(driver) == []
    assert browser_problems(driver) == []


def test_outreach_asks_before_a_second_person_of_the_same_name_and_every_column_reads(server, driver, shot):
    sign_up(driver, server, fresh_email("duplicate"), PASSWORD)
    open_page(driver, server, "/outreach")
    year = find(driver, "#year-name").text
    open_details(driver, "#years")
    assert not driver.find_elements(By.ID, "delete-year-link"), "the only year is not offered for deletion"

    comment = ("Prefers email, never a call before noon; ask about the new brochure, the spring catalogue "
               "and the conference in May, and bring the signed copy.")
    add_person(driver, "Grace", "Hopper", "US Navy", comments=comment)
    assert notice_text(driver) == f"Added Grace Hopper to {year}."

    # At desktop width every heading reads whole, and a long comment ends in "…" with the whole of
    # it on hover and on the person's page.
    for heading in driver.find_elements(By.CSS_SELECTOR, "#people-table th"):
        fits = driver.execute_script("return arguments[0].scrollWidth <= arguments[0].clientWidth", heading)
        assert fits, f"the heading {heading.text!r} is cut"
        assert driver.execute_script("return getComputedStyle(arguments[0]).whiteSpace", heading) == "nowrap"
    link = row(driver, "Hopper, Grace").find_element(By.CSS_SELECTOR, ".comment-indicator")
    assert driver.execute_script("return getComputedStyle(arguments[0]).textOverflow", link) == "ellipsis"
    assert driver.execute_script("return arguments[0].scrollWidth > arguments[0].clientWidth", link), "longer than the cell"
    assert link.get_attribute("title") == comment
    shot(driver, "outreach-long-comment")

    # The same name and enterprise in the same year: asked first; "Don't add" adds nothing.
    add_person(driver, " grace ", "HOPPER", "us navy")
    question = visible(driver, "#duplicate-question").text
    assert question == f"Grace Hopper of US Navy is already in {year}. Add another person with the same name and enterprise?"
    assert find(driver, "#firstName").get_attribute("value") == " grace ", "what was typed is kept"
    shot(driver, "outreach-duplicate")
    find(driver, "#duplicate-cancel").click()
    wait_loaded(driver)
    assert names(driver) == ["Hopper, Grace"]
    add_person(driver, "Grace", "Hopper", "US Navy")
    submit(driver, "#duplicate-form", "#duplicate-add")
    assert names(driver) == ["Hopper, Grace", "Hopper, Grace"]
    assert notice_text(driver) == f"Added Grace Hopper to {year}."
    # Another enterprise is another person: no question.
    add_person(driver, "Grace", "Hopper", "Harvard")
    assert not driver.find_elements(By.ID, "duplicate") and len(names(driver)) == 3

    # A refused edit on the person's page: in words, next to the field.
    commented = next(element for element in driver.find_elements(By.CSS_SELECTOR, "#people-table tr.person")
                     if element.find_elements(By.CSS_SELECTOR, ".comment-indicator"))
    commented.find_element(By.CSS_SELECTOR, ".person-name a").click()
    wait_loaded(driver)
    assert comment in find(driver, "#full-comments").text
    fill(driver, "#firstName", " ")
    driver.execute_script("document.getElementById('firstName').removeAttribute('required')")
    submit(driver, "#edit-person-form")
    assert visible(driver, "#firstName-error").text == "Enter a first name."
    assert find(driver, "#firstName").get_attribute("aria-invalid") == "true"
    assert browser_problems(driver) == []


def test_outreach_on_a_phone(server, driver, shot):
    driver.set_window_size(390, 844)
    sign_up(driver, server, fresh_email("phone"), PASSWORD)
    open_page(driver, server, "/outreach")
    add_person(driver, "Ada", "Lovelace", "Analytical Engines", comments="Bring the notes on the Bernoulli numbers.")
    in_row(driver, "Lovelace, Ada", ".deliver-box", lambda e: e.click())
    until(driver, lambda d: progress_text(d) == "1 of 1 delivered", "one of one delivered")
    shot(driver, "outreach-phone")
    assert no_horizontal_scroll(driver), driver.execute_script(
        "return Array.from(document.querySelectorAll('body *')).filter(e => e.getBoundingClientRect().right > "
        "window.innerWidth + 1).slice(0, 5).map(e => e.tagName + '#' + e.id + '.' + e.className)")
