"""Every page on a phone 390 px wide (an iPhone 14's width), filled with data as a person would have
it: nothing wider than the screen, every button, field and link a finger aims at at least 44 px tall
(and buttons 44 px wide), and the fields a phone shows a keyboard for bring up the right one."""

import pytest
from selenium.webdriver.support.ui import Select

from pages import (WebAPI, fill, find, fresh_email, open_details, open_page, path_of, set_color_scheme, sign_up,
                   submit, until, visible)

PASSWORD = "correct horse battery"

# The smallest target Apple's and the W3C's guidance allow (WCAG 2.5.5), in CSS pixels.
TARGET = 44

# What a finger aims at, too small: its selector-like name and size. A checkbox or radio counts
# with its label (the label is the target); a link inside running text is exempt, as WCAG says.
SMALL_TARGETS = """
const minimum = arguments[0];
function visible(element) {
  const box = element.getBoundingClientRect();
  const style = getComputedStyle(element);
  return box.width > 0 && box.height > 0 && style.visibility !== 'hidden' && !element.closest('[hidden], .visually-hidden');
}
function name(element) {
  return element.tagName.toLowerCase() + (element.id ? '#' + element.id : '') +
    (element.className && typeof element.className === 'string' ? '.' + element.className.trim().split(/\\s+/).join('.') : '') +
    ' "' + (element.textContent || element.value || '').trim().slice(0, 30) + '"';
}
const small = [];
document.querySelectorAll('button, .btn, input:not([type=hidden]), select, textarea, summary, nav a, .site-header a')
  .forEach(element => {
    if (!visible(element)) return;
    let box = element.getBoundingClientRect();
    if (element.type === 'checkbox' || element.type === 'radio') {
      const label = element.closest('label') || (element.id && document.querySelector(`label[for="${element.id}"]`));
      if (label) box = label.getBoundingClientRect();
    }
    const isButton = element.matches('button, .btn, input[type=submit]');
    if (box.height < minimum - 0.5 || (isButton && box.width < minimum - 0.5)) {
      small.push(name(element) + ' ' + Math.round(box.width) + 'x' + Math.round(box.height));
    }
  });
return small;
"""

# Anything whose right edge is past the screen's, outside a box that scrolls sideways on purpose.
CUT_OFF = """
const width = document.documentElement.clientWidth;
const cut = [];
document.querySelectorAll('main *, header *').forEach(element => {
  const box = element.getBoundingClientRect();
  if (box.width === 0 || box.right <= width + 0.5) return;
  for (let parent = element.parentElement; parent; parent = parent.parentElement) {
    const overflow = getComputedStyle(parent).overflowX;
    if (overflow === 'auto' || overflow === 'scroll' || overflow === 'hidden') return;
  }
  cut.push(element.tagName.toLowerCase() + (element.id ? '#' + element.id : '') + ' right=' + Math.round(box.right));
});
return cut.slice(0, 10);
"""


def as_phone(driver):
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})


def assert_none(problems: dict):
    found = [f"{path}: {problem}" for path, list_ in problems.items() for problem in list_]
    assert not found, "on a phone:\n" + "\n".join(found)


def problems_on(driver, server, path, shot, name) -> list:
    """What is wrong with `path` on the phone: sideways scrolling, what is cut off, small targets."""
    open_page(driver, server, path)
    problems = []
    width = driver.execute_script("return document.documentElement.scrollWidth")
    if width > 390:
        problems.append(f"scrolls sideways ({width} px)")
    problems += [f"cut off: {what}" for what in driver.execute_script(CUT_OFF)]
    problems += [f"under {TARGET} px: {what}" for what in driver.execute_script(SMALL_TARGETS, TARGET)]
    shot(driver, f"phone-{name}")
    return problems


@pytest.fixture
def filled_account(server, driver):
    """An account with a contact, a year of deliveries, a day of food with a goal, a meal, and a
    family with a reminder; returns the pages to visit."""
    sign_up(driver, server, fresh_email("phone"), PASSWORD)
    contact = WebAPI(driver, server).contact("Ada", "Lovelace")
    open_page(driver, server, "/outreach")
    fill(driver, "#firstName", "Émile")
    fill(driver, "#lastName", "Zola")
    fill(driver, "#enterpriseName", "Éditions Charpentier et Compagnie")
    submit(driver, "#add-person-form")
    person = find(driver, "#people-table tbody tr").get_attribute("id").removeprefix("person-")
    open_page(driver, server, "/food")
    fill(driver, "#goal-calories-input", "2000")
    submit(driver, "#goal-form")
    open_details(driver, "#by-hand")
    fill(driver, "#food-name", "Porridge with blueberries and a little honey")
    fill(driver, "#food-calories", "350")
    submit(driver, "#add-item-form")
    item = find(driver, "#food-list .food-item").get_attribute("id").removeprefix("item-")
    open_page(driver, server, "/family")
    fill(driver, "#create-name", "The Hoppers")
    fill(driver, "#create-displayName", "Grace")
    submit(driver, "#create-form")
    open_page(driver, server, "/family/reminders/new")
    fill(driver, "#reminder-title", "Water the plants")
    submit(driver, "#reminder-form", "#save-reminder")
    reminder = path_of(driver)
    return {
        "home": "/", "help": "/help", "account": "/account", "contacts": "/contacts",
        "contact": f"/contacts/{contact}", "contact-new": "/contacts/new", "outreach": "/outreach",
        "outreach-person": f"/outreach/people/{person}", "food": "/food", "food-item": f"/food/items/{item}",
        "food-meal-new": "/food/meals/new", "family": "/family", "family-members": "/family/members",
        "family-notices": "/family/notices", "family-reminder": reminder, "family-reminder-new": "/family/reminders/new",
    }


def test_every_page_fits_a_phone_with_finger_sized_targets(server, driver, filled_account, shot):
    as_phone(driver)
    problems = {path: problems_on(driver, server, path, shot, name) for name, path in filled_account.items()}
    assert_none(problems)
    # The Food page's table of the last 30 days, opened.
    open_page(driver, server, "/food")
    open_details(driver, "#history-table-details")
    assert driver.execute_script(CUT_OFF) == [], "the Food history table is cut off"
    shot(driver, "phone-food-history")
    set_color_scheme(driver, "dark")
    shot(driver, "phone-food-dark")


def test_signed_out_pages_fit_a_phone(server, driver, shot):
    as_phone(driver)
    problems = {path: problems_on(driver, server, path, shot, path.strip("/"))
                for path in ("/signin", "/signup", "/forgot-password")}
    assert_none(problems)
    # An address brings up the keyboard with @.
    for path in ("/signin", "/signup", "/forgot-password"):
        open_page(driver, server, path)
        assert find(driver, "#email").get_attribute("type") == "email", path


def test_fields_bring_up_the_right_keyboard(server, driver, filled_account):
    # A contact's email and phone: the value's keyboard follows the type chosen.
    open_page(driver, server, filled_account["contact"])
    find(driver, "#contact-info-add").click()
    kind = Select(visible(driver, "#contact-info-field-contact_field_type_id"))
    for label, keyboard in (("Email", "email"), ("Phone", "tel")):
        kind.select_by_visible_text(label)
        until(driver, lambda d: find(d, "#contact-info-field-data").get_attribute("type") == keyboard,
              f"a {label} brings up the {keyboard} keyboard")
    open_page(driver, server, "/food")
    for field in ("#food-calories", "#food-protein", "#goal-calories-input"):
        assert find(driver, field).get_attribute("inputmode") in ("decimal", "numeric"), field
    assert find(driver, "#day-date").get_attribute("type") == "date"
    open_page(driver, server, "/family/reminders/new")
    kinds = driver.execute_script(
        "return Array.from(document.querySelectorAll('#reminder-form input')).map(i => [i.name, i.type, i.inputMode])")
    by_name = {name: (kind, mode) for name, kind, mode in kinds}
    assert by_name.get("dueDate", ("date",))[0] == "date" and by_name.get("dueTime", ("time",))[0] == "time", by_name
    for name in ("latitude", "longitude"):
        if name in by_name:
            assert by_name[name][1] == "decimal" or by_name[name][0] == "number", (name, by_name[name])
