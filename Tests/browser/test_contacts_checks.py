"""The checks people expect on a contact's values (docs/contacts-web.md, "Checks"): the server's
/api refuses an email that is no email, a phone number of letters, a gift's link that is no web
address, a negative value and a birthday to come, and the page shows each refusal next to its
field in the label's words. Dates of years 1 to 99 show as typed, not as 19xx."""

import datetime

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from pages import (browser_problems, fill, find, no_horizontal_scroll, open_page, set_color_scheme, until, visible)
from test_contacts import add, field_error, item, save, sign_up


def test_values_are_checked_and_refusals_shown_by_their_field(server, driver, shot):
    api = sign_up(driver, server)
    ada = api.contact("Ada", "Lovelace")
    open_page(driver, server, f"/contacts/{ada}")
    until(driver, lambda d: d.find_element(By.ID, "contact-name").text == "Ada Lovelace", "Ada loads")

    # An email that is no email, then a phone of letters: refused next to the Value field.
    add(driver, "contact-info")
    Select(find(driver, "#contact-info-field-contact_field_type_id")).select_by_visible_text("Email")
    fill(driver, "#contact-info-field-data", "ada at example dot org")
    save(driver, "contact-info")
    assert field_error(driver, "contact-info", "data") == "The value must be a valid email address."
    shot(driver, "contact-checks-email-refused")
    Select(find(driver, "#contact-info-field-contact_field_type_id")).select_by_visible_text("Phone")
    fill(driver, "#contact-info-field-data", "ring the bell")
    save(driver, "contact-info")
    until(driver, lambda d: "phone number" in d.find_element(By.ID, "contact-info-field-data-error").text,
          "the phone rule shows")
    assert find(driver, "#contact-info-field-data-error").text == (
        "The value must be a phone number: digits, spaces and + ( ) - . only, at least 3 digits.")
    assert api.data("GET", f"/api/contacts/{ada}/contactfields") == [], "nothing was saved"
    fill(driver, "#contact-info-field-data", "+44 (0)20 7946-0958")
    save(driver, "contact-info")
    until(driver, lambda d: "+44 (0)20 7946-0958" in d.find_element(By.ID, "contact-info-body").text, "the phone shows")

    # A gift: its link must be a web address and its value not negative; the value's currency is
    # the account's, from /api/me.
    add(driver, "gifts")
    until(driver, lambda d: d.find_element(By.ID, "gifts-field-amount-hint").text == "In USD ($)",
          "the form names the account's currency")
    fill(driver, "#gifts-field-name", "Difference engine model")
    fill(driver, "#gifts-field-amount", "-5")
    fill(driver, "#gifts-field-url", "javascript:alert(1)")
    save(driver, "gifts")
    assert field_error(driver, "gifts", "url") == "The link must be a valid URL starting with http:// or https://."
    assert field_error(driver, "gifts", "amount") == "The value must be at least 0."
    shot(driver, "contact-checks-gift-refused")
    assert api.data("GET", f"/api/contacts/{ada}/gifts") == []
    fill(driver, "#gifts-field-amount", "12.5")
    fill(driver, "#gifts-field-url", "https://shop.example/engine")
    save(driver, "gifts")
    until(driver, lambda d: "Difference engine model" in d.find_element(By.ID, "gifts-body").text, "the gift shows")
    assert "$12.50" in item(driver, "gifts", "Difference engine model").text
    link = find(driver, "#gift-list a.item-title")
    assert link.get_attribute("href") == "https://shop.example/engine"

    # A birthday next year is refused next to the birthday, in the form's words.
    open_page(driver, server, f"/contacts/{ada}/edit")
    until(driver, lambda d: d.find_element(By.ID, "contact-first-name").get_attribute("value") == "Ada", "pre-filled")
    find(driver, "#birthday-date").click()
    fill(driver, "#birthday-day", "10")
    Select(find(driver, "#birthday-month")).select_by_visible_text("December")
    fill(driver, "#birthday-year", str(datetime.date.today().year + 1))
    find(driver, "#contact-save").click()
    until(driver, lambda d: d.find_element(By.ID, "birthday-error").is_displayed(), "the refusal shows")
    assert find(driver, "#birthday-error").text == "The birthday must be a date before or equal to today."
    shot(driver, "contact-checks-birthday-refused")
    assert api.data("GET", f"/api/contacts/{ada}")["information"]["dates"]["birthdate"]["date"] is None

    # On a phone, in dark mode: the refused gift form.
    driver.set_window_size(390, 844)
    set_color_scheme(driver, "dark")
    open_page(driver, server, f"/contacts/{ada}")
    until(driver, lambda d: "Difference engine model" in d.find_element(By.ID, "gifts-body").text, "the gift shows")
    add(driver, "gifts")
    fill(driver, "#gifts-field-name", "Punched cards")
    fill(driver, "#gifts-field-url", "cards.example")
    save(driver, "gifts")
    assert field_error(driver, "gifts", "url").startswith("The link must be a valid URL")
    driver.execute_script("document.getElementById('gifts-form').scrollIntoView()")
    assert no_horizontal_scroll(driver)
    shot(driver, "contact-checks-gift-refused-phone-dark")
    assert browser_problems(driver) == []


def test_dates_in_the_first_century_show_as_typed(server, driver, shot):
    api = sign_up(driver, server)
    # Year 1 for a birthday, year 33 for a death; a reminder started in year 50.
    hero = api.contact("Heron", "of Alexandria", is_birthdate_known=True, birthdate_day=15, birthdate_month=3,
                       birthdate_year=1, is_deceased=True, is_deceased_date_known=True, deceased_date_day=4,
                       deceased_date_month=7, deceased_date_year=33)
    api.data("POST", "/api/reminders", {"contact_id": hero, "title": "Read the Pneumatica",
                                        "initial_date": "0050-01-31", "frequency_type": "month",
                                        "frequency_number": 1})
    open_page(driver, server, f"/contacts/{hero}")
    until(driver, lambda d: d.find_element(By.ID, "contact-name").text.startswith("Heron"), "Heron loads")
    facts = find(driver, "#contact-facts")
    born = facts.find_element(By.CSS_SELECTOR, "time[datetime='0001-03-15']")
    assert born.text == "15 Mar 1"
    died = facts.find_element(By.CSS_SELECTOR, "time[datetime='0033-07-04']")
    assert died.text == "4 Jul 33"
    # The next birthday is this year's or next year's 15 March, never one in the 1900s.
    today = datetime.date.today()
    upcoming = datetime.date(today.year, 3, 15)
    if upcoming < today:
        upcoming = datetime.date(today.year + 1, 3, 15)
    assert facts.find_element(By.CSS_SELECTOR, f"time[datetime='{upcoming.isoformat()}']")
    # A monthly reminder from 31 January 50 falls on a month's last day at most, from this month on.
    until(driver, lambda d: "Read the Pneumatica" in d.find_element(By.ID, "reminders-body").text, "the reminder")
    next_day = item(driver, "reminders", "Read the Pneumatica").find_element(By.CSS_SELECTOR, "time")
    assert next_day.get_attribute("datetime") >= today.isoformat(), next_day.get_attribute("datetime")
    shot(driver, "contact-first-century")

    # The form shows the year as it was typed.
    open_page(driver, server, f"/contacts/{hero}/edit")
    until(driver, lambda d: d.find_element(By.ID, "birthday-year").get_attribute("value") == "1", "year 1 in the form")
    assert find(driver, "#deceased-date").get_attribute("value") == "0033-07-04"
    # Saved without a change, the dates stay where they were.
    find(driver, "#contact-save").click()
    until(driver, lambda d: d.find_element(By.ID, "contact-notice").text.startswith("Saved"), "saved")
    dates = api.data("GET", f"/api/contacts/{hero}")["information"]["dates"]
    assert dates["birthdate"]["date"].startswith("0001-03-15")
    assert dates["deceased_date"]["date"].startswith("0033-07-04")

    driver.set_window_size(390, 844)
    set_color_scheme(driver, "dark")
    open_page(driver, server, f"/contacts/{hero}")
    until(driver, lambda d: d.find_element(By.ID, "contact-name").text.startswith("Heron"), "Heron loads")
    shot(driver, "contact-first-century-phone-dark")
    assert browser_problems(driver) == []
