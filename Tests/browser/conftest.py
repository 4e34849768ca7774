"""Fixtures for the browser tests: a real `kith serve` on a loopback port and headless Chromium.

Environment:
  KITH_BINARY       the built `kith` executable (required; the tests fail without it)
  KITH_SCREENSHOTS  where page screenshots go (default Tests/browser/screenshots)
  KITH_CHROMIUM, KITH_CHROMEDRIVER  browser and driver (default /usr/bin/chromium, /usr/bin/chromedriver)
"""

import base64
import collections
import itertools
import os
import re
import signal
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

# Selenium Manager must never try to download a browser or driver: there is no internet here.
os.environ.setdefault("SE_OFFLINE", "true")

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402

HERE = Path(__file__).resolve().parent
SERVING = re.compile(r"http://127\.0\.0\.1:(\d+)")
START_TIMEOUT = 60
STOP_TIMEOUT = 10


@dataclass
class KithServer:
    base_url: str
    data_dir: Path
    process: subprocess.Popen
    log: collections.deque

    def url(self, path: str) -> str:
        return self.base_url + path

    def recent_log(self, lines: int = 40) -> str:
        return "\n".join(list(self.log)[-lines:])


def _binary() -> str:
    binary = os.environ.get("KITH_BINARY", "")
    if not binary:
        pytest.fail(
            "KITH_BINARY is not set. Build the server (swift build) and run the browser tests with "
            "KITH_BINARY=.build/debug/kith python3 -m pytest -q Tests/browser (./scripts/test does this).",
            pytrace=False,
        )
    if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
        pytest.fail(f"KITH_BINARY={binary!r} is not an executable file. Build the server first (swift build).", pytrace=False)
    return binary


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    """Starts `kith serve` on a free port with a fresh data directory; yields a KithServer."""
    binary = _binary()
    data_dir = tmp_path_factory.mktemp("kith-data")
    env = dict(os.environ)
    env["KITH_BCRYPT_COST"] = "4"
    # Hermetic: SQLite in the data dir, mail into <data>/outbox, address from the flags.
    for name in ("KITH_SMTP_URL", "KITH_DATABASE_URL", "KITH_PUBLIC_URL", "KITH_DATA", "KITH_HOST", "KITH_PORT"):
        env.pop(name, None)
    process = subprocess.Popen(
        [binary, "serve", "--data", str(data_dir), "--port", "0", "--host", "127.0.0.1"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
        text=True,
        bufsize=1,
    )
    log = collections.deque(maxlen=500)
    found = threading.Event()
    base = {}

    def pump():
        # Keeps reading for the whole run so the server never blocks on a full pipe.
        for line in process.stdout:
            log.append(line.rstrip("\n"))
            if not found.is_set():
                match = SERVING.search(line)
                if match:
                    base["url"] = f"http://127.0.0.1:{match.group(1)}"
                    found.set()

    reader = threading.Thread(target=pump, name="kith-stdout", daemon=True)
    reader.start()

    deadline = time.monotonic() + START_TIMEOUT
    while not found.is_set() and time.monotonic() < deadline and process.poll() is None:
        found.wait(0.1)
    if not found.is_set():
        exited = process.poll()
        if exited is None:
            process.kill()
            process.wait(5)
        reader.join(2)
        why = f"exited with status {exited}" if exited is not None else f"printed no URL within {START_TIMEOUT} s"
        pytest.fail(f"kith serve {why}. Its output:\n" + "\n".join(log), pytrace=False)

    kith = KithServer(base_url=base["url"], data_dir=data_dir, process=process, log=log)
    yield kith

    process.send_signal(signal.SIGTERM)
    try:
        process.wait(STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)
        pytest.fail(f"kith serve did not exit within {STOP_TIMEOUT} s of SIGTERM. Its last output:\n{kith.recent_log()}",
                    pytrace=False)
    finally:
        reader.join(2)


def _chrome_options(width=1280, height=900):
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("KITH_CHROMIUM") or "/usr/bin/chromium"
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        f"--window-size={width},{height}",
        "--disable-gpu",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-extensions",
        "--password-store=basic",
        "--lang=en-US",
    ):
        options.add_argument(argument)
    # No password manager bubbles or breach warnings over the page.
    options.add_experimental_option(
        "prefs",
        {"credentials_enable_service": False, "profile.password_manager_enabled": False,
         "profile.password_manager_leak_detection": False},
    )
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return options


def _start_browser():
    service = Service(executable_path=os.environ.get("KITH_CHROMEDRIVER") or "/usr/bin/chromedriver")
    browser = webdriver.Chrome(service=service, options=_chrome_options())
    browser.set_page_load_timeout(30)
    return browser


@pytest.fixture
def driver():
    """Headless Chromium, a fresh profile per test."""
    browser = _start_browser()
    try:
        yield browser
    finally:
        browser.quit()


@pytest.fixture
def other_driver():
    """A second Chromium with a profile of its own: another person at another computer."""
    browser = _start_browser()
    try:
        yield browser
    finally:
        browser.quit()


def _screenshot_dir() -> Path:
    directory = Path(os.environ.get("KITH_SCREENSHOTS") or HERE / "screenshots")
    directory.mkdir(parents=True, exist_ok=True)
    return directory


_shot_numbers = itertools.count(1)


@pytest.fixture(scope="session")
def screenshot_dir():
    directory = _screenshot_dir()
    # Drop the previous run's numbered shots so the folder shows one run.
    for old in directory.glob("[0-9][0-9]-*.png"):
        old.unlink()
    return directory


@pytest.fixture
def shot(screenshot_dir):
    """shot(driver, "signin") saves the whole page as NN-signin.png in KITH_SCREENSHOTS."""

    def take(browser, page: str) -> Path:
        path = screenshot_dir / f"{next(_shot_numbers):02d}-{page}.png"
        try:
            metrics = browser.execute_cdp_cmd("Page.getLayoutMetrics", {})
            size = metrics.get("cssContentSize") or metrics["contentSize"]
            viewport = metrics.get("cssLayoutViewport") or metrics["layoutViewport"]
            width = max(size["width"], viewport["clientWidth"])
            height = max(size["height"], viewport["clientHeight"])
            image = browser.execute_cdp_cmd(
                "Page.captureScreenshot",
                {"format": "png", "captureBeyondViewport": True,
                 "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}},
            )
            path.write_bytes(base64.b64decode(image["data"]))
        except Exception:  # a plain viewport screenshot is still useful
            browser.save_screenshot(str(path))
        return path

    return take
