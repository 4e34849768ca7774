"""Deleting an account that is a family's only parent: the account page says so before the person
tries, with the way out, instead of offering a form the server would refuse."""

from pages import (absent, fill, find, fresh_email, mark_page, open_page, path_of, set_color_scheme, sign_up,
                   submit, visible, wait_new_page)
from test_family_notices import invite_child
from test_outreach import PASSWORD
from test_phone_width import as_phone


def test_the_only_parent_is_told_before_deleting_the_account(server, driver, other_driver, shot):
    sign_up(driver, server, fresh_email("only-parent"), PASSWORD)
    open_page(driver, server, "/family")
    fill(driver, "#create-name", "The Lovelaces")
    fill(driver, "#create-displayName", "Ada")
    submit(driver, "#create-form")

    # Alone in the family, the account may go (the family goes with it).
    open_page(driver, server, "/account")
    assert absent(driver, "#delete-blocked") and find(driver, "#delete-form")

    invite_child(driver, other_driver, server, "Byron")

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
