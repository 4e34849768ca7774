"""Fixtures for the real-DAV-client tests: one server per target for the whole run (Radicale; Kith on
SQLite; Kith on PostgreSQL when KITH_TEST_DATABASE_URL is set), a fresh account per test, and the
Radicale reference every scenario's outcome is compared with.

Environment:
  KITH_BINARY              the built `kith` executable (the kith-* targets fail without it)
  KITH_TEST_DATABASE_URL   a PostgreSQL superuser URL: adds the kith-postgres target
"""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import dav_servers  # noqa: E402
from dav_servers import ServerError  # noqa: E402

TARGETS = dav_servers.target_names()
KITH_TARGETS = [name for name in TARGETS if name.startswith("kith")]


class _Targets:
    """Each target started on first use and kept for the run; started again if a test killed it."""

    def __init__(self):
        self.running = {}

    def get(self, name: str) -> dav_servers.DavTarget:
        target = self.running.get(name)
        if target is not None and target.alive():
            return target
        if target is not None:
            target.stop()
        problem = None
        try:
            target = dav_servers.make_target(name).start()
        except ServerError as error:
            problem = str(error)
        if problem:
            hint = (" ./scripts/test sets KITH_BINARY; by hand: KITH_BINARY=.build-test/debug/kith "
                    "python3 -m pytest -q Tests/dav") if name.startswith("kith") else ""
            pytest.fail(f"{name}: {problem}{hint}", pytrace=False)
        self.running[name] = target
        return target

    def stop_all(self):
        for target in self.running.values():
            target.stop()
        self.running.clear()


_targets = _Targets()


@pytest.fixture(scope="session", autouse=True)
def _stop_targets():
    yield
    _targets.stop_all()


@pytest.fixture(params=TARGETS)
def target(request) -> dav_servers.DavTarget:
    """Every target: radicale, kith-sqlite[, kith-postgres]."""
    return _targets.get(request.param)


@pytest.fixture(params=KITH_TARGETS)
def kith(request) -> dav_servers.KithTarget:
    """The Kith targets only (checks of Kith's own data and rules)."""
    return _targets.get(request.param)


@pytest.fixture
def account(target) -> dav_servers.DavAccount:
    """A fresh account on the target, its address book and task calendar empty."""
    return target.new_account()


class Reference:
    """Each scenario's outcome on Radicale, by scenario key. A Kith test compares its outcome with it;
    if Radicale's test did not run in this process (`-k kith`), the scenario runs on Radicale there."""

    def __init__(self):
        self.outcomes = {}

    def record(self, key, outcome):
        self.outcomes[key] = outcome

    def get(self, key, scenario, directory: Path):
        if key not in self.outcomes:
            radicale = _targets.get("radicale")
            self.outcomes[key] = scenario(radicale.new_account(), directory / "radicale-reference")
        return self.outcomes[key]


_reference = Reference()


@pytest.fixture
def same_as_radicale(tmp_path):
    """same_as_radicale(key, account, scenario): runs `scenario(account, directory) -> outcome` on the
    test's account; on Radicale records the outcome, elsewhere asserts it equals Radicale's."""

    def check(key, account, scenario):
        outcome = scenario(account, tmp_path / account.target)
        if account.target == "radicale":
            _reference.record(key, outcome)
            return outcome
        expected = _reference.get(key, scenario, tmp_path)
        assert outcome == expected, f"{account.target} differs from Radicale in scenario {key}"
        return outcome

    return check


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed test against a server shows the end of that server's log."""
    outcome = yield
    report = outcome.get_result()
    if report.when != "call" or not report.failed:
        return
    for name in ("target", "kith"):
        target = item.funcargs.get(name)
        if target is not None:
            report.sections.append((f"{target.name} log (last lines)", target.recent_log() or "(empty)"))
