"""Deleting an account that is a family's only parent: the account page says so before the person
tries, with the way out, instead of offering a form the server would refuse."""

from selenium.webdriver.support.ui import Select

from pages import (absent, fill, find, fresh_email, mark_page, open_page, path_of, set_color_scheme, sign_up,
                   submit, text_of, visible, wait_new_page)
from test_outreach import PASSWORD
from test_phone_width import as_phone


def found_family(driver, server):
    open_page(driver, server, "/family")
    fill(driver, "#create-name", "The Lovelaces")
    fill(driver, "#create-displayName", "Ada")
    submit(driver, "#create-form")
    open_page(driver, server, "/family/members")
    Select(find(driver, "#code-role")).select_by_value("child")
    submit(driver, "#code-form", "#make-code")
    return text_of(driver, "#join-code")


def test_the_only_parent_is_told_before_deleting_the_account(server, driver, other_driver, shot):
    sign_up(driver, server, fresh_email("only-parent"), PASSWORD)
    code = found_family(driver, server)

    # Alone in the family, the account may go (the family goes with it).
    open_page(driver, server, "/account")
    assert absent(driver, "#delete-blocked") and find(driver, "#delete-form")

    sign_up(other_driver, server, fresh_email("only-child"), PASSWORD)
    open_page(other_driver, server, "/family")
    fill(other_driver, "#join-code", code)
    fill(other_driver, "#join-displayName", "Byron")
    submit(other_driver, "#join-form", "#join-button")

    open_page(driver, server, "/account")
    blocked = visible(driver, "#delete-blocked")
    assert "You are the only parent of The Lovelaces" in blocked.text
    assert "its other member without a parent" in blocked.text
    assert absent(driver, "#delete-form"), "a deletion the server would refuse is not offered"
    find(driver, "#delete-blocked").location_once_scrolled_into_view
    shot(driver, "account-only-parent")
    as_phone(driver)
    set_color_scheme(driver, "dark")
    open_page(driver, server, "/account")
    find(driver, "#delete-blocked").location_once_scrolled_into_view
    shot(driver, "account-only-parent-phone-dark", full_page=False)
    mark_page(driver)
    find(driver, "#delete-way-out").click()
    wait_new_page(driver)
    assert path_of(driver) == "/family/members"

    # The child's account is not the family's parent: its form is there.
    open_page(other_driver, server, "/account")
    assert absent(other_driver, "#delete-blocked") and find(other_driver, "#delete-form")
