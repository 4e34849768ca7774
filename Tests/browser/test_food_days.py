"""The Food page's days as a person meets them: a day that has not begun, or one past the 90 days
kept, says so and offers nothing to log; what is left of the goal adds up with what was eaten."""

from pages import absent, fill, find, fresh_email, open_details, open_page, set_color_scheme, sign_up, submit
from test_outreach import PASSWORD
from test_phone_width import as_phone


def test_days_that_cannot_be_written_say_so_and_totals_add_up(server, driver, shot):
    sign_up(driver, server, fresh_email("food-days"), PASSWORD)
    open_page(driver, server, "/food?date=2030-01-01")
    assert "This day has not begun yet" in find(driver, "#outside-window").text
    assert absent(driver, "#add-item-form") and absent(driver, "#search-query")
    assert find(driver, "#no-items").text == "Nothing can be logged on this day."
    shot(driver, "food-future-day")
    open_page(driver, server, "/food?date=2020-01-01")
    assert "this day can't be written any more" in find(driver, "#outside-window").text
    assert absent(driver, "#add-item-form")

    open_page(driver, server, "/food")
    fill(driver, "#goal-calories-input", "2000")
    submit(driver, "#goal-form")
    open_details(driver, "#by-hand")
    fill(driver, "#food-name", "Soup")
    fill(driver, "#food-calories", "968.4")
    submit(driver, "#add-item-form")
    assert find(driver, "#total-calories").text == "968"
    assert find(driver, "#remaining").text == "1,032 kcal left"

    # The browser's own check stops 100 first; without it, the server says it in the label's words.
    driver.execute_script("document.querySelector('#goal-calories-input').removeAttribute('min')")
    fill(driver, "#goal-calories-input", "100")
    submit(driver, "#goal-form")
    assert find(driver, "#goal-calories-error").text == "The daily goal must be between 500 and 50,000 calories."
    as_phone(driver)
    set_color_scheme(driver, "dark")
    open_page(driver, server, "/food?date=2030-01-01")
    shot(driver, "food-future-day-phone-dark")
