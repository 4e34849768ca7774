"""The web app's account pages in a real browser against a real `kith serve`."""

import requests
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from pages import *  # noqa: F401,F403  (the shared helpers)
from pages import RESET_LINK, WAIT

# ---------------------------------------------------------------------------
# Tests
# ---------------------------------------------------------------------------

def test_account_lifecycle(server, driver, shot):
    address = fresh_email("flow")
    first_password = "first-password-1"
    second_password = "second-password-2"

    # Sign up: lands on the home page; the account page shows the email.
    open_page(driver, server, "/signup")
    assert driver.title == "Create your account · Kith"
    shot(driver, "signup")
    fill(driver, "#email", address)
    fill(driver, "#password", first_password)
    submit(driver, "#signup-form")
    wait_for_path(driver, "/")
    assert driver.title == "Home · Kith"
    open_page(driver, server, "/account")
    assert visible(driver, "#account-email").text == address
    assert address in find(driver, ".site-header").text
    assert "Member since" in find(driver, "main").text
    assert visible(driver, "#tokens-empty").text
    shot(driver, "account")

    # Sign out, then a wrong password: an error, and still on /signin.
    sign_out(driver)
    sign_in(driver, server, address, "not-the-password")
    assert_wrong_credentials(driver, address)
    assert find(driver, "#password").get_attribute("autocomplete") == "current-password"
    shot(driver, "signin-error")

    # The right password: the home page, signed in.
    fill(driver, "#password", first_password)
    submit(driver, "#signin-form")
    wait_for_path(driver, "/")
    assert address in find(driver, ".site-header").text
    sign_out(driver)

    # Forgot password, through the link on the sign-in page.
    find(driver, "a[href='/forgot-password']").click()
    wait_for_path(driver, "/forgot-password")
    before = set(eml_files(server))
    fill(driver, "#email", address)
    submit(driver, "#forgot-form")
    assert path_of(driver) == "/forgot-password"
    assert "If an account exists for that email" in notice_text(driver)
    assert find(driver, "#forgot-form").is_displayed()
    shot(driver, "forgot-sent")

    # The mail: to this address, with a reset link to this server.
    message = wait_for_new_mail(server, before)
    assert address in str(message["To"])
    links = RESET_LINK.findall(mail_text(message))
    assert links, f"no reset link in the mail:\n{mail_text(message)}"
    link = links[0]
    assert link.startswith(server.base_url + "/reset-password?token="), link
    driver.get(link)
    wait_loaded(driver)
    assert path_of(driver) == "/reset-password"
    find(driver, "#reset-form")
    assert find(driver, "#reset-form input[name=token]").get_attribute("value")
    shot(driver, "reset")
    fill(driver, "#newPassword", second_password)
    submit(driver, "#reset-form")
    wait_for_path(driver, "/signin")
    assert "changed" in notice_text(driver).lower()
    shot(driver, "signin-after-reset")

    # The link works once.
    driver.get(link)
    wait_loaded(driver)
    assert absent(driver, "#reset-form")
    assert visible(driver, "#form-error").text
    assert find(driver, "main a[href='/forgot-password']")

    # Old password fails, new password works.
    sign_in(driver, server, address, first_password)
    assert_wrong_credentials(driver, address)
    fill(driver, "#password", second_password)
    submit(driver, "#signin-form")
    wait_for_path(driver, "/")
    open_page(driver, server, "/account")

    # An API token: shown once, listed.
    fill(driver, "#token-name", "laptop")
    submit(driver, "#token-form")
    token = visible(driver, "#new-token").get_attribute("value")
    assert token.startswith("kpt_"), token
    assert find(driver, "#new-token").get_attribute("readonly") is not None
    assert "will not be shown again" in find(driver, "#new-token-panel").text
    assert visible(driver, "#copy-token").text == "Copy"  # the script unhid it
    assert token_names(driver) == ["laptop"]
    assert "never" in find(driver, "#token-list .token-meta").text
    shot(driver, "account-token")
    set_color_scheme(driver, "dark")
    shot(driver, "account-token-dark")
    set_color_scheme(driver, "light")

    # The page says how a phone's own Contacts and Reminders sign in with such a token, and what
    # it says works: the server and user name shown, the token as the password, find the contacts.
    assert "the password, with your email as the user name" in find(driver, "#new-token-panel").text
    shown_server = find(driver, "#phone-server").text
    assert shown_server == server.base_url
    assert find(driver, "#phone-user").text == address
    found = requests.request(
        "PROPFIND", shown_server + "/.well-known/carddav", auth=(address, token), headers={"Depth": "0"},
        data='<d:propfind xmlns:d="DAV:"><d:prop><d:current-user-principal/></d:prop></d:propfind>', timeout=10)
    assert found.status_code == 207 and "/dav/principals/" in found.text, (found.status_code, found.text[:300])
    refused = requests.request("PROPFIND", shown_server + "/dav/", auth=(address, first_password), timeout=10)
    assert refused.status_code == 401, "the account password is not an app password"
    iphone = find(driver, "#phone-apps details.how summary")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", iphone)
    iphone.click()
    assert "Add CardDAV Account" in visible(driver, "#phone-apps details.how[open] p").text
    shot(driver, "account-phone-apps")

    # Reading the page again does not show the token again.
    open_page(driver, server, "/account")
    assert absent(driver, "#new-token")
    assert token_names(driver) == ["laptop"]

    # Revoke it: the page asks first, and "Cancel" keeps it.
    find(driver, "#token-list .token .revoke-form button[type=submit]").click()
    alert = WebDriverWait(driver, WAIT).until(EC.alert_is_present())
    assert alert.text == "Revoke laptop? Every app and phone signed in with it stops working at once."
    alert.dismiss()
    assert token_names(driver) == ["laptop"]
    button = find(driver, "#token-list .token .revoke-form button[type=submit]")
    mark_page(driver)
    button.click()
    WebDriverWait(driver, WAIT).until(EC.alert_is_present()).accept()
    wait_new_page(driver)
    assert "laptop" not in token_names(driver)
    assert visible(driver, "#tokens-empty")
    assert "revoked" in notice_text(driver).lower()

    # Delete the account: password, the checkbox, and the script's confirm().
    fill(driver, "#deletePassword", second_password)
    checkbox = find(driver, "#confirm")
    assert checkbox.get_attribute("required") is not None
    checkbox.click()
    button = find(driver, "#delete-form button[type=submit]")
    mark_page(driver)
    button.click()
    alert = WebDriverWait(driver, WAIT).until(EC.alert_is_present())
    assert "Delete your account" in alert.text
    alert.accept()
    wait_new_page(driver)
    wait_for_path(driver, "/signup")
    assert "deleted" in notice_text(driver).lower()
    assert absent(driver, "#signout-form")
    shot(driver, "signup-after-delete")

    # The account is gone.
    sign_in(driver, server, address, second_password)
    assert_wrong_credentials(driver, address)

    # The sign-in page in dark mode (with its error showing).
    light = background_of(driver, "body")
    set_color_scheme(driver, "dark")
    WebDriverWait(driver, WAIT).until(lambda d: background_of(d, "body") != light)
    shot(driver, "signin-error-dark")

    assert browser_problems(driver) == []


def test_signup_on_a_phone(server, driver, shot):
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    open_page(driver, server, "/signup")
    assert driver.execute_script("return window.innerWidth") == 390  # the viewport meta tag works
    assert no_horizontal_scroll(driver)
    assert unlabeled_inputs(driver) == []
    assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "en"

    # The first Tab stop is the skip link, and it shows itself when focused.
    ActionChains(driver).send_keys(Keys.TAB).perform()
    focused = driver.switch_to.active_element
    assert focused.get_attribute("href").endswith("#main")
    assert focused.is_displayed()
    assert driver.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight", focused)
    driver.execute_script("document.activeElement.blur()")
    shot(driver, "signup-phone")

    # A signed-in account page with a long email and a token also fits.
    address = fresh_email("phone-with-a-rather-long-address")
    fill(driver, "#email", address)
    fill(driver, "#password", "phone-password-1")
    submit(driver, "#signup-form")
    wait_for_path(driver, "/")
    open_page(driver, server, "/account")
    fill(driver, "#token-name", "a phone token with a fairly long name to wrap")
    submit(driver, "#token-form")
    assert visible(driver, "#new-token").get_attribute("value").startswith("kpt_")
    assert no_horizontal_scroll(driver)
    assert unlabeled_inputs(driver) == []
    shot(driver, "account-phone")
    set_color_scheme(driver, "dark")
    shot(driver, "account-phone-dark")

    assert browser_problems(driver) == []


def test_signup_field_errors(server, driver, shot):
    open_page(driver, server, "/signup")

    # An address the browser accepts but the server does not: the error sits by the email field.
    fill(driver, "#email", "someone@localhost")
    fill(driver, "#password", "long-enough-password")
    submit(driver, "#signup-form")
    assert path_of(driver) == "/signup"
    email_error = visible(driver, "#email-error")
    assert "valid email" in email_error.text
    email_field = find(driver, "#email")
    assert email_field.get_attribute("aria-invalid") == "true"
    assert "email-error" in email_field.get_attribute("aria-describedby").split()
    assert email_field.get_attribute("value") == "someone@localhost"
    assert driver.execute_script(
        "return arguments[0].closest('.field') === arguments[1].closest('.field')", email_error, email_field)
    assert driver.switch_to.active_element == email_field  # focus went to the field to fix
    assert absent(driver, "#password-error")
    shot(driver, "signup-email-error")

    # A short password: the browser stops it first (minlength) ...
    fill(driver, "#email", fresh_email("short"))
    fill(driver, "#password", "short")
    form = find(driver, "#signup-form")
    assert driver.execute_script("return arguments[0].checkValidity()", form) is False
    # ... and without the browser's check the server says so next to the field.
    driver.execute_script("arguments[0].noValidate = true", form)
    submit(driver, "#signup-form")
    password_error = visible(driver, "#password-error")
    assert "8 characters" in password_error.text
    password_field = find(driver, "#password")
    assert password_field.get_attribute("aria-invalid") == "true"
    described_by = password_field.get_attribute("aria-describedby").split()
    assert "password-error" in described_by and "password-hint" in described_by
    assert absent(driver, "#email-error")
    assert find(driver, "#password-hint").text == "At least 8 characters"
    shot(driver, "signup-password-error")
    set_color_scheme(driver, "dark")
    shot(driver, "signup-password-error-dark")

    assert browser_problems(driver) == []


def test_stale_form_shows_error_page(server, driver, shot):
    # A form whose CSRF token no longer matches the browser's cookie gets a page, not JSON.
    open_page(driver, server, "/signin")
    driver.execute_script("document.querySelector('#signin-form input[name=_csrf]').value = 'stale'")
    fill(driver, "#email", fresh_email("stale"))
    fill(driver, "#password", "whatever-password")
    submit(driver, "#signin-form")
    assert driver.title.endswith(" · Kith")
    assert "expired" in visible(driver, "#error-message").text
    home = find(driver, "main a[href='/']")
    shot(driver, "error-page")
    home.click()
    wait_for_path(driver, "/signin")
    find(driver, "#signin-form")

    assert browser_problems(driver) == []
