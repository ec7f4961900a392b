"""``ohhell keep``: the score keeper at a terminal, a line at a time.

It asks what the table says, in the order the table says it: the trump turned up (where the rules do not fix it),
each bid from the dealer's left with the running total and the dealer's forbidden bid, then the tricks each player
won. Between any two answers the keeper may type a command: ``fix`` to correct an earlier entry, ``history`` to
show every entry and correction, ``sheet``, ``by NAME`` to say who is entering, ``help``, ``quit``. The sheet is
saved after every entry, so a closed terminal loses nothing.

Lines come from a callable and output goes to a Rich console, so a test feeds a whole game through the same code
a person uses.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ohhell.errors import OhHellError
from ohhell.keeper.ledger import seat_named
from ohhell.keeper.rows import DealRow, score_text
from ohhell.keeper.sheet import ScoreSheet
from ohhell.keeper.trump import TrumpCall
from ohhell.keeper.wording import result_sentence

HELP = """\
Answer each question with a number (or the trump: S, H, D, C; with Magicians and Jesters also JE, or MG and a suit).
Tricks: one number per question, or every player's at once in bidding order ("1 0 2 1").
Commands, at any question:
  fix 3 bid Bob 2              correct Bob's bid in deal 3 (a name or a column number)
  fix 3 bids 1 2 0 0           correct every bid of deal 3, in column order
  fix 3 tricks 1 2 0 2         correct the tricks of deal 3, in column order (they must still add up)
  fix 3 trump H                correct the trump of deal 3
  fix 3 bid Bob 2 bid Cy 1     several changes at once, checked together
  fix name Bob Robert          rename a player
  fix dealer Cy                the first deal was dealt by Cy
  history   every entry and correction, who made it and when
  sheet     the score sheet so far
  by Ann    entries from now on are made by Ann
  quit      stop here; the sheet is saved and can be resumed"""


class CommandError(ValueError):
    """A line the keeper cannot read: it says what to type instead."""


@dataclass
class KeeperSession:
    """One sitting at the terminal over ``sheet``; ``save`` is called after every entry the sheet accepts."""

    sheet: ScoreSheet
    console: Console
    read_line: Callable[[str], str | None]
    save: Callable[[ScoreSheet], None]
    by: str | None = None
    resume_hint: str = "ohhell keep --resume FILE"
    _tricks: list[int] = field(default_factory=list)
    _announced: int | None = None

    def run(self) -> int:
        """Keep score until the game is over or the input ends; the exit status (0)."""
        self.console.print(f"[bold]{escape(self.sheet.rules.describe())}[/]. Type [bold]help[/] for the commands.")
        while not self.sheet.is_over:
            self._announce()
            line = self.read_line(self._prompt())
            if line is None:
                self.console.print(f"\nThe sheet is saved; resume it with [bold]{escape(self.resume_hint)}[/].")
                return 0
            text = line.strip()
            if text.lower() in ("quit", "exit", "q"):
                self.console.print(f"The sheet is saved; resume it with [bold]{escape(self.resume_hint)}[/].")
                return 0
            self.handle(text)
        self.show_sheet()
        self.console.print(f"[bold]{escape(result_sentence(self.sheet))}[/]")
        return 0

    def handle(self, text: str) -> None:
        """Do one line: a command, or the answer to the question asked; a refusal is printed, nothing is lost."""
        words = text.split()
        if not words:
            if self.sheet.phase == "tricks" and self._is_last_tricks():
                self._enter_trick_count(str(self._remaining_tricks()))
            return
        command = words[0].lower()
        try:
            if command in ("help", "?"):
                self.console.print(escape(HELP))
            elif command == "sheet":
                self.show_sheet()
            elif command == "history":
                self.show_history()
            elif command == "by":
                self._set_by(" ".join(words[1:]))
            elif command == "fix":
                self._fix(words[1:])
            else:
                self._answer(text)
        except (OhHellError, CommandError) as exc:
            self.console.print(f"[red]Not entered: {escape(str(exc))}.[/]")

    # ----------------------------------------------------------------- questions and answers

    def _announce(self) -> None:
        index = self.sheet.current
        if index is None or index == self._announced:
            return
        self._announced = index
        sheet = self.sheet
        dealer = sheet.names[sheet.dealer_of(index)]
        line = f"Deal {index + 1} of {sheet.deal_count}: {dealer} deals {sheet.cards_of(index)} cards"
        ruled = sheet.ruled_trump(index)
        line += f"; trump: {ruled.describe()}." if ruled is not None else "."
        self.console.print(f"\n[bold]{escape(line)}[/]")

    def _prompt(self) -> str:
        return escape(self._question())

    def _question(self) -> str:
        sheet = self.sheet
        index = sheet.current
        assert index is not None
        if sheet.phase == "trump":
            extra = ", JE, or MG and a suit" if sheet.rules.special_cards else ""
            return f"Trump turned up (S, H, D, C{extra})? "
        if sheet.phase == "bids":
            seat = sheet.next_bidder
            assert seat is not None
            row = sheet.rows[index]
            note = f"bids so far {row.bid_total} for {row.cards} tricks"
            if sheet.forbidden_bid is not None:
                note += f"; the dealer may not bid {sheet.forbidden_bid}"
            dealer = " (deals)" if seat == sheet.dealer_of(index) else ""
            return f"{sheet.names[seat]}{dealer} bids? [{note}] "
        seat = sheet.bid_order(index)[len(self._tricks)]
        default = f" [{self._remaining_tricks()}]" if self._is_last_tricks() else ""
        return f"Tricks won by {sheet.names[seat]}?{default} "

    def _answer(self, text: str) -> None:
        phase = self.sheet.phase
        if phase == "trump":
            self._record(lambda: self.sheet.enter_trump(TrumpCall.parse(text), by=self.by))
        elif phase == "bids":
            bid = _whole_number(text, "a bid")
            self._record(lambda: self.sheet.enter_bid(bid, by=self.by))
        else:
            self._enter_trick_count(text)

    def _enter_trick_count(self, text: str) -> None:
        """One player's tricks, or every player's at once; the deal is entered when all are in."""
        index = self.sheet.current
        assert index is not None
        order = self.sheet.bid_order(index)
        numbers = [_whole_number(word, "a number of tricks") for word in text.replace(",", " ").split()]
        due = len(order) - len(self._tricks)
        if len(numbers) not in (1, due):
            raise CommandError(f"type one number, or the {due} players' tricks still due")
        cards = self.sheet.cards_of(index)
        if sum(self._tricks) + sum(numbers) > cards:
            raise CommandError(
                f"that makes {sum(self._tricks) + sum(numbers)} tricks, but a {cards}-card deal has {cards}"
            )
        self._tricks.extend(numbers)
        if len(self._tricks) < len(order):
            return
        by_seat = [0] * len(order)
        for seat, taken in zip(order, self._tricks, strict=True):
            by_seat[seat] = taken
        self._tricks = []
        self._record(lambda: self.sheet.enter_tricks(by_seat, by=self.by))
        self.show_sheet()

    def _is_last_tricks(self) -> bool:
        return len(self._tricks) == self.sheet.rules.players - 1

    def _remaining_tricks(self) -> int:
        index = self.sheet.current
        assert index is not None
        return max(0, self.sheet.cards_of(index) - sum(self._tricks))

    def _record(self, entry: Callable[[], object]) -> None:
        entry()
        self.save(self.sheet)

    # ----------------------------------------------------------------- commands

    def _set_by(self, name: str) -> None:
        if not name.strip():
            raise CommandError("say who is entering: by NAME")
        self.by = name.strip()
        self.console.print(f"Entries are now made by {escape(self.by)}.")

    def _fix(self, words: Sequence[str]) -> None:
        """``fix`` and its forms (see :data:`HELP`): one correction, printed from the history once accepted."""
        if not words:
            raise CommandError("fix what? For example: fix 3 bid Bob 2 (type help for every form)")
        kind = words[0].lower()
        if kind == "name" and len(words) >= 3:
            self._record(lambda: self.sheet.rename(self._seat(words[1]), " ".join(words[2:]), by=self.by))
        elif kind == "dealer" and len(words) == 2:
            self._record(lambda: self.sheet.correct_first_dealer(self._seat(words[1]), by=self.by))
        else:
            deal = _whole_number(words[0], "a deal number") - 1
            bids, tricks, trump = self._corrections(words[1:])
            self._record(lambda: self.sheet.correct(deal, bids=bids, tricks=tricks, trump=trump, by=self.by))
        self.console.print(f"[yellow]{escape(str(self.sheet.history[-1]))}[/]")

    def _corrections(self, words: Sequence[str]) -> tuple[dict[int, int], dict[int, int], TrumpCall | None]:
        bids: dict[int, int] = {}
        tricks: dict[int, int] = {}
        trump: TrumpCall | None = None
        players = self.sheet.rules.players
        rest = list(words)
        while rest:
            keyword = rest.pop(0).lower()
            if keyword == "bid" and len(rest) >= 2:
                who, bid = rest.pop(0), rest.pop(0)
                bids[self._seat(who)] = _whole_number(bid, "a bid")
            elif keyword in ("bids", "tricks") and len(rest) >= players:
                values = [_whole_number(word, f"a number of {keyword}") for word in rest[:players]]
                del rest[:players]
                (bids if keyword == "bids" else tricks).update(enumerate(values))
            elif keyword == "trump" and rest:
                trump = TrumpCall.parse(" ".join(rest))
                rest = []
            else:
                raise CommandError(f"cannot read the correction at {keyword!r}: type help for the forms of fix")
        if not (bids or tricks or trump):
            raise CommandError("say what to correct: bid NAME N, bids …, tricks … or trump …")
        return bids, tricks, trump

    def _seat(self, word: str) -> int:
        return seat_named(word, self.sheet.names)

    # ----------------------------------------------------------------- showing

    def show_sheet(self) -> None:
        """The sheet so far: per deal and player ``bid/won points`` and the running total under it."""
        sheet = self.sheet
        table = Table(box=box.SIMPLE_HEAVY, show_footer=True)
        table.add_column("Deal", footer="Total", justify="right")
        table.add_column("Cards", justify="right")
        table.add_column("Trump")
        table.add_column("Dealer")
        winners = set(sheet.winners or ())
        for seat, name in enumerate(sheet.names):
            total = score_text(sheet.totals[seat]) + (" ★" if seat in winners else "")
            table.add_column(escape(name), footer=total, justify="right")
        for row in sheet.rows:
            if not any(b is not None for b in row.bids) and not row.is_finished:
                continue
            trump = "" if row.trump is None else row.trump.describe().split(" (")[0]
            cells = [_cell(row, seat) for seat in range(sheet.rules.players)]
            table.add_row(str(row.number), str(row.cards), trump, escape(sheet.names[row.dealer]), *cells)
        self.console.print(table)

    def show_history(self) -> None:
        """Every entry and correction with who made it and when; corrections stand out."""
        for line in self.sheet.history:
            style = "yellow" if line.correction else "dim"
            self.console.print(f"[{style}]{escape(str(line))}[/]")
        if not self.sheet.history:
            self.console.print("Nothing entered yet.")


def _cell(row: DealRow, seat: int) -> str:
    bid = row.bids[seat]
    if bid is None:
        return ""
    if row.tricks is None or row.points is None:
        return f"{bid}/?"
    mark = "✓" if row.made(seat) else ""
    return f"{bid}/{row.tricks[seat]} {mark}{score_text(row.points[seat])}\n[dim]{score_text(row.totals[seat])}[/]"


def _whole_number(word: str, what: str) -> int:
    text = word.strip()
    if not text.isdigit():
        raise CommandError(f"{text!r} is not {what}: type a whole number such as 2")
    return int(text)
