"""Two tabs changing one contact, and a create sent twice: the Contacts pages send what the person
changed on top of what they loaded (If-Match with the version they read), keep what someone else
changed meanwhile, ask when both changed the same thing, and make a change sent twice once
(Idempotency-Key). Checked in the page and through /api; screenshots on a desktop, a phone, and
in dark mode."""

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from pages import (browser_problems, find, fill, no_horizontal_scroll, open_page, path_of, set_color_scheme,
                   set_value, texts, until, visible, wait_for_path)
from test_contacts import item, notice, sign_up

KEPT_TOO = "Changes made elsewhere at the same time were kept too"


def open_edit_form(driver, server, contact_id, first_name):
    open_page(driver, server, f"/contacts/{contact_id}/edit")
    until(driver, lambda d: d.find_element(By.ID, "contact-first-name").get_attribute("value") == first_name,
          "the form is filled")


def save_contact(driver):
    find(driver, "#contact-save").click()


def wait_contact_page(driver, contact_id):
    until(driver, lambda d: path_of(d) == f"/contacts/{contact_id}", "the contact opens")
    until(driver, lambda d: d.find_element(By.ID, "contact-notice").text != "", "the contact says what happened")
    return find(driver, "#contact-notice").text


def reminder_titles(api, contact_id):
    status, answer = api.call("GET", f"/api/contacts/{contact_id}/reminders")
    assert status == 200, answer
    return sorted(reminder["title"] for reminder in answer["data"])


def conflict_choices(driver):
    """{legend: [the two choices' words]} of the form's conflict panel."""
    return driver.execute_script(
        """
        const found = {};
        document.querySelectorAll('.conflict .conflict-field').forEach(box => {
          found[box.querySelector('legend').textContent] =
            Array.from(box.querySelectorAll('label')).map(label => label.textContent.trim());
        });
        return found;
        """)


def two_tabs_on_the_form(driver, server):
    """A person with Marie Curie, her form open in a second tab first, then in the first tab,
    which is shown: (api, Marie's id, the first tab, the second tab)."""
    api = sign_up(driver, server)
    marie = api.contact("Marie", "Curie")
    first_tab = driver.current_window_handle
    driver.switch_to.new_window("tab")
    second_tab = driver.current_window_handle
    open_edit_form(driver, server, marie, "Marie")
    driver.switch_to.window(first_tab)
    open_edit_form(driver, server, marie, "Marie")
    return api, marie, first_tab, second_tab


def test_two_tabs_change_different_things_and_both_are_kept(server, driver, shot):
    api, marie, _, second_tab = two_tabs_on_the_form(driver, server)

    # Tab 1: the birthday with its yearly reminder, and the death with its own.
    find(driver, "#birthday-date").click()
    fill(driver, "#birthday-day", "7")
    Select(find(driver, "#birthday-month")).select_by_visible_text("November")
    fill(driver, "#birthday-year", "1867")
    find(driver, "#birthday-reminder").click()
    find(driver, "#contact-deceased").click()
    set_value(driver, "#deceased-date", "1934-07-04")
    find(driver, "#deceased-reminder").click()
    save_contact(driver)
    assert wait_contact_page(driver, marie) == "Saved Marie Curie."

    # Tab 2, opened before, still shows the contact as it was, and changes only the nickname.
    driver.switch_to.window(second_tab)
    assert find(driver, "#birthday-unknown").is_selected(), "tab 2 was loaded before"
    fill(driver, "#contact-nickname", "Manya")
    save_contact(driver)
    said = wait_contact_page(driver, marie)
    assert said == f"Saved Marie Curie. {KEPT_TOO} (birthday, deceased).", said
    facts = find(driver, "#contact-facts").text
    assert "7 Nov 1867" in facts and "4 Jul 1934" in facts, facts
    assert find(driver, "#contact-nickname").text == "“Manya”"
    until(driver, lambda d: "Wish happy birthday to Marie" in d.find_element(By.ID, "reminders-body").text,
          "the birthday's reminder is still there")
    shot(driver, "contact-two-tabs-both-kept")

    # What the server keeps: both tabs' changes, the reminders too.
    shown = api.data("GET", f"/api/contacts/{marie}")
    assert shown["nickname"] == "Manya"
    assert shown["is_dead"] is True
    assert shown["information"]["dates"]["birthdate"]["date"] == "1867-11-07T00:00:00Z"
    assert shown["information"]["dates"]["deceased_date"]["date"] == "1934-07-04T00:00:00Z"
    assert reminder_titles(api, marie) == ["Anniversary of the death of Marie", "Wish happy birthday to Marie"]
    assert browser_problems(driver) == []


def test_two_tabs_change_the_same_thing_and_the_page_asks(server, driver, shot):
    api, marie, _, second_tab = two_tabs_on_the_form(driver, server)
    fill(driver, "#contact-nickname", "Manya")
    save_contact(driver)
    assert wait_contact_page(driver, marie) == "Saved Marie Curie."

    # Tab 2 changes the nickname too, and the description, which nobody else touched.
    driver.switch_to.window(second_tab)
    fill(driver, "#contact-nickname", "Marya")
    fill(driver, "#contact-description", "Physicist and chemist")
    save_contact(driver)
    panel = visible(driver, ".conflict")
    assert "Someone changed this while you were editing it" in panel.text
    assert conflict_choices(driver) == {"Nickname": ["Keep yours: “Marya”", "Take the other change: “Manya”"]}
    assert driver.switch_to.active_element == panel, "the question has the focus, so it is read out"
    assert path_of(driver) == f"/contacts/{marie}/edit", "nothing was saved: the form is still open"
    assert find(driver, "#contact-nickname").get_attribute("value") == "Marya", "the person's own words stay"
    assert api.data("GET", f"/api/contacts/{marie}")["nickname"] == "Manya"
    shot(driver, "contact-conflict")

    # Saving before choosing says so where the choice is, moves there, and saves nothing.
    save_contact(driver)
    until(driver, lambda d: d.find_element(By.CSS_SELECTOR, ".conflict .conflict-missing").is_displayed(),
          "asks for a choice")
    assert find(driver, ".conflict .conflict-missing").text == \
        "Choose which change to keep for each value both of you changed."
    assert driver.switch_to.active_element == find(driver, ".conflict .conflict-mine")
    assert api.data("GET", f"/api/contacts/{marie}")["description"] is None

    driver.set_window_size(390, 844)
    set_color_scheme(driver, "dark")
    assert no_horizontal_scroll(driver)
    shot(driver, "contact-conflict-phone-dark")
    set_color_scheme(driver, "light")
    driver.set_window_size(1280, 900)

    # Taking the other change puts it in the form; the description is still the person's.
    find(driver, ".conflict .conflict-theirs").click()
    assert find(driver, "#contact-nickname").get_attribute("value") == "Manya"
    save_contact(driver)
    assert wait_contact_page(driver, marie) == "Saved Marie Curie."
    shown = api.data("GET", f"/api/contacts/{marie}")
    assert (shown["nickname"], shown["description"]) == ("Manya", "Physicist and chemist")
    assert browser_problems(driver) == []


def test_an_address_and_a_note_changed_in_two_tabs(server, driver, shot):
    api = sign_up(driver, server)
    ada = api.contact("Ada", "Lovelace")
    home = api.data("POST", "/api/addresses", {"contact_id": ada, "name": "Home", "street": "12 St James's Square",
                                               "city": "London", "country": "GB"})["id"]
    note = api.data("POST", "/api/notes", {"contact_id": ada, "body": "Loves poetical science"})["id"]
    open_page(driver, server, f"/contacts/{ada}")
    until(driver, lambda d: "12 St James's Square" in d.find_element(By.ID, "addresses-body").text, "the address")
    until(driver, lambda d: "Loves poetical science" in d.find_element(By.ID, "notes-body").text, "the note")

    def edit_while_another_tab_saves(shown_street, street, city):
        """Opens the address form, and once it shows the address as it is, another tab saves it."""
        find(driver, f"[data-address-id='{home}'] .edit-address").click()
        until(driver, lambda d: d.find_element(By.ID, "address-street").get_attribute("value") == shown_street,
              "the address form shows the address as it is now")
        api.data("PUT", f"/api/addresses/{home}", {"contact_id": ada, "name": "Home", "street": street, "city": city,
                                                   "country": "GB"})

    # The address form is open here while another tab moves the address to another city.
    edit_while_another_tab_saves("12 St James's Square", "12 St James's Square", "Westminster")
    fill(driver, "#address-street", "10 St James's Square")
    find(driver, "#address-save").click()
    until(driver, lambda d: "Saved the address “Home”." in d.find_element(By.ID, "addresses-notice").text,
          "saved, on top of the other change")
    assert f"{KEPT_TOO} (city)." in find(driver, "#addresses-notice").text
    saved = api.data("GET", f"/api/addresses/{home}")
    assert (saved["street"], saved["city"]) == ("10 St James's Square", "Westminster")

    # Both change the street: the form asks; the person keeps theirs.
    edit_while_another_tab_saves("10 St James's Square", "St James's Square 12", "Westminster")
    fill(driver, "#address-street", "12 St James's Sq.")
    find(driver, "#address-save").click()
    visible(driver, "#address-form .conflict")
    assert conflict_choices(driver) == {
        "Street": ["Keep yours: “12 St James's Sq.”", "Take the other change: “St James's Square 12”"]}
    shot(driver, "address-conflict")
    find(driver, "#address-form .conflict-mine").click()
    find(driver, "#address-save").click()
    # Only the street changed elsewhere, and the person chose theirs: nothing else to tell.
    until(driver, lambda d: d.find_element(By.ID, "addresses-notice").text == "Saved the address “Home”.", "saved")
    assert api.data("GET", f"/api/addresses/{home}")["street"] == "12 St James's Sq."

    # A note: the form is open while another tab rewrites it; the person marks it a favourite.
    item(driver, "notes", "Loves poetical science").find_element(By.CSS_SELECTOR, ".edit-item").click()
    visible(driver, "#notes-form")
    api.data("PUT", f"/api/notes/{note}", {"contact_id": ada, "body": "Loves poetical science, and engines"})
    find(driver, "#notes-field-is_favorited").click()
    find(driver, "#notes-form .item-save").click()
    until(driver, lambda d: notice(d, "notes").startswith("Saved the note"), "saved")
    assert f"{KEPT_TOO} (note)." in notice(driver, "notes")
    saved = api.data("GET", f"/api/notes/{note}")
    assert (saved["body"], saved["is_favorited"]) == ("Loves poetical science, and engines", True)

    # Deleting a note changed elsewhere after the question was asked: asked again, about what it is now.
    item(driver, "notes", "and engines").find_element(By.CSS_SELECTOR, ".delete-item").click()
    visible(driver, "#confirm-dialog")
    api.data("PUT", f"/api/notes/{note}", {"contact_id": ada, "body": "Wrote the first program", "is_favorited": True})
    find(driver, "#confirm-delete").click()
    until(driver, lambda d: "It was changed elsewhere" in d.find_element(By.ID, "confirm-error").text,
          "the dialog says it changed")
    assert find(driver, "#confirm-title").text == "Delete the note “Wrote the first program”?"
    until(driver, lambda d: "Wrote the first program" in d.find_element(By.ID, "notes-body").text,
          "the list behind shows the note as it is now")
    assert api.call("GET", f"/api/notes/{note}")[0] == 200, "nothing deleted yet"
    shot(driver, "note-delete-changed", full_page=False)
    find(driver, "#confirm-delete").click()
    until(driver, lambda d: not d.find_element(By.ID, "confirm-dialog").is_displayed(), "the dialog closes")
    assert api.call("GET", f"/api/notes/{note}")[0] == 404
    assert browser_problems(driver) == []


def test_a_create_sent_twice_adds_one_contact(server, driver, shot):
    api = sign_up(driver, server)
    open_page(driver, server, "/contacts/new")
    visible(driver, "#contact-form")
    fill(driver, "#contact-first-name", "Grace")
    fill(driver, "#contact-last-name", "Hopper")
    # Save pressed twice before the first answer: the same request twice, with one key.
    driver.execute_script(
        "const form = document.getElementById('contact-form'); form.requestSubmit(); form.requestSubmit();")
    until(driver, lambda d: path_of(d).startswith("/contacts/") and path_of(d) != "/contacts/new", "the contact opens")
    assert wait_contact_page(driver, int(path_of(driver).rsplit("/", 1)[1])) == "Added Grace Hopper."
    listed = api.call("GET", "/api/contacts")[1]
    assert listed["meta"]["total"] == 1, listed
    shot(driver, "contact-added-once")

    # The same request sent again with the key the first one carried (the pages' api() takes a key
    # of the caller's own), as a retry after a lost answer: the first answer again, one contact.
    answers = driver.execute_async_script(
        """
        const done = arguments[arguments.length - 1];
        const body = {first_name: 'Katherine', last_name: 'Johnson', is_birthdate_known: false, is_deceased: false,
                      is_deceased_date_known: false};
        const send = () => KithContacts.api('POST', '/api/contacts', body, {key: 'retried-with-its-key'});
        send().then(first => send().then(second => done([first.data.id, second.data.id])),
                    error => done(String(error.message)));
        """)
    assert isinstance(answers, list) and answers[0] == answers[1], answers
    assert api.call("GET", "/api/contacts")[1]["meta"]["total"] == 2
    names = sorted(contact["first_name"] for contact in api.call("GET", "/api/contacts")[1]["data"])
    assert names == ["Grace", "Katherine"]
