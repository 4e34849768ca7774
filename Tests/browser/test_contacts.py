"""The Contacts pages (seeds 004 and 001) in a real browser against a real `kith serve`: the list
with Load more and search, a contact's details, and its addresses. The pages call the server's
Monica-compatible /api with the session cookie; the tests fill the account through the same door
(WebAPI), and check what a person sees."""

import datetime
import math
import random
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from tile_server import ATTRIBUTION
from pages import (browser_problems, click_when_still, fill, find, fresh_email, interactable, no_horizontal_scroll,
                   open_page, path_of, set_color_scheme, set_value, submit, texts, unlabeled_inputs, until, visible,
                   wait_for_path, wait_loaded, WebAPI)

PASSWORD = "correct horse battery"
FIRST_NAMES = ["Ada", "Bea", "Cal", "Dee", "Eli", "Fay"]
LAST_NAMES = ["Archer", "Brook", "Carter", "Dale", "Ellis", "Frost", "Grant", "Hale", "Irwin", "Keane"]


def sign_up(driver, server):
    open_page(driver, server, "/signup")
    fill(driver, "#email", fresh_email("contacts"))
    fill(driver, "#password", PASSWORD)
    submit(driver, "#signup-form")
    return WebAPI(driver, server)


def day(offset: int) -> str:
    return (datetime.date.today() + datetime.timedelta(days=offset)).isoformat()


def contact_names(driver):
    return texts(driver, "#contact-list .contact-name")


def status_text(driver, css="#contacts-status"):
    return driver.find_element(By.CSS_SELECTOR, css).text


def fake_fetch(driver, status):
    """Every /api answer is `status` from now on (what a failing server or the rate limit would answer);
    real_fetch puts the network back."""
    driver.execute_script(
        "window.__realFetch = window.__realFetch || window.fetch;"
        "window.fetch = () => Promise.resolve(new Response('{\"message\":\"x\"}', {status: arguments[0]}));", status)


def real_fetch(driver):
    driver.execute_script("window.fetch = window.__realFetch;")


def fake_offline(driver):
    """Every /api call fails as fetch does without a connection (a TypeError); real_fetch puts the
    network back. Not DevTools' offline emulation: it holds back the page but not its service
    worker, which would answer from the network (or from what it kept) instead."""
    driver.execute_script(
        "window.__realFetch = window.__realFetch || window.fetch;"
        "window.fetch = () => Promise.reject(new TypeError('Failed to fetch'));")


def search_for(driver, text):
    field = find(driver, "#contact-search")
    field.clear()
    field.send_keys(text)


def test_the_list_loads_more_and_searches_as_you_type(server, driver, shot):
    api = sign_up(driver, server)
    open_page(driver, server, "/contacts")
    assert find(driver, "#nav-contacts").get_attribute("href").endswith("/contacts")
    assert find(driver, "#nav-contacts").get_attribute("aria-current") == "page"
    # Nothing yet: how to add the first, here or with a Monica app (this server's address, a token).
    until(driver, lambda d: d.find_element(By.ID, "contacts-welcome").is_displayed(), "the empty state shows")
    welcome = find(driver, "#contacts-welcome").text
    assert welcome.startswith("No contacts yet. Add your first one here, or connect a Monica app")
    assert find(driver, "#monica-server-url").text == server.base_url
    assert server.base_url + "/api" in welcome
    assert find(driver, "#token-link").get_attribute("href").endswith("/account#tokens")
    assert find(driver, "#add-first-contact").get_attribute("href").endswith("/contacts/new")
    assert not find(driver, "#contacts-empty").is_displayed()
    shot(driver, "contacts-empty")

    # 58 others, plus the two the search must find.
    names = [(first, last) for last in LAST_NAMES for first in FIRST_NAMES][:58]
    for first, last in names:
        api.contact(first, last)
    john = api.contact("John", "Appleseed", nickname="Johnny")
    api.contact("Jonathan", "Harker")
    api.data("POST", "/api/activities", {"summary": "Coffee", "happened_at": day(-2), "contacts": [john]})

    open_page(driver, server, "/contacts")
    until(driver, lambda d: len(contact_names(d)) == 50, "the first page shows 50 contacts")
    assert find(driver, "#contacts-count").text == "60 contacts"
    # By first name unless chosen otherwise (ties by last name).
    assert Select(find(driver, "#contact-sort")).first_selected_option.text == "First name"
    assert contact_names(driver)[:3] == ["Ada Archer", "Ada Brook", "Ada Carter"]
    more = visible(driver, "#load-more")
    shot(driver, "contacts-first-page")
    more.click()
    until(driver, lambda d: len(contact_names(d)) == 60, "Load more shows the other 10")
    assert not find(driver, "#load-more").is_displayed(), "nothing more to load"
    assert len(set(contact_names(driver))) == 60, "no contact twice"

    # A row: the name, the nickname, the last interaction.
    row = next(element for element in driver.find_elements(By.CSS_SELECTOR, "#contact-list .contact-row")
               if element.find_element(By.CSS_SELECTOR, ".contact-name").text == "John Appleseed")
    assert row.find_element(By.CSS_SELECTOR, ".contact-nickname").text == "Johnny"
    when = row.find_element(By.CSS_SELECTOR, ".contact-last time")
    assert when.text == "2 days ago"
    assert when.get_attribute("title"), "the full date is in the title"

    # By last name, newest first, oldest first; the choice is kept for the next visit.
    Select(find(driver, "#contact-sort")).select_by_visible_text("Last name")
    until(driver, lambda d: contact_names(d)[:3] == ["John Appleseed", "Ada Archer", "Bea Archer"],
          f"by last name, not {contact_names(driver)[:3]}")
    shot(driver, "contacts-by-last-name")
    Select(find(driver, "#contact-sort")).select_by_visible_text("Newest first")
    until(driver, lambda d: contact_names(d)[:2] == ["Jonathan Harker", "John Appleseed"], "newest first")
    Select(find(driver, "#contact-sort")).select_by_visible_text("Oldest first")
    until(driver, lambda d: contact_names(d)[:2] == ["Ada Archer", "Bea Archer"], "oldest first")
    Select(find(driver, "#contact-sort")).select_by_visible_text("Last name")
    until(driver, lambda d: contact_names(d)[0] == "John Appleseed", "by last name again")
    open_page(driver, server, "/contacts")
    until(driver, lambda d: contact_names(d)[:2] == ["John Appleseed", "Ada Archer"], "the choice is remembered")
    assert Select(find(driver, "#contact-sort")).first_selected_option.text == "Last name"
    Select(find(driver, "#contact-sort")).select_by_visible_text("First name")
    until(driver, lambda d: contact_names(d)[0] == "Ada Archer", "by first name again")

    # Search as you type: "Jon" finds John and Jonathan (the server's fuzzy search).
    search_for(driver, "Jon")
    until(driver, lambda d: set(contact_names(d)) == {"John Appleseed", "Jonathan Harker"},
          f"Jon finds John and Jonathan, not {contact_names(driver)}")
    assert "2 contacts found" == find(driver, "#contacts-count").text
    assert not find(driver, "#load-more").is_displayed()
    shot(driver, "contacts-search")

    search_for(driver, "zzzz")
    until(driver, lambda d: d.find_element(By.ID, "contacts-empty").is_displayed(), "no match says so")
    assert find(driver, "#contacts-empty").text.startswith("No contacts found")
    assert contact_names(driver) == []

    find(driver, "#search-clear").click()
    until(driver, lambda d: len(contact_names(d)) == 50, "clearing brings the full list back")
    assert find(driver, "#contact-search").get_attribute("value") == ""
    assert not find(driver, "#search-clear").is_displayed()
    assert find(driver, "#contacts-count").text == "60 contacts"

    # A full name finds that person: the page sends query=Marie+Curie, and `+` is a space.
    curie = api.contact("Marie", "Curie")
    api.contact("Pierre", "Curie")
    api.contact("Marie", "Antoinette")
    driver.execute_script(
        "window.__asked = []; window.__unwatched = window.fetch;"
        "window.fetch = (url, options) => { window.__asked.push(String(url)); return window.__unwatched(url, options); };")
    search_for(driver, "Marie Curie")
    until(driver, lambda d: contact_names(d) == ["Marie Curie"], f"Marie Curie alone, not {contact_names(driver)}")
    assert find(driver, "#contacts-count").text == "1 contact found"
    assert any("query=Marie+Curie" in url for url in driver.execute_script("return window.__asked")), \
        driver.execute_script("return window.__asked")
    driver.execute_script("window.fetch = window.__unwatched")
    assert find(driver, f"#contact-list a[href='/contacts/{curie}']")
    shot(driver, "contacts-full-name")

    # Opening a contact and coming back keeps the search and the list.
    search_for(driver, "Jon")
    until(driver, lambda d: set(contact_names(d)) == {"John Appleseed", "Jonathan Harker"}, "the search again")
    driver.find_element(By.XPATH, "//a[.//span[@class='contact-name' and text()='Jonathan Harker']]").click()
    until(driver, lambda d: d.find_element(By.ID, "contact-name").text == "Jonathan Harker", "the contact opens")
    driver.back()
    wait_loaded(driver)
    until(driver, lambda d: set(contact_names(d)) == {"John Appleseed", "Jonathan Harker"}, "back to the search")
    assert find(driver, "#contact-search").get_attribute("value") == "Jon"

    # Errors, with the seed's words.
    fake_offline(driver)
    search_for(driver, "Ada")
    until(driver, lambda d: "Cannot connect. Check your internet and try again." in status_text(d), "offline says so")
    retry = find(driver, "#contacts-status .retry")
    shot(driver, "contacts-offline")
    real_fetch(driver)
    retry.click()
    until(driver, lambda d: "Ada Archer" in contact_names(d), "Retry loads the search once back online")

    fake_fetch(driver, 500)
    search_for(driver, "Bea")
    until(driver, lambda d: "Monica is having trouble. Please try again." in status_text(d), "a 5xx says so")
    real_fetch(driver)
    find(driver, "#contacts-status .retry").click()
    until(driver, lambda d: "Bea Archer" in contact_names(d), "Retry after a server error")

    fake_fetch(driver, 429)
    search_for(driver, "Cal")
    until(driver, lambda d: "Too many requests. Please wait a moment." in status_text(d), "a 429 says so")
    real_fetch(driver)

    driver.delete_cookie("kith_session")
    search_for(driver, "Dee")
    until(driver, lambda d: "Your session expired. Please log in again." in status_text(d), "a 401 says so")
    find(driver, "#contacts-status a[href^='/signin?next=%2Fcontacts']").click()
    wait_for_path(driver, "/signin")
    assert "Sign in again to go back to the page you were on." in find(driver, "#notice").text

    assert browser_problems(driver) == []


def seed_contact_details(api):
    """Ada with a bit of everything; Charles her friend; Mary with nothing."""
    woman = next(gender["id"] for gender in api.data("GET", "/api/genders?limit=100") if gender["name"] == "Woman")
    ada = api.contact("Ada", "Lovelace", nickname="Countess", gender_id=woman,
                      description="Wrote the first program.", is_birthdate_known=True,
                      birthdate_day=10, birthdate_month=12, birthdate_year=1815)
    api.data("PUT", f"/api/contacts/{ada}/work", {"job": "Mathematician", "company": "Analytical Society"})
    charles = api.contact("Charles", "Babbage")
    mary = api.contact("Mary", "Somerville")

    types = {field_type["type"]: field_type["id"] for field_type in api.data("GET", "/api/contactfieldtypes?limit=100")
             if field_type["type"]}
    twitter = next(field_type["id"] for field_type in api.data("GET", "/api/contactfieldtypes?limit=100")
                   if field_type["name"] == "Twitter")
    api.data("POST", "/api/contactfields", {"contact_id": ada, "contact_field_type_id": types["email"],
                                            "data": "ada@example.org"})
    api.data("POST", "/api/contactfields", {"contact_id": ada, "contact_field_type_id": types["phone"],
                                            "data": "+44 20 7946 0958"})
    api.data("POST", "/api/contactfields", {"contact_id": ada, "contact_field_type_id": twitter, "data": "@ada"})

    friend = next(kind["id"] for kind in api.data("GET", "/api/relationshiptypes?limit=100") if kind["name"] == "friend")
    api.data("POST", "/api/relationships", {"contact_is": ada, "of_contact": charles, "relationship_type_id": friend})

    api.data("POST", "/api/tasks", {"contact_id": ada, "title": "Send the notes"})
    done = api.data("POST", "/api/tasks", {"contact_id": ada, "title": "Translate the memoir"})
    api.data("PUT", f"/api/tasks/{done['id']}", {"contact_id": ada, "title": "Translate the memoir", "completed": True})
    api.data("POST", "/api/tasks", {"contact_id": ada, "title": "Book the engine room"})

    status, _ = api.call("POST", f"/api/contacts/{ada}/setTags", {"tags": ["mathematics", "poetry"]})
    assert status == 200

    # Twelve activities, created in a shuffled order: the page shows them by date.
    offsets = list(range(1, 13))
    random.Random(7).shuffle(offsets)
    for offset in offsets:
        api.data("POST", "/api/activities", {"summary": f"Visit {offset} days ago", "happened_at": day(-offset),
                                             "contacts": [ada, charles]})

    api.data("POST", "/api/notes", {"contact_id": ada, "body": "Loves poetical science.", "is_favorited": True})
    api.data("POST", "/api/notes", {"contact_id": ada, "body": "Ask about the Bernoulli numbers."})
    api.data("POST", "/api/gifts", {"contact_id": ada, "name": "Difference engine model", "status": "idea",
                                    "amount": 120})
    api.data("POST", "/api/reminders", {"contact_id": ada, "title": "Send a letter", "initial_date": day(3),
                                        "frequency_type": "month", "frequency_number": 1})
    return ada, charles, mary


def test_a_contacts_details(server, driver, shot):
    api = sign_up(driver, server)
    ada, charles, mary = seed_contact_details(api)

    open_page(driver, server, f"/contacts/{ada}")
    until(driver, lambda d: d.find_element(By.ID, "contact-name").text == "Ada Lovelace", "the contact loads")
    assert driver.title == "Ada Lovelace · Kith"
    assert find(driver, "#contact-nickname").text == "“Countess”"
    assert find(driver, "#contact-description").text == "Wrote the first program."
    facts = find(driver, "#contact-facts").text
    assert "Woman" in facts and "Mathematician at Analytical Society" in facts
    assert "1815" in facts and "next birthday" in facts

    # Email and phone open the mail and phone apps; other fields are text.
    assert find(driver, "#contact-info a[href^='mailto:']").get_attribute("href") == "mailto:ada@example.org"
    phone = find(driver, "#contact-info a[href^='tel:']")
    assert phone.get_attribute("href") == "tel:+442079460958" and phone.text == "+44 20 7946 0958"
    assert "@ada" in find(driver, "#contact-info").text

    # Tags as coloured badges, the same colour every time.
    until(driver, lambda d: texts(d, "#tags .tag") == ["mathematics", "poetry"], "tags show as badges")
    colours = [element.get_attribute("class") for element in driver.find_elements(By.CSS_SELECTOR, "#tags .tag")]
    assert all("hue-" in colour for colour in colours)

    # Tasks: open ones before done ones; done ones say when.
    until(driver, lambda d: len(texts(d, "#task-list .item-title")) == 3, "tasks load")
    assert texts(driver, "#task-list .item-title")[2] == "Translate the memoir"
    assert set(texts(driver, "#task-list .item-title")[:2]) == {"Send the notes", "Book the engine room"}
    assert "Done" in find(driver, "#task-list .task.is-done .item-when").text

    # Activities: newest first, ten, then the rest.
    until(driver, lambda d: len(texts(d, "#activity-list .item-title")) == 10, "ten activities first")
    assert texts(driver, "#activity-list .item-title") == [f"Visit {offset} days ago" for offset in range(1, 11)]
    assert find(driver, "#activity-list .item-head time").text == "yesterday"
    assert "with Charles Babbage" in find(driver, "#activity-list .item-meta").text
    find(driver, "#activities-more").click()
    until(driver, lambda d: len(texts(d, "#activity-list .item-title")) == 12, "Load more shows the other two")
    assert not find(driver, "#activities-more").is_displayed()

    # Notes (the favourite marked), gifts, reminders.
    until(driver, lambda d: len(texts(d, "#note-list .note")) == 2, "notes load")
    # A notice fades after a while but keeps its line, so what is below it stays under the pointer
    # (the page's own notify, its 8-second timer run at once).
    shown, faded, visibility = driver.execute_script("""
        const notice = document.getElementById('notes-notice'), below = document.getElementById('notes-body');
        const later = [], setTimeout = window.setTimeout;
        window.setTimeout = callback => later.push(callback);
        try { window.KithContacts.notify(notice, 'Added the note.'); } finally { window.setTimeout = setTimeout; }
        const shown = below.getBoundingClientRect().top;
        later.forEach(callback => callback());
        return [shown, below.getBoundingClientRect().top, getComputedStyle(notice).visibility];""")
    assert (faded, visibility) == (shown, "hidden"), f"the notes moved from {shown} to {faded} when the notice faded"
    assert "Favorite" in find(driver, "#note-list .is-favorite").text
    assert "Loves poetical science." in find(driver, "#note-list .is-favorite").text
    until(driver, lambda d: all(part in "".join(texts(d, "#gift-list .gift"))
                                for part in ["Difference engine model", "Idea", "$120.00"]), "the gift shows")
    until(driver, lambda d: all(part in "".join(texts(d, "#reminder-list .reminder"))
                                for part in ["Send a letter", "Next in 3 days", "Every month"]), "the reminder shows")
    shot(driver, "contact-details")

    # Relationships lead to the other contact.
    until(driver, lambda d: "Friend" in d.find_element(By.ID, "relationships").text, "relationships load")
    find(driver, "#relationships a.contact-ref").click()
    wait_for_path(driver, f"/contacts/{charles}")
    until(driver, lambda d: d.find_element(By.ID, "contact-name").text == "Charles Babbage", "the friend opens")
    until(driver, lambda d: "Ada Lovelace" in d.find_element(By.ID, "relationships").text, "and leads back")
    until(driver, lambda d: texts(d, "#tags-body") == ["No tags"], "Charles has no tags")

    # Nothing at all: every section says so.
    open_page(driver, server, f"/contacts/{mary}")
    until(driver, lambda d: d.find_element(By.ID, "contact-name").text == "Mary Somerville", "Mary loads")
    for section, empty in [("relationships", "No relationships"), ("tags", "No tags"), ("activities", "No activities"),
                           ("notes", "No notes"), ("tasks", "No tasks"), ("gifts", "No gifts"),
                           ("reminders", "No reminders"), ("addresses", "No addresses yet")]:
        until(driver, lambda d: d.find_element(By.ID, section + "-body").text == empty, f"{section}: {empty}")

    # Someone else's contact, or none: not found.
    open_page(driver, server, "/contacts/999999")
    until(driver, lambda d: "This contact was not found" in d.find_element(By.ID, "contact-status").text,
          "an unknown contact is not found")

    # On a phone, and in dark mode.
    driver.set_window_size(390, 844)
    open_page(driver, server, f"/contacts/{ada}")
    until(driver, lambda d: len(texts(d, "#activity-list .item-title")) == 10, "the page loads on a phone")
    assert no_horizontal_scroll(driver)
    shot(driver, "contact-details-phone")
    set_color_scheme(driver, "dark")
    shot(driver, "contact-details-phone-dark")
    open_page(driver, server, "/contacts")
    until(driver, lambda d: len(contact_names(d)) == 3, "the list on a phone")
    assert no_horizontal_scroll(driver)
    shot(driver, "contacts-phone-dark")
    assert browser_problems(driver) == []


PREVIEW_ZOOM = 15


def world_pixel(lat, lon, zoom):
    """The point's pixel on the whole Web Mercator world of 256-pixel tiles at `zoom`."""
    size = 256 * 2 ** zoom
    radians = math.radians(lat)
    return ((lon + 180) / 360 * size,
            (1 - math.log(math.tan(radians) + 1 / math.cos(radians)) / math.pi) / 2 * size)


def check_map(driver, tiles, frame, lat, lon, zoom):
    """The tile holding the point was asked of the tile server and placed so the point is at the
    frame's centre, and the pin's tip is there."""
    x, y = world_pixel(lat, lon, zoom)
    tile = (zoom, int(x // 256), int(y // 256))
    until(driver, lambda d: tile in tiles.asked(), f"the tile {tile} is asked for, not only {tiles.asked()}")
    image = frame.find_element(By.CSS_SELECTOR, "img.tile[src$='/tiles/%d/%d/%d.png']" % tile)
    until(driver, lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth === 256", image),
          "the tile loads")
    placed = driver.execute_script(
        "const f = arguments[0].getBoundingClientRect(), i = arguments[1].getBoundingClientRect(),"
        " p = arguments[0].querySelector('.tile-pin').getBoundingClientRect();"
        "return {width: f.width, height: f.height, left: i.left - f.left, top: i.top - f.top,"
        " pinX: (p.left + p.right) / 2 - f.left, pinY: p.bottom - f.top}", frame, image)
    assert abs(placed["left"] + (x - tile[1] * 256) - placed["width"] / 2) <= 1.5, placed
    assert abs(placed["top"] + (y - tile[2] * 256) - placed["height"] / 2) <= 1.5, placed
    assert abs(placed["pinX"] - placed["width"] / 2) <= 1.5, placed
    assert abs(placed["pinY"] - placed["height"] / 2) <= 2, placed


def image_origins(server, driver, path):
    """img-src of the page's content security policy, as the server sent it to this browser."""
    cookies = "; ".join(f"{cookie['name']}={cookie['value']}" for cookie in driver.get_cookies())
    request = urllib.request.Request(server.url(path), headers={"Cookie": cookies, "Accept": "text/html"})
    with urllib.request.urlopen(request, timeout=10) as response:
        policy = response.headers["Content-Security-Policy"]
    directive = next(part.strip() for part in policy.split(";") if part.strip().startswith("img-src"))
    return directive.split()[1:]


def address_cards(driver):
    return driver.find_elements(By.CSS_SELECTOR, "#address-list .address-card")


def card(driver, label):
    for element in address_cards(driver):
        if element.find_element(By.CSS_SELECTOR, ".address-label").text == label:
            return element
    raise AssertionError(f"no address labelled {label!r}")


def choose_country(driver, typed):
    field = interactable(driver, "#address-country")
    field.clear()
    field.send_keys(typed)
    until(driver, lambda d: d.find_element(By.ID, "country-options").is_displayed(), "the country list opens")
    field.send_keys(Keys.ENTER)


def fill_address(driver, **fields):
    for name, value in fields.items():
        fill(driver, "#address-" + name.replace("_", "-"), value)


def save_address(driver):
    find(driver, "#address-save").click()


def test_addresses(server, tiles, driver, shot):
    api = sign_up(driver, server)
    ada = api.contact("Ada", "Lovelace")
    open_page(driver, server, f"/contacts/{ada}")
    until(driver, lambda d: d.find_element(By.ID, "addresses-body").text == "No addresses yet", "none yet")

    # Add: the country picker filters by name; choosing the United States relabels the form.
    find(driver, "#add-address").click()
    assert visible(driver, "#address-form")
    assert find(driver, "#address-postal-code-label").text == "Postal Code"
    choose_country(driver, "kingd")
    until(driver, lambda d: d.find_element(By.ID, "address-country").get_attribute("value") == "United Kingdom",
          "typing part of a name and Enter chooses it")
    assert find(driver, "#address-postal-code-label").text == "Postcode"
    assert find(driver, "#address-province-label").text == "County"
    choose_country(driver, "us")
    until(driver, lambda d: d.find_element(By.ID, "address-country").get_attribute("value") == "United States",
          "the ISO code chooses too")
    assert find(driver, "#address-postal-code-label").text == "ZIP Code"
    assert find(driver, "#address-province-label").text == "State"
    fill_address(driver, name="Home", street="1 Main St", city="Springfield", province="IL", postal_code="62701",
                 latitude="39.7817", longitude="-89.6501")
    shot(driver, "address-form-us")
    save_address(driver)
    until(driver, lambda d: len(address_cards(d)) == 1, "the address appears")
    home = card(driver, "Home")
    assert home.find_element(By.CSS_SELECTOR, ".address-text").text == "1 Main St\nSpringfield, IL 62701\nUnited States"
    assert "Added the address “Home”" in find(driver, "#addresses-notice").text

    # A real map: the tiles around the address from the server's tile source (the stand-in), the
    # address at the centre with the pin, the tile server's credit; directions naming Ada.
    check_map(driver, tiles, home.find_element(By.CSS_SELECTOR, ".map-frame"), 39.7817, -89.6501, PREVIEW_ZOOM)
    assert home.find_element(By.CSS_SELECTOR, ".tile-attribution").text == ATTRIBUTION
    assert home.find_element(By.CSS_SELECTOR, ".map-caption").text == "39.7817, -89.6501"
    assert image_origins(server, driver, f"/contacts/{ada}") == ["'self'", "data:", f"http://127.0.0.1:{tiles.port}"]
    apple = home.find_element(By.CSS_SELECTOR, "a.directions-apple").get_attribute("href")
    osm = home.find_element(By.CSS_SELECTOR, "a.directions-osm").get_attribute("href")
    assert apple == "https://maps.apple.com/?daddr=39.7817,-89.6501&q=Ada%20Lovelace"
    assert osm == "https://www.openstreetmap.org/directions?route=%3B39.7817,-89.6501&to=Ada%20Lovelace"

    # Copy gives the formatted text; Share gives the same (an email where there is no share sheet).
    driver.execute_cdp_cmd("Browser.grantPermissions", {
        "origin": server.base_url, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
    home.find_element(By.CSS_SELECTOR, ".copy-address").click()
    until(driver, lambda d: card(d, "Home").find_element(By.CSS_SELECTOR, ".copy-address").text == "Copied",
          "Copy says it copied")
    copied = driver.execute_async_script("navigator.clipboard.readText().then(arguments[0], () => arguments[0](null))")
    assert copied == "1 Main St\nSpringfield, IL 62701\nUnited States"
    share = home.find_element(By.CSS_SELECTOR, ".share-address")
    if share.tag_name == "a":  # no share sheet (headless Chromium on Linux): an email
        assert share.get_attribute("href") == (
            "mailto:?subject=Address%20of%20Ada%20Lovelace%20(Home)"
            "&body=1%20Main%20St%0D%0ASpringfield%2C%20IL%2062701%0D%0AUnited%20States")
    else:  # the system share sheet, watched rather than opened
        driver.execute_script("navigator.share = data => { window.__shared = data; return Promise.resolve(); }")
        share.click()
        assert driver.execute_script("return window.__shared.text") == "1 Main St\nSpringfield, IL 62701\nUnited States"
    shot(driver, "addresses-one")

    # A tap shows the map full screen (a zoom closer); Escape or another tap closes it.
    tiles.clear()
    home.find_element(By.CSS_SELECTOR, ".address-map").click()
    dialog = visible(driver, "#map-dialog")
    assert driver.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return r.width === innerWidth && r.height === innerHeight", dialog)
    check_map(driver, tiles, find(driver, "#map-dialog-frame"), 39.7817, -89.6501, PREVIEW_ZOOM + 1)
    shot(driver, "address-map-full-screen", full_page=False)
    driver.switch_to.active_element.send_keys(Keys.ESCAPE)
    until(driver, lambda d: not d.find_element(By.ID, "map-dialog").is_displayed(), "Escape closes the map")
    card(driver, "Home").find_element(By.CSS_SELECTOR, ".address-map").click()
    visible(driver, "#map-dialog").click()
    until(driver, lambda d: not d.find_element(By.ID, "map-dialog").is_displayed(), "a tap closes the map")

    # No tile can be had (the tile server stopped, as offline): "Map unavailable" with the directions.
    tiles.stop()
    try:
        open_page(driver, server, f"/contacts/{ada}")
        until(driver, lambda d: "Map unavailable" in card(d, "Home").find_element(By.CSS_SELECTOR, ".map-unavailable").text,
              "the placeholder shows when no tile loads")
        placeholder = card(driver, "Home").find_element(By.CSS_SELECTOR, ".map-unavailable")
        assert "The map could not be loaded: you may be offline" in placeholder.text
        assert placeholder.find_element(By.CSS_SELECTOR, "a.directions-osm").get_attribute("href") == osm
        assert placeholder.find_element(By.CSS_SELECTOR, "a.directions-apple").get_attribute("href") == apple
        assert not card(driver, "Home").find_elements(By.CSS_SELECTOR, "img.tile"), "no fake map"
        shot(driver, "address-map-unavailable")
    finally:
        tiles.start()
    open_page(driver, server, f"/contacts/{ada}")
    until(driver, lambda d: len(address_cards(d)) == 1, "the address again")
    home = card(driver, "Home")

    # Edit: the form comes pre-filled; the change shows. Edit reads the address as it is now, so
    # the form opens when that answer arrives.
    home.find_element(By.CSS_SELECTOR, ".edit-address").click()
    assert visible(driver, "#address-form-title").text == "Edit the address “Home”"
    assert find(driver, "#address-street").get_attribute("value") == "1 Main St"
    until(driver, lambda d: d.find_element(By.ID, "address-country").get_attribute("value") == "United States",
          "the country is pre-filled")
    assert find(driver, "#address-postal-code-label").text == "ZIP Code"
    assert find(driver, "#address-latitude").get_attribute("value") == "39.7817"
    fill_address(driver, city="Chicago", postal_code="60601")
    save_address(driver)
    until(driver, lambda d: card(d, "Home").find_element(By.CSS_SELECTOR, ".address-text").text ==
          "1 Main St\nChicago, IL 60601\nUnited States", "the edit shows")

    # Another address, without coordinates: no map, and lines in the British order.
    find(driver, "#add-address").click()
    fill_address(driver, name="Work", street="10 Downing Street", city="London", postal_code="SW1A 2AA")
    choose_country(driver, "gb")
    save_address(driver)
    until(driver, lambda d: len(address_cards(d)) == 2, "the second address appears")
    work = card(driver, "Work")
    assert work.find_element(By.CSS_SELECTOR, ".address-text").text == \
        "10 Downing Street\nLondon\nSW1A 2AA\nUnited Kingdom"
    assert not work.find_elements(By.CSS_SELECTOR, ".map-preview"), "no coordinates, no map"

    # Bad input is refused with the API's message, and changes nothing.
    find(driver, "#add-address").click()
    save_address(driver)
    until(driver, lambda d: "The address is empty" in d.find_element(By.ID, "address-form-error").text,
          "an empty address is refused")
    shot(driver, "address-form-empty")
    fill_address(driver, city="Paris", latitude="north")
    save_address(driver)
    until(driver, lambda d: "The latitude must be a number." in d.find_element(By.ID, "address-form-error").text,
          "a latitude that is not a number is refused")
    fill_address(driver, latitude="")
    choose_country(driver, "Atlantis")
    find(driver, "#address-city").click()
    save_address(driver)
    until(driver, lambda d: "Choose the country from the list" in d.find_element(By.ID, "address-form-error").text,
          "an unknown country is refused")
    shot(driver, "address-form-unknown-country")
    # Once the country is fixed, Save saves (it stayed disabled).
    choose_country(driver, "France")
    assert find(driver, "#address-save").is_enabled()
    save_address(driver)
    until(driver, lambda d: len(address_cards(d)) == 3, "the fixed address is saved")
    assert card(driver, "Address").find_element(By.CSS_SELECTOR, ".address-text").text == "Paris\nFrance"
    card(driver, "Address").find_element(By.CSS_SELECTOR, ".delete-address").click()
    visible(driver, "#confirm-delete").click()
    until(driver, lambda d: len(address_cards(d)) == 2, "and deleted again")

    # Delete asks first; Cancel keeps it.
    card(driver, "Work").find_element(By.CSS_SELECTOR, ".delete-address").click()
    dialog = visible(driver, "#confirm-dialog")
    assert "Delete the address “Work”?" in dialog.text
    shot(driver, "address-delete-confirm")
    find(driver, "#confirm-cancel").click()
    assert not find(driver, "#confirm-dialog").is_displayed()
    assert len(address_cards(driver)) == 2
    card(driver, "Work").find_element(By.CSS_SELECTOR, ".delete-address").click()
    visible(driver, "#confirm-delete").click()
    until(driver, lambda d: len(address_cards(d)) == 1, "the address is deleted")
    assert "Deleted the address “Work”" in find(driver, "#addresses-notice").text
    status, remaining = api.call("GET", f"/api/contacts/{ada}/addresses")
    assert status == 200 and [address["name"] for address in remaining["data"]] == ["Home"]

    # On a phone, in dark mode.
    driver.set_window_size(390, 844)
    set_color_scheme(driver, "dark")
    open_page(driver, server, f"/contacts/{ada}")
    until(driver, lambda d: len(address_cards(d)) == 1, "the address on a phone")
    assert no_horizontal_scroll(driver)
    find(driver, "#add-address").click()
    assert unlabeled_inputs(driver) == []
    shot(driver, "address-form-phone-dark")
    find(driver, "#address-cancel").click()

    card(driver, "Home").find_element(By.CSS_SELECTOR, ".delete-address").click()
    visible(driver, "#confirm-delete")
    shot(driver, "address-delete-phone-dark")
    find(driver, "#confirm-delete").click()
    until(driver, lambda d: d.find_element(By.ID, "addresses-body").text == "No addresses yet", "none left")
    assert path_of(driver) == f"/contacts/{ada}"
    assert browser_problems(driver) == []


def test_maps_turned_off(server_without_maps, driver, shot):
    api = sign_up(driver, server_without_maps)
    ada = api.contact("Ada", "Lovelace")
    api.data("POST", "/api/addresses", {"contact_id": ada, "name": "Home", "city": "London", "country": "GB",
                                        "latitude": 51.5033, "longitude": -0.1276})
    open_page(driver, server_without_maps, f"/contacts/{ada}")
    until(driver, lambda d: len(address_cards(d)) == 1, "the address loads")
    placeholder = card(driver, "Home").find_element(By.CSS_SELECTOR, ".map-unavailable")
    assert placeholder.text.startswith("Map unavailable\nMaps are turned off on this server.")
    assert placeholder.find_element(By.CSS_SELECTOR, "a.directions-osm").get_attribute("href") == \
        "https://www.openstreetmap.org/directions?route=%3B51.5033,-0.1276&to=Ada%20Lovelace"
    assert not driver.find_elements(By.CSS_SELECTOR, "img.tile")
    assert image_origins(server_without_maps, driver, f"/contacts/{ada}") == ["'self'", "data:"], \
        "no other image origin is allowed"
    shot(driver, "address-maps-off")
    assert browser_problems(driver) == []


# ---- Adding, editing and deleting ----------------------------------------------------------------

def section_items(driver, section, css):
    return texts(driver, f"#{section}-body {css}")


def notice(driver, section):
    return find(driver, f"#{section}-notice").text


def add(driver, section):
    find(driver, f"#{section}-add").click()
    return visible(driver, f"#{section}-form")


def save(driver, section):
    find(driver, f"#{section}-form .item-save").click()


def item(driver, section, text):
    """The item of `section` whose text contains `text`."""
    for element in driver.find_elements(By.CSS_SELECTOR, f"#{section}-body [data-id], #{section}-body .tag-item"):
        if text in element.text:
            return element
    raise AssertionError(f"nothing with {text!r} in {section}")


def edit(driver, section, text):
    item(driver, section, text).find_element(By.CSS_SELECTOR, ".edit-item").click()
    return visible(driver, f"#{section}-form")


def delete(driver, section, text, confirm=True):
    item(driver, section, text).find_element(By.CSS_SELECTOR, ".delete-item").click()
    visible(driver, "#confirm-dialog")
    find(driver, "#confirm-delete" if confirm else "#confirm-cancel").click()
    until(driver, lambda d: not d.find_element(By.ID, "confirm-dialog").is_displayed(), "the dialog closes")


def field_error(driver, section, field):
    """The refusal shown next to a field of a section's form, with the field marked."""
    until(driver, lambda d: d.find_element(By.ID, f"{section}-field-{field}-error").is_displayed(),
          f"a refusal of {field} shows")
    control = find(driver, f"#{section}-field-{field}")
    assert control.get_attribute("aria-invalid") == "true"
    return find(driver, f"#{section}-field-{field}-error").text


def test_a_contact_is_added_edited_and_deleted(server, driver, shot):
    api = sign_up(driver, server)
    open_page(driver, server, "/contacts")
    until(driver, lambda d: d.find_element(By.ID, "contacts-welcome").is_displayed(), "no contacts yet")
    find(driver, "#add-first-contact").click()
    wait_for_path(driver, "/contacts/new")
    visible(driver, "#contact-form")
    assert driver.title == "Add a contact · Kith"

    # Refused by the API, with its words next to the field; nothing is created.
    find(driver, "#contact-save").click()
    until(driver, lambda d: d.find_element(By.ID, "contact-first-name-error").is_displayed(), "a first name is needed")
    assert find(driver, "#contact-first-name-error").text == "The first name field is required."
    assert find(driver, "#contact-first-name").get_attribute("aria-invalid") == "true"
    assert api.call("GET", "/api/contacts")[1]["meta"]["total"] == 0
    shot(driver, "contact-form-refused")

    # A birthday without a year, remembered every year.
    fill(driver, "#contact-first-name", "Marie")
    fill(driver, "#contact-last-name", "Curie")
    fill(driver, "#contact-nickname", "Manya")
    Select(find(driver, "#contact-gender")).select_by_visible_text("Woman")
    find(driver, "#birthday-date").click()
    fill(driver, "#birthday-day", "7")
    Select(find(driver, "#birthday-month")).select_by_visible_text("November")
    find(driver, "#birthday-reminder").click()
    shot(driver, "contact-form-new")
    find(driver, "#contact-save").click()
    until(driver, lambda d: path_of(d).startswith("/contacts/") and path_of(d) != "/contacts/new", "the contact opens")
    marie = int(path_of(driver).rsplit("/", 1)[1])
    until(driver, lambda d: d.find_element(By.ID, "contact-name").text == "Marie Curie", "Marie loads")
    assert find(driver, "#contact-notice").text == "Added Marie Curie."
    facts = find(driver, "#contact-facts").text
    assert "Woman" in facts and "7 Nov · next birthday" in facts, facts
    assert find(driver, "#contact-nickname").text == "“Manya”"
    until(driver, lambda d: "Wish happy birthday to Marie" in d.find_element(By.ID, "reminders-body").text,
          "the birthday's reminder")
    birthday = item(driver, "reminders", "Wish happy birthday to Marie")
    assert not birthday.find_elements(By.CSS_SELECTOR, ".edit-item"), "kept by the contact's birthday"
    assert "edit the contact to change it" in birthday.text

    # Edit: the form shows the contact; an age instead of a date; the reminder goes with the date.
    find(driver, "#edit-contact").click()
    wait_for_path(driver, f"/contacts/{marie}/edit")
    until(driver, lambda d: d.find_element(By.ID, "contact-first-name").get_attribute("value") == "Marie", "pre-filled")
    assert find(driver, "#birthday-date").is_selected()
    assert find(driver, "#birthday-day").get_attribute("value") == "7"
    assert Select(find(driver, "#birthday-month")).first_selected_option.text == "November"
    assert find(driver, "#birthday-year").get_attribute("value") == ""
    assert find(driver, "#birthday-reminder").is_selected()
    assert Select(find(driver, "#contact-gender")).first_selected_option.text == "Woman"
    find(driver, "#birthday-age").click()
    fill(driver, "#birthday-age-years", "66")
    fill(driver, "#contact-first-name", "Maria")
    find(driver, "#contact-save").click()
    until(driver, lambda d: d.find_element(By.ID, "contact-name").text == "Maria Curie", "the change shows")
    assert find(driver, "#contact-notice").text == "Saved Maria Curie."
    born = datetime.date.today().year - 66
    assert f"Born around {born}" in find(driver, "#contact-facts").text
    until(driver, lambda d: d.find_element(By.ID, "reminders-body").text == "No reminders", "no date, no reminder")

    # Deceased, with the date.
    find(driver, "#edit-contact").click()
    until(driver, lambda d: d.find_element(By.ID, "birthday-age").is_selected(), "the age is kept")
    assert find(driver, "#birthday-age-years").get_attribute("value") == "66"
    find(driver, "#contact-deceased").click()
    set_value(driver, "#deceased-date", "1934-07-04")
    find(driver, "#contact-save").click()
    until(driver, lambda d: "Deceased4 Jul 1934" in d.find_element(By.ID, "contact-facts").get_attribute("textContent"),
          "deceased shows, with the date")
    assert find(driver, "#contact-notice").text == "Saved Maria Curie."
    assert find(driver, "#contact-name").text == "Maria Curie ⚰", "Monica's mark, as its apps show it"
    shot(driver, "contact-edited")

    # Delete asks first; Cancel keeps her.
    find(driver, "#delete-contact").click()
    assert "Delete Maria Curie?" in visible(driver, "#confirm-dialog").text
    shot(driver, "contact-delete-confirm")
    find(driver, "#confirm-cancel").click()
    assert api.call("GET", f"/api/contacts/{marie}")[0] == 200
    find(driver, "#delete-contact").click()
    visible(driver, "#confirm-delete").click()
    wait_for_path(driver, "/contacts")
    until(driver, lambda d: d.find_element(By.ID, "contacts-notice").text == "Deleted Maria Curie.", "the list says so")
    until(driver, lambda d: d.find_element(By.ID, "contacts-welcome").is_displayed(), "none left")
    assert api.call("GET", f"/api/contacts/{marie}")[0] == 404

    # On a phone, in dark mode.
    driver.set_window_size(390, 844)
    set_color_scheme(driver, "dark")
    open_page(driver, server, "/contacts/new")
    visible(driver, "#contact-form")
    find(driver, "#birthday-date").click()
    find(driver, "#contact-deceased").click()
    assert no_horizontal_scroll(driver)
    assert unlabeled_inputs(driver) == []
    shot(driver, "contact-form-phone-dark")
    assert browser_problems(driver) == []


def test_everything_on_a_contact_is_added_edited_and_deleted(server, driver, shot):
    api = sign_up(driver, server)
    ada = api.contact("Ada", "Lovelace")
    charles = api.contact("Charles", "Babbage")
    other = api.contact("Mary", "Somerville")
    api.call("POST", f"/api/contacts/{other}/setTags", {"tags": ["mathematics"]})
    open_page(driver, server, f"/contacts/{ada}")
    until(driver, lambda d: d.find_element(By.ID, "contact-name").text == "Ada Lovelace", "Ada loads")

    # Email, phone and more.
    add(driver, "contact-info")
    save(driver, "contact-info")
    assert field_error(driver, "contact-info", "data") == "The value field is required."
    Select(find(driver, "#contact-info-field-contact_field_type_id")).select_by_visible_text("Phone")
    fill(driver, "#contact-info-field-data", "+44 20 7946 0958")
    save(driver, "contact-info")
    until(driver, lambda d: "+44 20 7946 0958" in d.find_element(By.ID, "contact-info-body").text, "the phone shows")
    assert notice(driver, "contact-info") == "Added the Phone “+44 20 7946 0958”."
    assert find(driver, "#contact-info a[href^='tel:']").get_attribute("href") == "tel:+442079460958"
    edit(driver, "contact-info", "+44 20 7946 0958")
    assert find(driver, "#contact-info-field-data").get_attribute("value") == "+44 20 7946 0958"
    fill(driver, "#contact-info-field-data", "+44 20 7946 0000")
    save(driver, "contact-info")
    until(driver, lambda d: "+44 20 7946 0000" in d.find_element(By.ID, "contact-info-body").text, "the edit shows")
    add(driver, "contact-info")
    fill(driver, "#contact-info-field-data", "ada@example.org")
    save(driver, "contact-info")
    until(driver, lambda d: len(section_items(d, "contact-info", ".field-item")) == 2, "two fields")
    delete(driver, "contact-info", "+44 20 7946 0000", confirm=False)
    assert len(section_items(driver, "contact-info", ".field-item")) == 2, "Cancel keeps it"
    delete(driver, "contact-info", "+44 20 7946 0000")
    until(driver, lambda d: len(section_items(d, "contact-info", ".field-item")) == 1, "the phone is deleted")
    assert notice(driver, "contact-info") == "Deleted the Phone “+44 20 7946 0000”."

    # Notes, with favourite.
    add(driver, "notes")
    fill(driver, "#notes-field-body", "Loves poetical science.")
    find(driver, "#notes-field-is_favorited").click()
    save(driver, "notes")
    until(driver, lambda d: "Loves poetical science." in d.find_element(By.ID, "notes-body").text, "the note shows")
    assert "Favorite" in item(driver, "notes", "Loves poetical").text
    assert notice(driver, "notes") == "Added the note “Loves poetical science.”."
    edit(driver, "notes", "Loves poetical")
    assert find(driver, "#notes-field-is_favorited").is_selected()
    find(driver, "#notes-field-is_favorited").click()
    fill(driver, "#notes-field-body", "Loves poetical science, and horses.")
    save(driver, "notes")
    until(driver, lambda d: "and horses" in d.find_element(By.ID, "notes-body").text, "the note changes")
    assert not driver.find_elements(By.CSS_SELECTOR, "#note-list .is-favorite")

    # Tasks, done and open again.
    add(driver, "tasks")
    save(driver, "tasks")
    assert field_error(driver, "tasks", "title") == "The title field is required."
    fill(driver, "#tasks-field-title", "Send the notes")
    save(driver, "tasks")
    until(driver, lambda d: "Send the notes" in d.find_element(By.ID, "tasks-body").text, "the task shows")
    item(driver, "tasks", "Send the notes").find_element(By.CSS_SELECTOR, ".task-toggle").click()
    until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#task-list .task.is-done"), "done")
    assert "Done" in item(driver, "tasks", "Send the notes").text
    item(driver, "tasks", "Send the notes").find_element(By.CSS_SELECTOR, ".task-toggle").click()
    until(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, "#task-list .task.is-done"), "open again")
    edit(driver, "tasks", "Send the notes")
    fill(driver, "#tasks-field-title", "Send the notes to Babbage")
    click_when_still(driver, "#tasks-field-completed")
    save(driver, "tasks")
    until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#task-list .task.is-done"), "done through the form")
    assert api.data("GET", f"/api/contacts/{ada}/tasks")[0]["title"] == "Send the notes to Babbage"

    # Tags: one used elsewhere already (offered as you type), one new; removing keeps the tag.
    add(driver, "tags")
    assert "mathematics" in driver.execute_script(
        "return Array.from(document.querySelectorAll('#tag-suggestions option')).map(o => o.value)")
    fill(driver, "#tags-field-tags", "mathematics")
    save(driver, "tags")
    until(driver, lambda d: texts(d, "#tags .tag") == ["mathematics"], "the tag shows")
    add(driver, "tags")
    fill(driver, "#tags-field-tags", "poetry")
    save(driver, "tags")
    until(driver, lambda d: texts(d, "#tags .tag") == ["mathematics", "poetry"], "the new tag shows")
    assert notice(driver, "tags") == "Added the tag “poetry”."
    delete(driver, "tags", "poetry")
    until(driver, lambda d: texts(d, "#tags .tag") == ["mathematics"], "the tag is removed")
    assert notice(driver, "tags") == "Removed the tag “poetry”."
    assert "poetry" in [tag["name"] for tag in api.data("GET", "/api/tags?limit=100")], "the tag itself stays"

    # Reminders.
    add(driver, "reminders")
    fill(driver, "#reminders-field-title", "Send a letter")
    set_value(driver, "#reminders-field-initial_date", day(3))
    Select(find(driver, "#reminders-field-frequency_type")).select_by_visible_text("Monthly")
    save(driver, "reminders")
    until(driver, lambda d: "Send a letter" in d.find_element(By.ID, "reminders-body").text, "the reminder shows")
    reminder = item(driver, "reminders", "Send a letter").text
    assert "Next in 3 days" in reminder and "Every month" in reminder, reminder
    edit(driver, "reminders", "Send a letter")
    Select(find(driver, "#reminders-field-frequency_type")).select_by_visible_text("Yearly")
    fill(driver, "#reminders-field-frequency_number", "2")
    save(driver, "reminders")
    until(driver, lambda d: "Every 2 years" in item(d, "reminders", "Send a letter").text, "the edit shows")
    form = add(driver, "reminders")
    set_value(driver, "#reminders-field-initial_date", "")
    fill(driver, "#reminders-field-title", "Undated")
    save(driver, "reminders")
    assert field_error(driver, "reminders", "initial_date") == "The initial date field is required."
    form.find_element(By.CSS_SELECTOR, ".item-cancel").click()
    assert len(api.data("GET", f"/api/contacts/{ada}/reminders")) == 1, "the refused one was not added"
    delete(driver, "reminders", "Send a letter")
    until(driver, lambda d: d.find_element(By.ID, "reminders-body").text == "No reminders", "the reminder is deleted")

    # Gifts.
    add(driver, "gifts")
    fill(driver, "#gifts-field-name", "Difference engine model")
    fill(driver, "#gifts-field-amount", "120")
    save(driver, "gifts")
    until(driver, lambda d: "Difference engine model" in d.find_element(By.ID, "gifts-body").text, "the gift shows")
    gift = item(driver, "gifts", "Difference engine model").text
    assert "Idea" in gift and "$120.00" in gift, gift
    edit(driver, "gifts", "Difference engine model")
    Select(find(driver, "#gifts-field-status")).select_by_visible_text("Offered")
    save(driver, "gifts")
    until(driver, lambda d: "Offered" in item(d, "gifts", "Difference engine model").text, "offered")
    delete(driver, "gifts", "Difference engine model")
    until(driver, lambda d: d.find_element(By.ID, "gifts-body").text == "No gifts", "the gift is deleted")

    # Activities.
    add(driver, "activities")
    fill(driver, "#activities-field-summary", "Coffee at the Royal Society")
    set_value(driver, "#activities-field-happened_at", day(-2))
    save(driver, "activities")
    until(driver, lambda d: "Coffee at the Royal Society" in d.find_element(By.ID, "activities-body").text,
          "the activity shows")
    assert "2 days ago" in item(driver, "activities", "Coffee").text
    edit(driver, "activities", "Coffee")
    fill(driver, "#activities-field-summary", "Long coffee at the Royal Society")
    save(driver, "activities")
    until(driver, lambda d: "Long coffee" in d.find_element(By.ID, "activities-body").text, "the edit shows")

    # Relationships: the other contact chosen by typing part of a name.
    add(driver, "relationships")
    find(driver, "#relationships-field-of_contact").send_keys("Charl")
    until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#relationships-field-of_contact-options [data-contact]"),
          "Charles is offered")
    option = find(driver, "#relationships-field-of_contact-options [data-contact]")
    assert option.text == "Charles Babbage"
    option.click()
    Select(find(driver, "#relationships-field-relationship_type_id")).select_by_visible_text("Friend")
    shot(driver, "relationship-form")
    save(driver, "relationships")
    until(driver, lambda d: "Charles Babbage" in d.find_element(By.ID, "relationships-body").text, "the relationship")
    assert "Friend" in find(driver, "#relationships-body").text
    edit(driver, "relationships", "Charles Babbage")
    assert not find(driver, "#relationships-field-of_contact").is_enabled(), "only the kind changes"
    Select(find(driver, "#relationships-field-relationship_type_id")).select_by_visible_text("Best friend")
    save(driver, "relationships")
    until(driver, lambda d: "Best friend" in d.find_element(By.ID, "relationships-body").text, "the kind changes")
    shot(driver, "contact-everything")
    relationships = api.data("GET", f"/api/contacts/{charles}/relationships")
    assert [r["of_contact"]["id"] for r in relationships] == [ada], "Charles is related back"
    delete(driver, "relationships", "Charles Babbage")
    until(driver, lambda d: d.find_element(By.ID, "relationships-body").text == "No relationships", "deleted")
    assert api.data("GET", f"/api/contacts/{charles}/relationships") == [], "with its reverse"

    # On a phone, in dark mode, with a form open.
    driver.set_window_size(390, 844)
    set_color_scheme(driver, "dark")
    open_page(driver, server, f"/contacts/{ada}")
    until(driver, lambda d: "Long coffee" in d.find_element(By.ID, "activities-body").text, "the page loads")
    add(driver, "gifts")
    assert no_horizontal_scroll(driver)
    assert unlabeled_inputs(driver) == []
    driver.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
    shot(driver, "contact-everything-phone-dark")
    assert browser_problems(driver) == []
