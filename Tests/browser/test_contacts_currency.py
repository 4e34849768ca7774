"""The account's currency for gifts: chosen on the account page, then every gift's value and the
gift form's hint on a contact's page are in it (docs/contacts-web.md); desktop, phone and dark."""

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from pages import browser_problems, find, no_horizontal_scroll, open_page, set_color_scheme, submit, until
from test_contacts import add, item, sign_up


def test_gifts_are_in_the_accounts_currency(server, driver, shot):
    api = sign_up(driver, server)
    ada = api.contact("Ada", "Lovelace")
    api.data("POST", "/api/gifts", {"contact_id": ada, "name": "Difference engine model", "status": "idea",
                                    "amount": 120})
    open_page(driver, server, f"/contacts/{ada}")
    until(driver, lambda d: "$120.00" in item(d, "gifts", "Difference engine model").text, "in US dollars first")

    open_page(driver, server, "/account")
    Select(find(driver, "#currency")).select_by_value("EUR")
    submit(driver, "#currency-form")
    until(driver, lambda d: "Gifts' values are now in Euro (EUR)." in d.page_source.replace("&#39;", "'"),
          "the account page says so")
    assert Select(find(driver, "#currency")).first_selected_option.get_attribute("value") == "EUR"
    shot(driver, "account-currency")

    open_page(driver, server, f"/contacts/{ada}")
    until(driver, lambda d: "€120.00" in item(d, "gifts", "Difference engine model").text, "the gift in euros")
    add(driver, "gifts")
    until(driver, lambda d: d.find_element(By.ID, "gifts-field-amount-hint").text == "In EUR (€)", "the form's hint")
    shot(driver, "gift-form-euros")

    driver.set_window_size(390, 844)
    set_color_scheme(driver, "dark")
    open_page(driver, server, "/account")
    assert no_horizontal_scroll(driver)
    find(driver, "#gift-currency")
    shot(driver, "account-currency-phone-dark")
    assert browser_problems(driver) == []
