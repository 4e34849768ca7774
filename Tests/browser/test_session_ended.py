"""A session that ended, as a person meets it: the page says so, with the way to sign in, and signing
in goes back to the page they were on (its address, search included), never to another site."""

from pages import find, fill, fresh_email, mark_page, open_page, path_of, sign_up, submit, wait_new_page
from test_outreach import PASSWORD


def end_session(driver):
    """The server no longer knows the browser's session (it expired, or was signed out elsewhere)."""
    driver.add_cookie({"name": "kith_session", "value": "kith_web_" + "0" * 43, "path": "/"})


def sign_in_here(driver, address):
    fill(driver, "#email", address)
    fill(driver, "#password", PASSWORD)
    submit(driver, "#signin-form")


def test_a_page_opened_after_the_session_ended_signs_in_and_comes_back(server, driver, shot):
    address = fresh_email("ended")
    sign_up(driver, server, address, PASSWORD)
    open_page(driver, server, "/outreach")
    year = find(driver, "#outreach").get_attribute("data-year")
    end_session(driver)
    open_page(driver, server, f"/outreach?year={year}&q=ada")
    assert path_of(driver) == "/signin"
    assert find(driver, "#notice").text == "Your session ended. Sign in again to go back to the page you were on."
    shot(driver, "session-ended-signin")
    sign_in_here(driver, address)
    assert driver.current_url.endswith(f"/outreach?year={year}&q=ada"), driver.current_url
    assert find(driver, "#outreach").get_attribute("data-year") == year


def test_a_form_sent_after_the_session_ended_says_so_and_leads_back(server, driver, shot):
    address = fresh_email("ended-form")
    sign_up(driver, server, address, PASSWORD)
    open_page(driver, server, "/outreach")
    fill(driver, "#firstName", "Ada")
    fill(driver, "#lastName", "Lovelace")
    fill(driver, "#enterpriseName", "Analytical Engines")
    end_session(driver)
    submit(driver, "#add-person-form")
    assert find(driver, "h1").text == "Your session ended"
    assert "this was not saved" in find(driver, "#error-message").text
    shot(driver, "session-ended-form")
    mark_page(driver)
    find(driver, "#error-action").click()
    wait_new_page(driver)
    sign_in_here(driver, address)
    assert path_of(driver) == "/outreach"
    assert find(driver, "#no-people"), "nothing was saved by the form that arrived too late"


def test_signing_in_never_goes_to_another_site(server, driver):
    address = fresh_email("ended-next")
    sign_up(driver, server, address, PASSWORD)
    driver.delete_all_cookies()
    for forged in ("//evil.example/", "https://evil.example/", "/\\evil.example", "/signin"):
        open_page(driver, server, "/signin?next=" + forged.replace("/", "%2F"))
        sign_in_here(driver, address)
        assert path_of(driver) == "/", f"{forged} led to {driver.current_url}"
        assert driver.current_url.startswith(server.base_url)
        driver.delete_all_cookies()
