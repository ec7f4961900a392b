"""A live table: computer players act until a person is to act, every action is stored, a restart resumes."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from ohhell.rules import Rules
from ohhell.server.storage.store import Store
from ohhell.server.table import players, snapshot
from ohhell.server.table.live import Table, Tables
from ohhell.server.table.seats import Seat
from ohhell.server.table.thinkers import Thinkers
from ohhell.site import schema
from server.serving import run_async

SEATS = [Seat.human("You", "me")] + [Seat.computer(n, "normal") for n in ("Alice", "Bob", "Carol")]


class Recorder:
    """A connection that keeps what it is sent, and the state it holds (as the page merges it)."""

    def __init__(self, seat: int = 0) -> None:
        self.seat = seat
        self.messages: list[dict[str, Any]] = []
        self._state: dict[str, Any] | None = None

    async def send(self, text: str) -> None:
        message = json.loads(text)
        self.messages.append(message)
        if message["type"] == "state" or (message["type"] == "action" and self._state is not None):
            self._state = snapshot.merge(self._state or {}, message)

    @property
    def state(self) -> dict[str, Any]:
        """The state the connection holds now."""
        assert self._state is not None, "no state was sent"
        return self._state


def move_text(connection: Recorder, **fields: Any) -> str:
    """A move message on the connection's picture of the table."""
    state = connection.state
    return json.dumps({**fields, "seq": state["seq"], "deal": state["deal"]["index"]})


async def settle(table: Table) -> None:
    """Wait until the computer players have nothing left to do."""
    for _ in range(500):
        task = table._bots
        if task is None or task.done():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the computer players did not stop")


async def my_move(table: Table, connection: Recorder) -> None:
    """Make the first legal move of the person's seat and let the computer players answer."""
    deal = connection.state["deal"]
    if connection.state["game"]["waiting_for_next"]:
        await table.receive(connection, f'{{"type": "next", "deal": {connection.state["game"]["next_deal"]}}}')
    elif deal["bids"]:
        bid = next(o["bid"] for o in deal["bids"] if o["allowed"])
        await table.receive(connection, move_text(connection, type="bid", bid=bid))
    else:
        await table.receive(connection, move_text(connection, type="play", card=deal["playable"][0]))
    await settle(table)


async def new_table(tables: Tables, rules: Rules, number: int = 7, seats: list[Seat] = SEATS) -> Table:
    """A new game's live table."""
    return await tables.get((await tables.start(rules, number, seats, "me")).id)


async def seated(tables: Tables, first_dealer: int = 0) -> tuple[Table, Recorder]:
    """A new `short` game (deal number 7) with you in seat 0, once the computer players have acted."""
    table = await new_table(tables, Rules.preset("short", first_dealer=first_dealer))
    you = Recorder()
    await table.join(you)
    await settle(table)
    return table, you


def run(tmp_path: Path, scenario: Callable[[Tables], Awaitable[None]]) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    schema.upgrade(url)

    async def main() -> None:
        store = Store(url)
        tables = Tables(store, Thinkers(0))
        try:
            await scenario(tables)
        finally:
            await tables.close()
            tables.thinkers.close()
            await store.close()

    run_async(main)


def test_the_computer_players_act_until_the_person_is_to_act(tmp_path: Path) -> None:
    async def scenario(tables: Tables) -> None:
        table = await new_table(tables, Rules.preset("short", first_dealer=0))
        you = Recorder()
        await table.join(you)
        await settle(table)
        assert table.game.to_act == 0
        assert [m["sentence"] for m in you.messages if m["type"] == "action"] == [
            "Alice bid " + str(table.game.deal.bids[1]),
            "Bob bid " + str(table.game.deal.bids[2]),
            "Carol bid " + str(table.game.deal.bids[3]),
        ]
        assert you.state["deal"]["my_turn"]
        assert len(you.state["deal"]["reasons"]) == 3

    run(tmp_path, scenario)


def test_a_restarted_server_resumes_exactly_where_the_game_was(tmp_path: Path) -> None:
    async def scenario(tables: Tables) -> None:
        table = await new_table(tables, Rules.preset("short"))
        you = Recorder()
        await table.join(you)
        await settle(table)
        for _ in range(4):
            await my_move(table, you)
        before = table.state_for(0)
        restarted = Tables(tables.store, tables.thinkers)
        again = await restarted.get(table.id)
        assert again.state_for(0) == before
        assert again.game.deals[-1].actions == table.game.deals[-1].actions

    run(tmp_path, scenario)


def test_a_finished_hand_waits_for_next_hand(tmp_path: Path) -> None:
    async def scenario(tables: Tables) -> None:
        table = await new_table(tables, Rules.preset("short", first_dealer=3))
        you = Recorder()
        await table.join(you)
        await settle(table)
        while not you.state["game"]["waiting_for_next"]:
            await my_move(table, you)
        assert table.game.deal_index == 1
        assert table.game.deals[1].actions == []  # the computer players wait too
        assert you.state["deal"]["index"] == 0
        resumed = await Tables(tables.store, tables.thinkers).get(table.id)
        assert resumed.waiting_for_next
        await my_move(table, you)
        assert you.state["deal"]["index"] == 1
        assert len(table.game.deals[1].actions) == 3  # you deal hand 2: the three computer players bid first
        assert not (await Tables(tables.store, tables.thinkers).get(table.id)).waiting_for_next

    run(tmp_path, scenario)


def test_the_computer_players_think_off_the_event_loop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    threads: set[int] = set()
    decide = players.decide

    def watched(level: str, view: Any, rng: Any, names: Any = None) -> players.Move:
        threads.add(threading.get_ident())
        return decide(level, view, rng, names)

    monkeypatch.setattr(players, "decide", watched)

    async def scenario(tables: Tables) -> None:
        table = await new_table(tables, Rules.preset("short", first_dealer=0))
        await table.join(Recorder())
        await settle(table)
        assert threads
        assert threading.get_ident() not in threads

    run(tmp_path, scenario)


def test_a_move_the_database_does_not_take_is_not_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async def scenario(tables: Tables) -> None:
        table, you = await seated(tables)
        before = table.state_for(0)

        async def broken(*args: Any) -> None:
            raise OSError("disk full")

        monkeypatch.setattr(table.store, "append_action", broken)
        await my_move(table, you)
        assert you.messages[-1]["type"] == "error"
        assert you.messages[-1]["code"] == "not-saved"
        assert table.state_for(0) == before

    run(tmp_path, scenario)


def test_a_second_connection_of_the_same_seat_sees_the_same_table(tmp_path: Path) -> None:
    async def scenario(tables: Tables) -> None:
        table = await new_table(tables, Rules.preset("short"))
        first, second = Recorder(), Recorder()
        await table.join(first)
        await settle(table)
        await table.join(second)
        await my_move(table, first)
        assert first.state == second.state
        assert table.seat_of("me") == 0
        assert table.seat_of("someone else") is None

    run(tmp_path, scenario)


def test_giving_up_ends_the_game_for_good(tmp_path: Path) -> None:
    async def scenario(tables: Tables) -> None:
        table, you = await seated(tables)
        for _ in range(3):
            await my_move(table, you)
        actions = len(table.game.deal.actions)
        await table.receive(you, f'{{"type": "resign", "seq": {you.state["seq"]}}}')
        state = you.state
        assert state["game"]["over"]
        assert state["game"]["resigned"] == 0
        assert 0 not in state["game"]["winners"]
        assert state["game"]["result"].startswith("You gave up. ")
        await settle(table)
        assert len(table.game.deal.actions) == actions  # the computer players stop too
        await table.receive(you, f'{{"type": "resign", "seq": {you.state["seq"]}}}')
        assert you.messages[-1]["code"] == "unexpected-action"
        await table.receive(you, move_text(you, type="bid", bid=0))
        assert you.messages[-1]["type"] == "error"
        restarted = await Tables(tables.store, tables.thinkers).get(table.id)
        assert restarted.game.resigned == 0
        assert restarted.state_for(0) == table.state_for(0)
        stored = (await tables.store.games_of("me"))[0]
        assert stored.finished and stored.resigned == 0 and stored.winners == table.game.winners

    run(tmp_path, scenario)


def test_giving_up_on_a_stale_picture_or_unsaved_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario(tables: Tables) -> None:
        table, you = await seated(tables)
        before = table.state_for(0)
        await table.receive(you, f'{{"type": "resign", "seq": {you.state["seq"] - 1}}}')
        assert [m["type"] for m in you.messages[-2:]] == ["error", "state"]
        assert you.messages[-2]["code"] == "stale"

        async def broken(*args: Any) -> None:
            raise OSError("disk full")

        monkeypatch.setattr(table.store, "resign", broken)
        await table.receive(you, f'{{"type": "resign", "seq": {you.state["seq"]}}}')
        assert you.messages[-1]["code"] == "not-saved"
        assert table.game.resigned is None
        assert table.state_for(0) == before
        assert (await Tables(tables.store, tables.thinkers).get(table.id)).game.resigned is None

    run(tmp_path, scenario)


def test_under_until_next_rules_the_computers_leave_time_to_change_a_bid(tmp_path: Path) -> None:
    async def scenario(tables: Tables) -> None:
        quick = Tables(tables.store, tables.thinkers, change_window=0.4)
        rules = Rules.preset("short", first_dealer=3, bid_changes="until-next")
        table = await new_table(quick, rules)
        you = Recorder()
        await table.join(you)
        await settle(table)
        assert table.game.to_act == 0  # you bid first: the dealer is on your right
        await table.receive(you, move_text(you, type="bid", bid=1))
        await asyncio.sleep(0.1)
        assert table.game.deal.bids[1] == -1  # Alice waits while you may change
        assert you.state["deal"]["changes"]
        await table.receive(you, move_text(you, type="change", bid=2))
        assert table.game.deal.bids[0] == 2
        await settle(table)
        assert table.game.deal.bids[1] >= 0  # then the computer players go on
        assert not table.game.deal.can_change_bid(0)
        await quick.close()

    run(tmp_path, scenario)


def test_a_computer_players_unsaved_action_is_tried_again_and_the_table_is_told(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario(tables: Tables) -> None:
        monkeypatch.setattr("ohhell.server.table.live.RETRY_FIRST_SECONDS", 0.01)
        table, you = await seated(tables)
        append = table.store.append_action
        failures = {"left": 3}

        async def locked(*args: Any) -> None:
            if failures["left"] and args[1].seat != 0:
                failures["left"] -= 1
                raise OSError("database is locked")
            await append(*args)

        monkeypatch.setattr(table.store, "append_action", locked)
        await my_move(table, you)  # your move is saved; then the computer players' first one fails three times
        notices = [m["code"] for m in you.messages if m["type"] == "notice"]
        assert notices == ["saving-failed", "saved"]
        assert failures["left"] == 0
        assert table.game.to_act == 0 or you.state["game"]["waiting_for_next"]  # the table went on to you
        restarted = await Tables(tables.store, tables.thinkers).get(table.id)
        assert restarted.state_for(0) == table.state_for(0)  # and every action it announced was stored

    run(tmp_path, scenario)


def test_idle_tables_are_let_go_and_rebuilt_from_the_log(tmp_path: Path) -> None:
    async def scenario(tables: Tables) -> None:
        quick = Tables(tables.store, tables.thinkers, idle_seconds=0.05)
        table = await new_table(quick, Rules.preset("short"))
        you = Recorder()
        await table.join(you)
        await settle(table)
        await my_move(table, you)
        before = table.state_for(0)
        await asyncio.sleep(0.3)
        assert len(quick) == 1  # a connected table stays
        table.leave(you)
        await asyncio.sleep(0.3)
        assert len(quick) == 0  # the sweeper let it go
        again = await quick.get(table.id)
        assert again is not table
        assert again.state_for(0) == before
        await quick.close()

    run(tmp_path, scenario)


def test_a_move_for_a_finished_hand_sent_as_next_hand_is_pressed_is_refused(tmp_path: Path) -> None:
    async def scenario(tables: Tables) -> None:
        table, you = await seated(tables, first_dealer=2)  # hand 2 is dealt by seat 3: you bid first
        while not you.state["game"]["waiting_for_next"]:
            await my_move(table, you)
        other = Recorder()  # another tab of the same seat, still showing the finished hand
        await table.join(other)
        await table.receive(you, json.dumps({"type": "next", "deal": 1}))
        await settle(table)
        stale = {"seq": other.messages[0]["seq"], "deal": 0}
        assert table.game.to_act == 0 and table.seq == stale["seq"]  # the same seq: only the hand tells them apart
        moves = len(table.game.deal.actions)
        await table.receive(other, json.dumps({"type": "bid", "bid": 0, **stale}))
        assert other.messages[-2]["code"] == "stale"
        assert len(table.game.deal.actions) == moves

    run(tmp_path, scenario)
