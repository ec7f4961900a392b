"""The terminal game: you against computer players, with Hint, Why?, the score sheet and Show All Hands.

The loop reads one line at a time from a callable and writes through a Rich
console, so it is the same code at an interactive terminal and in a test that
feeds it lines. Computer players get only their seat's view.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ohhell import records
from ohhell.actions import BID_BASE, CHANGE_BASE, TRUMP_BASE, Action
from ohhell.bots import Bot, Budget, Decision, hints, make_bot
from ohhell.bots.public import why
from ohhell.cards import (
    JESTER_SUIT,
    MAGICIAN_SUIT,
    SUIT_NAMES,
    SUIT_OF,
    Card,
    CardError,
    CardSet,
    card_text,
    parse_card,
    parse_suit,
)
from ohhell.deal import Deal
from ohhell.errors import OhHellError
from ohhell.game import Game
from ohhell.view import SeatView

SUIT_SYMBOLS = "♠♥♦♣"
SUIT_STYLES = ("bold white", "bold red", "bold red", "bold white")
HELP = """Commands:
  a number            bid that many tricks (when it is your bid)
  a card, e.g. QH     play it (10H or TH for the ten; MG / JE for a Magician / Jester)
  S, H, D or C        name trump after a turned Magician (when you deal)
  hint, hint hard     what the Normal (or Hard) player would do in your seat, and why
  why                 why the computer players did what they did since your last turn
  last                the last trick again
  sheet               the score sheet
  hands               Show All Hands (once a hand is over)
  save FILE           write the game record (ohhell-record/1) to FILE
  quit                give up the game (it counts as a loss)
  help                this list"""


def card_label(card: Card) -> Text:
    """A card for the terminal: ``A♠`` in its suit's colour, ``Magician``, ``Jester``."""
    suit = SUIT_OF[card]
    if suit == MAGICIAN_SUIT:
        return Text("Magician", style="bold magenta")
    if suit == JESTER_SUIT:
        return Text("Jester", style="bold cyan")
    rank = card_text(card)[0].replace("T", "10")
    return Text(rank + SUIT_SYMBOLS[suit], style=SUIT_STYLES[suit])


def trump_label(view: SeatView) -> str:
    """``hearts are trump`` or ``no trump``."""
    return "no trump" if view.trump is None else f"{SUIT_NAMES[view.trump]} are trump"


def bid_status(bid: int | None, won: int) -> str:
    """``Bid 2 · won 1 · Needs 1 more`` as on the name plates."""
    if bid is None:
        return f"no bid yet · won {won}"
    if won < bid:
        label = f"Needs {bid - won} more"
    elif won == bid:
        label = "Made it"
    else:
        label = "Too many"
    return f"Bid {bid} · won {won} · {label}"


def bid_bar(view: SeatView) -> str:
    """``4 bid for 5 tricks`` and, once all have bid, what the total means."""
    made = [b for b in view.bids if b is not None]
    total = sum(made)
    text = f"{total} bid for {view.hand_size} tricks"
    if len(made) == view.players:
        if total > view.hand_size:
            text += f": overbid by {total - view.hand_size}, so someone will fall short"
        elif total < view.hand_size:
            text += f": underbid by {view.hand_size - total}, so someone will take tricks they did not want"
        else:
            text += ": exactly the tricks (no hook in these rules)"
    return text


def forbidden_sentence(view: SeatView) -> str | None:
    """Why the dealer's forbidden bid is refused, when there is one."""
    if view.forbidden_bid is None or view.to_act != view.dealer:
        return None
    others = sum(b for b in view.bids if b is not None)
    return (
        f"The dealer may not bid {view.forbidden_bid}: the bids would total {others + view.forbidden_bid},"
        f" the number of tricks."
    )


@dataclass
class TerminalGame:
    """One game at the terminal. ``levels`` gives each computer seat its level; ``human`` is your seat or None."""

    game: Game
    levels: dict[int, str]
    human: int | None
    console: Console
    read_line: Callable[[str], str | None]
    rng: random.Random = field(default_factory=random.Random)
    budget: Budget | None = None
    record_path: Path | None = None
    decisions: dict[tuple[int, int], tuple[int, Decision, str]] = field(default_factory=dict)
    """The computer players' decisions by (deal, action index): the seat, the Decision and its public Why?"""
    _why_from: tuple[int, int] = (0, 0)

    def run(self) -> int:
        """Play the game to its end (or until you give up); the exit status: 0, or 1 when you gave up."""
        bots = {seat: make_bot(level) for seat, level in self.levels.items()}
        self._intro()
        shown_deal = -1
        while not self.game.is_over:
            deal = self.game.deal
            if deal.deal_index != shown_deal:
                shown_deal = deal.deal_index
                self._deal_header(deal)
            seat = deal.to_act
            if seat == self.human:
                if not self._human_turn(seat):
                    self.game.resign(seat)
                    self.console.print(Text("You gave up: the game counts as a loss.", style="bold red"))
                    break
            else:
                self._computer_turn(seat, bots[seat])
            if deal.is_over:
                self._deal_over(deal)
        self._game_over()
        self._save_record()
        return 1 if self.game.resigned is not None else 0

    # ------------------------------------------------------------ turns

    def _computer_turn(self, seat: int, bot: Bot) -> None:
        view = self.game.view(seat)
        decision = bot.decide(view, self.rng, self.budget)
        deal = self.game.deal
        reason = why(decision, view, self.game.names, you=self.human)
        self.decisions[(deal.deal_index, len(deal.actions))] = (seat, decision, reason)
        self.game.apply(decision.action, seat)
        self._announce(seat, decision.action, deal)

    def _announce(self, seat: int, action: Action, deal: Deal) -> None:
        you = seat == self.human
        name = "You" if you else self.game.names[seat]
        if action < BID_BASE:
            line = Text(f"{name} {'play' if you else 'plays'} ")
            line.append_text(card_label(action))
            if not deal.trick and deal.tricks:
                winner = deal.tricks[-1].winner
                taker = "you take" if winner == self.human else f"{self.game.names[winner]} takes"
                line.append(f" — {taker} the trick")
            self.console.print(line)
        elif action < CHANGE_BASE:
            self.console.print(f"{name} {'bid' if you else 'bids'} {action - BID_BASE}")
        elif action < TRUMP_BASE:
            self.console.print(f"{name} {'change your' if you else 'changes their'} bid to {action - CHANGE_BASE}")
        else:
            self.console.print(f"{name} {'name' if you else 'names'} {SUIT_NAMES[action - TRUMP_BASE]} trump")

    def _human_turn(self, seat: int) -> bool:
        """Ask for your action until one is accepted; False when you give up."""
        view = self.game.view(seat)
        self._show_table(view)
        prompt = self._prompt(view)
        while True:
            line = self.read_line(prompt)
            if line is None:
                return False
            command = line.strip()
            if not command:
                continue
            word = command.split()[0].lower()
            if word in ("quit", "resign", "exit"):
                return False
            if word in COMMANDS:
                COMMANDS[word](self, view, command)
                continue
            action = self._parse(view, command)
            if action is None:
                continue
            try:
                if view.phase == "bidding":
                    self.game.bid(action - BID_BASE, seat)  # checks the range before encoding
                else:
                    self.game.apply(action, seat)
            except OhHellError as exc:
                self.console.print(Text(f"Not allowed: {exc}", style="yellow"))
                continue
            deal = self.game.deals[view.deal_index]
            self._announce(seat, action, deal)
            self._why_from = (deal.deal_index, len(deal.actions))
            return True

    def _parse(self, view: SeatView, command: str) -> Action | None:
        if view.phase == "bidding":
            if command.isdigit():
                return BID_BASE + int(command)
            self.console.print(Text(f"Bid a number from 0 to {view.hand_size}, or type help.", style="yellow"))
            return None
        if view.phase == "choosing-trump":
            try:
                return TRUMP_BASE + parse_suit(command)
            except CardError as exc:
                self.console.print(Text(str(exc), style="yellow"))
                return None
        try:
            card = parse_card(command)
        except CardError as exc:
            self.console.print(Text(f"{exc}. Type help for the commands.", style="yellow"))
            return None
        if card not in view.hand:
            self.console.print(Text(f"You do not hold the {card_text(card)}.", style="yellow"))
            return None
        led = _led_suit(view)
        if led is not None and card < 52 and SUIT_OF[card] != led and view.hand.of_suit(led):
            self.console.print(Text(f"You must follow {SUIT_NAMES[led]}.", style="yellow"))
            return None
        return card

    def _prompt(self, view: SeatView) -> str:
        if view.phase == "bidding":
            choices = [str(a - BID_BASE) for a in view.legal_actions if BID_BASE <= a < CHANGE_BASE]
            return f"Your bid ({', '.join(choices)}) > "
        if view.phase == "choosing-trump":
            return "A Magician was turned: name trump (S, H, D, C) > "
        return "Your card > "

    # ------------------------------------------------------------ display

    def _intro(self) -> None:
        game = self.game
        self.console.rule(f"Oh Hell! · game #{game.number}")
        self.console.print(game.rules.describe())
        seats = ", ".join(
            f"{name} ({'you' if seat == self.human else self.levels[seat]})" for seat, name in enumerate(game.names)
        )
        self.console.print(f"At the table: {seats}. Type help for the commands.")

    def _deal_header(self, deal: Deal) -> None:
        game = self.game
        turn = "no card turned" if deal.turn_up is None else f"turned {card_text(deal.turn_up)}"
        trump = "no trump" if deal.trump is None else f"{SUIT_NAMES[deal.trump]} trump"
        if deal.phase_name == "choosing-trump":
            trump = "the dealer names trump"
        self.console.rule(
            f"Deal {deal.deal_index + 1} of {game.rules.deals} · {deal.size} cards · "
            f"{game.names[deal.dealer]} deals · {trump} ({turn})"
        )

    def _show_table(self, view: SeatView) -> None:
        table = Table(show_header=True, header_style="bold", box=None, padding=(0, 2))
        table.add_column("Player")
        table.add_column("Bid and tricks")
        table.add_column("Score", justify="right")
        for seat, name in enumerate(self.game.names):
            marker = "▶ " if seat == view.to_act else "  "
            who = f"{marker}{name}" + (" (dealer)" if seat == view.dealer else "")
            table.add_row(who, bid_status(view.bids[seat], view.tricks_won[seat]), str(view.totals[seat]))
        self.console.print(table)
        self.console.print(Text(f"{bid_bar(view)} · {trump_label(view)}", style="bold"))
        if view.trick:
            line = Text("Trick: ")
            for seat, card in view.trick_seats():
                line.append(f"{self.game.names[seat]} ")
                line.append_text(card_label(card))
                line.append("  ")
            self.console.print(line)
        self.console.print(self._hand_line(view))
        sentence = forbidden_sentence(view)
        if sentence and view.seat == view.dealer:
            self.console.print(Text(f"Not allowed: {view.forbidden_bid}. {sentence}", style="yellow"))

    def _hand_line(self, view: SeatView) -> Text:
        legal = set(view.legal_actions) if view.phase == "playing" else set()
        line = Text("Your hand: ")
        for card in view.hand:
            label = card_label(card)
            playable = card in legal or (card >= 52 and any(SUIT_OF[a] == SUIT_OF[card] for a in legal if a < 60))
            if legal and not playable:
                label.stylize("dim")
            line.append_text(label)
            line.append(" ")
        return line

    def _deal_over(self, deal: Deal) -> None:
        assert deal.points is not None
        self.console.print(Text("Hand over.", style="bold"))
        for seat, name in enumerate(self.game.names):
            bid, won, points = deal.bids[seat], deal.tricks_won[seat], deal.points[seat]
            mark = "✓" if bid == won else " "
            self.console.print(f"  {name:<12} {won}/{bid} {mark} {points:+d}")
        self._sheet()
        if self.human is not None and not self.game.is_over:
            answer = self.read_line("Enter for the next deal, or 'hands' to see all hands > ")
            if answer is not None and answer.strip().lower() == "hands":
                self._all_hands(deal)

    def _all_hands(self, deal: Deal) -> None:
        for seat, name in enumerate(self.game.names):
            line = Text(f"{name:<12} ")
            for card in CardSet(deal.hands_dealt[seat]):
                line.append_text(card_label(card))
                line.append(" ")
            self.console.print(line)

    def _sheet(self) -> None:
        table = Table(
            title="Score sheet: bid/won, points, total", header_style="bold", box=box.SIMPLE_HEAD, padding=(0, 1)
        )
        table.add_column("Deal", justify="right")
        table.add_column("Cards", justify="right")
        for name in self.game.names:
            table.add_column(name, justify="right")
        running = [0] * len(self.game.names)
        for index, result in enumerate(self.game.results):
            cells = []
            for seat in range(len(running)):
                running[seat] += result.points[seat]
                made = "✓" if result.bids[seat] == result.tricks[seat] else " "
                cells.append(
                    f"{result.bids[seat]}/{result.tricks[seat]}{made} {result.points[seat]:>+4} {running[seat]:>4}"
                )
            table.add_row(str(index + 1), str(result.cards), *cells)
        self.console.print(table)

    def _game_over(self) -> None:
        winners = self.game.winners or []
        names = [self.game.names[s] for s in winners]
        totals = ", ".join(f"{n} {t}" for n, t in zip(self.game.names, self.game.totals, strict=True))
        self.console.rule("Game over")
        self.console.print(f"Totals: {totals}")
        if len(names) > 1:
            self.console.print(Text(f"Shared win: {', '.join(names[:-1])} and {names[-1]}", style="bold green"))
        elif names:
            self.console.print(Text(f"Winner: {names[0]}", style="bold green"))

    def _save_record(self, path: Path | None = None) -> None:
        path = path or self.record_path
        if path is not None:
            path.write_text(records.dumps(self.game) + "\n")
            self.console.print(f"Game record written to {path}")

    # ------------------------------------------------------------ commands

    def hint(self, view: SeatView, command: str) -> None:
        """Hint: what the Normal player (``hint hard``: the Hard player) would do in your seat, from your view only."""
        words = command.lower().split()[1:]
        level = words[0] if words else "normal"
        if level not in hints.HINT_LEVELS:
            self.console.print(f"Hints come from the normal or hard player: type hint, or hint hard, not {level!r}.")
            return
        advice = hints.hint(view, level, random.Random(self.rng.random()), self.budget, self.game.names)
        self.console.print(Text(f"Hint ({level}): {advice.reason}", style="green"))
        for line in advice.details:
            self.console.print(Text(f"  {line}", style="dim"))

    def why(self, view: SeatView, command: str) -> None:
        """Why?: the reasons of each computer decision since your last turn, as every seat may read them."""
        shown = False
        for (deal_index, position), (_, _, reason) in sorted(self.decisions.items()):
            if (deal_index, position) >= self._why_from:
                self.console.print(reason)
                shown = True
        if not shown:
            self.console.print("No computer player has acted since your last turn.")

    def last(self, view: SeatView, command: str) -> None:
        """The last finished trick."""
        tricks = view.tricks or (self.game.deals[-2].tricks if len(self.game.deals) > 1 else [])
        if not tricks:
            self.console.print("No trick has been played yet.")
            return
        trick = tricks[-1]
        line = Text("Last trick: ")
        for i, card in enumerate(trick.cards):
            line.append(f"{self.game.names[trick.seat_of(i, view.players)]} ")
            line.append_text(card_label(card))
            line.append("  ")
        line.append(f"— {self.game.names[trick.winner]} took it")
        self.console.print(line)

    def sheet(self, view: SeatView, command: str) -> None:
        """The score sheet so far."""
        self._sheet()

    def hands(self, view: SeatView, command: str) -> None:
        """Show All Hands: only for a hand that is over."""
        finished = [d for d in self.game.deals if d.is_over]
        if not finished:
            self.console.print("Show All Hands is available once a hand is over.")
            return
        self._all_hands(finished[-1])

    def save(self, view: SeatView, command: str) -> None:
        """Write the game record now."""
        parts = command.split(maxsplit=1)
        if len(parts) != 2:
            self.console.print("save needs a file name: save game.json")
            return
        self._save_record(Path(parts[1]))

    def help(self, view: SeatView, command: str) -> None:
        """The commands."""
        self.console.print(HELP)


COMMANDS: dict[str, Callable[[TerminalGame, SeatView, str], None]] = {
    "hint": TerminalGame.hint,
    "why": TerminalGame.why,
    "last": TerminalGame.last,
    "sheet": TerminalGame.sheet,
    "hands": TerminalGame.hands,
    "save": TerminalGame.save,
    "help": TerminalGame.help,
}


def _led_suit(view: SeatView) -> int | None:
    for card in view.trick:
        suit = SUIT_OF[card]
        if suit == MAGICIAN_SUIT:
            return None
        if suit != JESTER_SUIT:
            return suit
    return None


def table_names(players: int, you: str | None) -> list[str]:
    """Names for the seats: you first (when playing), then the computer players."""
    if players == 4:
        names = ["South", "West", "North", "East"]
    else:
        names = ["Ann", "Ben", "Cleo", "Dev", "Eve", "Finn", "Gus"][:players]
    if you is not None:
        names = [you, *[n for n in names if n != you][1:]]
    return names


def seat_levels(spec: Sequence[str], players: int, human: bool) -> dict[int, str]:
    """Levels of the computer seats from a list such as ``["normal", "hard", "easy"]`` (one per computer seat)."""
    computers = players - 1 if human else players
    if len(spec) == 1:
        spec = list(spec) * computers
    if len(spec) != computers:
        raise ValueError(f"give one level for each of the {computers} computer seats, or one level for all")
    first = 1 if human else 0
    return {first + i: level for i, level in enumerate(spec)}
