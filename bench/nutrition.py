#!/usr/bin/env python3
"""Nutrition benchmark (issue 15): a phone with 90 days x 20 items signs in on a new device.

1. A `kith` profile ("phone") signs up, fills its log through NutritionStore (kith-bench
   nutrition-fill) and pushes it.
2. first pull: a new profile ("tablet") signs in and runs `kith sync` into an empty store: the time
   of the whole process, and the pull alone as the command reports it. Target: under 1 s.
3. web: headless Chromium signs in and loads each page several times; the browser's Navigation
   Timing gives the server's time (request sent to first byte) and the load-and-render time (start
   to the load event, scripts included). Target: under 300 ms.
"""
import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))


def run(command, env, stdin=None):
    started = time.monotonic()
    done = subprocess.run(command, env=env, input=stdin, capture_output=True, text=True)
    seconds = time.monotonic() - started
    if done.returncode != 0:
        sys.exit(f"bench: {' '.join(command)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return seconds, done.stdout


def web(url, email, password, pages, loads):
    from headless_chromium import browser
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    driver = browser()
    rows = []
    try:
        driver.get(url + "/signin")
        driver.find_element(By.ID, "email").send_keys(email)
        driver.find_element(By.ID, "password").send_keys(password)
        driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
        WebDriverWait(driver, 30).until(lambda d: "/signin" not in d.current_url)
        for page in pages:
            server, total = [], []
            for _ in range(loads + 1):
                driver.get(url + page)
                timing = driver.execute_script(
                    "const t = performance.getEntriesByType('navigation')[0];"
                    "return [t.responseStart - t.requestStart, t.loadEventEnd - t.startTime, document.title,"
                    " document.querySelectorAll('#history svg').length];")
                if not timing[2].startswith("Food") or timing[3] != 1:
                    sys.exit(f"bench: {page} is not the day page with its 30-day chart (title {timing[2]!r})")
                server.append(timing[0])
                total.append(timing[1])
            # The first load warms the browser's cache of styles and scripts, as a person's would be.
            rows.append((page, statistics.median(server[1:]), statistics.median(total[1:]), timing[2]))
    finally:
        driver.quit()
    return rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kith", required=True)
    parser.add_argument("--filler", required=True)
    parser.add_argument("--url", required=True)
    parser.add_argument("--home", required=True)
    parser.add_argument("--engine", default="sqlite")
    parser.add_argument("--days", type=int, default=90)
    parser.add_argument("--per-day", type=int, default=20)
    parser.add_argument("--loads", type=int, default=5)
    # The day page holds the day's log and the 30-day chart: today's, and a day 30 days back.
    parser.add_argument("--pages", default="")
    args = parser.parse_args()

    password = "bench password 1"
    env = dict(os.environ, KITH_HOME=args.home, KITH_TIMEOUT="120", KITH_PASSWORD=password, TZ="UTC")
    email = f"bench-nutrition-{int(time.time() * 1000)}@example.com"
    common = ["--server", args.url]

    _, out = run([args.kith, "account", "signup", email, "--profile", "phone", "--json"] + common, env)
    user_id = json.loads(out)["id"]
    stores = os.path.join(args.home, "profiles", "phone", "data")
    run([args.filler, "nutrition-fill", stores, user_id, str(args.days), str(args.per_day)], env)
    push_seconds, out = run([args.kith, "sync", "--profile", "phone", "--json"] + common, env)
    pushed = json.loads(out)["pushed"]

    run([args.kith, "account", "login", email, "--profile", "tablet"] + common, env)
    pull_seconds, out = run([args.kith, "sync", "--profile", "tablet", "--json"] + common, env)
    pulled = json.loads(out)["pulled"]
    expected = args.days * (args.per_day + 1) + 1
    if pulled < expected:
        sys.exit(f"bench: the new device pulled {pulled} records, expected {expected}")
    _, out = run([args.kith, "food", "day", "--profile", "tablet", "--json"] + common, env)
    if len(json.loads(out)["items"]) != args.per_day:
        sys.exit(f"bench: today's log on the new device is not the phone's: {out}")

    print()
    print(f"engine: {args.engine}")
    print(f"{'step':<44} {'ms':>8}   target")
    print(f"{'push ' + format(pushed, ',') + ' records (phone)':<44} {push_seconds * 1000:>8.0f}")
    print(f"{'first pull ' + format(pulled, ',') + ' records (new device)':<44} {pull_seconds * 1000:>8.0f}   < 1000")
    failed = pull_seconds >= 1
    back = (datetime.datetime.now(datetime.timezone.utc).date() - datetime.timedelta(days=30)).isoformat()
    pages = [page for page in args.pages.split(",") if page] or ["/food", f"/food?date={back}"]
    for page, server, total, title in web(args.url, email, password, pages, args.loads) if pages else []:
        print(f"{'web ' + page + ': server (median)':<44} {server:>8.0f}")
        print(f"{'web ' + page + ': loaded, rendered (median)':<44} {total:>8.0f}   < 300")
        failed = failed or total >= 300
    if failed:
        print("bench: a target was missed", file=sys.stderr)


if __name__ == "__main__":
    main()
