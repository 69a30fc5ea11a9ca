"""The reserve of file handles and the per-address count of long-lived connections, on
their own: what is measured, what is refused and in which order."""

from __future__ import annotations

from typing import Any

from app.limits.capacity import FileHandles, open_files, soft_limit
from app.limits.quotas import SocketsPerAddress
from tests.app.accounts_and_streams import ALL_SCOPES, Account, assert_error, services_of


def handles(limit: int | None, used: list[int | None]) -> FileHandles:
    return FileHandles(10, limit=lambda: limit, in_use=lambda: used[0])


def test_handles_are_scarce_once_fewer_than_the_reserve_are_left():
    used: list[int | None] = [89]
    reserve = handles(100, used)
    assert not reserve.scarce()  # 11 left
    used[0] = 90
    assert reserve.scarce()  # 10 left: the reserve
    assert not handles(None, used).scarce()  # unlimited
    assert not handles(100, [None]).scarce()  # not measurable here


def test_this_process_is_measured():
    count = open_files()
    assert count is not None and count >= 3  # stdin, stdout, stderr at least
    limit = soft_limit()
    assert limit is None or limit > count


def test_the_address_cap_is_told_before_the_servers_want_of_handles():
    used: list[int | None] = [0]
    sockets = SocketsPerAddress(2, handles(100, used))
    assert sockets.take("a") is None and sockets.take("a") is None
    used[0] = 95
    full = sockets.take("a")
    assert full is not None and (full.status, full.code) == (429, "connections.too_many")
    busy = sockets.take("b")
    assert busy is not None and (busy.status, busy.code) == (503, "server.busy")
    assert sockets.held("b") == 0  # a refusal holds nothing
    used[0] = 0
    sockets.give_back("a")
    assert sockets.take("a") is None and sockets.held("a") == 2


def test_the_servers_own_bots_streams_count_against_no_address(make_client: Any):
    client = make_client(max_sockets_per_ip=1)
    own, other = Account(client, "kodama-test", bot=True), Account(client, "robot", bot=True)
    with other.stream("/api/stream/event") as held:
        assert held.status_code == 200
        refused = client.get("/api/stream/event", headers=other.new_token(ALL_SCOPES))
        assert_error(refused, 429, "connections.too_many")
        # One stream per game a built-in opponent plays, from the server's own address.
        with (
            own.stream("/api/stream/event") as first,
            client.stream("GET", "/api/stream/event", headers=own.new_token(ALL_SCOPES)) as again,
        ):
            assert (first.status_code, again.status_code) == (200, 200)
    assert services_of(client).sockets.held("testclient") == 0
