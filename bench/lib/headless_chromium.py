"""Headless Chromium for the page benchmarks (bench/outreach_page.py, bench/nutrition.py): Debian's
browser and driver (KITH_CHROMIUM, KITH_CHROMEDRIVER override them), never a downloaded one."""
import os

os.environ.setdefault("SE_OFFLINE", "true")
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("KITH_CHROMIUM") or "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900",
                     "--disable-gpu", "--no-first-run", "--disable-extensions", "--password-store=basic"):
        options.add_argument(argument)
    service = Service(executable_path=os.environ.get("KITH_CHROMEDRIVER") or "/usr/bin/chromedriver")
    driver = webdriver.Chrome(service=service, options=options)
    driver.set_page_load_timeout(120)
    return driver
