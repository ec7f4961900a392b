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


def test_after_a_hand_is_over_and_all_hands_were_shown_nothing_of_it_can_be_taken_back(tmp_path: Path) -> None:
    """Found: after the hand ended and Show All Hands was used, six Undos went back to the bidding."""

    async def scenario(tables: Tables) -> None:
        table, you = await seated(tables, first_dealer=3)
        while not you.state["game"]["waiting_for_next"]:
            await my_move(table, you)
        shown = you.state["deal"]["index"]
        await table.receive(you, f'{{"type": "show_hands", "deal": {shown}}}')
        assert you.messages[-1]["type"] == "hands"
        assert offers(you)[-1] is False
        seq = table.seq
        for _ in range(6):
            await table.receive(you, f'{{"type": "undo", "seq": {table.seq}}}')
            assert you.messages[-1]["type"] == "error" and you.messages[-1]["code"] == "not-allowed"
        assert table.seq == seq and table.game.deals[shown].is_over
        stored = await table.store.load(table.id)
        assert all(undo_count(row.action) is None for row in stored.actions)

    run(tmp_path, scenario)


def test_undo_goes_back_at_most_to_the_start_of_the_trick_in_progress(tmp_path: Path) -> None:
    async def scenario(tables: Tables) -> None:
        table, you = await seated(tables, first_dealer=3)
        await my_move(table, you)  # your bid and the three after it: the bidding is over, and you lead
        refused = False
        while not you.state["game"]["waiting_for_next"] and not refused:
            await my_move(table, you)  # your card; the computers play on until your turn
            deal = table.game.deal
            if not deal.trick:  # you won the trick and lead the next: the trick just finished may go back
                assert offers(you)[-1] is True
                continue
            # a computer won and led this trick: your card was in the trick before, which is over
            assert offers(you)[-1] is False
            seq = table.seq
            await table.receive(you, f'{{"type": "undo", "seq": {table.seq}}}')
            assert you.messages[-1]["code"] == "not-allowed" and table.seq == seq
            refused = True
        assert refused, "the computers never won a trick: this deal does not test it"

    run(tmp_path, scenario)


def test_undo_stops_at_the_trick_or_the_bidding_in_progress_and_the_end_of_a_hand() -> None:
    from ohhell.game import Game

    game = Game(Rules.preset("short", first_dealer=3), 7)
    for _ in range(4):
        game.apply(game.legal_actions()[0])  # seat 0 (the person) bids first, the three computers after
    assert actions_to_take_back(game, 0, 0, humans={0}) == 4  # the bidding is the stage in progress
    game.apply(game.legal_actions()[0])  # seat 0 leads
    assert actions_to_take_back(game, 0, 0, humans={0}) == 1  # its card, not its bid: the trick has begun
    for _ in range(3):
        game.apply(game.legal_actions()[0])
    assert actions_to_take_back(game, 0, 0, humans={0}) == 4  # the trick just finished, nothing after it yet
    winner = game.deal.tricks[-1].winner
    if winner != 0:
        game.apply(game.legal_actions()[0])  # the winner, a computer, leads the next trick
        assert actions_to_take_back(game, 0, 0, humans={0}) == 0  # back past the start of this trick: no
    while game.deal_index == 0:
        game.apply(game.legal_actions()[0])
    assert game.deals[0].is_over
    assert actions_to_take_back(game, 0, 0, humans={0}) == 0  # the hand shown is over
    assert actions_to_take_back(game, 0, 1, humans={0}) == 0  # nothing of seat 0 in the next hand yet
