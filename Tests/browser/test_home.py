"""The pages every app shares, in a real browser against a real `kith serve`: the home page with
each app and where the person stands, the header marking the current page, the help page, a
404 while signed in, and times in the reader's own time zone in one style on every page."""

import datetime
import re
from zoneinfo import ZoneInfo

from selenium.webdriver.common.by import By

from pages import (WebAPI, browser_problems, fill, find, fresh_email, no_horizontal_scroll, open_page, set_color_scheme,
                   sign_out, sign_up, submit, until, wait_for_path)

PASSWORD = "correct horse battery"
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
NAV = ["nav-contacts", "nav-outreach", "nav-food", "nav-family", "nav-account"]


def moment(iso: str, zone: str) -> str:
    """An instant as every page writes it: "25 Nov 2026, 14:05" in `zone`."""
    at = datetime.datetime.fromisoformat(iso.replace("Z", "+00:00")).astimezone(ZoneInfo(zone))
    return f"{at.day} {MONTHS[at.month - 1]} {at.year}, {at:%H:%M}"


def current(driver) -> list:
    """The ids of the header's links marked as the current page."""
    return [link.get_attribute("id") for link in driver.find_elements(By.CSS_SELECTOR, "[aria-current='page']")]


def test_the_home_page_shows_each_app_and_where_you_stand(server, driver, shot):
    address = fresh_email("home")
    sign_up(driver, server, address, PASSWORD)
    wait_for_path(driver, "/")
    assert driver.title == "Home · Kith"
    assert find(driver, "h1").text == "Your apps"
    apps = [link.text for link in driver.find_elements(By.CSS_SELECTOR, ".app-card .app-link")]
    assert apps == ["Contacts", "Outreach", "Food", "Family"]
    until(driver, lambda d: d.find_element(By.ID, "contacts-summary").text == "No contacts yet: add the first one",
          "the contacts' count comes from /api")
    assert find(driver, "#outreach-summary").text == "Nobody on this year's list yet"
    assert find(driver, "#food-summary").text == "Today: 0 kcal"
    assert find(driver, "#family-summary").text == "Start a family or join one with a code"
    assert current(driver) == ["nav-home"], "at home, the brand is the current page"
    shot(driver, "home-new")

    # Where the person stands: contacts, this year's deliveries, today's calories against the goal.
    api = WebAPI(driver, server)
    api.contact("Ada", "Lovelace")
    api.contact("Grace", "Hopper")
    open_page(driver, server, "/outreach")
    year = find(driver, "#year-name").text
    for first, last in (("Émile", "Zola"), ("Claude", "Bernard")):
        fill(driver, "#firstName", first)
        fill(driver, "#lastName", last)
        fill(driver, "#enterpriseName", "Paris")
        submit(driver, "#add-person-form")
    driver.find_elements(By.CSS_SELECTOR, ".deliver-box")[0].click()
    until(driver, lambda d: d.find_element(By.ID, "progress-text").text == "1 of 2 delivered", "delivered")
    open_page(driver, server, "/food")
    fill(driver, "#goal-calories-input", "2000")
    submit(driver, "#goal-form")
    if find(driver, "#by-hand").get_attribute("open") is None:
        find(driver, "#by-hand summary").click()
    fill(driver, "#food-name", "Porridge")
    fill(driver, "#food-calories", "500")
    submit(driver, "#add-item-form")

    find(driver, ".brand").click()
    wait_for_path(driver, "/")
    assert current(driver) == ["nav-home"], "the brand leads home"
    until(driver, lambda d: d.find_element(By.ID, "contacts-summary").text == "2 contacts", "2 contacts")
    assert find(driver, "#outreach-summary").text == f"{year}: 1 of 2 delivered"
    progress = find(driver, "#outreach-progress")
    assert (progress.get_attribute("value"), progress.get_attribute("max")) == ("1", "2")
    assert find(driver, "#food-summary").text == "Today: 500 of 2,000 kcal"
    assert find(driver, "#food-progress").get_attribute("value") == "500"
    shot(driver, "home")

    # Each app's page marks its link in the header, and only that one.
    for path, link in (("/contacts", "nav-contacts"), ("/outreach", "nav-outreach"), ("/food", "nav-food"),
                       ("/family", "nav-family"), ("/account", "nav-account"), ("/contacts/new", "nav-contacts")):
        open_page(driver, server, path)
        assert current(driver) == [link], f"{path}: {current(driver)}"
    find(driver, "#nav-contacts").click()
    wait_for_path(driver, "/contacts")

    # On a phone, in dark mode.
    driver.set_window_size(390, 844)
    set_color_scheme(driver, "dark")
    open_page(driver, server, "/")
    until(driver, lambda d: d.find_element(By.ID, "contacts-summary").text == "2 contacts", "the phone's home")
    assert no_horizontal_scroll(driver)
    shot(driver, "home-phone-dark")
    assert browser_problems(driver) == []


def test_help_and_a_page_that_does_not_exist(server, driver, shot):
    # Signed out: the help page is there too, and an unknown address is "Page not found".
    open_page(driver, server, "/help")
    assert driver.title == "Help · Kith"
    text = find(driver, "main").text
    for app in ("Contacts", "Outreach", "Food", "Family"):
        assert app in text
    assert find(driver, "#help-server-url").text == server.base_url
    assert find(driver, "#help-api-url").text == server.base_url + "/api"
    assert f"kith --server {server.base_url} account login" in find(driver, "#help-cli-example").text
    open_page(driver, server, "/no/such/page")
    assert driver.title == "Page not found · Kith"
    assert find(driver, "h1").text == "Page not found"
    assert find(driver, "a.nav-link[href='/signin']")

    # Signed in, the header stays signed in, and the footer leads to help.
    address = fresh_email("help")
    sign_up(driver, server, address, PASSWORD)
    open_page(driver, server, "/no/such/page")
    assert driver.title == "Page not found · Kith"
    assert find(driver, "h1").text == "Page not found"
    assert "Something went wrong" not in find(driver, "main").text
    assert address in find(driver, "#nav-email").text
    assert find(driver, "#signout-form")
    shot(driver, "not-found-signed-in")
    find(driver, "#help-link").click()
    wait_for_path(driver, "/help")
    assert find(driver, "#help-link").get_attribute("aria-current") == "page"
    shot(driver, "help")
    set_color_scheme(driver, "dark")
    driver.set_window_size(390, 844)
    assert no_horizontal_scroll(driver)
    shot(driver, "help-phone-dark")
    sign_out(driver)
    assert browser_problems(driver) == []


def test_times_are_the_readers_in_one_style(server, driver, shot):
    zone = "Pacific/Auckland"
    driver.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": zone})
    sign_up(driver, server, fresh_email("times"), PASSWORD)

    # The account page: when the account and a token were made, in the reader's zone (was GMT).
    open_page(driver, server, "/account")
    fill(driver, "#token-name", "laptop")
    submit(driver, "#token-form")
    times = driver.find_elements(By.CSS_SELECTOR, "main time[datetime]")
    assert len(times) >= 2
    for element in times:
        assert element.text == moment(element.get_attribute("datetime"), zone), element.text
        assert "GMT" not in element.text and "UTC" not in element.text

    # Outreach: when a person was delivered, the same way.
    open_page(driver, server, "/outreach")
    fill(driver, "#firstName", "Ada")
    fill(driver, "#lastName", "Lovelace")
    fill(driver, "#enterpriseName", "Analytical")
    submit(driver, "#add-person-form")
    find(driver, ".deliver-box").click()
    until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".delivered-at time"), "the delivery time shows")
    # The page redraws its rows when the delivery comes back over the live socket: read the time
    # afresh each look, so a redraw between finding it and reading it is not a failure.
    def delivered_in_zone(d):
        delivered = d.find_element(By.CSS_SELECTOR, ".delivered-at time")
        return delivered.text if delivered.text == moment(delivered.get_attribute("datetime"), zone) else None
    shown = until(driver, delivered_in_zone, "in the reader's zone")
    assert re.fullmatch(r"\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}", shown)
    # The server writes it so itself once the browser told it the zone (kith_tz).
    open_page(driver, server, "/outreach")
    served = driver.execute_script(
        "return fetch(location.href).then(r => r.text())"
        ".then(t => new DOMParser().parseFromString(t, 'text/html').querySelector('.delivered-at time').textContent)")
    assert served == find(driver, ".delivered-at time").text

    # Contacts: the full date behind "2 days ago" in the same style.
    api = WebAPI(driver, server)
    ada = api.contact("Ada", "Lovelace")
    note = api.data("POST", "/api/notes", {"contact_id": ada, "body": "Met at the Society."})
    open_page(driver, server, f"/contacts/{ada}")
    until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#note-list time"), "the note loads")
    when = find(driver, "#note-list time")
    assert when.get_attribute("title") == moment(note["created_at"], zone)
    shot(driver, "times-in-the-readers-zone")
    assert browser_problems(driver) == []
