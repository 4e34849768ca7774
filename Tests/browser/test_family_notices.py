"""Family notices in two real browsers against a real `kith serve` (issue 17): the child completes
a reminder and the parent's open /family page shows the completion notice live (the server
delivers it 30 s after the completion), in a status region the keyboard dismisses, and counts it
in the header; the notices page lists it unread until "Mark all read". A reminder's place, filled
by "Use my location" (the browser's location emulated), is shown as a drawn sketch with a link to
OpenStreetMap. Screenshots of the notices page and the place at desktop, phone width and dark."""

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from pages import (LIVE_WAIT, browser_problems, fill, find, fresh_email, no_horizontal_scroll, open_page, path_of,
                   set_color_scheme, sign_up, submit, unlabeled_inputs, until, wait_text)

PASSWORD = "correct horse battery"
# The completion notice comes 30 s after the completion, then the job runner's next look.
NOTICE_WAIT = 90


def family_of_two(parent, child, server):
    """The parent founds "The Curies" and lets the child (Irène) in with a code."""
    sign_up(parent, server, fresh_email("parent"), PASSWORD)
    open_page(parent, server, "/family")
    fill(parent, "#create-name", "The Curies")
    fill(parent, "#create-displayName", "Marie")
    submit(parent, "#create-form")
    invite_child(parent, child, server, "Irène")


def invite_child(parent, child, server, name):
    """The parent makes a child's code on the members page; the child signs up and joins as `name`."""
    open_page(parent, server, "/family/members")
    Select(find(parent, "#code-role")).select_by_value("child")
    submit(parent, "#code-form", "#make-code")
    code = find(parent, "#join-code").text
    sign_up(child, server, fresh_email("child"), PASSWORD)
    open_page(child, server, "/family")
    fill(child, "#join-code", code)
    fill(child, "#join-displayName", name)
    submit(child, "#join-form", "#join-button")
    wait_text(child, "#member-chips", name)


def emulate_location(driver, server, latitude, longitude, accuracy):
    driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": server.url(""), "permissions": ["geolocation"]})
    driver.execute_cdp_cmd(
        "Emulation.setGeolocationOverride", {"latitude": latitude, "longitude": longitude, "accuracy": accuracy})


def test_the_parent_sees_a_completion_live_and_a_reminder_has_a_place(server, driver, other_driver, shot):
    parent, child = driver, other_driver
    family_of_two(parent, child, server)

    # The parent makes a reminder for the child, at the place the browser reports.
    emulate_location(parent, server, 48.858370, 2.294481, 8)
    open_page(parent, server, "/family/reminders/new")
    fill(parent, "#reminder-title", "Walk the dog")
    Select(find(parent, "#reminder-assigneeId")).select_by_visible_text("Irène")
    assert not find(parent, "#reminder-latitude").is_displayed(), "no place until one is asked for"
    find(parent, "#where-place").click()
    find(parent, "#use-my-location").click()
    until(parent, lambda d: find(d, "#reminder-latitude").get_attribute("value") == "48.858370", "the place is filled in")
    assert find(parent, "#reminder-longitude").get_attribute("value") == "2.294481"
    assert find(parent, "#reminder-locationAccuracy").get_attribute("value") == "8"
    assert "within 8 m" in find(parent, "#location-status").text
    assert unlabeled_inputs(parent) == []
    submit(parent, "#reminder-form", "#save-reminder")
    assert path_of(parent).startswith("/family/reminders/")
    reminder = path_of(parent)
    assert find(parent, "#place-coordinates").text == "48.858370, 2.294481 · within 8 m"
    assert find(parent, "#place-osm").get_attribute("href") == (
        "https://www.openstreetmap.org/?mlat=48.858370&mlon=2.294481#map=18/48.858370/2.294481")
    assert parent.find_elements(By.CSS_SELECTOR, "#place-map svg circle.map-accuracy")
    shot(parent, "family-place")

    # The parent waits on the family's list; the child completes the reminder.
    open_page(parent, server, "/family")
    wait_text(parent, "#sync-status", "live")
    open_page(child, server, reminder)
    assert find(child, "#place-coordinates").text.startswith("48.858370, 2.294481"), "the family sees the place"
    submit(child, "#reminder-actions .complete-form")
    wait_text(child, "#reminder-status", "Completed")

    assert find(child, "#undo-button").is_displayed(), "the completion may be undone for 30 s"

    # 30 s later the notice appears on the parent's open page, without a reload, and is counted;
    # by then the child's undo button is gone.
    wait_text(parent, "#notice-toasts .notice-toast", "Irène completed Walk the dog", timeout=NOTICE_WAIT)
    until(child, lambda d: not d.find_elements(By.CSS_SELECTOR, "#undo"), "the undo goes")
    assert path_of(parent) == "/family"
    assert find(parent, "#nav-unread .nav-count-number").text == "1"
    assert find(parent, "#notice-toasts [role=status]").get_attribute("aria-live") == "polite"
    shot(parent, "family-notice-live")
    close = find(parent, "#notice-toasts .notice-toast-close")
    close.send_keys(Keys.ESCAPE)
    until(parent, lambda d: not d.find_elements(By.CSS_SELECTOR, "#notice-toasts .notice-toast"), "the toast goes")

    # The notices page lists it, unread, until "Mark all read".
    open_page(parent, server, "/family/notices")
    wait_text(parent, "#notice-list .is-unread", "Irène completed Walk the dog")
    # The page explains what notifications on this device are for, and offers to turn them on.
    assert "lock screen" in find(parent, "#push-why").text
    button = find(parent, "#enable-push")
    assert button.get_attribute("textContent") == "Turn on notifications"
    assert button.is_displayed() or find(parent, "#push-status").text
    shot(parent, "family-notices")
    set_color_scheme(parent, "dark")
    open_page(parent, server, "/family/notices")
    shot(parent, "family-notices-dark")
    open_page(parent, server, reminder)
    shot(parent, "family-place-dark")
    set_color_scheme(parent, "light")
    open_page(parent, server, "/family/notices")
    submit(parent, "#mark-all-form", "#mark-all-read")
    assert not parent.find_elements(By.CSS_SELECTOR, "#notice-list .is-unread")
    assert not find(parent, "#nav-unread").is_displayed()

    # Allowed, the browser subscribes with its push service. Headless Chromium here has none to
    # reach (no internet), and the page says so rather than pretending notifications are on.
    parent.execute_cdp_cmd("Browser.grantPermissions", {"origin": server.url(""), "permissions": ["notifications"]})
    open_page(parent, server, "/family/notices")
    find(parent, "#enable-push").click()
    wait_text(parent, "#push-status", "could not reach its push service", LIVE_WAIT)
    assert find(parent, "#enable-push").is_displayed(), "it can be tried again"

    # Phone width, light and dark: no sideways scrolling.
    parent.set_window_size(390, 844)
    open_page(parent, server, "/family/notices")
    shot(parent, "family-notices-phone")
    assert no_horizontal_scroll(parent)
    open_page(parent, server, reminder)
    shot(parent, "family-place-phone")
    assert no_horizontal_scroll(parent)
    set_color_scheme(parent, "dark")
    open_page(parent, server, "/family/notices")
    shot(parent, "family-notices-phone-dark")
    assert no_horizontal_scroll(parent)
    assert browser_problems(parent) == [] and browser_problems(child) == []
