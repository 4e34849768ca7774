"""Outreach writes as a person makes them in two tabs, twice, or again: a save writes only what was
changed on that page, a form sent twice adds once, and a file imported again adds nobody."""

from selenium.webdriver.common.by import By

from pages import fill, find, fresh_email, notice_text, open_details, open_page, sign_up, submit, wait_loaded
from test_outreach import PASSWORD, add_person, names, row


def open_person(driver, server, name):
    """The person's own page, from their row on the list."""
    open_page(driver, server, "/outreach")
    row(driver, name).find_element(By.CSS_SELECTOR, ".person-name a").click()
    wait_loaded(driver)


def save_person(driver, **fields):
    for field, value in fields.items():
        fill(driver, f"#{field}", value)
    submit(driver, "#edit-person-form")


def test_two_tabs_keep_both_changes_or_say_what_was_replaced(server, driver, shot):
    sign_up(driver, server, fresh_email("outreach-tabs"), PASSWORD)
    open_page(driver, server, "/outreach")
    add_person(driver, "Grace", "Hopper", "US Navy")
    first_tab = driver.current_window_handle
    driver.switch_to.new_window("tab")
    second_tab = driver.current_window_handle
    open_person(driver, server, "Hopper, Grace")
    driver.switch_to.window(first_tab)
    open_person(driver, server, "Hopper, Grace")

    # Tab 1 changes the enterprise; tab 2, opened before, changes only the comments.
    save_person(driver, enterpriseName="US Navy Reserve")
    driver.switch_to.window(second_tab)
    save_person(driver, comments="Called on Monday.")
    assert notice_text(driver) == "Saved Grace Hopper."
    open_person(driver, server, "Hopper, Grace")
    assert "US Navy Reserve" in find(driver, ".lede").text, "tab 1's enterprise was not undone"
    assert find(driver, "#full-comments").text == "Called on Monday."

    # Both change the enterprise: the later wins, and the page says what it replaced.
    driver.switch_to.window(first_tab)
    open_person(driver, server, "Hopper, Grace")
    driver.switch_to.window(second_tab)
    save_person(driver, enterpriseName="Navy Yard")
    driver.switch_to.window(first_tab)
    save_person(driver, enterpriseName="Harvard")
    assert notice_text(driver) == ("Saved Grace Hopper. Your enterprise replaced a change made elsewhere after you "
                                   "opened the page.")
    shot(driver, "outreach-replaced")
    open_person(driver, server, "Hopper, Grace")
    assert "Harvard" in find(driver, ".lede").text


def test_a_form_sent_twice_adds_once_and_a_file_imported_again_adds_nobody(server, driver, shot):
    sign_up(driver, server, fresh_email("outreach-twice"), PASSWORD)
    open_page(driver, server, "/outreach")

    # The add form, sent twice with its key (a double click past the page's guard, a retry).
    fill(driver, "#firstName", "Ada")
    fill(driver, "#lastName", "Lovelace")
    fill(driver, "#enterpriseName", "Analytical Engines")
    statuses = driver.execute_async_script(
        """
        const done = arguments[arguments.length - 1];
        const data = new URLSearchParams(new FormData(document.querySelector('#add-person-form')));
        data.set('_key', window.KithWriteKey());
        const send = () => fetch('/outreach/people', {method: 'POST', body: data, redirect: 'manual',
                                                      credentials: 'same-origin'}).then(r => r.status);
        send().then(first => send().then(second => done([first, second])));
        """)
    assert statuses == [0, 0], f"both answered with a redirect (opaque to fetch): {statuses}"
    open_page(driver, server, "/outreach")
    assert names(driver) == ["Lovelace, Ada"], "the second sending added nobody"

    # A file imported twice: the second time everyone is already there.
    header = "First Name,Last Name,Enterprise,Delivered,Delivered At,Comments\n"
    csv = header + "Ada,Lovelace,Analytical Engines,no,,\nAlan,Turing,Bletchley,yes,2026-11-21T10:00:00Z,\n"
    open_details(driver, "#csv")
    fill(driver, "#import-csv", csv)
    submit(driver, "#import-form")
    assert notice_text(driver) == "Imported 1 person; 1 person already there was unchanged."
    open_details(driver, "#csv")
    fill(driver, "#import-csv", csv)
    submit(driver, "#import-form")
    assert notice_text(driver) == "Imported 0 people; 2 people already there were unchanged."
    shot(driver, "outreach-imported-again")
    assert names(driver) == ["Lovelace, Ada", "Turing, Alan"]
