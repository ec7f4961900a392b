"""Game records in the interchange format ``ohhell-record/1`` (see docs/records.md).

A record holds the rules, the first dealer and, for each deal, the cards dealt and
every action in order: enough to rebuild a game exactly. :func:`dumps` and
:func:`loads` work like :mod:`json`'s; :func:`check` re-plays a record under its
rules and answers exactly what ``ohhell check`` prints.

>>> from ohhell import Game, Rules
>>> game = Game(Rules.preset("short"), number=7)
>>> game.bid(1)
>>> loads(dumps(game)).deal.bids == game.deal.bids
True
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any, Final, NoReturn

from ohhell import commitment
from ohhell.cards import CardError, CardSet, card_text, parse_card, parse_suit, suit_text
from ohhell.deal import deal_from_pack
from ohhell.dealnumbers import MAX_DEAL_NUMBER, draw_for_deal, random_first_dealer, shuffled_pack
from ohhell.errors import (
    CommitmentMismatchError,
    DealError,
    DealNotFromNumberError,
    LeftBeyondLogError,
    OhHellError,
    RecordError,
    RulesError,
    TooManyDealsError,
)
from ohhell.game import Game
from ohhell.rules import Rules

FORMAT: Final = "ohhell-record/1"
MAX_RECORD_BYTES: Final = 16 * 1024 * 1024
"""The largest record read (16 MiB): a whole game of the longest preset is under 100 KB."""
QUOTED_CHARACTERS: Final = 60
"""How much of a faulty value an error message quotes: enough to find it, never the whole input."""
_WHOLE_NUMBER: Final = re.compile(r"-?[0-9]+")


class UnreadableError(OhHellError):
    """The record's file cannot be read: missing, a directory, not allowed."""

    code = "unreadable"


def to_record(game: Game) -> dict[str, Any]:
    """The record of ``game`` as a JSON-ready dict."""
    record: dict[str, Any] = {
        "format": FORMAT,
        "rules": game.rules.to_json(),
        "players": list(game.names),
        "first_dealer": game.first_dealer,
    }
    if game.number is not None:
        record["deal_number"] = game.number
    record["deals"] = [
        {
            "hands": [CardSet(mask).texts() for mask in deal.hands_dealt],
            "turn_up": None if deal.turn_up is None else card_text(deal.turn_up),
            "actions": deal.action_log(),
        }
        for deal in game.deals
    ]
    if game.resigned is not None:
        record["resigned"] = game.resigned
    if game.left:
        record["left"] = [{"seat": seat, "action": at} for seat, at in sorted(game.left.items())]
    return record


def dumps(game: Game, indent: int | None = 2) -> str:
    """The record of ``game`` as JSON text."""
    return json.dumps(to_record(game), indent=indent)


def loads(text: str | bytes) -> Game:
    """The game a record's JSON text describes, re-played under its rules.

    Raises an :class:`~ohhell.errors.OhHellError` whose ``code``, ``deal`` and
    ``action`` say what is wrong and where. Strict JSON only: ``NaN`` and ``Infinity`` are not JSON numbers.
    """
    size = len(text) if isinstance(text, bytes) else len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_RECORD_BYTES:
        raise RecordError(f"the record is over {MAX_RECORD_BYTES // (1024 * 1024)} MiB: no game record is that large")
    try:
        data = json.loads(text, parse_constant=_not_a_number)
    except RecordError:
        raise
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RecordError(f"the record is not JSON: {exc}") from None
    except RecursionError:
        raise RecordError("the record is not a game record: its JSON is nested too deeply") from None
    except ValueError as exc:  # e.g. an integer of thousands of digits
        raise RecordError(f"the record is not a game record: {exc}") from None
    return from_record(data)


def _not_a_number(name: str) -> NoReturn:
    raise RecordError(f"the record is not JSON: {name} is not a JSON number")


def _quoted(value: object) -> str:
    """``repr(value)``, cut short: a message names the faulty value without echoing a huge input."""
    text = repr(value)
    return text if len(text) <= QUOTED_CHARACTERS else text[: QUOTED_CHARACTERS - 1] + "…"


def from_record(data: object, *, deal_on: bool = False) -> Game:
    """The game a parsed record describes. With ``deal_on``, play can go on from its number past the record."""
    if not isinstance(data, Mapping):
        raise RecordError("a record is a JSON object")
    fmt = data.get("format")
    if fmt != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}, not {_quoted(fmt)}")
    if "rules" not in data:
        raise RecordError("the record has no rules")
    if not isinstance(data["rules"], (str, Mapping)):
        raise RecordError("rules must be a preset name or an object of options")
    try:
        rules = Rules.from_json(data["rules"])
    except RulesError:
        raise
    except (TypeError, ValueError) as exc:
        raise RulesError(f"the rules are not valid: {exc}") from None
    names = data.get("players")
    if names is not None and (
        not isinstance(names, list) or not all(isinstance(x, str) for x in names) or len(names) != rules.players
    ):
        raise RecordError(f"players must be a list of {rules.players} names")
    first_dealer = _field(data, "first_dealer", int)
    if not 0 <= first_dealer < rules.players:
        raise RecordError(f"first_dealer must be a seat from 0 to {rules.players - 1}, not {first_dealer}")
    number = data.get("deal_number")
    if number is not None and (
        isinstance(number, bool) or not isinstance(number, int) or not 0 <= number <= MAX_DEAL_NUMBER
    ):
        raise RecordError(f"deal_number must be a whole number from 0 to {MAX_DEAL_NUMBER}, not {_quoted(number)}")
    deals = _field(data, "deals", list)
    salt = _commitment(data.get("deal_commitment"), number)
    _check_undos(data.get("undos"), rules.players)
    resigned = data.get("resigned")
    if resigned is not None and (
        isinstance(resigned, bool) or not isinstance(resigned, int) or not 0 <= resigned < rules.players
    ):
        raise RecordError(f"resigned must be a seat from 0 to {rules.players - 1}")
    left = _left(data.get("left"), rules.players)
    game = Game(rules, number, names=names, first_dealer=first_dealer, deal_cards=False)
    game.left = left
    for index, deal_data in enumerate(deals):
        try:
            _replay_deal(game, index, deal_data)
        except OhHellError as exc:
            if exc.deal is None:
                exc.deal = index
            raise
    _check_left_in_log(game)
    if salt is not None:
        assert number is not None
        _check_dealt_from(game, number)
    if resigned is not None:
        game.resign(resigned)
    if deal_on and game.number is not None:
        game.deal_cards = True
        if not game.is_over and (not game.deals or game.deal.is_over):
            game._deal_next()
    return game


def _commitment(value: object, number: int | None) -> str | None:
    """The ``deal_commitment`` extension, when present (docs/deal-numbers.md): the salt if it is revealed.

    ``{"scheme": "ohhell-commit/1", "sha256": <64 hex digits>}`` while the series is played, with ``"salt"`` added
    (and the record's ``deal_number`` told) once it is over; then the two must hash to the commitment.
    """
    if value is None:
        return None
    if not isinstance(value, Mapping) or not {"scheme", "sha256"} <= set(value) <= {"scheme", "sha256", "salt"}:
        raise RecordError("deal_commitment must be an object with scheme and sha256 (and salt once it is revealed)")
    if value["scheme"] != commitment.SCHEME:
        raise RecordError(f"deal_commitment's scheme must be {commitment.SCHEME!r}, not {_quoted(value['scheme'])}")
    if not commitment.is_digest(value["sha256"]):
        raise RecordError(f"deal_commitment's sha256 must be 64 lowercase hex digits, not {_quoted(value['sha256'])}")
    salt = value.get("salt")
    if salt is None:
        if number is not None:
            raise RecordError("deal_commitment: a record that tells its deal_number tells the salt too")
        return None
    if not commitment.is_salt(salt):
        raise RecordError(f"deal_commitment's salt must be 16 to 64 bytes in lowercase hex, not {_quoted(salt)}")
    if number is None:
        raise RecordError("deal_commitment: a record that tells the salt tells its deal_number too")
    if commitment.commitment(number, salt) != value["sha256"]:
        raise CommitmentMismatchError(
            f"deal_number {number} and salt {salt} do not hash to the commitment {value['sha256']}: "
            f"SHA-256 of {commitment.committed_text(number, salt).decode()!r} is {commitment.commitment(number, salt)}"
        )
    return str(salt)


def _check_dealt_from(game: Game, number: int) -> None:
    """Every deal's cards (and a drawn or random first dealer) are what ``number`` deals."""
    rules = game.rules
    if rules.first_dealer in ("random", "draw"):
        expected = random_first_dealer(number, rules.players)
        if rules.first_dealer == "draw":
            expected = draw_for_deal(number, rules.players)[0]
        if game.first_dealer != expected:
            raise DealNotFromNumberError(
                f"deal number {number} makes seat {expected} the first dealer, not seat {game.first_dealer}"
            )
    for deal in game.deals:
        pack = shuffled_pack(number, rules.players, rules.special_cards, deal.deal_index)
        dealt = deal_from_pack(rules, pack, deal.dealer, deal.deal_index)
        if dealt.hands_dealt != deal.hands_dealt or dealt.turn_up != deal.turn_up:
            seat = next((s for s in range(rules.players) if dealt.hands_dealt[s] != deal.hands_dealt[s]), None)
            where = "the turned card" if seat is None else f"seat {seat}'s hand"
            raise DealNotFromNumberError(
                f"{where} in deal {deal.deal_index} is not what deal number {number} deals"
            ).at(deal.deal_index)


def _check_left_in_log(game: Game) -> None:
    """A ``left`` entry names an action of the record's log (or the one after its last): nobody left later."""
    played = sum(len(deal.actions) for deal in game.deals)
    for seat, at in sorted(game.left.items()):
        if at > played:
            raise LeftBeyondLogError(
                f"left: seat {seat} is said to have left at action {at}, but the record has {played} actions"
            )


def _check_undos(undos: object, players: int) -> None:
    """The ``undos`` extension, when present: what was taken back with Undo (the club aid), for readers to show.

    The deals' ``actions`` are the game as it stands, without what was taken back, so replaying a record never needs
    ``undos``; each entry is ``{"deal": i, "seat": s, "taken_back": ["<seat> <verb> <argument>", ...]}``, latest
    action first.
    """
    if undos is None:
        return
    if not isinstance(undos, list):
        raise RecordError("undos must be a list of taken-back moves")
    for entry in undos:
        if not isinstance(entry, Mapping) or set(entry) != {"deal", "seat", "taken_back"}:
            raise RecordError("each of undos is an object with deal, seat and taken_back")
        deal, seat, taken = entry["deal"], entry["seat"], entry["taken_back"]
        if isinstance(deal, bool) or not isinstance(deal, int) or deal < 0:
            raise RecordError(f"an undo's deal must be a deal index, not {_quoted(deal)}")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise RecordError(f"an undo's seat must be a seat from 0 to {players - 1}, not {_quoted(seat)}")
        if not isinstance(taken, list) or not taken or not all(isinstance(line, str) for line in taken):
            raise RecordError("an undo's taken_back must be a list of action lines")


def _left(value: Any, players: int) -> dict[int, int]:
    """The optional ``left`` list: ``[{"seat": s, "action": n}]``, seats whose person gave up while the game went on."""
    if value is None:
        return {}
    problem = RecordError(
        f'left must be a list of {{"seat": 0 to {players - 1}, "action": a whole number}}, one per seat'
    )
    if not isinstance(value, list):
        raise problem
    left: dict[int, int] = {}
    for entry in value:
        if not isinstance(entry, dict) or set(entry) != {"seat", "action"}:
            raise problem
        seat, at = entry["seat"], entry["action"]
        if any(isinstance(x, bool) or not isinstance(x, int) for x in (seat, at)) or not 0 <= seat < players:
            raise problem
        if at < 0 or seat in left:
            raise problem
        left[seat] = at
    return left


def _field(data: Mapping[str, Any], name: str, kind: type, where: str = "the record") -> Any:
    if name not in data:
        raise RecordError(f"{where} has no {name!r} field")
    value = data[name]
    if isinstance(value, bool) or not isinstance(value, kind):
        raise RecordError(f"{name!r} has the wrong type: {type(value).__name__}")
    return value


def _replay_deal(game: Game, index: int, deal_data: object) -> None:
    if not isinstance(deal_data, Mapping):
        raise RecordError(f"deal {index} is not an object")
    if index >= game.rules.deals:
        raise TooManyDealsError(f"the schedule has {game.rules.deals} deals, but the record has more")
    if game.deals and not game.deal.is_over:
        raise DealError(f"deal {index - 1} stops before its last trick, but deal {index} follows it").at(index - 1)
    hands = _field(deal_data, "hands", list, f"deal {index}")
    if "turn_up" not in deal_data:
        raise RecordError(f"deal {index} has no 'turn_up' field (null when no card is turned)")
    turn_up_text = deal_data["turn_up"]
    actions = _field(deal_data, "actions", list, f"deal {index}")
    parsed_hands = []
    for seat, hand in enumerate(hands):
        if not isinstance(hand, list) or not all(isinstance(c, str) for c in hand):
            raise RecordError(f"hand {seat} of deal {index} must be a list of card texts")
        try:
            parsed_hands.append([parse_card(c) for c in hand])
        except CardError as exc:
            raise DealError(f"seat {seat}: {exc}") from None
    if turn_up_text is not None and not isinstance(turn_up_text, str):
        raise RecordError("turn_up must be a card text or null")
    try:
        turn_up = None if turn_up_text is None else parse_card(turn_up_text)
    except CardError as exc:
        raise DealError(f"the turned card: {exc}") from None
    game.start_deal(parsed_hands, turn_up)
    for position, line in enumerate(actions):
        try:
            _replay_action(game, line)
        except OhHellError as exc:
            raise exc.at(index, position) from None


def _replay_action(game: Game, line: object) -> None:
    parts = line.split() if isinstance(line, str) else []
    if len(parts) != 3:
        raise RecordError(f"{_quoted(line)} is not an action: write '<seat> <verb> <argument>', such as '1 bid 2'")
    seat_text, verb, argument = parts
    seat = _whole_number(seat_text, f"{_quoted(line)}: the seat must be a number, not {_quoted(seat_text)}")
    if verb in ("bid", "change"):
        n = _whole_number(argument, f"{_quoted(line)}: a {verb} needs a whole number, not {_quoted(argument)}")
        if verb == "bid":
            game.bid(n, seat)
        else:
            game.change_bid(n, seat)
    elif verb == "play":
        game.play(parse_card(argument), seat)
    elif verb == "trump":
        game.choose_trump(parse_suit(argument), seat)
    else:
        raise RecordError(f"{_quoted(line)}: unknown verb {_quoted(verb)}; the verbs are bid, change, trump and play")


def _whole_number(text: str, message: str) -> int:
    """``text`` as an int if it is ASCII digits (``int`` would also take Arabic-Indic digits, ``1_0`` or ``+1``)."""
    if not _WHOLE_NUMBER.fullmatch(text):
        raise RecordError(message)
    try:
        return int(text)
    except ValueError:  # more digits than Python converts (4,300): no seat or bid is that large
        raise RecordError(message) from None


def summary(game: Game) -> dict[str, Any]:
    """The result object of ``ohhell check``: every deal's bids, tricks and points, totals and winners."""
    deals = []
    for deal in game.deals:
        deals.append(
            {
                "dealer": deal.dealer,
                "cards": deal.size,
                "trump": suit_text(deal.trump),
                "bids": [None if b < 0 else b for b in deal.bids],
                "tricks": list(deal.tricks_won),
                "points": None if deal.points is None else list(deal.points),
            }
        )
    out: dict[str, Any] = {
        "complete": game.is_over,
        "deals": deals,
        "totals": list(game.totals),
        "winners": game.winners,
    }
    if game.resigned is not None:
        out["resigned"] = game.resigned
    if game.left:
        out["left"] = [{"seat": seat, "action": at} for seat, at in sorted(game.left.items())]
    return out


def hidden_cards(record: Mapping[str, Any], seat: int) -> dict[tuple[int, int], set[str]]:
    """For every moment ``(deal index, actions so far in the game)`` of a valid record: the cards that seats other
    than ``seat`` still hold, which ``seat`` may not know (``seat`` -1, a spectator: every seat's).

    What fairness checks scan a seat's messages against (the tests and ``bench/web_load.py``).

    >>> record = to_record(Game(Rules.preset("short", players=3), 1))
    >>> others = [set(CardSet.parse(hand).texts()) for hand in record["deals"][0]["hands"][1:]]
    >>> hidden_cards(record, 0)[(0, 0)] == others[0] | others[1]
    True
    """
    hidden: dict[tuple[int, int], set[str]] = {}
    seq = 0
    for index, deal in enumerate(record["deals"]):
        held = {s: set(CardSet.parse(hand).texts()) for s, hand in enumerate(deal["hands"]) if s != seat}
        hidden[(index, seq)] = set().union(*held.values())
        for line in deal["actions"]:
            actor, verb, argument = line.split()
            if verb == "play" and int(actor) != seat:
                held[int(actor)].discard(card_text(parse_card(argument)))
            seq += 1
            hidden[(index, seq)] = set().union(*held.values())
    return hidden


def check(data: str | bytes | object) -> tuple[int, dict[str, Any]]:
    """Re-play a record (JSON text, or already parsed) and answer ``(exit status, object)`` as ``ohhell check``.

    Status 0 with the result (see :func:`summary`), or 1 with
    ``{"error": {"code", "deal", "action", "message"}}``.
    """
    try:
        game = loads(data) if isinstance(data, (str, bytes)) else from_record(data)
    except OhHellError as exc:
        return refusal(exc)
    return 0, summary(game)


def refusal(exc: OhHellError) -> tuple[int, dict[str, Any]]:
    """What ``ohhell check`` answers for ``exc``: status 1 and ``{"error": {"code", "deal", "action", "message"}}``."""
    return 1, {"error": {"code": exc.code, "deal": exc.deal, "action": exc.action, "message": str(exc)}}
