"""The Contacts pages (seeds 004 and 001) in a real browser against a real `kith serve`: the list
with Load more and search, a contact's details, and its addresses. The pages call the server's
Monica-compatible /api with the session cookie; the tests fill the account through the same door
(WebAPI), and check what a person sees."""

import datetime
import random

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from pages import (WAIT, WebAPI, browser_problems, fill, find, fresh_email, no_horizontal_scroll, open_page, path_of,
                   set_color_scheme, submit, unlabeled_inputs, visible, wait_for_path, wait_loaded)

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


def until(driver, condition, message, timeout=WAIT):
    try:
        # The sections are redrawn when their answers arrive: what a check looks at can be gone for a moment.
        wait = WebDriverWait(driver, timeout, ignored_exceptions=[StaleElementReferenceException, AssertionError])
        return wait.until(lambda d: condition(d))
    except Exception as error:
        raise AssertionError(message) from error


def texts(driver, css):
    """The visible texts of what matches, read at once (the lists are redrawn as answers arrive)."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll(arguments[0])).map(element => element.innerText)", css)


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


def set_offline(driver, offline):
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions",
                           {"offline": offline, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})


def search_for(driver, text):
    field = find(driver, "#contact-search")
    field.clear()
    field.send_keys(text)


def test_the_list_loads_more_and_searches_as_you_type(server, driver, shot):
    api = sign_up(driver, server)
    open_page(driver, server, "/contacts")
    assert find(driver, "#nav-contacts").get_attribute("href").endswith("/contacts")
    until(driver, lambda d: d.find_element(By.ID, "contacts-empty").is_displayed(), "the empty state shows")
    assert find(driver, "#contacts-empty").text.startswith("No contacts yet")
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
    set_offline(driver, True)
    search_for(driver, "Ada")
    until(driver, lambda d: "Cannot connect. Check your internet and try again." in status_text(d), "offline says so")
    retry = find(driver, "#contacts-status .retry")
    shot(driver, "contacts-offline")
    set_offline(driver, False)
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
    find(driver, "#contacts-status a[href='/signin']").click()
    wait_for_path(driver, "/signin")

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
    assert "Favorite" in find(driver, "#note-list .is-favorite").text
    assert "Loves poetical science." in find(driver, "#note-list .is-favorite").text
    gift = find(driver, "#gift-list .gift").text
    assert "Difference engine model" in gift and "Idea" in gift and "$120.00" in gift
    reminder = find(driver, "#reminder-list .reminder").text
    assert "Send a letter" in reminder and "Next in 3 days" in reminder and "Every month" in reminder
    shot(driver, "contact-details")

    # Relationships lead to the other contact.
    until(driver, lambda d: "Friend" in d.find_element(By.ID, "relationships").text, "relationships load")
    find(driver, "#relationships a.contact-ref").click()
    wait_for_path(driver, f"/contacts/{charles}")
    until(driver, lambda d: d.find_element(By.ID, "contact-name").text == "Charles Babbage", "the friend opens")
    until(driver, lambda d: "Ada Lovelace" in d.find_element(By.ID, "relationships").text, "and leads back")
    assert find(driver, "#tags-body").text == "No tags"

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


def address_cards(driver):
    return driver.find_elements(By.CSS_SELECTOR, "#address-list .address-card")


def card(driver, label):
    for element in address_cards(driver):
        if element.find_element(By.CSS_SELECTOR, ".address-label").text == label:
            return element
    raise AssertionError(f"no address labelled {label!r}")


def choose_country(driver, typed):
    field = find(driver, "#address-country")
    field.clear()
    field.send_keys(typed)
    until(driver, lambda d: d.find_element(By.ID, "country-options").is_displayed(), "the country list opens")
    field.send_keys(Keys.ENTER)


def fill_address(driver, **fields):
    for name, value in fields.items():
        fill(driver, "#address-" + name.replace("_", "-"), value)


def save_address(driver):
    find(driver, "#address-save").click()


def test_addresses(server, driver, shot):
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

    # A map sketch (no tiles from elsewhere) linked to OpenStreetMap, and directions naming Ada.
    preview = home.find_element(By.CSS_SELECTOR, "a.map-preview")
    assert preview.get_attribute("href") == \
        "https://www.openstreetmap.org/?mlat=39.7817&mlon=-89.6501#map=16/39.7817/-89.6501"
    assert preview.find_element(By.CSS_SELECTOR, "svg")
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

    # Edit: the form comes pre-filled; the change shows.
    home.find_element(By.CSS_SELECTOR, ".edit-address").click()
    assert find(driver, "#address-form-title").text == "Edit the address “Home”"
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
    find(driver, "#address-cancel").click()
    assert len(address_cards(driver)) == 2

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
