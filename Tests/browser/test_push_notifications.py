"""A push message reaching the browser (Chromium's DevTools deliver it as a push service would) is
shown by the service worker as a notification: the notice's title and text, the app's icon, the tag
that lets a newer notice replace an older one, and the page a tap opens. docs/push.md has the
server's side, tested against a stand-in push service that decrypts every message."""

import json

from pages import fresh_email, open_page, sign_up, until

PASSWORD = "correct horse battery"

# The worker's notifications, read in the page: each call answers the last read finished and starts
# another, at most one a second. Headless Chromium lost a notification whose push event was still
# being handled when a read began (seen with reads 0.1 s apart, never with reads 0.5 s or more after
# the push), so reads start no sooner than a second after the first call.
NOTIFICATIONS = """
const now = Date.now();
window.__kithFirstRead = window.__kithFirstRead || now;
if (now - window.__kithFirstRead >= 1000 && !window.__kithReading) {
  window.__kithReading = true;
  navigator.serviceWorker.ready.then(r => r.getNotifications()).then(shown => {
    window.__kithNotifications = shown.map(n => ({title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url,
                                                   icon: n.icon}));
    window.__kithReading = false;
  });
}
return window.__kithNotifications || [];
"""


def notifications(driver) -> list:
    return driver.execute_script(NOTIFICATIONS)


def deliver(driver, server, message: dict):
    """Hands `message` to the page's service worker as a push event (the registration is the
    profile's only one; its id is the first the browser accepts)."""
    for registration in range(10):
        try:
            driver.execute_cdp_cmd("ServiceWorker.deliverPushMessage", {
                "origin": server.url(""), "registrationId": str(registration), "data": json.dumps(message)})
            return
        except Exception:
            continue
    raise AssertionError("Chromium knows no service worker registration for the page")


def test_a_pushed_notice_is_shown_as_a_notification(server, driver):
    sign_up(driver, server, fresh_email("push"), PASSWORD)
    open_page(driver, server, "/")
    until(driver, lambda d: d.execute_script("return !!(navigator.serviceWorker && navigator.serviceWorker.controller)"),
          "the service worker controls the page")
    driver.execute_cdp_cmd("ServiceWorker.enable", {})
    driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": server.url(""), "permissions": ["notifications"]})
    until(driver, lambda d: d.execute_script("return Notification.permission") == "granted", "notifications allowed")

    deliver(driver, server, {"title": "Water the plants", "body": "In 3 minutes (08:00)",
                             "url": "/family/reminders/abc", "tag": "reminder-abc-1", "kind": "before_3"})
    shown = until(driver, notifications, "the notification shows")
    assert shown == [{"title": "Water the plants", "body": "In 3 minutes (08:00)", "tag": "reminder-abc-1",
                      "url": "/family/reminders/abc", "icon": server.url("/static/icons/icon-192.png")}]

    # A newer notice about the same occurrence replaces the older one on the screen.
    driver.execute_script("window.__kithFirstRead = 0; window.__kithNotifications = null")
    deliver(driver, server, {"title": "Water the plants", "body": "Due now (08:00)",
                             "url": "/family/reminders/abc", "tag": "reminder-abc-1", "kind": "due"})
    until(driver, lambda d: [n["body"] for n in notifications(d)] == ["Due now (08:00)"],
          "the due notice replaced the 3-minute one")
