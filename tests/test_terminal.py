"""The terminal game, driven line by line as a person would type."""

from __future__ import annotations

import io
import json
import random
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from rich.console import Console

from ohhell import Game, Rules, records
from ohhell.actions import BID_BASE, CHANGE_BASE
from ohhell.bots import Budget
from ohhell.cards import CardSet, card_text, parse_card
from ohhell.terminal import TerminalGame, bid_bar, bid_status, seat_levels, table_names


def scripted(game: Game, first: list[str] | None = None) -> Callable[[str], str | None]:
    """Answer the first prompts with the lines of ``first``, then each prompt with a legal move for seat 0."""
    queue = list(first or [])
    count = 0

    def read(prompt: str) -> str | None:
        nonlocal count
        count += 1
        if queue:
            return queue.pop(0)
        if prompt.startswith("Enter for the next deal"):
            return "hands" if count % 2 else ""
        legal = [a for a in game.legal_actions(0) if a < CHANGE_BASE]
        if not legal:
            return ""
        action = legal[0]
        return str(action - BID_BASE) if action >= BID_BASE else card_text(action)

    return read


def make(game: Game, read: Callable[[str], str | None]) -> tuple[TerminalGame, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, width=500, highlight=False, color_system=None)
    terminal = TerminalGame(
        game=game,
        levels=seat_levels(["normal"], game.rules.players, human=True),
        human=0,
        console=console,
        read_line=read,
        rng=random.Random(3),
    )
    return terminal, out


def test_a_whole_short_game_is_played_to_the_final_score_sheet() -> None:
    game = Game(Rules.preset("short"), number=11, names=table_names(4, "You"))
    terminal, out = make(game, scripted(game))
    assert terminal.run() == 0
    text = out.getvalue()
    assert game.is_over and len(game.results) == 9
    assert "Game over" in text and "Score sheet" in text
    assert ("Winner:" in text) or ("Shared win:" in text)
    totals = ", ".join(f"{n} {t}" for n, t in zip(game.names, game.totals, strict=True))
    assert f"Totals: {totals}" in text


def test_bids_and_tricks_are_shown_side_by_side_with_their_labels() -> None:
    assert bid_status(2, 1) == "Bid 2 · won 1 · Needs 1 more"
    assert bid_status(2, 2) == "Bid 2 · won 2 · Made it"
    assert bid_status(1, 3) == "Bid 1 · won 3 · Too many"
    assert bid_status(None, 0) == "no bid yet · won 0"


def test_the_bar_says_what_the_bid_total_means() -> None:
    game = Game(Rules.preset("short"), number=3)
    for _ in range(3):
        game.bid(0)
    view = game.view(0)
    assert bid_bar(view) == "0 bid for 5 tricks"
    game.bid(1)
    assert bid_bar(game.view(0)) == "1 bid for 5 tricks: underbid by 4, so someone will take tricks they did not want"


def test_the_dealers_forbidden_bid_is_explained_and_refused() -> None:
    # Seat 0 deals the first deal when the first dealer is fixed at 0, so it bids last and is hooked.
    game = Game(Rules.preset("short", first_dealer=0), number=8, names=table_names(4, "You"))
    lines = ["1", "0"]  # seats 1-3 are computers; then the hooked answer is tried first, then an allowed one
    read = scripted(game)

    def answer(prompt: str) -> str | None:
        if prompt.startswith("Your bid"):
            forbidden = game.deal.forbidden_bid()
            allowed = re.findall(r"\d+", prompt)
            if forbidden is not None and lines:
                lines.clear()
                assert str(forbidden) not in allowed
                return str(forbidden)
        return read(prompt)

    terminal, out = make(game, answer)
    terminal.run()
    text = out.getvalue()
    assert re.search(r"The dealer may not bid \d+: the bids would total 5, the number of tricks\.", text)
    assert re.search(r"Not allowed: the dealer \(seat 0\) may not bid \d+", text)


def test_an_illegal_card_is_refused_with_the_reason_and_nothing_changes() -> None:
    rules = Rules.preset("full", players=3, schedule=(2,))
    game = Game(rules, deal_cards=False, first_dealer=0, names=["You", "Ann", "Ben"])
    game.start_deal([CardSet.parse("AS 2H"), CardSet.parse("KH 3C"), CardSet.parse("QH 4C")], parse_card("9D"))
    game.bid(0, seat=1)
    game.bid(0, seat=2)
    game.bid(1, seat=0)
    game.play("KH", seat=1)  # hearts led: seat 0 holds the 2H and must follow
    game.play("QH", seat=2)
    before = list(game.deal.actions)
    answers = iter(["KD", "AS", "2H"])
    terminal, out = make(game, lambda prompt: next(answers))
    assert terminal._human_turn(0)
    text = out.getvalue()
    assert "You do not hold the KD." in text
    assert "You must follow hearts." in text
    assert game.deal.actions == [*before, (0, parse_card("2H"))]


def test_hint_why_last_sheet_and_hands_answer_without_acting() -> None:
    game = Game(Rules.preset("short"), number=5, names=table_names(4, "You"))
    first = ["hint", "hint hard", "hint easy", "why", "last", "sheet", "hands", "help", "nonsense", "99"]
    terminal, out = make(game, scripted(game, first))
    terminal.budget = Budget(iterations=300)
    terminal.run()
    text = out.getvalue()
    assert "Hint (normal): Bid " in text
    assert "Hint (hard): Bid " in text
    assert "Searched 300 simulated deals" in text, "the Hard hint shows its own search"
    assert "Hints come from the normal or hard player: type hint, or hint hard, not 'easy'." in text
    assert "Show All Hands is available once a hand is over." in text
    assert "No trick has been played yet." in text
    assert "Commands:" in text
    assert "is not a card" in text or "Bid a number" in text
    assert "Not allowed: seat 0 may not bid 99: bids run from 0 to 5" in text


def test_why_says_what_each_computer_player_did_and_meant_in_words() -> None:
    game = Game(Rules.preset("short", first_dealer=0), number=5, names=table_names(4, "You"))
    terminal, out = make(game, scripted(game, ["why"]))
    terminal.run()
    text = out.getvalue()
    for seat in (1, 2, 3):
        _, decision, reason = terminal.decisions[(0, seat - 1)]
        assert reason.startswith(f"{game.names[seat]} bid {decision.action - BID_BASE}")
        assert reason in text


def test_why_never_names_a_card_a_computer_player_still_holds() -> None:
    game = Game(Rules.preset("short"), number=31, names=table_names(4, "You"))
    terminal, _ = make(game, scripted(game))
    terminal.run()
    for (deal_index, position), (seat, _, reason) in terminal.decisions.items():
        deal = game.deals[deal_index]
        still_held = deal.hands_dealt[seat]
        for later_seat, action in deal.actions[: position + 1]:
            if later_seat == seat and action < 60:
                still_held &= ~(1 << action)
        for card in CardSet(still_held):
            assert not re.search(rf"\b{card_text(card)}\b", reason), (reason, card_text(card))


def test_giving_up_ends_the_game_as_a_loss() -> None:
    game = Game(Rules.preset("short"), number=5)
    terminal, out = make(game, lambda prompt: "quit")
    assert terminal.run() == 1
    assert game.resigned == 0 and 0 not in (game.winners or [])
    assert "You gave up" in out.getvalue()


def test_the_record_written_at_the_end_replays_to_the_same_totals(tmp_path: Path) -> None:
    game = Game(Rules.preset("short"), number=17, names=table_names(4, "You"))
    terminal, _ = make(game, scripted(game))
    terminal.record_path = tmp_path / "game.json"
    terminal.run()
    status, result = records.check(terminal.record_path.read_text())
    assert status == 0 and result["totals"] == game.totals and result["complete"]


def test_the_command_line_plays_a_scripted_game(tmp_path: Path) -> None:
    record = tmp_path / "watch.json"
    command = [
        str(Path(sys.executable).parent / "ohhell"),
        "play",
        "--preset",
        "short",
        "--players",
        "3",
        "--watch",
        "--levels",
        "easy",
        "--number",
        "9",
        "--record",
        str(record),
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    assert "Game over" in result.stdout
    assert json.loads(record.read_text())["deal_number"] == 9


def test_bad_options_are_refused_with_a_sentence() -> None:
    command = [str(Path(sys.executable).parent / "ohhell"), "play", "--preset", "magicians", "--players", "7"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 2
    assert "for 3 to 6 players, not 7" in result.stderr
