"""What the scenarios write (vCards, VTODOs) and how they compare what came back.

Servers may rewrite what a client stored (Kith keeps contacts as Monica records and tasks as family
reminders, and writes them out again in its own normal form: another PRODID, TYPE parameters,
VALARMs, a VTIMEZONE, vCard 4.0 when asked). So the scenarios compare *person-visible fields*:
`contact_fields` and `task_fields` reduce a vCard or an iCalendar text to what a person sees on a
phone, normalised (sorted lists, a phone number's digits, a country's ISO code, DUE as a wall time in
the family's zone, the RRULE's parts in a fixed order), as plain JSON-able values, so two servers'
outcomes are compared with ==.

The parser is a small one of our own (unfolding, parameters, RFC 6350/5545 escapes): the texts come
from servers under test, and a library's own repairs would hide what they sent.
"""

import datetime as dt
import re
from zoneinfo import ZoneInfo

from dav_servers import FAMILY_ZONE

ZONE = ZoneInfo(FAMILY_ZONE)
WEEKDAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]

# ---------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------


def unfold(text: str) -> list:
    lines = []
    for raw in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        if raw[:1] in (" ", "\t") and lines:
            lines[-1] += raw[1:]
        elif raw.strip():
            lines.append(raw)
    return lines


def parse_line(line: str) -> tuple:
    """'EMAIL;TYPE=HOME:a@b' -> ('EMAIL', {'TYPE': ['HOME']}, 'a@b'); a group prefix (item1.) dropped."""
    in_quotes = False
    for index, char in enumerate(line):
        if char == '"':
            in_quotes = not in_quotes
        elif char == ":" and not in_quotes:
            head, value = line[:index], line[index + 1:]
            break
    else:
        head, value = line, ""
    parts = re.split(r';(?=(?:[^"]*"[^"]*")*[^"]*$)', head)
    name = parts[0].split(".")[-1].upper()
    params = {}
    for part in parts[1:]:
        key, _, val = part.partition("=")
        if val:
            params.setdefault(key.upper(), []).extend(v.strip('"') for v in val.split(","))
        else:  # vCard 2.1's bare types: TEL;CELL:…
            params.setdefault("TYPE", []).append(key)
    return name, params, value


def unescape(value: str) -> str:
    return re.sub(r"\\(.)", lambda m: "\n" if m.group(1) in "nN" else m.group(1), value)


def split_unescaped(value: str, separator: str) -> list:
    return [unescape(piece) for piece in re.split(r"(?<!\\)" + re.escape(separator), value)]


def components(text: str, name: str) -> list:
    """Each BEGIN:name … END:name block as a list of (name, params, value), nested blocks left out."""
    found, stack, current = [], [], None
    for line in unfold(text):
        prop, params, value = parse_line(line)
        if prop == "BEGIN":
            stack.append(value.upper())
            if value.upper() == name and len([s for s in stack if s == name]) == 1:
                current = []
            continue
        if prop == "END":
            ended = stack.pop() if stack else None
            if ended == name and current is not None and name not in stack:
                found.append(current)
                current = None
            continue
        if current is not None and stack and stack[-1] == name:
            current.append((prop, params, value))
    return found


def _first(props, name, default=None):
    for prop, params, value in props:
        if prop == name:
            return params, value
    return default


def _all(props, name):
    return [(params, value) for prop, params, value in props if prop == name]


# ---------------------------------------------------------------------------
# Contacts
# ---------------------------------------------------------------------------

# The scenarios' countries by the names a phone or a server may write (a name, or an ISO code).
COUNTRIES = {"germany": "DE", "deutschland": "DE", "united kingdom": "GB", "uk": "GB",
             "united kingdom of great britain and northern ireland": "GB", "united states": "US",
             "united states of america": "US", "usa": "US"}


def country_code(text: str) -> str:
    text = text.strip()
    if len(text) == 2 and text.isalpha():
        return text.upper()
    return COUNTRIES.get(text.lower(), text)


def phone_digits(value: str) -> str:
    value = value.strip()
    if value.lower().startswith("tel:"):
        value = value[4:]
    return re.sub(r"[\s\-().]", "", value)


def birthday(value: str) -> str:
    value = value.strip().split("T")[0]
    if re.fullmatch(r"\d{8}", value):
        return f"{value[:4]}-{value[4:6]}-{value[6:]}"
    if re.fullmatch(r"--\d{4}", value):
        return f"--{value[2:4]}-{value[4:]}"
    return value


def contact_fields(text: str) -> dict:
    """A vCard (3.0 or 4.0) reduced to what a person sees, normalised; keyed fields always present."""
    cards = components(text, "VCARD")
    assert len(cards) == 1, f"expected one VCARD, found {len(cards)} in:\n{text}"
    props = cards[0]

    def single(name):
        found = _first(props, name)
        return unescape(found[1]).strip() if found and found[1].strip() else None

    n = _first(props, "N")
    name = split_unescaped(n[1], ";") + [""] * 5 if n else [""] * 5
    org = _first(props, "ORG")
    addresses = []
    for _params, value in _all(props, "ADR"):
        parts = [p.strip() for p in split_unescaped(value, ";")] + [""] * 7
        country = country_code(parts[6]) if parts[6] else ""
        addresses.append("|".join([parts[2], parts[3], parts[4], parts[5], country]))
    categories = []
    for _params, value in _all(props, "CATEGORIES"):
        categories += [c.strip() for c in split_unescaped(value, ",") if c.strip()]
    bday = _first(props, "BDAY")
    return {
        "uid": single("UID"),
        "fn": single("FN"),
        "n": [name[0].strip(), name[1].strip(), name[2].strip()],
        "nickname": single("NICKNAME"),
        "emails": sorted(unescape(v).strip().lower().removeprefix("mailto:") for _p, v in _all(props, "EMAIL")),
        "phones": sorted(phone_digits(unescape(v)) for _p, v in _all(props, "TEL")),
        "addresses": sorted(addresses),
        "org": split_unescaped(org[1], ";")[0].strip() if org and org[1].strip() else None,
        "title": single("TITLE"),
        "categories": sorted(categories),
        "note": single("NOTE"),
        "bday": birthday(bday[1]) if bday else None,
    }


def vcard(uid: str, given: str, family: str, nickname: str = None, emails=(), phones=(), address=None,
          org: str = None, title: str = None, categories=(), note: str = None, bday: str = None) -> str:
    """A vCard 3.0 as a phone writes one (TYPE parameters, CRLF)."""
    def esc(value):
        return value.replace("\\", "\\\\").replace("\n", "\\n").replace(",", "\\,").replace(";", "\\;")

    lines = ["BEGIN:VCARD", "VERSION:3.0", "PRODID:-//Kith tests//DAV phone//EN", f"UID:{uid}",
             f"FN:{esc(given)} {esc(family)}", f"N:{esc(family)};{esc(given)};;;"]
    if nickname:
        lines.append(f"NICKNAME:{esc(nickname)}")
    for index, email in enumerate(emails):
        lines.append(f"EMAIL;TYPE=INTERNET;TYPE={'HOME' if index == 0 else 'WORK'}:{email}")
    for phone in phones:
        lines.append(f"TEL;TYPE=CELL:{phone}")
    if address:
        street, city, region, postal, country = address
        lines.append(f"ADR;TYPE=HOME:;;{esc(street)};{esc(city)};{esc(region)};{esc(postal)};{esc(country)}")
    if org:
        lines.append(f"ORG:{esc(org)}")
    if title:
        lines.append(f"TITLE:{esc(title)}")
    if categories:
        lines.append("CATEGORIES:" + ",".join(esc(c) for c in categories))
    if note:
        lines.append(f"NOTE:{esc(note)}")
    if bday:
        lines.append(f"BDAY:{bday}")
    lines.append("END:VCARD")
    return "\r\n".join(lines) + "\r\n"


# The scenarios' contacts: everything the brief lists (names, nickname, two emails, a phone, an
# address with a country, org/title, categories, a note, a birthday).
def grace(uid: str) -> dict:
    return dict(uid=uid, given="Grace", family="Hopper", nickname="Amazing Grace",
                emails=["grace@example.com", "hopper@navy.example"], phones=["+49 30 1234567"],
                address=("Unter den Linden 1", "Berlin", "", "10117", "Germany"), org="US Navy",
                title="Rear Admiral", categories=["friends", "navy"], note="Found the first bug, a moth.",
                bday="1906-12-09")


def ada(uid: str) -> dict:
    return dict(uid=uid, given="Ada", family="Lovelace", nickname="Enchantress",
                emails=["ada@example.com", "countess@lovelace.example"], phones=["+44 20 7946 0018"],
                address=("12 St James's Square", "London", "", "SW1Y 4JH", "United Kingdom"),
                org="Analytical Engine Society", title="Countess", categories=["mathematics", "poetry"],
                note="Wrote the first program.", bday="1815-12-10")


# ---------------------------------------------------------------------------
# Tasks (VTODO)
# ---------------------------------------------------------------------------

VTIMEZONE_BERLIN = """BEGIN:VTIMEZONE
TZID:Europe/Berlin
BEGIN:DAYLIGHT
TZOFFSETFROM:+0100
TZOFFSETTO:+0200
TZNAME:CEST
DTSTART:19700329T020000
RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU
END:DAYLIGHT
BEGIN:STANDARD
TZOFFSETFROM:+0200
TZOFFSETTO:+0100
TZNAME:CET
DTSTART:19701025T030000
RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU
END:STANDARD
END:VTIMEZONE"""


# "Today" in the family's zone, fixed when the run starts: every target's scenario then uses the
# same dates, so outcomes compare equal even across midnight.
TODAY = dt.datetime.now(ZONE).date()


def tomorrow(days: int = 1) -> dt.date:
    """The day `days` after today (tomorrow by default), in the family's zone."""
    return TODAY + dt.timedelta(days=days)


def weekday_code(day: dt.date) -> str:
    return WEEKDAYS[day.weekday()]


def vtodo(uid: str, summary: str, due: dt.datetime, rrule: str = None, checklist=(), status: str = "NEEDS-ACTION",
          completed: dt.datetime = None) -> str:
    """A VCALENDAR with one VTODO as a task app writes one: DUE as a wall time with TZID (and its
    VTIMEZONE), the checklist as DESCRIPTION lines "[ ] milk" / "[x] bread"."""
    def esc(value):
        return value.replace("\\", "\\\\").replace("\n", "\\n").replace(",", "\\,").replace(";", "\\;")

    stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Kith tests//DAV phone//EN",
             *VTIMEZONE_BERLIN.split("\n"), "BEGIN:VTODO", f"UID:{uid}", f"DTSTAMP:{stamp}",
             f"SUMMARY:{esc(summary)}", f"DUE;TZID={FAMILY_ZONE}:{due.strftime('%Y%m%dT%H%M%S')}"]
    if rrule:
        lines.append(f"RRULE:{rrule}")
    if checklist:
        lines.append("DESCRIPTION:" + esc("\n".join(f"[{'x' if done else ' '}] {text}" for text, done in checklist)))
    lines.append(f"STATUS:{status}")
    if completed:
        lines.append("COMPLETED:" + completed.astimezone(dt.timezone.utc).strftime("%Y%m%dT%H%M%SZ"))
    lines += ["END:VTODO", "END:VCALENDAR"]
    return "\r\n".join(lines) + "\r\n"


def parse_datetime(params: dict, value: str) -> dt.datetime:
    """A DATE-TIME (UTC, TZID'd or floating; floating read in the family's zone) as an aware datetime."""
    value = value.strip()
    if re.fullmatch(r"\d{8}", value):
        return dt.datetime.strptime(value, "%Y%m%d").replace(tzinfo=ZONE)
    if value.endswith("Z"):
        return dt.datetime.strptime(value, "%Y%m%dT%H%M%SZ").replace(tzinfo=dt.timezone.utc)
    naive = dt.datetime.strptime(value, "%Y%m%dT%H%M%S")
    tzid = (params.get("TZID") or [FAMILY_ZONE])[0]
    return naive.replace(tzinfo=ZoneInfo(tzid.lstrip("/")))


def normal_rrule(value: str) -> str:
    """The RRULE's parts in one order; WKST=MO (the default) and INTERVAL=1 written out or not are the same."""
    parts = dict(p.split("=", 1) for p in value.strip().upper().split(";") if "=" in p)
    if parts.get("WKST") == "MO":
        del parts["WKST"]
    parts.setdefault("INTERVAL", "1")
    if "BYDAY" in parts:
        parts["BYDAY"] = ",".join(sorted(parts["BYDAY"].split(","), key=lambda d: (WEEKDAYS.index(d[-2:]), d)))
    order = ["FREQ", "INTERVAL", "BYDAY"]
    keys = [k for k in order if k in parts] + sorted(k for k in parts if k not in order)
    return ";".join(f"{k}={parts[k]}" for k in keys)


def task_fields(text: str) -> dict:
    """A VCALENDAR with one VTODO reduced to what a person sees in a task app, normalised."""
    todos = components(text, "VTODO")
    assert len(todos) == 1, f"expected one VTODO, found {len(todos)} in:\n{text}"
    props = todos[0]
    due = _first(props, "DUE")
    due_at = parse_datetime(*due) if due else None
    summary = _first(props, "SUMMARY")
    description = _first(props, "DESCRIPTION")
    rrule = _first(props, "RRULE")
    status = _first(props, "STATUS")
    return {
        "uid": unescape(_first(props, "UID", ({}, ""))[1]).strip(),
        "summary": unescape(summary[1]).strip() if summary else None,
        # What the phone shows: the wall time in the family's zone (and the zone the server wrote).
        "due": due_at.astimezone(ZONE).strftime("%Y-%m-%d %H:%M") if due_at else None,
        "due_tzid": (due[0].get("TZID") or ["UTC" if due[1].endswith("Z") else "floating"])[0] if due else None,
        "rrule": normal_rrule(rrule[1]) if rrule else None,
        "checklist": [line.strip() for line in unescape(description[1]).split("\n") if line.strip()]
        if description else [],
        "status": status[1].strip().upper() if status else "NEEDS-ACTION",
        "completed": _first(props, "COMPLETED") is not None,
    }


def alarm_triggers(text: str) -> list:
    """The VALARMs' TRIGGERs of the VTODO, sorted (Kith's normal form has -PT3M, -PT2M, -PT1M, and at DUE)."""
    triggers = []
    for alarm in components(text, "VALARM"):
        found = _first(alarm, "TRIGGER")
        triggers.append(found[1].strip().upper() if found else None)
    return sorted(t for t in triggers if t)


def trigger_minutes(trigger: str) -> int:
    """-PT3M -> -3, PT0S / -PT0M / PT0M -> 0 (a relative trigger's offset in minutes)."""
    match = re.fullmatch(r"([+-]?)P(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?", trigger)
    assert match, f"not a relative duration trigger: {trigger}"
    sign = -1 if match.group(1) == "-" else 1
    hours, minutes, seconds = (int(g or 0) for g in match.groups()[1:])
    return sign * (hours * 60 + minutes + seconds // 60)


def weekly_task(uid: str, summary: str = "Buy groceries") -> dict:
    """The scenarios' task: due tomorrow at 18:00 in the family's zone, every 2 weeks on tomorrow's
    weekday and the one 3 days later, with a two-item checklist."""
    day = tomorrow()
    other = day + dt.timedelta(days=3)
    return dict(uid=uid, summary=summary, due=dt.datetime.combine(day, dt.time(18, 0)),
                rrule=f"FREQ=WEEKLY;INTERVAL=2;BYDAY={weekday_code(day)},{weekday_code(other)}",
                checklist=[("milk", False), ("bread", True)])
