"""The Family pages (/family, seed 003) in two real browsers against a real `kith serve`: a parent
founds a family and makes an invite code, a child joins with it in another browser (after a wrong
code is refused), the parent makes a repeating reminder with a checklist for the child (the next
dates previewed as the form changes), the child sees it appear without a reload, ticks an item and
completes it (undoes that, and completes it again), and the parent sees both without a reload;
desktop, phone width and dark mode."""

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from pages import (LIVE_WAIT, browser_problems, fill, find, fresh_email, mark_page, no_horizontal_scroll, open_page,
                   path_of, set_color_scheme, set_value, sign_up, still_same_page, submit, text_of, texts,
                   unlabeled_inputs, until, visible, wait_loaded, wait_status, wait_text)

PASSWORD = "correct horse battery"
def test_a_parent_and_a_child_share_a_repeating_reminder_live(server, driver, other_driver, shot):
    parent, child = driver, other_driver

    # The parent founds the family; the browser's zone is chosen for it.
    sign_up(parent, server, fresh_email("parent"), PASSWORD)
    find(parent, "#nav-family").click()
    wait_loaded(parent)
    assert path_of(parent) == "/family"
    zone = parent.execute_script("return Intl.DateTimeFormat().resolvedOptions().timeZone")
    assert find(parent, "#create-timeZone").get_attribute("value") == zone
    assert unlabeled_inputs(parent) == []
    shot(parent, "family-start")
    fill(parent, "#create-name", "The Lovelaces")
    fill(parent, "#create-displayName", "Ada")
    submit(parent, "#create-form")
    assert text_of(parent, "h1") == "The Lovelaces"
    assert zone in text_of(parent, "#family-zone")

    # An invite code for a child, shown once, large, with its expiry.
    find(parent, "#manage-family").click()
    wait_loaded(parent)
    Select(find(parent, "#code-role")).select_by_value("child")
    submit(parent, "#code-form", "#make-code")
    code = text_of(parent, "#join-code")
    assert len(code) == 9 and code[4] == "-"
    assert text_of(parent, "#code-expiry")
    assert "Child · expires" in text_of(parent, "#code-list")
    shot(parent, "family-invite-code")

    # The child joins in another browser; a wrong code first.
    sign_up(child, server, fresh_email("child"), PASSWORD)
    open_page(child, server, "/family")
    fill(child, "#join-code", "AAAA-AAAA")
    fill(child, "#join-displayName", "Byron")
    submit(child, "#join-form", "#join-button")
    assert "was used already or expired" in visible(child, "#join-code-error").text
    assert find(child, "#join-code").get_attribute("aria-invalid") == "true"
    shot(child, "family-join-refused")
    fill(child, "#join-code", code.lower())
    submit(child, "#join-form", "#join-button")
    assert text_of(child, "h1") == "The Lovelaces"
    assert "Byron" in text_of(child, "#member-chips")
    wait_status(child, "live")
    mark_page(child)

    # The parent makes a repeating reminder with a checklist for the child.
    open_page(parent, server, "/family")
    find(parent, "#new-reminder").click()
    wait_loaded(parent)
    fill(parent, "#reminder-title", "Swimming bag")
    Select(find(parent, "#reminder-assigneeId")).select_by_visible_text("Byron")
    assert not find(parent, "#reminder-repeatInterval").is_displayed(), "a reminder that does not repeat needs no interval"
    Select(find(parent, "#reminder-repeatFrequency")).select_by_value("weekly")
    assert "Choose how it repeats" in text_of(parent, "#no-occurrences")
    find(parent, "label[for=repeat-MO]").click()
    find(parent, "label[for=repeat-WE]").click()
    fill(parent, "#reminder-repeatInterval", "2")
    set_value(parent, "#reminder-repeatTime", "07:30")
    until(parent, lambda d: len(texts(d, "#occurrence-list li")) == 5
          and all("07:30" in li for li in texts(d, "#occurrence-list li")), "five dates at 07:30")
    assert not find(parent, "#preview-button").is_displayed(), "with the script the dates follow the form"
    fill(parent, "#checklist-0-text", "Towel")
    fill(parent, "#checklist-1-text", "Goggles")
    fill(parent, "#checklist-2-text", "Swimsuit")
    find(parent, "#add-item").click()
    assert parent.switch_to.active_element.get_attribute("id") == "checklist-3-text"
    assert unlabeled_inputs(parent) == []
    shot(parent, "family-new-reminder")
    submit(parent, "#reminder-form", "#save-reminder")
    assert path_of(parent).startswith("/family/reminders/")
    assert text_of(parent, "#reminder-repeat") == "Every 2 weeks on Mon, Wed at 07:30"
    assert text_of(parent, "#reminder-assignee") == "Byron"
    assert text_of(parent, "#checklist-progress") == "0 of 3 done"
    wait_status(parent, "live")
    mark_page(parent)
    first_due = text_of(parent, "#reminder-due")

    # The child's list shows it without a reload.
    wait_text(child, "#reminder-list", "Swimming bag", LIVE_WAIT)
    assert still_same_page(child), "the list was updated in place"
    assert "For Byron · by Ada · 0 of 3 done" in text_of(child, "#reminder-list .reminder-meta")
    shot(child, "family-child-live")

    # The child ticks an item; the parent's page follows.
    find(child, "#reminder-list .reminder-title").click()
    wait_loaded(child)
    tick = find(child, "#checklist .checklist-item:first-child .tick-button")
    assert tick.get_attribute("aria-pressed") == "false"
    mark_page(child)
    tick.click()
    until(child, lambda d: not still_same_page(d), "a new page loads")
    wait_loaded(child)
    assert find(child, "#checklist .checklist-item:first-child .tick-button").get_attribute("aria-pressed") == "true"
    wait_text(parent, "#checklist-progress", "1 of 3 done", LIVE_WAIT)
    assert still_same_page(parent)

    # The child completes this time, two items not ticked: asked first, then it moves to its next
    # occurrence, and the parent sees who did it. Right after, the child may take it back for 30 s:
    # the occurrence done is due again; then done.
    submit(child, "#reminder-actions .complete-form")
    assert text_of(child, "#complete-anyway-question") == "2 items are not ticked: Goggles, Swimsuit. Complete anyway?"
    submit(child, "#complete-anyway-form", "#complete-anyway-button")
    assert text_of(child, "#undo-note") == "Completed."
    assert text_of(child, "#reminder-due") != first_due
    shot(child, "family-child-undo")
    submit(child, "#undo", "#undo-button")
    assert text_of(child, "#reminder-due") == first_due
    assert not child.find_elements(By.CSS_SELECTOR, "#reminder-completion, #undo")
    submit(child, "#reminder-actions .complete-form")
    submit(child, "#complete-anyway-form", "#complete-anyway-button")
    assert "Last done by Byron" in text_of(child, "#reminder-completion")
    wait_text(parent, "#reminder-completion", "Last done by Byron", LIVE_WAIT)
    assert text_of(parent, "#reminder-due") != first_due
    assert still_same_page(parent), "the parent's page was updated in place"
    shot(parent, "family-parent-live")
    shot(child, "family-child-reminder")
    assert browser_problems(parent) == [] and browser_problems(child) == []

    # Dark mode at desktop width.
    set_color_scheme(parent, "dark")
    open_page(parent, server, "/family")
    shot(parent, "family-dark")
    find(parent, "#new-reminder").click()
    wait_loaded(parent)
    Select(find(parent, "#reminder-repeatFrequency")).select_by_value("weekly")
    find(parent, "label[for=repeat-FR]").click()
    until(parent, lambda d: len(texts(d, "#occurrence-list li")) == 5, "five dates")
    shot(parent, "family-form-dark")
    open_page(parent, server, "/family/members")
    shot(parent, "family-members-dark")
    set_color_scheme(parent, "light")
    # The members page offers what the membership rules accept: the only parent may change and
    # remove the child, not themself; the child is offered nothing.
    own_row, = [row for row in parent.find_elements(By.CSS_SELECTOR, "#member-list .member")
                if "(you)" in row.text]
    assert not own_row.find_elements(By.CSS_SELECTOR, ".member-actions")
    assert parent.find_elements(By.CSS_SELECTOR, "#member-list .role-form")
    open_page(child, server, "/family/members")
    assert not child.find_elements(By.CSS_SELECTOR, "#member-list .member-actions")

    # Phone width, light and dark: no sideways scrolling.
    child.set_window_size(390, 844)
    open_page(child, server, "/family")
    wait_status(child, "live")
    shot(child, "family-phone")
    assert no_horizontal_scroll(child)
    find(child, "#reminder-list .reminder-title").click()
    wait_loaded(child)
    shot(child, "family-reminder-phone")
    assert no_horizontal_scroll(child)
    open_page(child, server, "/family/reminders/new")
    shot(child, "family-form-phone")
    assert no_horizontal_scroll(child)
    set_color_scheme(child, "dark")
    open_page(child, server, "/family")
    shot(child, "family-phone-dark")
    assert no_horizontal_scroll(child)
