"""A change pushed through one server reaches the person's live sockets on every server at once: the
pushing server tells its own, and NOTIFY carries it to the others, whose LISTEN connection goes
straight to PostgreSQL even when their queries go through PgBouncer."""

import time

from kith_cluster import LiveSocket, push, sign_up, statuses, year_mutation


def test_a_push_on_one_server_reaches_live_sockets_on_every_server(cluster):
    a, b, c = cluster.servers
    account = sign_up(a)
    scope = account["scope"]
    sockets = {server.name: LiveSocket(server, account["accessToken"]) for server in cluster.servers}
    try:
        heard = {name: 0 for name in sockets}
        for pusher, year in ((a, "2031"), (c, "2032"), (b, "2033")):
            pushed_at = time.monotonic()
            assert statuses(push(pusher, account["accessToken"], [year_mutation(scope, year)])) == ["applied"]
            for name, socket in sockets.items():
                nudge = socket.wait_for(
                    f"a nudge for the push on {pusher.name}",
                    lambda message, after=heard[name]: message.get("type") == "changed"
                    and message.get("scope") == scope and message.get("seq", 0) > after)
                heard[name] = nudge["seq"]
                print(f"push on {pusher.name}: socket on {name} told after {time.monotonic() - pushed_at:.3f} s")
    finally:
        for socket in sockets.values():
            socket.close()
