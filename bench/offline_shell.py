#!/usr/bin/env python3
"""The offline shell, measured in headless Chromium against a `kith serve` this script starts:

- what a first visit downloads: the page and the files it loads (Resource Timing's transferSize),
  and the shell the service worker then keeps (every file it fetches as it installs);
- how long a kept page takes to show with the server really stopped: the page opened online once,
  the server stopped, then loaded again several times (Navigation Timing, to the load event).
"""
import argparse
import os
import re
import statistics
import sys
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "Tests", "hostile"))
from headless_chromium import browser  # noqa: E402
from kith_hostile import KithServer  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402


def shell_files(server):
    """The files the worker keeps as it installs (its SHELL_FILES list), with their sizes."""
    worker = urllib.request.urlopen(server.url("/sw.js")).read().decode()
    listed = re.search(r"var SHELL_FILES = \[(.*?)\];", worker, re.S).group(1)
    paths = re.findall(r'"([^"]+)"', listed)
    return {path: len(urllib.request.urlopen(server.url(path)).read()) for path in paths}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--loads", type=int, default=10)
    args = parser.parse_args()

    server = KithServer(binary_path=args.binary).start()
    driver = browser()
    try:
        # A first visit: the sign-up page in a browser that has never seen the server.
        driver.get(server.url("/signup"))
        WebDriverWait(driver, 30).until(lambda d: d.execute_script("return document.readyState") == "complete")
        page = driver.execute_script(
            "const nav = performance.getEntriesByType('navigation')[0];"
            "return nav.transferSize + performance.getEntriesByType('resource')"
            ".reduce((sum, entry) => sum + entry.transferSize, 0);")
        shell = shell_files(server)
        print(f"first visit: {page / 1024:.1f} KiB for the page and its files; "
              f"the worker then keeps {sum(shell.values()) / 1024:.1f} KiB of shell ({len(shell)} files)")

        driver.find_element(By.ID, "email").send_keys(f"bench-{int(time.time())}@example.com")
        driver.find_element(By.ID, "password").send_keys("bench password 1")
        driver.find_element(By.CSS_SELECTOR, "#signup-form button[type=submit]").click()
        WebDriverWait(driver, 30).until(lambda d: not d.current_url.endswith("/signup"))
        WebDriverWait(driver, 30).until(
            lambda d: d.execute_script("return !!(navigator.serviceWorker && navigator.serviceWorker.controller)"))
        driver.get(server.url("/food"))

        server.pause()
        shown = []
        for _ in range(args.loads):
            driver.get(server.url("/food"))
            WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.ID, "offline-status"))
            shown.append(driver.execute_script(
                "const nav = performance.getEntriesByType('navigation')[0]; return nav.loadEventEnd - nav.startTime;"))
        print(f"a kept page with the server stopped ({args.loads} loads of /food): median "
              f"{statistics.median(shown):.0f} ms, slowest {max(shown):.0f} ms (to the load event)")
    finally:
        driver.quit()
        server.stop()


if __name__ == "__main__":
    main()
