"""vCard files on the contact list (docs/contacts-web.md, "Import and export"): a Google Contacts
export imported with its summary and the likely duplicate offered for merging, a broken file
refused whole with the card named, and every contact exported as one .vcf file."""

import pathlib

from selenium.webdriver.common.by import By

from pages import (browser_problems, find, no_horizontal_scroll, open_page, set_color_scheme, until, visible,
                   wait_for_path)
from test_contacts import contact_names, sign_up

FIXTURES = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "dav"


def import_file(driver, path):
    find(driver, "#import-file").send_keys(str(path))
    find(driver, "#import-submit").click()


def exported(driver):
    """What the Export link downloads, fetched the way the link asks for it (the session cookie)."""
    href = find(driver, "#export-contacts").get_attribute("href")
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch(arguments[0], {credentials: 'same-origin'}).then(r => r.text().then(t => done([r.status, t])));", href)


def test_a_google_export_is_imported_and_its_duplicate_merged(server, driver, shot, tmp_path):
    api = sign_up(driver, server)
    babbage = api.contact("Charles", "Babbage")
    open_page(driver, server, "/contacts")
    until(driver, lambda d: contact_names(d) == ["Charles Babbage"], "the list loads")
    visible(driver, "#contacts-transfer")

    # Choosing no file says so.
    find(driver, "#import-submit").click()
    assert visible(driver, "#import-file-error").text == "Choose a .vcf file first."

    import_file(driver, FIXTURES / "google-contacts-export.vcf")
    until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#import-result .import-summary"), "the summary shows")
    assert find(driver, "#import-result .import-summary").text == (
        "Imported 3 contacts; 1 looks like someone you already have.")
    pair = find(driver, "#duplicate-list .duplicate").text
    assert "Charles Babbage" in pair and "the same name" in pair, pair
    until(driver, lambda d: "Arun Kumar" in contact_names(d), "the list shows the new contacts")
    assert len(contact_names(driver)) == 4
    shot(driver, "contacts-imported")

    # A broken file: the card named, nothing imported.
    broken = tmp_path / "broken.vcf"
    broken.write_bytes(b"BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Mary Somerville\r\nN:Somerville;Mary;;;\r\nEND:VCARD\r\n"
                       b"BEGIN:VCARD\r\nVERSION:3.0\r\nthis line has no colon\r\nEND:VCARD\r\n")
    import_file(driver, broken)
    until(driver, lambda d: d.find_element(By.ID, "import-file-error").is_displayed(), "the refusal shows")
    refusal = find(driver, "#import-file-error").text
    assert refusal.startswith("Card 2 (line 8): ") and refusal.endswith("Nothing was imported."), refusal
    assert find(driver, "#import-file").get_attribute("aria-invalid") == "true"
    assert api.call("GET", "/api/contacts?query=Somerville")[1]["meta"]["total"] == 0
    shot(driver, "contacts-import-refused")

    # Export: one file with every contact.
    status, text = exported(driver)
    assert status == 200 and text.count("BEGIN:VCARD") == 4, text[:200]
    assert "FN:Priya Sharma" in text

    # Compare and merge the likely duplicate, from the summary.
    open_page(driver, server, "/contacts")
    import_file(driver, FIXTURES / "iphone-contacts-export.vcf")
    until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#import-result .import-summary"), "the summary shows")
    assert find(driver, "#import-result .import-summary").text == "Imported 4 contacts."
    open_page(driver, server, "/contacts")
    import_file(driver, FIXTURES / "google-contacts-export.vcf")
    until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#duplicate-list .compare-merge"), "pairs to merge")
    assert find(driver, "#import-result .import-summary").text == (
        "Imported 3 contacts; 3 look like people you already have.")
    link = next(a for a in driver.find_elements(By.CSS_SELECTOR, "#duplicate-list .duplicate")
                if "Charles Babbage" in a.text).find_element(By.CSS_SELECTOR, ".compare-merge")
    link.click()
    wait_for_path(driver, f"/contacts/{babbage}")
    visible(driver, "#merge-confirm")
    find(driver, "#merge-do").click()
    until(driver, lambda d: d.find_element(By.ID, "contact-notice").text.startswith("Merged Charles Babbage into"),
          "merged")

    # On a phone, in dark mode.
    driver.set_window_size(390, 844)
    set_color_scheme(driver, "dark")
    open_page(driver, server, "/contacts")
    until(driver, lambda d: len(contact_names(d)) > 0, "the list loads")
    import_file(driver, FIXTURES / "google-contacts-export.vcf")
    until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#duplicate-list .duplicate"), "the pairs show")
    driver.execute_script("document.getElementById('contacts-transfer').scrollIntoView()")
    assert no_horizontal_scroll(driver)
    shot(driver, "contacts-imported-phone-dark")
    assert browser_problems(driver) == []
