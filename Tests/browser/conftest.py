"""Fixtures for the browser tests: a real `kith serve` on a loopback port and headless Chromium.

Environment:
  KITH_BINARY       the built `kith` executable (required; the tests fail without it)
  KITH_BROWSER_ENGINE  sqlite (default) or postgres: the server's database; postgres makes a fresh
                    database per server with KITH_TEST_DATABASE_URL (a role that may create
                    databases) and drops it afterwards
  KITH_SCREENSHOTS  where page screenshots go (default Tests/browser/screenshots)
  KITH_CHROMIUM, KITH_CHROMEDRIVER  browser and driver (default /usr/bin/chromium, /usr/bin/chromedriver)
"""

import base64
import itertools
import os
import sys
from pathlib import Path

import pytest

# Selenium Manager must never try to download a browser or driver: there is no internet here.
os.environ.setdefault("SE_OFFLINE", "true")

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402

HERE = Path(__file__).resolve().parent
# The hostile suite's server process (SQLite, or a fresh PostgreSQL database per server).
sys.path.insert(0, str(HERE.parent / "hostile"))
from kith_hostile import KithServer, ServerError  # noqa: E402
from tile_server import TileServer  # noqa: E402


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


def engine() -> str:
    chosen = os.environ.get("KITH_BROWSER_ENGINE", "sqlite")
    if chosen not in ("sqlite", "postgres"):
        pytest.fail(f"KITH_BROWSER_ENGINE must be sqlite or postgres, not {chosen!r}", pytrace=False)
    if chosen == "postgres" and not os.environ.get("KITH_TEST_DATABASE_URL"):
        pytest.fail("KITH_BROWSER_ENGINE=postgres needs KITH_TEST_DATABASE_URL (scripts/test starts one)", pytrace=False)
    return chosen


def start_server(env: dict) -> KithServer:
    """`kith serve` on a free port with a fresh data directory (and database), with `env` on top."""
    kith = KithServer(engine=engine(), env=env, binary_path=_binary())
    try:
        return kith.start()
    except ServerError as error:
        pytest.fail(str(error), pytrace=False)


def stop_server(kith: KithServer):
    status = kith.stop()
    if status is None or status < 0:
        pytest.fail(f"kith serve did not exit on SIGTERM (status {status}). Its last output:\n{kith.recent_log()}",
                    pytrace=False)


@pytest.fixture(scope="session")
def tiles():
    """The map tile server stand-in the session's server takes its tiles from."""
    stand_in = TileServer().start()
    yield stand_in
    stand_in.stop()


@pytest.fixture(scope="session")
def server(tiles):
    """The session's `kith serve`, its maps' tiles from the stand-in; yields a KithServer."""
    kith = start_server({"KITH_MAP_TILES": tiles.setting})
    yield kith
    stop_server(kith)


@pytest.fixture
def server_without_maps():
    """A `kith serve` of its own with maps turned off (KITH_MAP_TILES=off)."""
    kith = start_server({"KITH_MAP_TILES": "off"})
    yield kith
    stop_server(kith)


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
    # A run on PostgreSQL keeps its own, so it does not replace the SQLite run's.
    if engine() == "postgres":
        directory = directory / "postgres"
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
    """shot(driver, "signin") saves the whole page as NN-signin.png in KITH_SCREENSHOTS;
    full_page=False saves what the window shows (a full-screen dialog)."""

    def take(browser, page: str, full_page: bool = True) -> Path:
        path = screenshot_dir / f"{next(_shot_numbers):02d}-{page}.png"
        if not full_page:
            browser.save_screenshot(str(path))
            return path
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


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed test leaves a screenshot of each of its browsers (failed-<test>-<fixture>.png)."""
    outcome = yield
    report = outcome.get_result()
    if report.when != "call" or not report.failed:
        return
    for name in ("driver", "other_driver"):
        browser = item.funcargs.get(name)
        if browser is None:
            continue
        try:
            browser.save_screenshot(str(_screenshot_dir() / f"failed-{item.name}-{name}.png"))
        except Exception:  # the browser itself may be what failed
            pass
