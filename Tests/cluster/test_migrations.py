"""Three servers started at the same moment on an empty database: one migrates while the others wait
for its advisory lock, then all three serve on the schema it made."""

from kith_cluster import call, sign_in, sign_up


def test_three_servers_started_together_on_an_empty_database_migrate_it_once(new_cluster):
    cluster = new_cluster()
    assert cluster.database.scalar("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") == "0"

    cluster.start()

    for server in cluster.servers:
        health = call(server, "GET", "/healthz", expect=200).json()
        assert health.get("database") == "postgres", f"{server.name}: {health}"
    versions = cluster.database.query("SELECT version, count(*) FROM schema_migrations GROUP BY version ORDER BY 1")
    numbers = [int(version) for version, _ in versions]
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) >= 19, f"versions applied: {numbers}"
    assert all(count == "1" for _, count in versions), f"a version recorded more than once: {versions}"
    # The schema serves every server: an account made on each signs in on the next.
    for index, server in enumerate(cluster.servers):
        account = sign_up(server)
        other = cluster.servers[(index + 1) % len(cluster.servers)]
        assert sign_in(other, account["email"])["user"]["id"] == account["user"]["id"]
