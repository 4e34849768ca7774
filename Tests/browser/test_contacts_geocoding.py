"""An address added on the web without coordinates gets its map and directions once the server
has located it from its text, against a Nominatim stand-in on loopback (docs/contacts-web.md,
"Maps from the address"); desktop, phone and dark."""

import pytest
from selenium.webdriver.common.by import By

from conftest import start_server, stop_server
from nominatim_server import NominatimServer
from pages import browser_problems, find, no_horizontal_scroll, open_page, set_color_scheme, until, visible
from test_contacts import address_cards, card, choose_country, fill_address, save_address, sign_up


@pytest.fixture
def geocoder():
    stand_in = NominatimServer().start()
    yield stand_in
    stand_in.stop()


@pytest.fixture
def server_with_geocoder(tiles, geocoder):
    kith = start_server({"KITH_MAP_TILES": tiles.setting, "KITH_GEOCODER_URL": geocoder.url,
                         "KITH_PUBLIC_URL": "http://kith.test"})
    yield kith
    stop_server(kith)


def test_an_address_is_located_from_its_text(server_with_geocoder, geocoder, driver, shot):
    server = server_with_geocoder
    api = sign_up(driver, server)
    ada = api.contact("Ada", "Lovelace")
    open_page(driver, server, f"/contacts/{ada}")
    until(driver, lambda d: d.find_element(By.ID, "addresses-body").text == "No addresses yet", "none yet")

    find(driver, "#add-address").click()
    visible(driver, "#address-form")
    choose_country(driver, "fr")
    until(driver, lambda d: d.find_element(By.ID, "address-country").get_attribute("value") == "France",
          "France chosen")
    fill_address(driver, name="Home", street="Place de l'Hôtel de Ville", city="Paris", postal_code="75004")
    save_address(driver)

    # The job answers within moments; the page draws the map once it has (or at a reload).
    until(driver, lambda d: len(address_cards(d)) == 1
          and d.find_elements(By.CSS_SELECTOR, "#address-list .map-frame"), "the map from the address", timeout=20)
    home = card(driver, "Home")
    assert home.find_element(By.CSS_SELECTOR, ".address-located").text == "Located from the address"
    assert home.find_element(By.CSS_SELECTOR, ".map-caption").text == "48.8566, 2.3522"
    apple = home.find_element(By.CSS_SELECTOR, "a.directions-apple").get_attribute("href")
    assert apple == "https://maps.apple.com/?daddr=48.8566,2.3522&q=Ada%20Lovelace"
    query, user_agent = geocoder.asked()[0]
    assert query["city"] == "Paris" and query["countrycodes"] == "fr"
    assert user_agent == "Kith/0.1 (+http://kith.test)"
    shot(driver, "address-located-desktop")

    # The form does not take the located coordinates for typed ones.
    home.find_element(By.CSS_SELECTOR, ".edit-address").click()
    visible(driver, "#address-form")
    assert find(driver, "#address-latitude").get_attribute("value") == ""
    find(driver, "#address-cancel").click()

    # A decimal comma in typed coordinates: these win over the located place.
    find(driver, "#add-address").click()
    visible(driver, "#address-form")
    fill_address(driver, name="Work", city="Lyon", latitude="45,75", longitude="4,85")
    save_address(driver)
    until(driver, lambda d: len(address_cards(d)) == 2, "the second address")
    work = card(driver, "Work")
    assert work.find_element(By.CSS_SELECTOR, ".map-caption").text == "45.75, 4.85"
    assert not work.find_elements(By.CSS_SELECTOR, ".address-located")
    assert len(geocoder.asked()) == 1, "typed coordinates need no geocoder"

    driver.set_window_size(390, 844)
    open_page(driver, server, f"/contacts/{ada}")
    until(driver, lambda d: len(address_cards(d)) == 2, "the addresses on a phone")
    assert no_horizontal_scroll(driver)
    shot(driver, "address-located-phone")
    set_color_scheme(driver, "dark")
    open_page(driver, server, f"/contacts/{ada}")
    until(driver, lambda d: len(address_cards(d)) == 2, "the addresses in dark mode")
    shot(driver, "address-located-phone-dark")
    assert browser_problems(driver) == []
