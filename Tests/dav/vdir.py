"""vdirsyncer (PyPI `vdirsyncer`), run as its command line with a config of its own in a temporary
directory: one pair per scenario, side A the DAV server (a `carddav` or `caldav` storage given only the
server's address and the account's credentials, so it finds the collection by discovery), side B a
`filesystem` storage: the "phone", one file per item.

Every run is at `-vdebug` and its output kept; `Run.requests` lists the HTTP requests vdirsyncer made
(it logs "====================" and then "<METHOD> <URL>" before each one), which is how the tests
see what a sync downloaded and uploaded without depending on the wording of its info lines.
"""

import json
import os
import re
import subprocess
import sys
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

STORAGE = {"contacts": ("carddav", ".vcf"), "tasks": ("caldav", ".ics")}
TIMEOUT = 120
REQUEST_LINE = re.compile(r"^debug: (GET|PUT|DELETE|PROPFIND|PROPPATCH|REPORT|MKCOL|MKCALENDAR|OPTIONS|HEAD|POST) (\S+)$")


@dataclass
class Run:
    args: list
    returncode: int
    output: str
    requests: list          # [(method, URL path, status or None)]
    reports: list           # the REPORT bodies' root elements (addressbook-multiget, calendar-multiget…)

    def count(self, method: str) -> int:
        return sum(1 for m, _path, _status in self.requests if m == method)

    @property
    def downloads(self) -> int:
        """Items fetched: vdirsyncer downloads with a multiget REPORT (get_multi); a GET is one too."""
        return sum(1 for r in self.reports if r.endswith("multiget")) + self.count("GET")

    def lines(self, level: str) -> list:
        return [line for line in self.output.splitlines() if line.startswith(level + ":")]

    def describe(self) -> str:
        """Its errors and its requests with their answers first, then the end of its output."""
        errors = [line for line in self.output.splitlines() if re.match(r"(error|critical|warning):", line)]
        made = [f"  {method} {path} -> {status}" for method, path, status in self.requests]
        return (f"vdirsyncer {' '.join(self.args)} exited {self.returncode}\n" + "\n".join(errors)
                + "\nrequests:\n" + "\n".join(made) + "\noutput (end):\n" + self.output[-3000:])


class Vdirsyncer:
    """One pair (`kind`: "contacts" or "tasks") between `account`'s DAV server and a phone folder."""

    def __init__(self, directory: Path, account, kind: str, server_url: str = None):
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.account = account
        self.kind = kind
        # The server's root: vdirsyncer finds the principal (PROPFIND there, else /.well-known/…),
        # the home set and the collections by itself.
        self.server_url = server_url or account.base_url + "/"
        self.phone = self.directory / "phone"
        self.config = self.directory / "config"
        self.runs = []

    def write_config(self, conflict_resolution: str = None):
        storage_type, ext = STORAGE[self.kind]
        pair = [f'a = "{self.kind}_server"', f'b = "{self.kind}_phone"',
                # Every collection side A has (discovered), each synced with a folder of its own on B,
                # made without asking.
                'collections = ["from a"]', 'implicit = "create"']
        if conflict_resolution:
            pair.append(f"conflict_resolution = {json.dumps(conflict_resolution)}")
        self.config.write_text("\n".join([
            "[general]",
            f"status_path = {json.dumps(str(self.directory / 'status') + '/')}",
            "",
            f"[pair {self.kind}]",
            *pair,
            "",
            f"[storage {self.kind}_server]",
            f'type = "{storage_type}"',
            f"url = {json.dumps(self.server_url)}",
            f"username = {json.dumps(self.account.username)}",
            f"password = {json.dumps(self.account.password)}",
            "",
            f"[storage {self.kind}_phone]",
            'type = "filesystem"',
            f"path = {json.dumps(str(self.phone) + '/')}",
            f'fileext = "{ext}"',
            "",
        ]))

    def run(self, *args, conflict_resolution: str = None) -> Run:
        self.write_config(conflict_resolution)
        command = [sys.executable, "-m", "vdirsyncer", "-vdebug", "-c", str(self.config), *args]
        env = dict(os.environ)
        env.pop("VDIRSYNCER_CONFIG", None)
        done = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT, env=env,
                              stdin=subprocess.DEVNULL)
        output = done.stdout + done.stderr
        requests_made, reports = [], []
        lines = output.splitlines()
        for index, line in enumerate(lines):
            match = REQUEST_LINE.match(line)
            if match and index > 0 and lines[index - 1].endswith("===================="):
                requests_made.append((match.group(1), urllib.parse.urlsplit(match.group(2)).path,
                                      _status(lines, index)))
                if match.group(1) == "REPORT":
                    reports.append(_report_kind(lines, index))
        result = Run(args=list(args), returncode=done.returncode, output=output, requests=requests_made,
                     reports=reports)
        self.runs.append(result)
        return result

    def discover(self) -> Run:
        result = self.run("discover", self.kind)
        assert result.returncode == 0, result.describe()
        return result

    def sync(self, conflict_resolution: str = None, check: bool = True) -> Run:
        result = self.run("sync", self.kind, conflict_resolution=conflict_resolution)
        if check:
            assert result.returncode == 0 and not result.lines("error"), result.describe()
        return result

    # -- the phone's folder ------------------------------------------------

    @property
    def folder(self) -> Path:
        """The folder of the one collection discovered (vdirsyncer names it after the collection)."""
        folders = sorted(p for p in self.phone.iterdir() if p.is_dir()) if self.phone.exists() else []
        assert len(folders) == 1, (f"expected one discovered {self.kind} collection on the phone side, found "
                                   f"{[f.name for f in folders]}; runs:\n" + "\n".join(r.describe() for r in self.runs))
        return folders[0]

    def files(self) -> dict:
        ext = STORAGE[self.kind][1]
        return {p.name: p.read_text(encoding="utf-8") for p in sorted(self.folder.iterdir())
                if p.is_file() and p.name.endswith(ext)}

    def write(self, name: str, text: str):
        """As an app saves: a new file renamed over the old one (a new inode, so vdirsyncer's
        filesystem ETag, mtime and inode, changes even within one clock tick)."""
        scratch = self.folder / (name + ".saving")
        scratch.write_text(text, encoding="utf-8")
        os.replace(scratch, self.folder / name)

    def remove(self, name: str):
        (self.folder / name).unlink()

    def file_of(self, uid: str, fields_of) -> str:
        for name, text in self.files().items():
            if fields_of(self.kind, text)["uid"] == uid:
                return name
        raise AssertionError(f"no {self.kind} item with UID {uid} on the phone side: {sorted(self.files())}")


def _status(lines: list, index: int):
    """The answer's status, which vdirsyncer logs after "Sending request..."."""
    for offset, line in enumerate(lines[index + 1:index + 8]):
        if line == "debug: Sending request...":
            following = lines[index + 2 + offset] if index + 2 + offset < len(lines) else ""
            return int(following[7:]) if re.fullmatch(r"debug: \d{3}", following) else None
    return None


def _report_kind(lines: list, index: int) -> str:
    """The REPORT's root element (calendar-multiget, addressbook-multiget, calendar-query), from the
    body vdirsyncer logs two lines after the request line (after the headers)."""
    for line in lines[index + 1:index + 6]:
        match = re.search(r"<(?:\w+:)?([\w-]+)[\s>][^<]*xmlns", line.replace("\\n", " ").replace("b'", ""))
        match = match or re.search(r"<C:([\w-]+)", line)
        if match:
            return match.group(1)
    return "unknown"
