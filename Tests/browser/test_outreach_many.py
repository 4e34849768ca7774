"""The Outreach list as a checklist app's, in a real browser: a file from French Excel (semicolons)
with a bad line, listed by the import box; a search that follows what is typed; and many people
ticked, marked or deleted together, then put back with Undo. At desktop and phone width, and dark."""

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from pages import (browser_problems, fill, find, fresh_email, mark_page, no_horizontal_scroll, notice_text,
                   open_details, open_page, set_color_scheme, sign_up, submit, until, visible, wait_new_page,
                   wait_status)
from test_outreach import PASSWORD, names, progress_text
from test_phone_width import as_phone

FRENCH_EXCEL = (
    "First Name;Last Name;Enterprise;Delivered;Delivered At;Comments\r\n"
    "Émile;Zola;Charpentier;non;;\r\n"
    "Ada;Lovelace;Analytical Engines;no;;\r\n"
    "Grace;Hopper;US Navy;yes;2026-11-21T10:00:00Z;\"compilateurs; COBOL\"\r\n"
    "Jürgen;Müller;Bäckerei Müller;no;;\r\n"
    ";Turing;Bletchley Park;no;;\r\n"
)


def import_file(driver, text):
    open_details(driver, "#csv")
    find(driver, "#import-csv").clear()
    driver.execute_script("document.querySelector('#import-csv').value = arguments[0]", text)
    submit(driver, "#import-form")


def click_and_wait(driver, css):
    mark_page(driver)
    find(driver, css).click()
    wait_new_page(driver)


def tick(driver, *people):
    for name in people:
        for row in driver.find_elements(By.CSS_SELECTOR, "#people-table tr.person"):
            if row.find_element(By.CSS_SELECTOR, ".person-name").text == name:
                row.find_element(By.CSS_SELECTOR, ".pick-target").click()


def test_a_semicolon_file_imports_and_lists_the_lines_it_skipped(server, driver, shot):
    sign_up(driver, server, fresh_email("outreach-import"), PASSWORD)
    open_page(driver, server, "/outreach")
    import_file(driver, FRENCH_EXCEL)
    assert notice_text(driver).startswith("Imported 3 people; 2 lines were skipped.")
    report = visible(driver, "#import-skipped")
    assert [item.text for item in report.find_elements(By.TAG_NAME, "li")] == [
        "Line 2: Delivered must be yes or no.", "Line 6: Enter a first name."]
    # The report is inside the opened import box, next to the text it is about.
    assert find(driver, "#csv").get_attribute("open") is not None
    assert names(driver) == ["Hopper, Grace", "Lovelace, Ada", "Müller, Jürgen"]
    assert "compilateurs; COBOL" in find(driver, "#people-table").text
    report.location_once_scrolled_into_view
    shot(driver, "outreach-import-skipped")
    assert not browser_problems(driver)


def test_search_then_tick_many_mark_and_delete_with_undo(server, driver, shot):
    sign_up(driver, server, fresh_email("outreach-many"), PASSWORD)
    open_page(driver, server, "/outreach")
    import_file(driver, FRENCH_EXCEL)
    wait_status(driver, "live")

    # The list follows the search as it is typed, without a new page, and the address keeps it.
    mark_page(driver)
    fill(driver, "#search-text", "muller")
    until(driver, lambda d: names(d) == ["Müller, Jürgen"], "the search shows Müller alone")
    assert "1 of 3 shown" in find(driver, "#shown-count").text
    assert "q=muller" in driver.current_url
    find(driver, "#search-show").send_keys("Delivered")
    until(driver, lambda d: names(d) == [] and d.find_elements(By.ID, "no-match"), "nobody delivered matches")
    assert driver.execute_script("return window.__kithOldPage === true"), "no page was loaded"
    shot(driver, "outreach-search-none")
    find(driver, "#search-text").send_keys(Keys.CONTROL, "a")
    find(driver, "#search-text").send_keys(Keys.BACKSPACE)
    until(driver, lambda d: names(d) == ["Hopper, Grace"], "the delivered ones")
    find(driver, "#search-show").send_keys("Everyone")
    until(driver, lambda d: len(names(d)) == 3, "everyone again")

    # Select, tick two, mark them delivered: one change, with Undo.
    assert not find(driver, "#bulk-bar").is_displayed(), "the bar shows only while selecting"
    find(driver, "#select-toggle").click()
    visible(driver, "#bulk-bar")
    assert not find(driver, "#many-deliver").is_enabled(), "nothing ticked yet"
    tick(driver, "Lovelace, Ada", "Müller, Jürgen")
    assert find(driver, "#picked-count").text == "2 people selected:"
    shot(driver, "outreach-selecting")
    click_and_wait(driver, "#many-deliver")
    assert notice_text(driver) == "Marked 2 people delivered."
    assert progress_text(driver) == "3 of 3 delivered"
    shot(driver, "outreach-many-delivered")
    click_and_wait(driver, "#undo-button")
    assert notice_text(driver) == "Undone: 2 people are as they were."
    assert progress_text(driver) == "1 of 3 delivered"

    # Everyone shown, ticked at once, deleted; Undo brings them back with their comments.
    find(driver, "#select-toggle").click()
    find(driver, "#pick-all").click()
    assert find(driver, "#picked-count").text == "3 people selected:"
    click_and_wait(driver, "#many-delete")
    assert notice_text(driver) == "Deleted 3 people."
    assert names(driver) == []
    click_and_wait(driver, "#undo-button")
    assert notice_text(driver) == "Undone: 3 people are back."
    assert names(driver) == ["Hopper, Grace", "Lovelace, Ada", "Müller, Jürgen"]
    assert progress_text(driver) == "1 of 3 delivered"
    assert "compilateurs; COBOL" in find(driver, "#people-table").text
    assert not browser_problems(driver)


def test_selecting_on_a_phone_and_in_the_dark(server, driver, shot):
    sign_up(driver, server, fresh_email("outreach-phone"), PASSWORD)
    open_page(driver, server, "/outreach")
    import_file(driver, FRENCH_EXCEL)
    as_phone(driver)
    open_page(driver, server, "/outreach")
    find(driver, "#select-toggle").click()
    tick(driver, "Hopper, Grace")
    assert find(driver, "#picked-count").text == "1 person selected:"
    assert no_horizontal_scroll(driver)
    for css in ("#many-deliver", "#many-undeliver", "#many-delete", ".pick-target"):
        height = find(driver, css).rect["height"]
        assert height >= 36, f"{css} is {height} px tall on a phone"
    shot(driver, "outreach-phone-selecting")
    click_and_wait(driver, "#many-undeliver")
    assert notice_text(driver) == "Marked 1 person not delivered."
    set_color_scheme(driver, "dark")
    shot(driver, "outreach-phone-undo-dark")
    click_and_wait(driver, "#undo-button")
    assert progress_text(driver) == "1 of 3 delivered"
