#!/usr/bin/env python3
"""The recurrence tests' oracle: python-dateutil's rrule, the reference RFC 5545 implementation.

    rrule_oracle.py ZONE START HH:MM INTERVAL DAYS COUNT
    e.g. rrule_oracle.py America/New_York 2026-03-02 02:30 1 MO,SU 20

Prints one occurrence per line as UTC milliseconds since 1970: FREQ=WEEKLY;INTERVAL=…;BYDAY=…;
WKST=MO with DTSTART at HH:MM on START in ZONE, the first COUNT occurrences.
"""
import datetime
import sys
from zoneinfo import ZoneInfo

from dateutil import rrule


def main():
    zone, start, clock, interval, days, count = sys.argv[1:7]
    year, month, day = (int(part) for part in start.split("-"))
    hour, minute = (int(part) for part in clock.split(":"))
    weekdays = {"MO": rrule.MO, "TU": rrule.TU, "WE": rrule.WE, "TH": rrule.TH, "FR": rrule.FR, "SA": rrule.SA,
                "SU": rrule.SU}
    dtstart = datetime.datetime(year, month, day, hour, minute, tzinfo=ZoneInfo(zone))
    rule = rrule.rrule(rrule.WEEKLY, interval=int(interval), byweekday=[weekdays[d] for d in days.split(",")],
                       dtstart=dtstart, wkst=rrule.MO, count=int(count))
    for occurrence in rule:
        print(int(occurrence.timestamp() * 1000))


if __name__ == "__main__":
    main()
