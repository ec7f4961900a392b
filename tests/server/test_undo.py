"""Undo, the club aid, at a live table: the person's last move goes back with the computer players' after it, the
log keeps an undo row, a rebuilt table and the replay agree, and Undo is refused where it is not allowed."""

from __future__ import annotations

from pathlib import Path

from ohhell.rules import Rules
from ohhell.server.pages import exports
from ohhell.server.table.live import Tables, rebuild_with_undos
from ohhell.server.table.seats import Seat
from ohhell.server.table.undo import actions_to_take_back, undo_count
from server.test_table import Recorder, my_move, new_table, run, seated, settle


def offers(you: Recorder) -> list[bool]:
    """What every state and change told the seat about Undo."""
    return [m["undo"] for m in you.messages if m["type"] in ("state", "action")]


def test_undo_takes_back_the_persons_bid_and_the_computer_moves_after_it(tmp_path: Path) -> None:
    async def scenario(tables: Tables) -> None:
        table, you = await seated(tables, first_dealer=3)  # you bid first: the three computers bid after you
        before_bid = you.state["seq"]
        await my_move(table, you)
        assert table.seq == before_bid + 4 and offers(you)[-1] is True
        await table.receive(you, f'{{"type": "undo", "seq": {table.seq}}}')
        assert table.seq == before_bid  # your bid and the three after it went back
        assert you.state["deal"]["my_turn"] and you.state["deal"]["bids"]
        assert any(m.get("code") == "undo" and "3 computer moves" in m["message"] for m in you.messages)
        stored = await table.store.load(table.id)
        assert undo_count(stored.actions[-1].action) == 4 and len(stored.actions) == before_bid + 5
        await my_move(table, you)  # bid again: the computers answer again
        assert table.seq == before_bid + 4
        stored = await table.store.load(table.id)
        game, undos = rebuild_with_undos(stored)
        assert [u.seat for u in undos] == [0] and len(undos[0].taken_back) == 4
        assert game.deal.bids == table.game.deal.bids  # the log replays to the same table
        again = await tables.get(table.id)
        assert again.undone == {0}
        assert exports.replay_data(game, table.names, undos)["undos"] == []  # shown once the hand is over

    run(tmp_path, scenario)


def test_undo_is_refused_when_stale_when_nothing_is_yours_and_without_computer_players(tmp_path: Path) -> None:
    async def scenario(tables: Tables) -> None:
        table, you = await seated(tables, first_dealer=0)
        assert offers(you) and not any(offers(you))  # nothing of yours to take back yet
        await table.receive(you, f'{{"type": "undo", "seq": {table.seq}}}')
        assert you.messages[-1]["type"] == "error" and you.messages[-1]["code"] == "not-allowed"
        await my_move(table, you)
        await table.receive(you, f'{{"type": "undo", "seq": {table.seq - 1}}}')
        assert any(m.get("code") == "stale" for m in you.messages)
        two = [Seat.human("You", "me"), Seat.human("Ann", "ann"), Seat.human("Cy", "cy")]
        people = await new_table(tables, Rules.preset("short", players=3, first_dealer=2), seats=two)
        me = Recorder()
        await people.join(me)
        await my_move(people, me)
        assert all("undo" not in m for m in me.messages)  # a table of people only says nothing of Undo
        await people.receive(me, f'{{"type": "undo", "seq": {people.seq}}}')
        assert me.messages[-1]["code"] == "not-allowed" and "computer players" in me.messages[-1]["message"]
        await settle(people)
        # two people and two computer players: taking a move back after seeing the computers answer it would be an
        # edge over the other person, so Undo waits for a host's (a club's) leave
        mixed = [
            Seat.human("You", "me"),
            Seat.human("Ann", "ann"),
            Seat.computer("Bob", "easy"),
            Seat.computer("Cy", "easy"),
        ]
        table = await new_table(tables, Rules.preset("short", first_dealer=3), seats=mixed)
        mine = Recorder()
        await table.join(mine)
        await my_move(table, mine)
        assert not table.allow_undo and all("undo" not in m for m in mine.messages)
        await table.receive(mine, f'{{"type": "undo", "seq": {table.seq}}}')
        assert mine.messages[-1]["code"] == "not-allowed"
        await settle(table)

    run(tmp_path, scenario)


def test_no_undo_over_another_persons_move() -> None:
    from ohhell.game import Game

    game = Game(Rules.preset("short", first_dealer=3), 7)
    game.bid(0)  # seat 0, a person
    game.bid(0)  # seat 1, another person
    assert actions_to_take_back(game, 0, 0, humans={0, 1}) == 0
    assert actions_to_take_back(game, 1, 0, humans={0, 1}) == 1
    assert actions_to_take_back(game, 0, 0, humans={0}) == 2
