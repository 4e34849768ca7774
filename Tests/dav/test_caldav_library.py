"""The Python `caldav` library (PyPI `caldav`), a real CalDAV client we did not write, against every
target, each outcome compared with Radicale's:

- discovery from only the server's DAV address and the credentials (the library asks without them
  first and picks the scheme from the 401's WWW-Authenticate): the account's principal, and exactly
  one calendar, the task calendar, for VTODO only;
- calendar-query of tasks with a time range: a task due inside, one due outside, and a weekly one
  whose first DUE is outside but a later occurrence inside (RFC 4791 9.9: recurrences count);
- calendar-multiget of those tasks by URL;
- completing a task through the library (`Todo.complete()`: STATUS:COMPLETED and COMPLETED, PUT
  back): reading it again gives STATUS:COMPLETED, the library's pending-tasks query leaves it out
  and its all-tasks query keeps it.
"""

import datetime as dt
import urllib.parse

import caldav

import dav_items
from dav_items import ZONE


def client_for(account, record: list = None) -> caldav.DAVClient:
    """A client given what a person types: the server's DAV address, the user name and the password."""
    client = caldav.DAVClient(url=account.dav_url, username=account.username, password=account.password,
                              timeout=30)
    if record is not None:
        send = client.session.request

        def recording(method, url, **kwargs):
            answer = send(method, url, **kwargs)
            record.append((method, urllib.parse.urlsplit(str(url)).path, answer.status_code,
                           answer.headers.get("WWW-Authenticate", "")))
            return answer

        client.session.request = recording
    return client


def path(url) -> str:
    return urllib.parse.unquote(urllib.parse.urlsplit(str(url)).path).rstrip("/") + "/"


def uid_of(todo) -> str:
    return str(todo.icalendar_component["UID"])


def at(days: int, hour: int, minute: int = 0) -> dt.datetime:
    return dt.datetime.combine(dav_items.tomorrow(days), dt.time(hour, minute))


def task_calendar(client, account):
    calendars = client.principal().calendars()
    assert [path(c.url) for c in calendars] == [path(account.calendar_url)], \
        f"expected only the task calendar {account.calendar_url}, found {[str(c.url) for c in calendars]}"
    return calendars[0]


def discovery(account, _directory) -> dict:
    requests_made = []
    client = client_for(account, requests_made)
    principal = client.principal()
    calendars = principal.calendars()
    challenges = [www for _m, _p, status, www in requests_made if status == 401]
    return {
        "challenged with": sorted({c.split()[0].lower() for c in challenges if c}),
        "principal is the account's": path(principal.url) == path(account.principal_url),
        "calendars": [{"is the task calendar": path(c.url) == path(account.calendar_url),
                       "components": sorted(c.get_supported_components())} for c in calendars],
    }


def three_tasks(calendar):
    """inside: due tomorrow 18:00; outside: due in 10 days; weekly: from in 3 days, so again in 10."""
    weekly_day = dav_items.tomorrow(3)
    calendar.save_todo(dav_items.vtodo("inside", "Inside", at(1, 18)))
    calendar.save_todo(dav_items.vtodo("outside", "Outside", at(10, 9)))
    calendar.save_todo(dav_items.vtodo("weekly", "Weekly", dt.datetime.combine(weekly_day, dt.time(8)),
                                       rrule=f"FREQ=WEEKLY;INTERVAL=1;BYDAY={dav_items.weekday_code(weekly_day)}"))


def time_ranges(account, _directory) -> dict:
    client = client_for(account)
    calendar = task_calendar(client, account)
    three_tasks(calendar)

    def due_between(first_day: int, days: int) -> list:
        start = dt.datetime.combine(dav_items.tomorrow(first_day), dt.time(0), tzinfo=ZONE)
        # post_filter=False: the server's answer as it is (the library would otherwise widen the
        # range by a day and filter the result itself); include_completed: a time-range filter only.
        found = calendar.search(todo=True, start=start, end=start + dt.timedelta(days=days),
                                include_completed=True, post_filter=False)
        return sorted({uid_of(t) for t in found})

    return {
        "tomorrow": due_between(1, 1),
        "days 4 to 8": due_between(4, 5),
        "days 9 and 10": due_between(9, 2),
    }


def multiget(account, _directory) -> dict:
    client = client_for(account)
    calendar = task_calendar(client, account)
    three_tasks(calendar)
    everything = calendar.todos(include_completed=True)
    urls = sorted((t.url for t in everything), key=str)
    fetched = calendar.multiget(urls[:2])
    return {
        "listed": sorted(uid_of(t) for t in everything),
        "fetched": sorted((uid_of(t), str(t.icalendar_component["SUMMARY"])) for t in fetched),
        "fetched the asked": sorted(path(t.url) for t in fetched) == sorted(path(u) for u in urls[:2]),
    }


def completion(account, _directory) -> dict:
    client = client_for(account)
    calendar = task_calendar(client, account)
    calendar.save_todo(dav_items.vtodo("bins", "Take out the bins", at(1, 18), checklist=[("paper", False)]))
    calendar.save_todo(dav_items.vtodo("dishes", "Do the dishes", at(1, 20)))
    calendar.get_todo_by_uid("bins").complete()
    again = calendar.get_todo_by_uid("bins")
    fields = dav_items.task_fields(again.data)
    return {
        "status": fields["status"],
        "completed set": fields["completed"],
        "summary": fields["summary"],
        "pending": sorted(uid_of(t) for t in calendar.todos()),
        "all": sorted(uid_of(t) for t in calendar.todos(include_completed=True)),
    }


def test_discovery_from_the_dav_address(account, same_as_radicale):
    outcome = same_as_radicale(("caldav", "discovery"), account, discovery)
    assert outcome["principal is the account's"] and outcome["calendars"] == [
        {"is the task calendar": True, "components": ["VTODO"]}]
    assert outcome["challenged with"] == ["basic"]


def test_time_range_query(account, same_as_radicale):
    outcome = same_as_radicale(("caldav", "time range"), account, time_ranges)
    assert outcome == {"tomorrow": ["inside"], "days 4 to 8": [], "days 9 and 10": ["outside", "weekly"]}


def test_multiget(account, same_as_radicale):
    outcome = same_as_radicale(("caldav", "multiget"), account, multiget)
    assert outcome["listed"] == ["inside", "outside", "weekly"] and len(outcome["fetched"]) == 2
    assert outcome["fetched the asked"]


def test_completion_comes_back(account, same_as_radicale):
    outcome = same_as_radicale(("caldav", "completion"), account, completion)
    assert outcome == {"status": "COMPLETED", "completed set": True, "summary": "Take out the bins",
                       "pending": ["dishes"], "all": ["bins", "dishes"]}
