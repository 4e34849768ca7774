"""The Food page as a calorie log is used every day: a food found by search logged as an amount (two
bananas, 150 g of rice) to the meal chosen, the day shown as breakfast, lunch, dinner and snacks with
their totals, yesterday's breakfast or a whole day copied, a recent food made a favourite and logged
again in one tap, and a custom meal built from search results, edited after with amounts, and
logged to a meal in one step; at desktop and phone width, in dark mode."""

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from pages import (LIVE_WAIT, browser_problems, fill, find, fresh_email, mark_page, no_horizontal_scroll, notice_text,
                   open_page, path_of, set_color_scheme, sign_up, submit, text_of, texts, until, wait_new_page,
                   wait_status)
from test_food import Device
from test_outreach import PASSWORD
from test_phone_width import as_phone


def choose_meal(driver, meal):
    Select(find(driver, "#add-to-meal")).select_by_value(meal)


def search_and_add(driver, query, pick, amount):
    """Searches `query`, types `amount` next to the first result whose text has all of `pick`, adds it."""
    box = find(driver, "#search-query")
    box.clear()
    box.send_keys(query)
    until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#search-results .search-result"), f"results for {query}")
    rows = driver.find_elements(By.CSS_SELECTOR, "#search-results .search-result")
    row = next(r for r in rows if all(word in r.text for word in pick))
    field = row.find_element(By.CSS_SELECTOR, ".search-amount-input")
    field.clear()
    field.send_keys(amount)
    mark_page(driver)
    row.find_element(By.CSS_SELECTOR, "button").click()
    return row


def meal_total(driver, meal):
    return text_of(driver, f"#meal-total-{meal}")


def test_amounts_meals_copies_favourites_and_custom_meals(server, driver, shot):
    address = fresh_email("food-everyday")
    sign_up(driver, server, address, PASSWORD)
    open_page(driver, server, "/food")
    root = find(driver, "#food")
    today = root.get_attribute("data-today")
    assert texts(driver, ".meal-section h3") == [
        "Breakfast 0 kcal", "Lunch 0 kcal", "Dinner 0 kcal", "Snacks 0 kcal"]

    # Yesterday: two bananas for breakfast, 150 g of rice for dinner, from the search.
    find(driver, "#previous-day").click()
    choose_meal(driver, "breakfast")
    search_and_add(driver, "banana", ["Banana, raw", "medium"], "2")
    wait_new_page(driver)
    assert notice_text(driver) == "Added Banana, raw to breakfast."
    assert "2 × 1 medium" in text_of(driver, "#food-list-breakfast .food-meta")
    assert Select(find(driver, "#add-to-meal")).first_selected_option.get_attribute("value") == "breakfast", \
        "the next food goes to the same meal"
    choose_meal(driver, "dinner")
    row = search_and_add(driver, "rice white long-grain cooked", ["cooked", "100 g"], "150")
    wait_new_page(driver)
    assert notice_text(driver) == "Added Rice, white, long-grain, cooked to dinner."
    assert text_of(driver, "#food-list-dinner .food-meta").startswith("150 g")
    assert meal_total(driver, "dinner") == "195 kcal", "130 kcal per 100 g, 150 g eaten"
    breakfast = meal_total(driver, "breakfast")
    shot(driver, "food-everyday-yesterday")

    # Today: yesterday's breakfast in one tap, then the whole day.
    find(driver, "#to-today").click()
    copy = find(driver, "#copy-breakfast")
    assert copy.text == "Copy yesterday's breakfast"
    assert not driver.find_elements(By.CSS_SELECTOR, "#copy-lunch"), "nothing to copy is not offered"
    mark_page(driver)
    copy.click()
    wait_new_page(driver)
    assert notice_text(driver).startswith("Copied 1 food from ")
    assert meal_total(driver, "breakfast") == breakfast

    # A recent food made a favourite, then logged from the favourites.
    recent = texts(driver, "#recent-list .food-name")
    assert recent[:2] == ["Banana, raw", "Rice, white, long-grain, cooked"]
    submit(driver, "#recent-list li:nth-child(2) .favorite-form")
    assert notice_text(driver) == "Rice, white, long-grain, cooked is a favourite: it is one tap away."
    assert texts(driver, "#favorite-list .food-name") == ["Rice, white, long-grain, cooked"]
    assert "150 g · 195 kcal" in text_of(driver, "#favorite-list .food-meta")
    choose_meal(driver, "lunch")
    submit(driver, "#favorite-list .quick-add-form")
    assert notice_text(driver) == "Added Rice, white, long-grain, cooked to lunch."
    assert meal_total(driver, "lunch") == "195 kcal"

    # A live update redraws the lists: what they add still goes to the meal chosen.
    wait_status(driver, "live")
    choose_meal(driver, "dinner")
    # Logged as a snack: a food that names no meal goes by the hour, and at dinner time would
    # count in the dinner total below.
    Device(server, address).log(today, "Tea from the phone", 2, meal="snacks")
    until(driver, lambda d: "Tea from the phone" in texts(d, "#recent-list .food-name"), "the phone's tea", LIVE_WAIT)
    tea = next(row for row in driver.find_elements(By.CSS_SELECTOR, "#recent-list li")
               if row.find_element(By.CSS_SELECTOR, ".food-name").text == "Tea from the phone")
    mark_page(driver)
    tea.find_element(By.CSS_SELECTOR, ".quick-add-form button").click()
    wait_new_page(driver)
    assert notice_text(driver) == "Added Tea from the phone to dinner."

    # The whole of yesterday.
    assert find(driver, "#copy-day-from").get_attribute("value") != today
    submit(driver, "#copy-day-form")
    assert notice_text(driver).startswith("Copied 2 foods from ")
    assert meal_total(driver, "dinner") == "197 kcal", "yesterday's rice and the tea"
    shot(driver, "food-everyday-today")

    # A custom meal from search results, with amounts, edited after, logged to a meal.
    find(driver, "#new-meal-link").click()
    fill(driver, "#meal-name", "Eggs on toast")
    search_and_add(driver, "egg whole raw", ["Egg", "large"], "2")
    until(driver, lambda d: d.find_element(By.ID, "ingredient-0-name").get_attribute("value"), "the row is filled")
    assert find(driver, "#ingredient-0-amount").get_attribute("value") == "2"
    assert find(driver, "#search-status").text.startswith("Added ")
    fill(driver, "#ingredient-1-name", "Toast")
    fill(driver, "#ingredient-1-calories", "80")
    shot(driver, "food-everyday-meal-from-search")
    submit(driver, "#meal-form", "#save-meal")
    assert path_of(driver) == "/food"
    find(driver, "#meal-list a[aria-label='Edit the meal Eggs on toast']").click()
    assert find(driver, "#meal-heading").text == "Edit Eggs on toast"
    fill(driver, "#meal-name", "Big eggs on toast")
    fill(driver, "#ingredient-1-amount", "2")
    submit(driver, "#meal-form", "#save-meal")
    assert "Big eggs on toast" in texts(driver, "#meal-list .meal-name")
    choose_meal(driver, "breakfast")
    submit(driver, "#meal-list .meal-log-form")
    assert notice_text(driver).startswith("Added Big eggs on toast to breakfast: ")
    assert browser_problems(driver) == []

    as_phone(driver)
    open_page(driver, server, "/food")
    assert no_horizontal_scroll(driver)
    shot(driver, "food-everyday-phone")
    set_color_scheme(driver, "dark")
    open_page(driver, server, "/food")
    shot(driver, "food-everyday-phone-dark")
