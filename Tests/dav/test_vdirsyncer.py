"""vdirsyncer, a real DAV client we did not write, syncing an address book and a task calendar with a
"phone" folder, both ways, against every target.

Each scenario is a function (account, directory) -> outcome: the person-visible fields of every item
on the server and on the phone after each step (dav_items.contact_fields / task_fields), and what
vdirsyncer did. Inside a target the two sides must agree after each sync; across targets the whole
outcome must equal Radicale's (conftest.same_as_radicale). Scenario steps:

- lifecycle: an item created by another DAV client on the server and one created on the phone; sync;
  both on both sides. Nothing changed: a sync that downloads and uploads nothing. Each side edits the
  item the other made; sync; both edits arrive. Each side deletes the item the other made; sync; gone.
- conflict: one item edited on both sides between syncs: vdirsyncer refuses it the same way on every
  server (the same error, naming the item, nothing written), then `conflict_resolution = "a wins"`
  settles it with the server's version on both sides.
"""

import datetime as dt

import pytest

import dav_http
import dav_items
from vdir import Vdirsyncer

KINDS = ["contacts", "tasks"]


def build(kind: str, spec: dict) -> str:
    return dav_items.vcard(**spec) if kind == "contacts" else dav_items.vtodo(**spec)


def server_made(kind: str) -> dict:
    if kind == "contacts":
        return dav_items.ada("server-contact")
    return dav_items.weekly_task("server-task", "Water the plants")


def phone_made(kind: str) -> dict:
    if kind == "contacts":
        return dav_items.grace("phone-contact")
    return dav_items.weekly_task("phone-task", "Buy groceries")


def edited_on_phone(kind: str, spec: dict) -> dict:
    """The phone's edit of the server's item."""
    spec = dict(spec)
    if kind == "contacts":
        spec.update(nickname="Countess of Lovelace", phones=["+44 20 7946 0999"],
                    categories=spec["categories"] + ["edited-on-phone"])
    else:
        spec.update(summary="Water the plants and the herbs", checklist=[("milk", True), ("bread", True)])
    return spec


def edited_on_server(kind: str, spec: dict) -> dict:
    """Another DAV client's edit of the phone's item."""
    spec = dict(spec)
    if kind == "contacts":
        spec.update(title="Commodore", note="Retired as a rear admiral.",
                    emails=spec["emails"] + ["grace@cobol.example"])
    else:
        day = dav_items.tomorrow(2)
        spec.update(due=dt.datetime.combine(day, dt.time(19, 30)),
                    rrule=f"FREQ=WEEKLY;INTERVAL=1;BYDAY={dav_items.weekday_code(day)}",
                    checklist=[("milk", False), ("bread", True), ("eggs", False)])
    return spec


def both_sides(vdir: Vdirsyncer, account, kind: str, step: str) -> dict:
    """Both sides' person-visible fields by UID; they must be the same."""
    server = dav_http.server_fields(account, kind)
    phone = {}
    for name, text in vdir.files().items():
        fields = dav_http.fields_of(kind, text)
        assert fields["uid"] not in phone, f"{step}: two phone files with UID {fields['uid']}"
        phone[fields["uid"]] = fields
    assert server == phone, f"{step}: the server and the phone disagree"
    return {"server": server, "phone": phone}


def sync_and_settle(vdir: Vdirsyncer):
    """A sync, then the one after it, which may download but must upload and delete nothing.

    Why the second: a server that rewrites what it is sent (Kith stores contacts as Monica records
    and tasks as family reminders and writes them out in its own normal form) must not answer such a
    PUT with an ETag (RFC 4791 5.3.4, RFC 7231 4.3.4). vdirsyncer then keeps no ETag for the item,
    sees one at the next listing and downloads the server's version once. Until that sync its
    status says "changed on the server", so a deletion on the phone in between would be undone
    (vdirsyncer restores an item deleted on one side and changed on the other). A server that
    answers with the stored version's ETag (Radicale does, although it re-serialises too) needs no
    second sync, which then downloads nothing. Either way both sides are settled afterwards, and
    the scenario's outcome does not depend on which the server does."""
    first = vdir.sync()
    settle = vdir.sync()
    assert settle.count("PUT") == 0 and settle.count("DELETE") == 0, "the sync after a sync changed the server:\n" \
        + settle.describe()
    return first


def actions(run) -> dict:
    """What a sync did to the server: uploads (PUT) and deletions; and whether it downloaded."""
    return {"PUT": run.count("PUT"), "DELETE": run.count("DELETE"), "downloaded": run.downloads > 0}


def lifecycle(kind: str):
    def scenario(account, directory) -> dict:
        outcome = {}
        vdir = Vdirsyncer(directory, account, kind)
        ours, theirs = server_made(kind), phone_made(kind)
        ext = dav_http.EXT[kind]

        # Created on each side.
        dav_http.create(account, kind, ours["uid"], build(kind, ours))
        vdir.discover()
        vdir.write(theirs["uid"] + ext, build(kind, theirs))
        first = sync_and_settle(vdir)
        outcome["created"] = both_sides(vdir, account, kind, "after creating on each side")
        outcome["created"]["sync"] = actions(first)
        assert set(outcome["created"]["server"]) == {ours["uid"], theirs["uid"]}

        # Nothing changed since the settled sync (see sync_and_settle for why a sync after an
        # upload may still download once): a sync lists the collection and nothing more. No
        # multiget REPORT or GET (vdirsyncer downloads only with those), no PUT, no DELETE, and both
        # sides stay byte for byte what they were, ETags included.
        files_before = vdir.files()
        etags_before = dav_http.list_items(account.http(), account.collection_url(kind))
        quiet = vdir.sync()
        assert quiet.downloads == 0, "a sync with nothing changed downloaded:\n" + quiet.describe()
        assert actions(quiet) == {"PUT": 0, "DELETE": 0, "downloaded": False}, quiet.describe()
        assert vdir.files() == files_before
        assert dav_http.list_items(account.http(), account.collection_url(kind)) == etags_before
        outcome["unchanged"] = {"sync": actions(quiet), "requests": sorted({m for m, _path, _status in quiet.requests})}

        # Edited on each side: the phone edits the server's item, the server the phone's.
        vdir.write(vdir.file_of(ours["uid"], dav_http.fields_of), build(kind, edited_on_phone(kind, ours)))
        dav_http.update(account, kind, theirs["uid"], build(kind, edited_on_server(kind, theirs)))
        edit = sync_and_settle(vdir)
        outcome["edited"] = both_sides(vdir, account, kind, "after editing on each side")
        outcome["edited"]["sync"] = actions(edit)

        # Deleted on each side: the phone deletes the server's item, the server the phone's.
        vdir.remove(vdir.file_of(ours["uid"], dav_http.fields_of))
        dav_http.remove(account, kind, theirs["uid"])
        gone = vdir.sync()
        outcome["deleted"] = both_sides(vdir, account, kind, "after deleting on each side")
        outcome["deleted"]["sync"] = actions(gone)
        assert outcome["deleted"]["server"] == {}
        return outcome

    return scenario


def conflict(kind: str):
    def scenario(account, directory) -> dict:
        outcome = {}
        vdir = Vdirsyncer(directory, account, kind)
        spec = server_made(kind)
        uid = spec["uid"]
        dav_http.create(account, kind, uid, build(kind, spec))
        vdir.discover()
        vdir.sync()
        vdir.sync()

        if kind == "contacts":
            on_phone, on_server = dict(spec, nickname="Phone's Ada"), dict(spec, nickname="Server's Ada")
        else:
            on_phone, on_server = dict(spec, summary="Water the plants (phone)"), dict(spec, summary="Water the plants (server)")
        vdir.write(vdir.file_of(uid, dav_http.fields_of), build(kind, on_phone))
        dav_http.update(account, kind, uid, build(kind, on_server))

        refused = vdir.sync(check=False)
        errors = refused.lines("error")
        assert refused.returncode != 0 and any("One item changed on both sides" in e for e in errors), refused.describe()
        outcome["refused"] = {
            "exit status": refused.returncode,
            # The message without the hrefs, which differ between servers.
            "errors": [e.replace(vdir.kind + "/", "") for e in errors if not e.startswith("error: Item href")],
            "item": [line.strip() for line in refused.output.splitlines() if line.startswith("Item ID:")],
            "sync": actions(refused),
            "sides": both_sides_apart(vdir, account, kind),
        }

        resolved = vdir.sync(conflict_resolution="a wins")
        outcome["a wins"] = both_sides(vdir, account, kind, "after resolving with a wins")
        outcome["a wins"]["sync"] = actions(resolved)
        field = "nickname" if kind == "contacts" else "summary"
        assert outcome["a wins"]["server"][uid][field] == on_server[field]
        return outcome

    return scenario


def both_sides_apart(vdir, account, kind) -> dict:
    """After a refused conflict each side keeps its own edit."""
    server = dav_http.server_fields(account, kind)
    phone = {dav_http.fields_of(kind, text)["uid"]: dav_http.fields_of(kind, text) for text in vdir.files().values()}
    return {"server": server, "phone": phone}


@pytest.mark.parametrize("kind", KINDS)
def test_create_sync_unchanged_edit_delete_both_ways(account, kind, same_as_radicale):
    same_as_radicale(("lifecycle", kind), account, lifecycle(kind))


@pytest.mark.parametrize("kind", KINDS)
def test_conflict_is_reported_then_a_wins(account, kind, same_as_radicale):
    same_as_radicale(("conflict", kind), account, conflict(kind))
