#!/usr/bin/env python3
"""The recurrence tests' oracle: python-dateutil's rrule, the reference RFC 5545 implementation.

    rrule_oracle.py ZONE START HH:MM RULE COUNT
    e.g. rrule_oracle.py America/New_York 2026-03-02 02:30 'FREQ=MONTHLY;INTERVAL=1;BYDAY=2TU' 20

Prints one occurrence per line as UTC milliseconds since 1970: the RRULE RULE (as written, e.g.
FREQ=DAILY;INTERVAL=3 or FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE;WKST=MO) with DTSTART at HH:MM on
START in ZONE, its first COUNT occurrences (fewer when the rule has no more before year 10000).
"""
import datetime
import itertools
import sys
from zoneinfo import ZoneInfo

from dateutil import rrule


def main():
    zone, start, clock, text, count = sys.argv[1:6]
    year, month, day = (int(part) for part in start.split("-"))
    hour, minute = (int(part) for part in clock.split(":"))
    dtstart = datetime.datetime(year, month, day, hour, minute, tzinfo=ZoneInfo(zone))
    rule = rrule.rrulestr(text, dtstart=dtstart)
    for occurrence in itertools.islice(rule, int(count)):
        print(int(occurrence.timestamp() * 1000))


if __name__ == "__main__":
    main()
