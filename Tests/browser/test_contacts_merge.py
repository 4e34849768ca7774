"""Merge with… on a contact's page (docs/contacts-web.md, "Merging two contacts"): choose the other
entry of the same person, compare them side by side, and make one of them through Kith's
POST /api/contacts/{id}/merge, which keeps everything on both."""

from selenium.webdriver.common.by import By

from pages import (browser_problems, fill, find, no_horizontal_scroll, open_page, set_color_scheme, texts, until,
                   visible, wait_for_path)
from test_contacts import sign_up


def choose_other(driver, typed, other_id):
    fill(driver, "#merge-other", typed)
    option = f"#merge-other-options [data-contact='{other_id}']"
    until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, option), "the other is offered")
    find(driver, option).click()
    find(driver, "#merge-compare").click()
    visible(driver, "#merge-confirm")


def test_two_entries_of_one_person_are_merged(server, driver, shot):
    api = sign_up(driver, server)
    email_type, phone_type = [t["id"] for t in api.data("GET", "/api/contactfieldtypes")[:2]]
    kept = api.contact("Ada", "Lovelace")
    api.data("POST", "/api/contactfields", {"contact_id": kept, "contact_field_type_id": email_type,
                                            "data": "ada@example.org"})
    twin = api.contact("Ada", "L.", nickname="Enchantress", is_birthdate_known=True, birthdate_day=10,
                       birthdate_month=12, birthdate_year=1815)
    api.data("POST", "/api/contactfields", {"contact_id": twin, "contact_field_type_id": phone_type,
                                            "data": "+44 20 7946 0958"})
    api.data("POST", "/api/notes", {"contact_id": twin, "body": "Wrote the first program."})
    api.call("POST", f"/api/contacts/{twin}/setTags", {"tags": ["mathematics"]})
    charles = api.contact("Charles", "Babbage")

    open_page(driver, server, f"/contacts/{kept}")
    until(driver, lambda d: d.find_element(By.ID, "contact-name").text == "Ada Lovelace", "Ada loads")
    find(driver, "#merge-contact").click()
    visible(driver, "#merge-dialog")
    # Compare before choosing says what to do.
    find(driver, "#merge-compare").click()
    assert visible(driver, "#merge-pick-error").text == "Choose the other contact from the list first."
    choose_other(driver, "Ada L", twin)
    assert find(driver, "#merge-title").text == "Merge Ada L. into Ada Lovelace?"
    kept_side = find(driver, "#merge-kept").text
    other_side = find(driver, "#merge-other-side").text
    assert "Ada Lovelace" in kept_side and "ada@example.org" in kept_side, kept_side
    assert "Ada L." in other_side and "Enchantress" in other_side and "+44 20 7946 0958" in other_side, other_side
    assert "10 Dec 1815" in other_side and "1 note" in other_side, other_side
    assert "Then Ada L. is deleted. This can't be undone." in find(driver, "#merge-text").text
    shot(driver, "contact-merge-compare", full_page=False)

    # Cancel changes nothing.
    find(driver, "#merge-confirm .merge-cancel").click()
    until(driver, lambda d: not d.find_element(By.ID, "merge-dialog").is_displayed(), "the dialog closes")
    assert api.call("GET", f"/api/contacts/{twin}")[0] == 200

    # The import's link opens the comparison directly; Merge makes one contact of the two.
    open_page(driver, server, f"/contacts/{kept}?merge={twin}")
    visible(driver, "#merge-confirm")
    find(driver, "#merge-do").click()
    until(driver, lambda d: d.find_element(By.ID, "contact-notice").text == "Merged Ada L. into Ada Lovelace.",
          "the page says so")
    wait_for_path(driver, f"/contacts/{kept}")
    assert find(driver, "#contact-name").text == "Ada Lovelace"
    assert find(driver, "#contact-nickname").text == "“Enchantress”", "a blank filled from the other"
    assert "10 Dec 1815" in find(driver, "#contact-facts").text
    until(driver, lambda d: "+44 20 7946 0958" in d.find_element(By.ID, "contact-info-body").text, "the phone moved")
    assert "ada@example.org" in find(driver, "#contact-info-body").text
    until(driver, lambda d: "Wrote the first program." in d.find_element(By.ID, "notes-body").text, "the note moved")
    until(driver, lambda d: texts(d, "#tags .tag") == ["mathematics"], "the tag moved")
    assert api.call("GET", f"/api/contacts/{twin}")[0] == 404
    assert api.call("GET", "/api/contacts")[1]["meta"]["total"] == 2
    shot(driver, "contact-merged")

    # On a phone, in dark mode: the comparison stacks.
    babbage = api.contact("Charles", "B.")
    driver.set_window_size(390, 844)
    set_color_scheme(driver, "dark")
    open_page(driver, server, f"/contacts/{charles}")
    until(driver, lambda d: d.find_element(By.ID, "contact-name").text == "Charles Babbage", "Charles loads")
    find(driver, "#merge-contact").click()
    choose_other(driver, "Charles B", babbage)
    assert no_horizontal_scroll(driver)
    shot(driver, "contact-merge-compare-phone-dark", full_page=False)
    assert browser_problems(driver) == []
