"""The Food page (/food, seed 002) in a real browser against a real `kith serve`: food logged by
hand, edited and deleted (after a confirmation), a refused number shown next to its field, the
daily goal and progress, custom meals created and logged, the 30-day chart and its table, the
search box, and a change pushed by another device appearing without a reload; phone width and
dark mode."""

import json
import time
import urllib.request
import uuid

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from pages import (LIVE_WAIT, browser_problems, fill, find, fresh_email, mark_page, no_horizontal_scroll, notice_text,
                   open_details, open_page, path_of, set_color_scheme, sign_up, still_same_page, submit, text_of, texts,
                   unlabeled_inputs, until, visible, wait_loaded, wait_status)

PASSWORD = "correct horse battery"
def food_names(driver):
    return texts(driver, "#food-list .food-name")


def total(driver):
    return text_of(driver, "#total-calories")


def add_by_hand(driver, name, calories, protein="", carbs="", fat="", size="", unit=""):
    open_details(driver, "#by-hand")
    for field, value in (("name", name), ("calories", calories), ("protein", protein), ("carbs", carbs), ("fat", fat),
                         ("servingSize", size), ("servingUnit", unit)):
        fill(driver, f"#food-{field}", value)
    submit(driver, "#add-item-form")


def item_link(driver, name, label):
    """The Edit or Delete link of the item `name`."""
    return find(driver, f"#food-list a[aria-label='{label} {name}']")


class Device:
    """Another device of the same account, speaking /v1/sync over HTTP as KithKit does."""

    def __init__(self, server, address):
        self.base = server.base_url
        session = self.call("POST", "/v1/auth/login", {"email": address, "password": PASSWORD})
        self.token = session["accessToken"]
        self.scope = "user:" + session["user"]["id"].lower()
        self.counter = 0

    def call(self, method, path, body=None):
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if getattr(self, "token", None):
            headers["Authorization"] = "Bearer " + self.token
        request = urllib.request.Request(self.base + path, method=method, headers=headers,
                                         data=None if body is None else json.dumps(body).encode())
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())

    def day_id(self, date):
        changes = self.call("GET", "/v1/sync/pull?limit=1000")["changes"]
        return next(change["id"] for change in changes
                    if change["entity"] == "nutrition.day" and change["fields"].get("date") == date)

    def log(self, date, name, calories, meal=None):
        """Logs a food on `date`; without `meal` it is shown in the meal of the hour it was logged."""
        self.counter += 1
        stamp = f"{int(time.time() * 1000):015d}-{self.counter:05d}-phone"
        fields = {"logId": self.day_id(date), "name": name, "calories": calories, "source": "manual",
                  "loggedAt": time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime())}
        if meal:
            fields["mealOfDay"] = meal
        mutation = {
            "mutationId": str(uuid.uuid4()), "entity": "nutrition.item", "id": str(uuid.uuid4()), "scope": self.scope,
            "op": "upsert", "hlc": stamp, "fields": fields,
        }
        results = self.call("POST", "/v1/sync/push", {"clientId": str(uuid.uuid4()), "mutations": [mutation]})["results"]
        assert [result["status"] for result in results] == ["applied"], results


def test_food_day_goal_meals_chart_and_live_updates(server, driver, shot):
    address = fresh_email("food")
    sign_up(driver, server, address, PASSWORD)
    # The navigation leads here.
    find(driver, "#nav-food").click()
    wait_loaded(driver)
    assert path_of(driver) == "/food"
    # The first visit tells the server the browser's time zone (and shows the reader's own today).
    zone = driver.execute_script("return Intl.DateTimeFormat().resolvedOptions().timeZone")
    until(driver, lambda d: d.find_element(By.ID, "food").get_attribute("data-zone") == zone, "the zone is told")
    wait_loaded(driver)
    root = find(driver, "#food")
    today = root.get_attribute("data-today")
    assert root.get_attribute("data-date") == today
    assert "Nothing logged" in find(driver, "#no-items").text
    assert "No daily goal set" in find(driver, "#no-goal").text
    wait_status(driver, "live")
    shot(driver, "food-empty")

    # By hand.
    add_by_hand(driver, "Porridge", "320", protein="10", carbs="54", fat="6", size="250", unit="g")
    assert notice_text(driver).startswith("Added Porridge to "), "to the meal it is time for"
    assert food_names(driver) == ["Porridge"]
    assert total(driver) == "320"
    assert text_of(driver, "#food-list .food-meta") == "250 g · P 10 g · C 54 g · F 6 g · by hand"

    # A refused number: the reason next to the field, what was typed kept, nothing written.
    open_details(driver, "#by-hand")
    driver.execute_script("document.getElementById('food-calories').removeAttribute('max')")
    fill(driver, "#food-name", "Feast")
    fill(driver, "#food-calories", "60000")
    submit(driver, "#add-item-form")
    assert "Calories must be between 0 and 50,000" in visible(driver, "#food-calories-error").text
    assert find(driver, "#food-calories").get_attribute("aria-invalid") == "true"
    assert find(driver, "#food-calories").get_attribute("value") == "60000"
    assert driver.switch_to.active_element.get_attribute("id") == "food-calories", "the keyboard goes to the field"
    assert food_names(driver) == ["Porridge"] and total(driver) == "320"
    shot(driver, "food-refused")

    # Edit.
    item_link(driver, "Porridge", "Edit").click()
    wait_loaded(driver)
    assert find(driver, "#food-calories").get_attribute("value") == "320"
    fill(driver, "#food-calories", "350")
    submit(driver, "#edit-item-form")
    assert path_of(driver) == "/food" and total(driver) == "350"

    # The goal and progress against it: left, then over.
    fill(driver, "#goal-calories-input", "2000")
    submit(driver, "#goal-form")
    assert text_of(driver, "#remaining") == "1,650 kcal left"
    assert text_of(driver, "#goal-calories") == "2,000"
    add_by_hand(driver, "Pizza", "1900")
    assert text_of(driver, "#remaining") == "250 kcal over"
    assert "is-over" in find(driver, ".goal-progress").get_attribute("class")
    shot(driver, "food-over-goal")

    # Delete asks first.
    item_link(driver, "Pizza", "Delete").click()
    wait_loaded(driver)
    assert "Delete Pizza?" in find(driver, "#confirm-heading").text
    shot(driver, "food-confirm-delete")
    submit(driver, "#confirm-form", "#confirm-button")
    assert food_names(driver) == ["Porridge"] and text_of(driver, "#remaining") == "1,650 kcal left"
    assert notice_text(driver) == "Deleted Pizza."
    assert path_of(driver) == "/food", "the address is the day's again"

    # A custom meal: created with its ingredients (one row added by the page's button), then logged.
    find(driver, "#new-meal-link").click()
    wait_loaded(driver)
    fill(driver, "#meal-name", "Breakfast")
    fill(driver, "#ingredient-0-name", "Toast")
    fill(driver, "#ingredient-0-calories", "160")
    find(driver, "#add-ingredient").click()
    assert len(driver.find_elements(By.CSS_SELECTOR, "#ingredient-list > li")) == 4
    assert driver.switch_to.active_element.get_attribute("id") == "ingredient-3-name"
    fill(driver, "#ingredient-3-name", "Orange juice")
    fill(driver, "#ingredient-3-calories", "110")
    fill(driver, "#ingredient-3-servingSize", "250")
    fill(driver, "#ingredient-3-servingUnit", "ml")
    shot(driver, "food-new-meal")
    submit(driver, "#meal-form", "#save-meal")
    assert path_of(driver) == "/food"
    assert "2 ingredients: Toast, Orange juice" in text_of(driver, "#meal-list .meal .food-meta")
    submit(driver, "#meal-list .meal-log-form")
    said = notice_text(driver)
    assert said.startswith("Added Breakfast to ") and said.endswith(": 270 kcal."), said
    assert food_names(driver) == ["Porridge", "Toast", "Orange juice"]
    assert total(driver) == "620"

    # The chart: 30 bars, described, with the same numbers as a table.
    chart = visible(driver, "#history-chart")
    assert chart.size["height"] > 100
    assert len(driver.find_elements(By.CSS_SELECTOR, "#history-chart rect.chart-bar")) == 30
    assert "1 of 30 days logged" in find(driver, "#chart-caption").text
    open_details(driver, "#history-table-details")
    first_row = visible(driver, "#history-table tbody tr")
    assert "620" in first_row.text and "2,000" in first_row.text and "1,380 left" in first_row.text

    # The search box calls the server's food search with the session.
    search = find(driver, "#search-query")
    search.send_keys("apple")
    until(driver, lambda d: d.find_element(By.ID, "search-status").text not in ("", "Searching…"), "the search answers")
    said = find(driver, "#search-status").text
    if "not available" in said:
        assert said == "Food search is not available on this server."
    else:
        assert driver.find_elements(By.CSS_SELECTOR, "#search-results .search-result") or said == "No food found.", said
    search.send_keys(Keys.ESCAPE)
    assert find(driver, "#search-status").text == ""

    # Another device logs food: it appears without a reload.
    wait_status(driver, "live")
    mark_page(driver)
    Device(server, address).log(today, "Tea from the phone", 30)
    until(driver, lambda d: "Tea from the phone" in food_names(d), "the phone's food appears", LIVE_WAIT)
    until(driver, lambda d: total(d) == "650", "the total follows", LIVE_WAIT)
    assert still_same_page(driver), "the page was updated in place"
    assert text_of(driver, "#remaining") == "1,350 kcal left"
    shot(driver, "food-live")

    # Yesterday and back, by the links.
    find(driver, "#previous-day").click()
    wait_loaded(driver)
    assert "Nothing logged" in find(driver, "#no-items").text
    find(driver, "#next-day").click()
    wait_loaded(driver)
    assert find(driver, "#food").get_attribute("data-date") == today

    # Keyboard: every control is labelled and reachable; the skip link leads to the content.
    assert unlabeled_inputs(driver) == []
    assert browser_problems(driver) == []

    set_color_scheme(driver, "dark")
    open_details(driver, "#by-hand")
    shot(driver, "food-dark")
    set_color_scheme(driver, "light")


def test_food_on_a_phone(server, driver, shot):
    driver.set_window_size(390, 844)
    sign_up(driver, server, fresh_email("food-phone"), PASSWORD)
    open_page(driver, server, "/food")
    fill(driver, "#goal-calories-input", "1800")
    submit(driver, "#goal-form")
    add_by_hand(driver, "Chicken salad with a rather long name, dressing on the side", "540", protein="38", carbs="12",
                fat="31", size="1", unit="bowl")
    add_by_hand(driver, "Apple", "95")
    assert text_of(driver, "#remaining") == "1,165 kcal left"
    wait_status(driver, "live")
    shot(driver, "food-phone")
    overflow = driver.execute_script(
        "return Array.from(document.querySelectorAll('body *')).filter(e => e.getBoundingClientRect().right > "
        "window.innerWidth + 1).slice(0, 5).map(e => e.tagName + '#' + e.id + '.' + e.className)")
    assert no_horizontal_scroll(driver), overflow
    set_color_scheme(driver, "dark")
    shot(driver, "food-phone-dark")
    assert no_horizontal_scroll(driver)
