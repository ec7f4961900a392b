"""A live table: computer players act until a person is to act, every action is stored, a restart resumes."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from ohhell.rules import Rules
from ohhell.server import players
from ohhell.server.seats import Seat
from ohhell.server.store import Store
from ohhell.server.table import Table, Tables
from ohhell.site import schema
from server.serving import run_async

SEATS = [Seat.human("You", "me")] + [Seat.computer(n, "normal") for n in ("Alice", "Bob", "Carol")]


class Recorder:
    """A connection that keeps what it is sent."""

    def __init__(self, seat: int = 0) -> None:
        self.seat = seat
        self.messages: list[dict[str, Any]] = []

    async def send(self, message: dict[str, Any]) -> None:
        self.messages.append(message)

    @property
    def state(self) -> dict[str, Any]:
        """The last state the connection was told."""
        for message in reversed(self.messages):
            if message["type"] in ("state", "action"):
                state: dict[str, Any] = message if message["type"] == "state" else message["state"]
                return state
        raise AssertionError("no state was sent")


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
        await table.receive(connection, f'{{"type": "bid", "bid": {bid}, "seq": {connection.state["seq"]}}}')
    else:
        card = deal["playable"][0]
        await table.receive(connection, f'{{"type": "play", "card": "{card}", "seq": {connection.state["seq"]}}}')
    await settle(table)


async def seated(tables: Tables, first_dealer: int = 0) -> tuple[Table, Recorder]:
    """A new `short` game (deal number 7) with you in seat 0, once the computer players have acted."""
    table = await tables.start(Rules.preset("short", first_dealer=first_dealer), 7, SEATS, "me")
    you = Recorder()
    await table.join(you)
    await settle(table)
    return table, you


def run(tmp_path: Path, scenario: Callable[[Tables], Awaitable[None]]) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    schema.upgrade(url)

    async def main() -> None:
        store = Store(url)
        tables = Tables(store, players.Thinkers(0))
        try:
            await scenario(tables)
        finally:
            await tables.close()
            tables.thinkers.close()
            await store.close()

    run_async(main)


def test_the_computer_players_act_until_the_person_is_to_act(tmp_path: Path) -> None:
    async def scenario(tables: Tables) -> None:
        table = await tables.start(Rules.preset("short", first_dealer=0), 7, SEATS, "me")
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
        table = await tables.start(Rules.preset("short"), 7, SEATS, "me")
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
        table = await tables.start(Rules.preset("short", first_dealer=3), 7, SEATS, "me")
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

    def watched(level: str, view: Any, rng: Any) -> players.Move:
        threads.add(threading.get_ident())
        return decide(level, view, rng)

    monkeypatch.setattr(players, "decide", watched)

    async def scenario(tables: Tables) -> None:
        table = await tables.start(Rules.preset("short", first_dealer=0), 7, SEATS, "me")
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
        table = await tables.start(Rules.preset("short"), 7, SEATS, "me")
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
        await table.receive(you, f'{{"type": "bid", "bid": 0, "seq": {you.state["seq"]}}}')
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
        table = await quick.start(rules, 7, SEATS, "me")
        you = Recorder()
        await table.join(you)
        await settle(table)
        assert table.game.to_act == 0  # you bid first: the dealer is on your right
        await table.receive(you, f'{{"type": "bid", "bid": 1, "seq": {you.state["seq"]}}}')
        await asyncio.sleep(0.1)
        assert table.game.deal.bids[1] == -1  # Alice waits while you may change
        assert you.state["deal"]["changes"]
        await table.receive(you, f'{{"type": "change", "bid": 2, "seq": {you.state["seq"]}}}')
        assert table.game.deal.bids[0] == 2
        await settle(table)
        assert table.game.deal.bids[1] >= 0  # then the computer players go on
        assert not table.game.deal.can_change_bid(0)
        await quick.close()

    run(tmp_path, scenario)
