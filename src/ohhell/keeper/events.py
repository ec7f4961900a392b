"""The entries of a score sheet as an append-only log of events, and their JSON form.

The log is the sheet: replaying it rebuilds every cell, and it is what the database and the JSON export keep.
Each event says who made it (``by``, a name typed or defaulted) and when (``at``, from the clock the sheet was
given), so a correction is as visible as the entry it corrects.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeAlias

from ohhell.errors import RecordError
from ohhell.keeper.trump import TrumpCall, TrumpCallError


@dataclass(frozen=True)
class TrumpEntered:
    """The trump of deal ``deal`` as told by the table (turn-up rules only)."""

    deal: int
    call: TrumpCall
    by: str
    at: datetime


@dataclass(frozen=True)
class BidEntered:
    """The bid of ``seat`` in deal ``deal``, entered in bidding order."""

    deal: int
    seat: int
    bid: int
    by: str
    at: datetime


@dataclass(frozen=True)
class TricksEntered:
    """The tricks every seat took in deal ``deal``, entered together because they must add up to the hand size."""

    deal: int
    tricks: tuple[int, ...]
    by: str
    at: datetime


@dataclass(frozen=True)
class Corrected:
    """New values for entries already made in deal ``deal``: bids and tricks by seat, and the trump.

    Several cells change at once because the rules tie them together: tricks must still add up, and a corrected
    bid may put the dealer's bid on the hook unless the dealer's is corrected with it.
    """

    deal: int
    bids: tuple[tuple[int, int], ...]
    tricks: tuple[tuple[int, int], ...]
    trump: TrumpCall | None
    by: str
    at: datetime


@dataclass(frozen=True)
class Renamed:
    """Seat ``seat`` is called ``name`` from now on."""

    seat: int
    name: str
    by: str
    at: datetime


@dataclass(frozen=True)
class FirstDealerCorrected:
    """The first deal was dealt by ``seat``; every later dealer follows to the left."""

    seat: int
    by: str
    at: datetime


Event: TypeAlias = TrumpEntered | BidEntered | TricksEntered | Corrected | Renamed | FirstDealerCorrected


def wall_clock() -> datetime:
    """The time now, in UTC: the clock applications give their sheets (tests give another)."""
    return datetime.now(UTC)


def time_text(at: datetime) -> str:
    """An instant as ISO 8601 in UTC to the second: ``2025-03-01T20:15:00Z``."""
    return at.astimezone(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def parse_time(text: object) -> datetime:
    """The inverse of :func:`time_text` (any ISO 8601 instant with an offset)."""
    if not isinstance(text, str):
        raise RecordError(f"a time must be ISO 8601 text, not {text!r}")
    try:
        at = datetime.fromisoformat(text)
    except ValueError:
        raise RecordError(f"{text!r} is not an ISO 8601 time") from None
    if at.tzinfo is None:
        raise RecordError(f"the time {text!r} has no offset: write it in UTC with a Z")
    return at.astimezone(UTC)


def event_to_json(event: Event) -> dict[str, Any]:
    """The JSON object of one event; :func:`event_from_json` reads it back."""
    out: dict[str, Any]
    match event:
        case TrumpEntered():
            out = {"type": "trump", "deal": event.deal, "trump": event.call.text()}
        case BidEntered():
            out = {"type": "bid", "deal": event.deal, "seat": event.seat, "bid": event.bid}
        case TricksEntered():
            out = {"type": "tricks", "deal": event.deal, "tricks": list(event.tricks)}
        case Corrected():
            out = {"type": "correct", "deal": event.deal}
            if event.bids:
                out["bids"] = [[seat, n] for seat, n in event.bids]
            if event.tricks:
                out["tricks"] = [[seat, n] for seat, n in event.tricks]
            if event.trump is not None:
                out["trump"] = event.trump.text()
        case Renamed():
            out = {"type": "rename", "seat": event.seat, "name": event.name}
        case FirstDealerCorrected():
            out = {"type": "first-dealer", "seat": event.seat}
    out["by"] = event.by
    out["at"] = time_text(event.at)
    return out


def event_from_json(data: object) -> Event:
    """One event from its JSON object; a field missing or of the wrong type raises :class:`RecordError`."""
    if not isinstance(data, Mapping):
        raise RecordError(f"an event must be an object, not {type(data).__name__}")
    kind = data.get("type")
    by = _text(data, "by")
    at = parse_time(data.get("at"))
    try:
        match kind:
            case "trump":
                return TrumpEntered(_int(data, "deal"), TrumpCall.parse(_text(data, "trump")), by, at)
            case "bid":
                return BidEntered(_int(data, "deal"), _int(data, "seat"), _int(data, "bid"), by, at)
            case "tricks":
                return TricksEntered(_int(data, "deal"), _ints(data.get("tricks"), "tricks"), by, at)
            case "correct":
                trump = TrumpCall.parse(_text(data, "trump")) if "trump" in data else None
                bids, tricks = _pairs(data.get("bids", [])), _pairs(data.get("tricks", []))
                return Corrected(_int(data, "deal"), bids, tricks, trump, by, at)
            case "rename":
                return Renamed(_int(data, "seat"), _text(data, "name"), by, at)
            case "first-dealer":
                return FirstDealerCorrected(_int(data, "seat"), by, at)
    except TrumpCallError as exc:
        raise RecordError(str(exc)) from None
    raise RecordError(f"unknown event type {kind!r}: use trump, bid, tricks, correct, rename or first-dealer")


def _int(data: Mapping[str, object], key: str) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(f"the event's {key!r} must be a whole number, not {value!r}")
    return value


def _text(data: Mapping[str, object], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise RecordError(f"the event's {key!r} must be text, not {value!r}")
    return value


def _ints(value: object, key: str) -> tuple[int, ...]:
    if not isinstance(value, list) or any(isinstance(v, bool) or not isinstance(v, int) for v in value):
        raise RecordError(f"the event's {key!r} must be a list of whole numbers, not {value!r}")
    return tuple(value)


def _pairs(value: object) -> tuple[tuple[int, int], ...]:
    if not isinstance(value, list):
        raise RecordError(f"a correction lists [seat, value] pairs, not {value!r}")
    pairs = tuple(_ints(pair, "[seat, value]") for pair in value)
    if any(len(pair) != 2 for pair in pairs):
        raise RecordError(f"a correction lists [seat, value] pairs, not {value!r}")
    return tuple((seat, n) for seat, n in pairs)
