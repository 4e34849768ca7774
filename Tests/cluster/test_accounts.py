"""An account is the database's, not a server's: made on one server, it signs in on the others, and a
session's tokens work and rotate on whichever server a request reaches."""

import pytest

from kith_cluster import call, sign_in, sign_up


def test_an_account_made_on_one_server_signs_in_on_the_others(cluster):
    a, b, c = cluster.servers
    account = sign_up(a)
    user_id = account["user"]["id"]

    for server in (b, c):
        signed_in = sign_in(server, account["email"])
        assert signed_in["user"]["id"] == user_id, f"{server.name}: {signed_in['user']}"
        me = call(a, "GET", "/v1/me", token=signed_in["accessToken"], expect=200).json()
        assert me["id"] == user_id, f"a token from {server.name} read on A: {me}"


def test_a_session_from_one_server_refreshes_on_another_and_a_reused_token_ends_it_everywhere(cluster):
    a, b, c = cluster.servers
    account = sign_up(a)
    user_id = account["user"]["id"]
    assert call(c, "GET", "/v1/me", token=account["accessToken"], expect=200).json()["id"] == user_id

    refreshed = call(c, "POST", "/v1/auth/refresh", json={"refreshToken": account["refreshToken"]}, expect=200).json()
    assert refreshed["accessToken"] != account["accessToken"]
    assert refreshed["refreshToken"] != account["refreshToken"]
    assert call(a, "GET", "/v1/me", token=refreshed["accessToken"], expect=200).json()["id"] == user_id
    assert call(b, "GET", "/v1/me", token=refreshed["accessToken"], expect=200).json()["id"] == user_id

    # The refresh token A issued was used on C; presented again on B it is a copy: the whole session
    # ends, on every server.
    call(b, "POST", "/v1/auth/refresh", json={"refreshToken": account["refreshToken"]}, expect=401)
    call(a, "GET", "/v1/me", token=refreshed["accessToken"], expect=401)
    call(a, "POST", "/v1/auth/refresh", json={"refreshToken": refreshed["refreshToken"]}, expect=401)


def test_a_server_on_the_unix_socket_shares_the_database_with_those_on_tcp(cluster):
    if cluster.connection.name != "direct" or not cluster.database.socket_url:
        pytest.skip("no Unix socket URL for the test PostgreSQL (KITH_TEST_DATABASE_SOCKET_URL)")
    a, b, c = cluster.servers
    account = sign_up(c)
    assert sign_in(a, account["email"])["user"]["id"] == account["user"]["id"]
    # C's connections are the database's only ones without a client address: a Unix socket's.
    over_socket = cluster.database.scalar(
        f"SELECT count(*) FROM pg_stat_activity WHERE datname = '{cluster.database.name}' "
        "AND backend_type = 'client backend' AND client_addr IS NULL")
    assert int(over_socket) > 0, "server C was to connect over the Unix socket"
