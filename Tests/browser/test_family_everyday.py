"""The Family pages' everyday completeness, in two real browsers against a real `kith serve`:

- the family's time zone is typed into a searchable field ("Mars/Olympus" refused next to it and
  kept there to mend, "berlin" read as Europe/Berlin);
- a monthly repeat on the second Tuesday: the form shows only the parts Monthly needs, the next
  dates are Tuesdays, the reminder says the rule in words;
- the place's fields appear only once "At a place" is chosen;
- a child on what a parent asked sees no Delete and no Edit, only "Set the place", whose form
  leaves everything else locked;
- completing with items not ticked asks first (Cancel changes nothing, Complete anyway
  completes), and the parent's live notice says what was left unticked; at phone width it lies
  over no button;
- a notice about a reminder completed since says so on the notices page.

Screenshots at desktop, phone width and in dark mode."""

import datetime as dt
from zoneinfo import ZoneInfo

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from pages import (LIVE_WAIT, browser_problems, fill, find, fresh_email, no_horizontal_scroll, open_page, path_of,
                   set_color_scheme, set_value, sign_up, submit, text_of, texts, unlabeled_inputs, until, wait_loaded,
                   wait_text)
from test_family_notices import invite_child

PASSWORD = "correct horse battery"
# A completion is told 30 s after it happened, then at the job runner's next look.
NOTICE_WAIT = 90
BERLIN = ZoneInfo("Europe/Berlin")


def overlapping_buttons(driver, region_css: str) -> list:
    """The buttons and button-like links on screen that `region_css` lies over (their text)."""
    return driver.execute_script("""
        const region = document.querySelector(arguments[0]);
        if (!region) return [];
        const r = region.getBoundingClientRect();
        return Array.from(document.querySelectorAll('button, a.btn, input[type=submit]'))
          .filter(b => !region.contains(b) && b.offsetParent !== null)
          .filter(b => {
            const o = b.getBoundingClientRect();
            return o.width > 0 && o.height > 0 && o.left < r.right && o.right > r.left && o.top < r.bottom && o.bottom > r.top;
          })
          .map(b => b.textContent.trim());
    """, region_css)


def test_repeats_places_zones_asking_first_and_what_each_member_is_offered(server, driver, other_driver, shot):
    parent, child = driver, other_driver

    # The zone is searched for: an unknown one is refused next to the field, and stays there.
    sign_up(parent, server, fresh_email("parent"), PASSWORD)
    open_page(parent, server, "/family")
    zone_field = find(parent, "#create-timeZone")
    assert zone_field.get_attribute("list") == "time-zones"
    assert "Europe/Berlin" in parent.execute_script(
        "return Array.from(document.querySelectorAll('#time-zones option')).map(o => o.value)")
    fill(parent, "#create-name", "The Lovelaces")
    fill(parent, "#create-displayName", "Ada")
    fill(parent, "#create-timeZone", "Mars/Olympus")
    submit(parent, "#create-form")
    assert "IANA name" in text_of(parent, "#create-timeZone-error")
    assert find(parent, "#create-timeZone").get_attribute("value") == "Mars/Olympus"
    assert find(parent, "#create-timeZone").get_attribute("aria-invalid") == "true"
    shot(parent, "family-zone-refused")
    fill(parent, "#create-timeZone", "berlin")
    submit(parent, "#create-form")
    assert "Europe/Berlin" in text_of(parent, "#family-zone")

    invite_child(parent, child, server, "Byron")

    # A one-off due in a few minutes: its "in 3 minutes" notice comes while the rest goes on.
    due_soon = (dt.datetime.now(BERLIN) + dt.timedelta(minutes=5)).replace(second=0, microsecond=0)
    open_page(parent, server, "/family/reminders/new")
    fill(parent, "#reminder-title", "Bins out")
    Select(find(parent, "#reminder-assigneeId")).select_by_visible_text("Byron")
    set_value(parent, "#reminder-dueAt", due_soon.strftime("%Y-%m-%dT%H:%M"))
    submit(parent, "#reminder-form", "#save-reminder")
    bins = path_of(parent)
    assert bins.startswith("/family/reminders/")

    # A monthly repeat: only what Monthly needs is shown; the place's fields wait to be asked for.
    open_page(parent, server, "/family/reminders/new")
    assert not find(parent, "#place-fields").is_displayed(), "Anywhere until a place is asked for"
    assert not find(parent, "#reminder-repeatInterval").is_displayed()
    fill(parent, "#reminder-title", "Pocket money")
    Select(find(parent, "#reminder-assigneeId")).select_by_visible_text("Byron")
    Select(find(parent, "#reminder-repeatFrequency")).select_by_value("monthly")
    assert find(parent, "[data-repeat-part=monthly]").is_displayed()
    assert not find(parent, "[data-repeat-part=weekly]").is_displayed(), "no weekdays for a monthly repeat"
    assert text_of(parent, "#repeat-unit") == "months"
    assert find(parent, "#reminder-repeatInterval").get_attribute("max") == "12"
    # The form offers today's place in the month. On a second Tuesday, choosing it would change
    # nothing, so the ordinal passes through the third first: the second is then always a choice.
    Select(find(parent, "#reminder-repeatOrdinal")).select_by_value("3")
    Select(find(parent, "#reminder-repeatOrdinal")).select_by_value("2")
    Select(find(parent, "#reminder-repeatWeekday")).select_by_value("TU")
    assert find(parent, "#repeat-monthly-weekday").is_selected(), "choosing the weekday picks that kind"
    # Starting in a later year, no occurrence is "Today" or "Tomorrow", whatever day the test runs on.
    set_value(parent, "#reminder-repeatStart", "2031-03-01")
    set_value(parent, "#reminder-repeatTime", "08:00")
    # The preview answers each choice in turn ("Tue 11 Mar 2031, 08:00"): wait for the one that
    # has them all, not a Tuesday list from before the ordinal or the start was chosen.
    def second_tuesdays_from_2031(d):
        moments = texts(d, "#occurrence-list li")
        return len(moments) == 5 and all(
            li.startswith("Tue ") and 8 <= int(li.split()[1]) <= 14 and " 2031, " in li and li.endswith("08:00")
            for li in moments)

    until(parent, second_tuesdays_from_2031, "five second Tuesdays from March 2031 at 08:00")
    fill(parent, "#checklist-0-text", "Count the coins")
    fill(parent, "#checklist-1-text", "Write it down")
    find(parent, "#where-place").click()
    assert find(parent, "#place-fields").is_displayed() and find(parent, "#use-my-location").is_displayed()
    find(parent, "#where-anywhere").click()
    assert not find(parent, "#place-fields").is_displayed()
    assert unlabeled_inputs(parent) == []
    shot(parent, "family-monthly-form")
    submit(parent, "#reminder-form", "#save-reminder")
    pocket = path_of(parent)
    assert text_of(parent, "#reminder-repeat") == "Every month on the second Tuesday at 08:00"
    assert find(parent, "#delete-reminder") and text_of(parent, "#edit-reminder") == "Edit"
    shot(parent, "family-monthly-reminder")
    open_page(parent, server, "/family")
    assert "Every month on the second Tuesday at 08:00" in text_of(parent, "#reminder-list")

    # The child is offered what the rules allow it: no Delete, no Edit; setting the place.
    open_page(child, server, pocket)
    assert not child.find_elements(By.CSS_SELECTOR, "#delete-reminder")
    assert text_of(child, "#edit-reminder") == "Set the place"
    assert child.find_elements(By.CSS_SELECTOR, "#reminder-actions .complete-form")
    shot(child, "family-child-offered")
    find(child, "#edit-reminder").click()
    wait_loaded(child)
    assert "Only a parent can change what a parent asked" in text_of(child, "#details-locked")
    assert not find(child, "#reminder-title").is_enabled(), "the title is the parent's to change"
    assert find(child, "#where-place").is_selected() and find(child, "#place-fields").is_displayed()
    fill(child, "#reminder-latitude", "52,520008")
    fill(child, "#reminder-longitude", "13.404954")
    shot(child, "family-child-place-form")
    submit(child, "#reminder-form", "#save-reminder")
    assert path_of(child) == pocket
    assert text_of(child, "#place-coordinates").startswith("52.520008, 13.404954")
    assert text_of(child, "#reminder-repeat") == "Every month on the second Tuesday at 08:00", "nothing else changed"

    # Completing with nothing ticked asks first; Cancel changes nothing.
    submit(child, "#reminder-actions .complete-form")
    assert text_of(child, "#complete-anyway-question") == (
        "2 items are not ticked: Count the coins, Write it down. Complete anyway?")
    assert texts(child, "#unticked-items li") == ["Count the coins", "Write it down"]
    shot(child, "family-complete-anyway")
    set_color_scheme(child, "dark")
    shot(child, "family-complete-anyway-dark")
    set_color_scheme(child, "light")
    find(child, "#complete-anyway-cancel").click()
    wait_loaded(child)
    assert path_of(child) == pocket and not child.find_elements(By.CSS_SELECTOR, "#reminder-completion")

    # The parent waits on the list at phone width; the child completes anyway.
    parent.set_window_size(390, 844)
    open_page(parent, server, "/family")
    wait_text(parent, "#sync-status", "live")
    submit(child, "#reminder-actions .complete-form")
    submit(child, "#complete-anyway-form", "#complete-anyway-button")
    assert "Last done by Byron" in text_of(child, "#reminder-completion")
    wait_text(parent, "#notice-toasts .notice-toast", "Byron completed Pocket money", timeout=NOTICE_WAIT)
    assert "not ticked: Count the coins, Write it down." in text_of(parent, "#notice-toasts .notice-toast-body")
    assert overlapping_buttons(parent, "#notice-toasts") == [], "a live notice lies over no button on a phone"
    assert no_horizontal_scroll(parent)
    shot(parent, "family-notice-phone")
    set_color_scheme(parent, "dark")
    shot(parent, "family-notice-phone-dark")
    set_color_scheme(parent, "light")
    parent.set_window_size(1280, 900)
    open_page(parent, server, "/family/notices")
    wait_text(parent, "#notice-list", "not ticked: Count the coins, Write it down.")

    # The bins' "in 3 minutes" notice came; completed since, the child's notices page says so.
    open_page(child, server, "/family/notices")
    wait_text(child, "#notices", "Bins out", timeout=240)  # the page follows new notices live
    open_page(child, server, bins)
    submit(child, "#reminder-actions .complete-form")
    open_page(child, server, "/family/notices")
    stale = [row for row in child.find_elements(By.CSS_SELECTOR, "#notice-list .notice-row")
             if "Bins out" in row.text]
    assert stale and all("Completed since" in row.text for row in stale), [row.text for row in stale]
    assert not [row for row in stale if row.find_elements(By.CSS_SELECTOR, ".snooze-form")]
    shot(child, "family-notices-completed-since")
    child.set_window_size(390, 844)
    open_page(child, server, "/family/notices")
    assert no_horizontal_scroll(child)
    shot(child, "family-notices-completed-since-phone")
    open_page(child, server, "/family/reminders/new")
    Select(find(child, "#reminder-repeatFrequency")).select_by_value("monthly")
    assert no_horizontal_scroll(child)
    shot(child, "family-monthly-form-phone")
    set_color_scheme(child, "dark")
    shot(child, "family-monthly-form-phone-dark")
    assert browser_problems(parent) == [] and browser_problems(child) == []
