"""Fixtures for the cluster suite: three `kith serve` processes (A, B, C) on one PostgreSQL database,
every test run twice, the servers connected straight to PostgreSQL and through PgBouncer in
transaction mode (`connection`). One cluster per connection is shared by the tests that only add
accounts of their own (`cluster`); a test that needs an empty database or kills a server gets its own
(`new_cluster`). Every process started here is stopped and every database dropped, whatever the
outcome; a failed test's report carries the servers' recent logs.

Environment:
  KITH_BINARY               the built `kith` executable (required)
  KITH_TEST_DATABASE_URL    a PostgreSQL superuser URL (required)
  KITH_TEST_PGBOUNCER_URL   a PgBouncer in transaction mode in front of it; without it the suite starts
                            one with scripts/lib/pgbouncer.sh
"""

import signal
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import kith_cluster  # noqa: E402
from kith_cluster import Cluster, ClusterError, Connection, Database, PgBouncer, SmtpSink  # noqa: E402

CONNECTIONS = ["direct", "pgbouncer"]


def _interrupted(signum, frame):
    raise KeyboardInterrupt(f"signal {signum}")


def pytest_configure(config):
    # scripts/test stops an interrupted run with SIGTERM; as an interrupt, the fixtures' finalizers
    # still stop the servers, PgBouncer and the SMTP sink and drop the databases.
    signal.signal(signal.SIGTERM, _interrupted)


def _require_environment():
    try:
        kith_cluster.kith_hostile.binary()
        kith_cluster.admin_url()
    except (kith_cluster.ServerError, ClusterError) as error:
        pytest.fail(f"{error} ./scripts/test sets both; by hand: KITH_BINARY=.build-test/debug/kith "
                    "KITH_TEST_DATABASE_URL=postgres://… python3 -m pytest -q Tests/cluster", pytrace=False)


@pytest.fixture(scope="session")
def pgbouncer():
    _require_environment()
    try:
        bouncer = PgBouncer()
    except ClusterError as error:
        pytest.fail(str(error), pytrace=False)
    yield bouncer
    bouncer.stop()


@pytest.fixture(scope="session", params=CONNECTIONS)
def connection(request) -> Connection:
    _require_environment()
    if request.param == "pgbouncer":
        return Connection("pgbouncer", request.getfixturevalue("pgbouncer"))
    return Connection("direct")


@pytest.fixture(scope="session")
def smtp_sink():
    with tempfile.TemporaryDirectory(prefix="kith-cluster-mail-") as maildir:
        sink = SmtpSink(Path(maildir))
        yield sink
        sink.stop()


@pytest.fixture(scope="session")
def _shared_cluster(connection, smtp_sink) -> Cluster:
    database = Database()
    shared = Cluster(database, connection, env={"KITH_SMTP_URL": smtp_sink.url})
    try:
        yield shared.start()
    finally:
        shared.stop()
        database.drop()


@pytest.fixture
def cluster(request, _shared_cluster) -> Cluster:
    """Servers A, B and C on one database, started together once per connection and shared by the tests
    that use it (each works with accounts of its own); mail goes to `smtp_sink`."""
    dead = [server.name for server in _shared_cluster.servers if not server.alive()]
    assert not dead, f"the shared servers {dead} have exited (an earlier test?)\n{_shared_cluster.logs()}"
    request.node.kith_clusters = [_shared_cluster]
    return _shared_cluster


@pytest.fixture
def new_cluster(request, connection):
    """new_cluster(env=None) -> a Cluster on a fresh, empty database, not started yet; stopped and its
    database dropped after the test."""
    made = []

    def make(env: dict = None) -> Cluster:
        database = Database()
        cluster = Cluster(database, connection, env=env)
        made.append(cluster)
        request.node.kith_clusters = getattr(request.node, "kith_clusters", []) + [cluster]
        return cluster

    yield make
    for cluster in made:
        cluster.stop()
        cluster.database.drop()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.failed and call.when == "call":
        for cluster in getattr(item, "kith_clusters", []):
            report.sections.append((f"kith servers ({cluster.connection.name})", cluster.logs()))
    return report
