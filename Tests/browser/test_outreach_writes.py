"""Outreach writes as a person makes them in two tabs, twice, or again: a save writes only what was
changed on that page, a form sent twice adds once, a file imported again adds nobody, and a refused
form is not sent again by Reload or Back."""

from selenium.webdriver.common.by import By

from pages import (absent, fill, find, form_error_text, fresh_email, mark_page, notice_text, open_details, open_page,
                   sign_up, submit, wait_loaded, wait_new_page)
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


def test_a_refused_form_is_not_sent_again_by_reload_or_back(server, driver, shot):
    sign_up(driver, server, fresh_email("outreach-refused"), PASSWORD)
    open_page(driver, server, "/outreach")
    year = find(driver, "#year-name").text
    page = driver.execute_script("return location.pathname + location.search")

    # A year named like one there already: refused, and the answer says why next to the form.
    open_details(driver, "#years")
    fill(driver, "#new-year-name", year)
    submit(driver, "#add-year-form")
    assert f"already a year named {year}" in form_error_text(driver)
    shot(driver, "outreach-refused-year")
    # The answer's place in the history is the page the form was on, read with a GET, not the
    # form's POST: reloading or coming back reads the page again instead of sending the form.
    assert driver.execute_script("return location.pathname + location.search") == page

    mark_page(driver)
    driver.refresh()
    wait_new_page(driver)
    assert absent(driver, "#form-error"), "the reload read the page; it did not send the form again"
    assert find(driver, "#year-name").text == year

    open_page(driver, server, "/food")
    mark_page(driver)
    driver.back()
    wait_new_page(driver)
    assert driver.execute_script("return location.pathname + location.search") == page
    assert find(driver, "#year-name").text == year
