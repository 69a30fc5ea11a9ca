"""The exports' filters are checked before their answer starts: a value no database can
compare (a time past 2⁶³ ms) is a 400 naming the field, never a 200 stream cut short."""

from __future__ import annotations

import pytest

from tests.app.accounts_and_streams import Account, assert_error
from tests.app.botapi.test_lichess_endpoints import NDJSON, finished_game, games_of, get


@pytest.mark.parametrize("field", ["since", "until"])
@pytest.mark.parametrize("value", [2**63, 2**64 + 5, -1, 10**30])
def test_a_time_filter_out_of_range_is_refused_before_the_stream(client, field, value):
    Account(client, "alice")
    for headers in (NDJSON, {}):  # NDJSON, and the text records
        refused = get(client, f"/api/games/user/alice?{field}={value}", **headers)
        assert_error(refused, 400, "request.invalid")
        assert f"query.{field}" in refused.json()["error"]


def test_the_widest_time_filters_still_work(client):
    alice, bob = Account(client, "alice"), Account(client, "bob")
    game_id = finished_game(alice, bob)
    assert games_of(client, f"?since=0&until={2**53 - 1}") == [game_id]
    assert games_of(client, f"?since={2**53 - 1}") == []
