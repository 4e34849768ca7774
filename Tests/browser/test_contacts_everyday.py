"""A contact's everyday sections (docs/contacts-web.md): calls, conversations and their messages,
debts, pets, life events, photos and the profile photo. Each is driven as a person would: add,
see, edit, delete, and a refusal shown next to its field; checked in the page and through /api.
Screenshots of the sections on a desktop, a phone, and in dark mode."""

import base64
import datetime
import struct
import zlib

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from pages import (browser_problems, find, fill, no_horizontal_scroll, open_page, set_color_scheme, set_value,
                   texts, unlabeled_inputs, until, visible)
from test_contacts import add, day, delete, edit, field_error, item, notice, save, sign_up


def day_words(offset: int) -> str:
    """A day as the pages write it: "12 Mar 2025"."""
    date = datetime.date.today() + datetime.timedelta(days=offset)
    return f"{date.day} {date.strftime('%b')} {date.year}"


def open_contact(driver, server, contact_id, name):
    open_page(driver, server, f"/contacts/{contact_id}")
    until(driver, lambda d: d.find_element(By.ID, "contact-name").text == name, f"{name} loads")


def section_text(driver, section):
    return find(driver, f"#{section}-body").text


def wait_section(driver, section, text):
    until(driver, lambda d: text in d.find_element(By.ID, f"{section}-body").text, f"{text!r} in {section}")


def wait_notice(driver, section, text):
    until(driver, lambda d: notice(d, section) == text, f"{section} says {text!r}, not {notice(driver, section)!r}")


def show_section(driver, section):
    """Scrolls the section to the top of the window, for a screenshot of it."""
    driver.execute_script(
        "document.activeElement.blur(); document.getElementById(arguments[0]).scrollIntoView({block: 'start'});"
        "window.scrollBy(0, -12);", section)


def png(width: int, height: int, colour=(67, 56, 202)) -> bytes:
    """A real PNG picture: a band of `colour` over a lighter one, what a phone's photo would be
    to the server (its bytes say it is a PNG)."""
    red, green, blue = colour
    rows = b""
    for y in range(height):
        shade = (red, green, blue) if y < height * 3 // 5 else (min(red + 120, 255), min(green + 120, 255), 230)
        rows += b"\x00" + bytes(shade) * width

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def data_url(picture: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(picture).decode()


def image_loaded(driver, css) -> bool:
    return driver.execute_script(
        "const image = document.querySelector(arguments[0]);"
        "return !!image && image.complete && image.naturalWidth > 0 && image.offsetWidth > 0;", css)


# ---- Calls -----------------------------------------------------------------------------------------

def test_calls_are_logged_edited_and_deleted(server, driver, shot):
    api = sign_up(driver, server)
    ada = api.contact("Ada", "Lovelace")
    open_contact(driver, server, ada, "Ada Lovelace")
    until(driver, lambda d: section_text(d, "calls") == "No calls", "no calls yet")

    # A call needs its day: refused next to the Day field, in the form's words; nothing logged.
    add(driver, "calls")
    assert find(driver, "#calls-add").get_attribute("hidden") is not None, "Log a call makes way for its form"
    set_value(driver, "#calls-field-called_day", "")
    save(driver, "calls")
    assert field_error(driver, "calls", "called_day") == "The day field is required."
    assert api.data("GET", f"/api/contacts/{ada}/calls") == []

    # Two days ago Ada called; what was said.
    set_value(driver, "#calls-field-called_day", day(-2))
    Select(find(driver, "#calls-field-contact_called")).select_by_visible_text("Ada called you")
    fill(driver, "#calls-field-content", "Asked about the Bernoulli numbers.")
    save(driver, "calls")
    wait_notice(driver, "calls", f"Added the call of {day_words(-2)}.")
    wait_section(driver, "calls", "They called")
    call = item(driver, "calls", "They called")
    assert "2 days ago" in call.text and "Asked about the Bernoulli numbers." in call.text, call.text
    # The summary's "Last called" follows.
    until(driver, lambda d: "Last called2 days ago" in d.find_element(By.ID, "contact-facts").get_attribute("textContent"),
          "the summary says so")

    # Today at 14:30 you called her back: newest first, with the time in the title.
    add(driver, "calls")
    set_value(driver, "#calls-field-called_time", "14:30")
    fill(driver, "#calls-field-content", "Called back about the notes.")
    save(driver, "calls")
    wait_section(driver, "calls", "Called back")
    assert [line.split("\n")[0] for line in texts(driver, "#call-list .call .item-title")] == \
        ["You called", "They called"]
    assert find(driver, "#call-list .call time").get_attribute("title").endswith(", 14:30")
    called = api.data("GET", f"/api/contacts/{ada}/calls")
    offset = driver.execute_script("return new Date().getTimezoneOffset()")
    today = datetime.datetime.combine(datetime.date.today(), datetime.time(14, 30)) + datetime.timedelta(minutes=offset)
    assert today.strftime("%Y-%m-%dT%H:%M:00Z") in [each["called_at"] for each in called], called
    show_section(driver, "calls")
    shot(driver, "calls", full_page=False)

    # Edit: the form shows the call as it is; the change shows.
    edit(driver, "calls", "They called")
    assert find(driver, "#calls-field-called_day").get_attribute("value") == day(-2)
    assert find(driver, "#calls-field-called_time").get_attribute("value") == ""
    assert Select(find(driver, "#calls-field-contact_called")).first_selected_option.text == "Ada called you"
    fill(driver, "#calls-field-content", "Asked about the Bernoulli numbers, and the engine.")
    save(driver, "calls")
    wait_notice(driver, "calls", f"Saved the call of {day_words(-2)}.")
    wait_section(driver, "calls", "and the engine")

    # Delete asks first.
    delete(driver, "calls", "Called back")
    wait_notice(driver, "calls", f"Deleted the call of {day_words(0)}, 14:30.")
    until(driver, lambda d: len(texts(d, "#call-list .call")) == 1, "one call left")
    assert [each["content"] for each in api.data("GET", f"/api/contacts/{ada}/calls")] == \
        ["Asked about the Bernoulli numbers, and the engine."]
    assert browser_problems(driver) == []


# ---- Conversations and their messages ----------------------------------------------------------------

def message_texts(driver):
    """[(author, text)] of the messages shown, in their order."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('#conversation-list .message')).map(message =>"
        " [message.querySelector('.message-author').textContent, message.querySelector('.message-text').textContent])")


def message(driver, text):
    for element in driver.find_elements(By.CSS_SELECTOR, "#conversation-list .message"):
        if text in element.text:
            return element
    raise AssertionError(f"no message with {text!r}")


def test_a_conversation_with_its_messages(server, driver, shot):
    api = sign_up(driver, server)
    ada = api.contact("Ada", "Lovelace")
    open_contact(driver, server, ada, "Ada Lovelace")
    until(driver, lambda d: section_text(d, "conversations") == "No conversations", "none yet")

    # A conversation over email, three days ago; its message form opens at once.
    add(driver, "conversations")
    Select(find(driver, "#conversations-field-contact_field_type_id")).select_by_visible_text("Email")
    set_value(driver, "#conversations-field-happened_day", day(-3))
    save(driver, "conversations")
    wait_notice(driver, "conversations", f"Added the Email conversation of {day_words(-3)}.")
    visible(driver, "#conversation-list #messages-form")
    until(driver, lambda d: d.switch_to.active_element.get_attribute("id") == "messages-field-written_by_me",
          "the message form has the focus")
    assert Select(find(driver, "#messages-field-written_by_me")).first_selected_option.text == "You"
    assert find(driver, "#messages-field-written_day").get_attribute("value") == day(-3), "on the conversation's day"

    # A message needs its words: refused next to them.
    save(driver, "messages")
    assert field_error(driver, "messages", "content") == "The message field is required."
    set_value(driver, "#messages-field-written_time", "12:00")
    fill(driver, "#messages-field-content", "Dear Ada, here are the notes on the engine.")
    save(driver, "messages")
    wait_notice(driver, "conversations", "Added the message “Dear Ada, here are the notes on the engi…”.")
    until(driver, lambda d: len(message_texts(d)) == 1, "the message shows")

    # Her answer: the form offers her turn; written later that day.
    find(driver, "#conversation-list .add-message").click()
    visible(driver, "#messages-form")
    assert Select(find(driver, "#messages-field-written_by_me")).first_selected_option.text == "Ada"
    set_value(driver, "#messages-field-written_time", "18:00")
    fill(driver, "#messages-field-content", "Thank you! I have added my own notes, longer than the memoir.")
    save(driver, "messages")
    until(driver, lambda d: len(message_texts(d)) == 2, "two messages")
    # And a first one, earlier that day: oldest first inside the conversation.
    find(driver, "#conversation-list .add-message").click()
    set_value(driver, "#messages-field-written_time", "09:15")
    fill(driver, "#messages-field-content", "Shall I send the notes?")
    save(driver, "messages")
    until(driver, lambda d: len(message_texts(d)) == 3, "three messages")
    assert message_texts(driver) == [
        ["You", "Shall I send the notes?"],
        ["You", "Dear Ada, here are the notes on the engine."],
        ["Ada", "Thank you! I have added my own notes, longer than the memoir."],
    ], message_texts(driver)
    show_section(driver, "conversations")
    shot(driver, "conversation", full_page=False)

    # Edit a message in place: its form takes its place, filled from it.
    message(driver, "Shall I send").find_element(By.CSS_SELECTOR, ".edit-item").click()
    visible(driver, "#conversation-list .message.is-editing #messages-form")
    assert find(driver, "#messages-field-content").get_attribute("value") == "Shall I send the notes?"
    assert find(driver, "#messages-field-written_time").get_attribute("value") == "09:15"
    fill(driver, "#messages-field-content", "Shall I send you the notes?")
    save(driver, "messages")
    wait_notice(driver, "conversations", "Saved the message “Shall I send you the notes?”.")
    until(driver, lambda d: message_texts(d)[0] == ["You", "Shall I send you the notes?"], "the edit shows")

    # Changed elsewhere while its form is open: the form asks which to keep.
    conversation_id = api.data("GET", f"/api/contacts/{ada}/conversations")[0]["id"]
    first = next(each for each in api.data("GET", f"/api/conversations/{conversation_id}")["messages"]
                 if each["content"] == "Shall I send you the notes?")
    message(driver, "Shall I send").find_element(By.CSS_SELECTOR, ".edit-item").click()
    until(driver, lambda d: d.find_element(By.ID, "messages-field-content").get_attribute("value") ==
          "Shall I send you the notes?", "the form shows the message")
    api.data("PUT", f"/api/conversations/{conversation_id}/messages/{first['id']}",
             {"content": "Shall I post the notes?", "written_at": first["written_at"], "written_by_me": True})
    fill(driver, "#messages-field-content", "Shall I bring the notes?")
    save(driver, "messages")
    panel = visible(driver, "#messages-form .conflict")
    assert "Someone changed this while you were editing it" in panel.text
    assert "Keep yours: “Shall I bring the notes?”" in panel.text
    assert "Take the other change: “Shall I post the notes?”" in panel.text
    shot(driver, "message-conflict", full_page=False)
    find(driver, "#messages-form .conflict-mine").click()
    save(driver, "messages")
    until(driver, lambda d: message_texts(d)[0] == ["You", "Shall I bring the notes?"], "the person's words kept")

    # Delete a message after asking.
    message(driver, "Shall I bring").find_element(By.CSS_SELECTOR, ".delete-item").click()
    # Delete reads the message as it is now: the dialog opens when that answer arrives.
    assert visible(driver, "#confirm-title").text == "Delete the message “Shall I bring the notes?”?"
    find(driver, "#confirm-delete").click()
    until(driver, lambda d: len(message_texts(d)) == 2, "the message is deleted")
    assert len(api.data("GET", f"/api/conversations/{conversation_id}")["messages"]) == 2

    # The conversation: change its medium, then delete it with its messages.
    edit(driver, "conversations", "Email")
    Select(find(driver, "#conversations-field-contact_field_type_id")).select_by_visible_text("Phone")
    save(driver, "conversations")
    wait_notice(driver, "conversations", f"Saved the Phone conversation of {day_words(-3)}.")
    item(driver, "conversations", "Phone").find_element(By.CSS_SELECTOR, ".item-head .delete-item").click()
    assert "Its 2 messages go with it" in visible(driver, "#confirm-dialog").text
    find(driver, "#confirm-delete").click()
    until(driver, lambda d: section_text(d, "conversations") == "No conversations", "deleted")
    assert api.data("GET", f"/api/contacts/{ada}/conversations") == []
    assert browser_problems(driver) == []


# ---- Debts ---------------------------------------------------------------------------------------

def test_debts_are_added_settled_and_deleted(server, driver, shot):
    api = sign_up(driver, server)
    ada = api.contact("Ada", "Lovelace")
    open_contact(driver, server, ada, "Ada Lovelace")
    until(driver, lambda d: section_text(d, "debts") == "No debts", "no debts yet")

    # An amount is needed: refused next to it.
    add(driver, "debts")
    until(driver, lambda d: d.find_element(By.ID, "debts-field-amount-hint").text == "In USD ($)", "the currency")
    assert not find(driver, "#debts-field-settled").is_displayed(), "a new debt is open"
    Select(find(driver, "#debts-field-in_debt")).select_by_visible_text("You owe Ada")
    save(driver, "debts")
    assert field_error(driver, "debts", "amount") == "The amount field is required."
    fill(driver, "#debts-field-amount", "12")
    fill(driver, "#debts-field-reason", "Train tickets to London")
    save(driver, "debts")
    wait_notice(driver, "debts", "Added the debt “You owe Ada $12.00”.")
    wait_section(driver, "debts", "You owe Ada $12.00")

    add(driver, "debts")
    assert Select(find(driver, "#debts-field-in_debt")).first_selected_option.text == "Ada owes you"
    fill(driver, "#debts-field-amount", "30.5")
    save(driver, "debts")
    wait_section(driver, "debts", "Ada owes you $30.50")
    assert texts(driver, "#debt-list .item-title") == ["Ada owes you $30.50", "You owe Ada $12.00"]

    # Settled: it goes below the open ones, marked.
    item(driver, "debts", "Ada owes you").find_element(By.CSS_SELECTOR, ".debt-toggle").click()
    wait_notice(driver, "debts", "Settled: the debt “Ada owes you $30.50”.")
    until(driver, lambda d: texts(d, "#debt-list .item-title") == ["You owe Ada $12.00", "Ada owes you $30.50"],
          "open ones first")
    assert texts(driver, "#debt-list .debt-state") == ["OPEN", "SETTLED"]
    assert [debt["status"] for debt in api.data("GET", f"/api/contacts/{ada}/debts")
            if debt["amount"] == 30.5] == ["completed"]
    show_section(driver, "debts")
    shot(driver, "debts", full_page=False)

    # Edit: the amount; the form shows whether it is settled.
    edit(driver, "debts", "You owe Ada")
    assert find(driver, "#debts-field-amount").get_attribute("value") == "12"
    assert not find(driver, "#debts-field-settled").is_selected()
    fill(driver, "#debts-field-amount", "14.2")
    save(driver, "debts")
    wait_notice(driver, "debts", "Saved the debt “You owe Ada $14.20”.")
    # Reopened, then deleted.
    item(driver, "debts", "Ada owes you").find_element(By.CSS_SELECTOR, ".debt-toggle").click()
    until(driver, lambda d: texts(d, "#debt-list .debt-state") == ["OPEN", "OPEN"], "reopened")
    delete(driver, "debts", "You owe Ada $14.20")
    wait_notice(driver, "debts", "Deleted the debt “You owe Ada $14.20”.")
    assert [debt["amount"] for debt in api.data("GET", f"/api/contacts/{ada}/debts")] == [30.5]
    assert browser_problems(driver) == []


# ---- Pets and life events ------------------------------------------------------------------------

def test_pets_and_life_events(server, driver, shot):
    api = sign_up(driver, server)
    ada = api.contact("Ada", "Lovelace")
    open_contact(driver, server, ada, "Ada Lovelace")

    # A pet's kind must be chosen.
    add(driver, "pets")
    fill(driver, "#pets-field-name", "Puff")
    save(driver, "pets")
    assert field_error(driver, "pets", "pet_category_id") == "The kind field is required."
    kinds = [option.text for option in Select(find(driver, "#pets-field-pet_category_id")).options]
    assert kinds[:4] == ["Choose…", "Cat", "Dog", "Fish"] and "Small animal" in kinds, kinds
    Select(find(driver, "#pets-field-pet_category_id")).select_by_visible_text("Cat")
    save(driver, "pets")
    wait_notice(driver, "pets", "Added the cat “Puff”.")
    wait_section(driver, "pets", "Puff")
    assert texts(driver, "#pet-list .pet-kind") == ["Cat"]
    edit(driver, "pets", "Puff")
    Select(find(driver, "#pets-field-pet_category_id")).select_by_visible_text("Dog")
    save(driver, "pets")
    until(driver, lambda d: texts(d, "#pet-list .pet-kind") == ["Dog"], "the kind changes")
    assert api.data("GET", f"/api/contacts/{ada}/pets")[0]["pet_category"]["name"] == "dog"

    # Life events: the kinds grouped by category.
    add(driver, "life-events")
    groups = driver.execute_script(
        "return Array.from(document.querySelectorAll('#life-events-field-life_event_type_id optgroup')).map(g => g.label)")
    assert groups == ["Work & education", "Family & relationships", "Home & living", "Health & wellness",
                      "Travel & experiences"], groups
    assert find(driver, "#life-events-field-has_reminder").is_displayed(), "a new one may be remembered"
    fill(driver, "#life-events-field-name", "Moved to St James's Square")
    save(driver, "life-events")
    assert field_error(driver, "life-events", "life_event_type_id") == "The kind field is required."
    Select(find(driver, "#life-events-field-life_event_type_id")).select_by_visible_text("Moved")
    set_value(driver, "#life-events-field-happened_at", "1835-07-08")
    fill(driver, "#life-events-field-note", "A house of her own, with room for the engine drawings.")
    find(driver, "#life-events-field-has_reminder").click()
    save(driver, "life-events")
    wait_notice(driver, "life-events", "Added the life event “Moved to St James's Square”.")
    wait_section(driver, "life-events", "8 Jul 1835")
    event = item(driver, "life-events", "St James's Square").text
    assert "Moved · Home & living" in event and "room for the engine drawings" in event, event
    # Remembered every year: its reminder is in Reminders.
    wait_section(driver, "reminders", "Moved")
    assert "Every year" in item(driver, "reminders", "Moved").text

    add(driver, "life-events")
    Select(find(driver, "#life-events-field-life_event_type_id")).select_by_visible_text("New pet")
    set_value(driver, "#life-events-field-happened_at", "1840-03-01")
    save(driver, "life-events")
    wait_section(driver, "life-events", "New pet")
    assert texts(driver, "#life-event-list .item-title") == ["New pet", "Moved to St James's Square"]
    show_section(driver, "life-events")
    shot(driver, "life-events-and-pets", full_page=False)

    # Edit: the yearly reminder is a creation's choice only; the title and day change.
    edit(driver, "life-events", "St James's Square")
    assert not find(driver, "#life-events-field-has_reminder").is_displayed()
    assert find(driver, "#life-events-field-happened_at").get_attribute("value") == "1835-07-08"
    fill(driver, "#life-events-field-name", "Moved to Ockham Park")
    set_value(driver, "#life-events-field-happened_at", "1835-07-09")
    save(driver, "life-events")
    wait_notice(driver, "life-events", "Saved the life event “Moved to Ockham Park”.")
    wait_section(driver, "life-events", "9 Jul 1835")
    reminder = next(each for each in api.data("GET", f"/api/contacts/{ada}/reminders") if each["title"] == "Moved")
    assert reminder["initial_date"].startswith("1835-07-09"), "the reminder follows the day"

    # Deleted, with its reminder; the pet too.
    delete(driver, "life-events", "Ockham Park")
    wait_notice(driver, "life-events", "Deleted the life event “Moved to Ockham Park”.")
    until(driver, lambda d: "Moved" not in section_text(d, "reminders"), "its reminder goes")
    delete(driver, "pets", "Puff")
    wait_notice(driver, "pets", "Deleted the dog “Puff”.")
    until(driver, lambda d: section_text(d, "pets") == "No pets", "no pets")
    assert browser_problems(driver) == []


# ---- Photos and the profile photo ----------------------------------------------------------------

def test_photos_and_the_profile_photo(server, driver, shot, tmp_path):
    api = sign_up(driver, server)
    ada = api.contact("Ada", "Lovelace")
    open_contact(driver, server, ada, "Ada Lovelace")
    until(driver, lambda d: section_text(d, "photos") == "No photos", "no photos yet")
    assert find(driver, "#contact-initials").is_displayed() and not find(driver, "#contact-photo").is_displayed()

    # A file that is not a picture, whatever its name: the server's refusal under the field.
    not_a_picture = tmp_path / "engine.png"
    not_a_picture.write_text("Notes on the analytical engine, not a picture.")
    add(driver, "photos")
    field = find(driver, "#photos-field-photo")
    assert field.get_attribute("accept") == "image/*"
    field.send_keys(str(not_a_picture))
    save(driver, "photos")
    refusal = field_error(driver, "photos", "photo")
    assert refusal.startswith("The photo must be an image"), refusal
    assert api.data("GET", f"/api/contacts/{ada}/photos") == []
    shot(driver, "photo-refused", full_page=False)

    # Two pictures, uploaded; the thumbnails load from their links.
    portrait = tmp_path / "portrait.png"
    portrait.write_bytes(png(240, 300))
    garden = tmp_path / "garden.png"
    garden.write_bytes(png(320, 200, (6, 118, 71)))
    find(driver, "#photos-field-photo").send_keys(str(portrait))
    save(driver, "photos")
    wait_notice(driver, "photos", "Added the photo “portrait.png”.")
    add(driver, "photos")
    find(driver, "#photos-field-photo").send_keys(str(garden))
    save(driver, "photos")
    wait_notice(driver, "photos", "Added the photo “garden.png”.")
    until(driver, lambda d: len(texts(d, "#photo-list .photo")) == 2, "two photos")
    # The list is drawn anew after each upload: each thumbnail loads in its own time.
    until(driver, lambda d: image_loaded(d, "#photo-list .photo:nth-child(2) img")
          and image_loaded(d, "#photo-list .photo:first-child img"), "the thumbnails load")
    alts = driver.execute_script("return Array.from(document.querySelectorAll('#photo-list img')).map(i => i.alt)")
    assert alts == ["Photo of Ada Lovelace (garden.png)", "Photo of Ada Lovelace (portrait.png)"], alts
    photos = {photo["original_filename"]: photo for photo in api.data("GET", f"/api/contacts/{ada}/photos")}
    assert find(driver, "#photo-list .photo:first-child a").get_attribute("href").endswith(
        f"/api/photos/{photos['garden.png']['id']}/file")

    # The portrait becomes the profile photo: the header shows it instead of the initials.
    portrait_item = driver.find_element(By.CSS_SELECTOR, f"#photo-list .photo[data-id='{photos['portrait.png']['id']}']")
    portrait_item.find_element(By.CSS_SELECTOR, ".photo-avatar").click()
    wait_notice(driver, "photos", "The photo “portrait.png” is now Ada Lovelace's profile photo.")
    until(driver, lambda d: image_loaded(d, "#contact-photo"), "the header shows the photo")
    assert not find(driver, "#contact-initials").is_displayed()
    assert texts(driver, "#photo-list .photo-badge") == ["Profile photo"]
    avatar = api.data("GET", f"/api/contacts/{ada}")["information"]["avatar"]
    assert avatar["source"] == "photo" and avatar["url"].endswith(f"/api/photos/{photos['portrait.png']['id']}/file")
    # Still there on the next visit.
    open_contact(driver, server, ada, "Ada Lovelace")
    until(driver, lambda d: image_loaded(d, "#contact-photo"), "the header shows the photo")
    show_section(driver, "summary")
    shot(driver, "photos-profile", full_page=False)

    # Not the profile photo any more: the initials again.
    driver.find_element(By.CSS_SELECTOR, "#photo-list .photo.is-profile .photo-avatar").click()
    until(driver, lambda d: d.find_element(By.ID, "contact-initials").is_displayed(), "the initials are back")
    assert not find(driver, "#contact-photo").is_displayed()
    assert texts(driver, "#photo-list .photo-badge") == []
    assert api.data("GET", f"/api/contacts/{ada}")["information"]["avatar"]["source"] == "default"

    # Deleting the profile photo says so, and leaves the initials.
    until(driver, lambda d: d.find_element(
        By.CSS_SELECTOR, f"#photo-list .photo[data-id='{photos['portrait.png']['id']}'] .photo-avatar").is_enabled(),
        "the photos are drawn again")
    driver.find_element(
        By.CSS_SELECTOR, f"#photo-list .photo[data-id='{photos['portrait.png']['id']}'] .photo-avatar").click()
    until(driver, lambda d: image_loaded(d, "#contact-photo"), "the photo is the profile photo again")
    driver.find_element(By.CSS_SELECTOR, "#photo-list .photo.is-profile .delete-item").click()
    dialog = visible(driver, "#confirm-dialog")
    assert find(driver, "#confirm-title").text == "Delete the photo “portrait.png”?"
    assert "It is Ada Lovelace's profile photo: the initials show instead." in dialog.text
    find(driver, "#confirm-delete").click()
    wait_notice(driver, "photos", "Deleted the photo “portrait.png”.")
    until(driver, lambda d: d.find_element(By.ID, "contact-initials").is_displayed(), "the initials are back")
    assert [photo["original_filename"] for photo in api.data("GET", f"/api/contacts/{ada}/photos")] == ["garden.png"]
    assert api.data("GET", f"/api/contacts/{ada}")["information"]["avatar"]["source"] == "default"
    assert browser_problems(driver) == []


# ---- Everything at once, on a phone and in dark mode ---------------------------------------------

def test_the_everyday_sections_on_a_phone_and_in_dark_mode(server, driver, shot):
    api = sign_up(driver, server)
    ada = api.contact("Ada", "Lovelace")
    portrait = api.data("POST", "/api/photos", {"contact_id": ada, "data": data_url(png(240, 300))})
    api.data("POST", "/api/photos", {"contact_id": ada, "data": data_url(png(320, 200, (6, 118, 71)))})
    api.data("PUT", f"/api/contacts/{ada}/avatar", {"source": "photo", "photo_id": portrait["id"]})
    api.data("POST", "/api/calls", {"contact_id": ada, "called_at": day(-2), "contact_called": True,
                                    "content": "Asked about the Bernoulli numbers."})
    api.data("POST", "/api/calls", {"contact_id": ada, "called_at": day(0), "contact_called": False})
    email = next(kind["id"] for kind in api.data("GET", "/api/contactfieldtypes?limit=100") if kind["name"] == "Email")
    conversation = api.data("POST", "/api/conversations", {"contact_id": ada, "happened_at": day(-3),
                                                          "contact_field_type_id": email})
    for by_me, words in ((True, "Dear Ada, here are the notes on the engine, with a table of the Bernoulli numbers."),
                         (False, "Thank you! I have added my own notes.")):
        api.data("POST", f"/api/conversations/{conversation['id']}/messages",
                 {"content": words, "written_at": day(-3), "written_by_me": by_me})
    api.data("POST", "/api/debts", {"contact_id": ada, "in_debt": "yes", "status": "inprogress", "amount": 12,
                                    "reason": "Train tickets to London"})
    api.data("POST", "/api/debts", {"contact_id": ada, "in_debt": "no", "status": "completed", "amount": 30.5})
    moved = next(kind["id"] for kind in api.data("GET", "/api/lifeeventtypes") if kind["name"] == "Moved")
    api.data("POST", "/api/lifeevents", {"contact_id": ada, "life_event_type_id": moved, "happened_at": "1835-07-08",
                                         "name": "Moved to St James's Square", "note": "A house of her own.",
                                         "has_reminder": False, "happened_at_month_unknown": False,
                                         "happened_at_day_unknown": False})
    api.data("POST", "/api/pets", {"contact_id": ada, "pet_category_id": 3, "name": "Puff"})

    driver.set_window_size(390, 844)
    set_color_scheme(driver, "dark")
    open_contact(driver, server, ada, "Ada Lovelace")
    until(driver, lambda d: image_loaded(d, "#contact-photo"), "the profile photo")
    until(driver, lambda d: image_loaded(d, "#photo-list .photo:nth-child(2) img"), "the thumbnails")
    for section, text in (("calls", "They called"), ("conversations", "Thank you!"), ("debts", "You owe Ada $12.00"),
                          ("life-events", "Moved to St James's Square"), ("pets", "Puff")):
        wait_section(driver, section, text)
    assert no_horizontal_scroll(driver)
    show_section(driver, "summary")
    shot(driver, "everyday-phone-dark-photos", full_page=False)
    show_section(driver, "calls")
    shot(driver, "everyday-phone-dark-calls-conversations", full_page=False)
    show_section(driver, "debts")
    shot(driver, "everyday-phone-dark-debts", full_page=False)
    show_section(driver, "life-events")
    shot(driver, "everyday-phone-dark-life-events-pets", full_page=False)

    # The forms, open, fit too and label every field.
    find(driver, "#conversation-list .message .edit-item").click()
    visible(driver, "#messages-form")
    show_section(driver, "conversations")
    shot(driver, "everyday-phone-dark-message-form", full_page=False)
    add(driver, "life-events")
    add(driver, "calls")
    assert no_horizontal_scroll(driver)
    assert unlabeled_inputs(driver) == []
    show_section(driver, "calls")
    shot(driver, "everyday-phone-dark-forms", full_page=False)

    # The desktop in dark mode, and in light mode, the whole page.
    driver.set_window_size(1280, 900)
    open_contact(driver, server, ada, "Ada Lovelace")
    until(driver, lambda d: image_loaded(d, "#photo-list .photo:nth-child(2) img"), "the thumbnails")
    wait_section(driver, "pets", "Puff")
    show_section(driver, "summary")
    shot(driver, "everyday-dark", full_page=False)
    set_color_scheme(driver, "light")
    wait_section(driver, "conversations", "Thank you!")
    shot(driver, "everyday-desktop")
    assert browser_problems(driver) == []
