"""The duplicate events' reads and writes, the results hook in front of the club's, and the close of an event.

An event's numbers are drawn from the operating system's randomness when it opens and stay in its row until it
closes; nothing here hands them out before then (:meth:`Event.revealed`). Every process may open the daily deal
and close an event: the day's row is unique, and closing is claimed by one ``UPDATE … WHERE scored_at IS NULL``,
so exactly one process scores an event and hands its entries to the results hook.

The entries' series reach the site's results hook through :class:`DuplicateStore.series_ended`: an entry's result
is kept here until the event closes (no result of others is shown before), then handed on with the event's
winners, and the club's event with its club, so that it counts in statistics and XP as a series does.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any, Final

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker
from sqlalchemy.orm import Session

from ohhell.commitment import secret_deal_number
from ohhell.duplicate.models import EntryRow, EventRow
from ohhell.duplicate.scoring import METHODS, Entry, Standing, score_event
from ohhell.rules import Rules
from ohhell.web.database import LoopReads, LoopWrites, create_server_engine
from ohhell.web.events import ClubEvent, EventGames, EventTable
from ohhell.web.models import utc_now
from ohhell.web.results import NoResults, ResultsHook, SeatResult, SeriesResult

log = logging.getLogger(__name__)

LEVELS: Final = ("easy", "normal")
"""The computer players' levels an event may name: they decide from the view and the seed alone. (Hard searches for
a budget of time, so how it plays depends on the machine's load: not the same for everyone.)"""
DAILY_PRESET: Final = "up-and-down"
DAILY_PLAYERS: Final = 4
DAILY_LEVEL: Final = "normal"
"""The daily deal is the default game of New game: Up and down, you and three Normal computer players."""
MAX_POOL: Final = 8
MAX_MINUTES: Final = 14 * 24 * 60
COMPUTER_NAMES: Final = ("Alice", "Bob", "Carol", "Dave", "Erin", "Frank")


def commitment_of(numbers: Sequence[int], salt: str) -> str:
    """SHA-256 over the event's numbers and salt, in hex: what the event's page shows beside them once closed.

    >>> commitment_of([42], "00")[:16]
    '4b641ff240fbfb29'
    """
    text = f"ohhell-duplicate/1:{salt}:{','.join(str(n) for n in numbers)}"
    return hashlib.sha256(text.encode("ascii")).hexdigest()


class EventError(ValueError):
    """A refused event action, with the sentence to show."""


@dataclass(frozen=True)
class Event:
    """An event as the pages see it: its numbers only through :meth:`revealed`, once it has closed."""

    id: int
    kind: str
    day: str | None
    club_id: int | None
    title: str
    rules: dict[str, Any]
    level: str
    scoring: str
    pool: int
    opens_at: datetime
    closes_at: datetime
    scored: bool
    standings: list[dict[str, Any]] | None
    _numbers: tuple[int, ...] = dataclasses.field(repr=False, default=())
    _salt: str = dataclasses.field(repr=False, default="")
    _commitment: str = dataclasses.field(repr=False, default="")

    def is_open(self, now: datetime) -> bool:
        """Whether entries and moves are still taken."""
        return now < self.closes_at

    def revealed(self, now: datetime) -> tuple[tuple[int, ...], str, str] | None:
        """The numbers, the salt and the commitment, once the event has closed (``None`` before)."""
        if self.is_open(now):
            return None
        return self._numbers, self._salt, self._commitment

    @property
    def hands(self) -> int:
        """The hands of the series."""
        return Rules.from_json(self.rules).deals

    @property
    def players(self) -> int:
        """The seats at each table."""
        return Rules.from_json(self.rules).players

    @property
    def preset(self) -> str:
        """The preset of the series."""
        return Rules.from_json(self.rules).preset_name


@dataclass(frozen=True)
class EventEntry:
    """One person's entry."""

    id: int
    event_id: int
    person: str
    player_key: str
    name: str
    instance: int
    game_id: int | None
    state: str
    started_at: datetime
    finished_at: datetime | None
    result: SeriesResult | None

    @property
    def complete(self) -> bool:
        """Played to its last hand."""
        return self.state == "finished"

    def human_seat(self) -> SeatResult | None:
        """The entrant's own seat of the reported series."""
        if self.result is None:
            return None
        return next((s for s in self.result.seats if s.kind == "human"), None)


def _aware(moment: datetime) -> datetime:
    """SQLite hands back naive times (stored as UTC)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _event(row: EventRow) -> Event:
    return Event(
        id=row.id,
        kind=row.kind,
        day=row.day,
        club_id=row.club_id,
        title=row.title,
        rules=row.rules,
        level=row.level,
        scoring=row.scoring,
        pool=len(row.numbers),
        opens_at=_aware(row.opens_at),
        closes_at=_aware(row.closes_at),
        scored=row.scored_at is not None,
        standings=row.standings,
        _numbers=tuple(row.numbers),
        _salt=row.salt,
        _commitment=row.commitment,
    )


def result_to_json(result: SeriesResult) -> dict[str, Any]:
    """A series result in the stored form of an entry."""
    values = dataclasses.asdict(result)
    values["ended_at"] = result.ended_at.isoformat()
    return values


def result_from_json(data: dict[str, Any]) -> SeriesResult:
    """The series result an entry holds."""
    values = dict(data)
    values["ended_at"] = datetime.fromisoformat(values["ended_at"])
    values["seats"] = tuple(
        SeatResult(**{**s, "bids": tuple(s["bids"]), "tricks": tuple(s["tricks"]), "points": tuple(s["points"])})
        for s in values["seats"]
    )
    for name in ("winners", "left", "undos"):
        values[name] = tuple(values.get(name) or ())
    return SeriesResult(**values)


def _entry(row: EntryRow) -> EventEntry:
    return EventEntry(
        id=row.id,
        event_id=row.event_id,
        person=row.person,
        player_key=row.player_key,
        name=row.name,
        instance=row.instance,
        game_id=row.game_id,
        state=row.state,
        started_at=_aware(row.started_at),
        finished_at=None if row.finished_at is None else _aware(row.finished_at),
        result=None if row.result is None else result_from_json(row.result),
    )


def scoring_entries(entries: Sequence[EventEntry], hands: int) -> list[Entry]:
    """The entries as :func:`~ohhell.duplicate.scoring.score_event` takes them (an incomplete one has no points)."""
    out = []
    for entry in entries:
        seat = entry.human_seat()
        complete = entry.complete and seat is not None and len(seat.points) == hands
        out.append(Entry(str(entry.id), entry.instance, tuple(seat.points) if complete and seat else None))
    return out


def standing_json(standing: Standing, entry: EventEntry) -> dict[str, Any]:
    """One line of an event's stored standings."""
    return {
        "entry": entry.id,
        "person": entry.person,
        "name": entry.name,
        "place": standing.place,
        "score": standing.score,
        "hands": list(standing.hands),
        "matchpoints": list(standing.matchpoints),
        "complete": entry.complete,
    }


def winners_of(standings: Sequence[dict[str, Any]]) -> set[int]:
    """The entries at the top of stored standings that were played to the end."""
    return {int(line["entry"]) for line in standings if line["place"] == 1 and line["complete"]}


def as_reported(result: SeriesResult, event_id: int, club_id: int | None, won: bool) -> SeriesResult:
    """An entry's series as the close hands it to the results hook: the event's winners (the entrant, or nobody),
    its club, and the event."""
    human = next((s for s in result.seats if s.kind == "human"), None)
    winners = (human.seat,) if won and human is not None else ()
    return dataclasses.replace(result, winners=winners, club_id=club_id, event_id=event_id)


def day_of(moment: datetime) -> date:
    """The UTC day of a moment."""
    return moment.astimezone(UTC).date()


class DuplicateStore:
    """The events' tables over one database URL; the game's :class:`~ohhell.web.events.EventTables` and a results
    hook in front of ``results`` (the club's)."""

    def __init__(
        self, url: str, results: ResultsHook | None = None, *, sync_each_commit: bool = False, **engine_options: Any
    ) -> None:
        self.engine: AsyncEngine = create_server_engine(url, **engine_options)
        self._sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        self._reads = LoopReads(url, self._sessions)
        self._writes = LoopWrites(url, self._sessions, sync_each_commit=sync_each_commit)
        self.results: ResultsHook = results if results is not None else NoResults()
        self.games: EventGames | None = None
        """Where entries' tables are dealt (the site sets the game's)."""

    async def close(self) -> None:
        """Release the connections."""
        await self.engine.dispose()
        self._reads.close()
        self._writes.close()

    async def reconnect(self) -> None:
        """Drop every connection (the database was replaced or repaired)."""
        await self.engine.dispose()
        self._reads.close()
        self._writes.close()

    # ----------------------------------------------------------------- events

    async def _create(self, row: EventRow) -> Event:
        async with self._sessions() as session:
            session.add(row)
            await session.commit()
            return _event(row)

    @staticmethod
    def _new_row(
        *,
        kind: str,
        title: str,
        rules: Rules,
        level: str,
        scoring: str,
        pool: int,
        opens_at: datetime,
        closes_at: datetime,
        day: str | None = None,
        club_id: int | None = None,
        created_by: str | None = None,
    ) -> EventRow:
        if level not in LEVELS:
            raise EventError(f"level: the computer players of an event are one of {', '.join(LEVELS)}, not {level!r}")
        if scoring not in METHODS:
            raise EventError(f"scoring: one of {', '.join(METHODS)}, not {scoring!r}")
        if not 1 <= pool <= MAX_POOL:
            raise EventError(f"pool: from 1 to {MAX_POOL} instances of the series, not {pool}")
        numbers = [secret_deal_number() for _ in range(pool)]  # 63 bits: no entrant finds one from their hand
        salt = secrets.token_hex(16)
        return EventRow(
            kind=kind,
            day=day,
            club_id=club_id,
            title=title,
            rules=rules.to_json(),
            level=level,
            scoring=scoring,
            numbers=numbers,
            salt=salt,
            commitment=commitment_of(numbers, salt),
            opens_at=opens_at,
            closes_at=closes_at,
            created_by=created_by,
        )

    async def daily(self, day: date) -> Event:
        """The daily deal of ``day`` (UTC), opened now if nobody has yet (by any process)."""
        key = day.isoformat()
        found = await self._daily_row(key)
        if found is not None:
            return found
        start = datetime(day.year, day.month, day.day, tzinfo=UTC)
        row = self._new_row(
            kind="daily",
            title=f"Daily deal of {day.strftime('%-d %B %Y')}",
            rules=Rules.preset(DAILY_PRESET, players=DAILY_PLAYERS),
            level=DAILY_LEVEL,
            scoring="matchpoints",
            pool=1,
            opens_at=start,
            closes_at=start + timedelta(days=1),
            day=key,
        )
        try:
            return await self._create(row)
        except IntegrityError:  # another process opened it meanwhile: theirs stands
            again = await self._daily_row(key)
            assert again is not None
            return again

    async def _daily_row(self, key: str) -> Event | None:
        async with self._sessions() as session:
            row = await session.scalar(select(EventRow).where(EventRow.day == key))
            return None if row is None else _event(row)

    async def open_club_event(
        self,
        club_id: int,
        title: str,
        rules: Rules,
        level: str,
        minutes: int,
        created_by: str,
        pool: int = 1,
        scoring: str = "matchpoints",
    ) -> Event:
        """A club's event, open from now for ``minutes``."""
        if not 1 <= minutes <= MAX_MINUTES:
            raise EventError(f"minutes: an event stays open from 1 minute to {MAX_MINUTES // (24 * 60)} days")
        title = title.strip()
        if not 1 <= len(title) <= 80:
            raise EventError("title: from 1 to 80 characters")
        now = utc_now()
        row = self._new_row(
            kind="club",
            title=title,
            rules=rules,
            level=level,
            scoring=scoring,
            pool=pool,
            opens_at=now,
            closes_at=now + timedelta(minutes=minutes),
            club_id=club_id,
            created_by=created_by,
        )
        return await self._create(row)

    async def event(self, event_id: int) -> Event | None:
        """The event with that id."""
        if not 1 <= event_id <= 2**31 - 1:
            return None
        async with self._sessions() as session:
            row = await session.get(EventRow, event_id)
            return None if row is None else _event(row)

    async def events(self, kind: str, club_id: int | None = None, limit: int = 60) -> list[Event]:
        """The events of a kind (of one club), newest first."""
        query = select(EventRow).where(EventRow.kind == kind)
        if club_id is not None:
            query = query.where(EventRow.club_id == club_id)
        async with self._sessions() as session:
            rows = await session.execute(query.order_by(EventRow.opens_at.desc(), EventRow.id.desc()).limit(limit))
            return [_event(row) for row in rows.scalars()]

    async def move_close(self, event_id: int, closes_at: datetime) -> None:
        """Close an event at another moment (an admin closing it early; tests standing in for the clock)."""
        async with self._sessions() as session:
            await session.execute(update(EventRow).where(EventRow.id == event_id).values(closes_at=closes_at))
            await session.commit()

    # ----------------------------------------------------------------- entries

    async def entries(self, event_id: int) -> list[EventEntry]:
        """Every entry of the event, in the order they were made."""
        async with self._sessions() as session:
            rows = await session.execute(select(EntryRow).where(EntryRow.event_id == event_id).order_by(EntryRow.id))
            return [_entry(row) for row in rows.scalars()]

    async def entry_of(self, event_id: int, person: str) -> EventEntry | None:
        """The person's entry of the event, if any."""
        async with self._sessions() as session:
            row = await session.scalar(select(EntryRow).where(EntryRow.event_id == event_id, EntryRow.person == person))
            return None if row is None else _entry(row)

    async def entry_of_game(self, game_id: int) -> EventEntry | None:
        """The entry whose table the game is, if any (asked at every series' end)."""

        def read(session: Session) -> EventEntry | None:
            row = session.scalar(select(EntryRow).where(EntryRow.game_id == game_id))
            return None if row is None else _entry(row)

        return await self._reads(read)

    async def enter(self, event: Event, person: str, player_key: str, name: str) -> EventEntry:
        """The person's entry, made now if they have none: an instance by lot, and its table dealt.

        One entry per person: the entry is claimed (a unique row) before its table is dealt, so two tabs or two
        processes entering at once deal one table.
        """
        if not event.is_open(utc_now()):
            raise EventError("This event has closed: its results are on its page.")
        existing = await self.entry_of(event.id, person)
        if existing is not None:
            return existing
        if self.games is None:
            raise RuntimeError("no game is wired to deal the entries' tables")
        row = EntryRow(
            event_id=event.id,
            person=person,
            player_key=player_key,
            name=name[:64],
            instance=secrets.randbelow(event.pool),
            state="playing",
        )
        async with self._sessions() as session:
            session.add(row)
            try:
                await session.commit()
            except IntegrityError:
                await session.rollback()
                again = await self.entry_of(event.id, person)
                assert again is not None
                return again
        seats = [{"name": name[:24], "kind": "human", "player": player_key}] + [
            {"name": COMPUTER_NAMES[i], "kind": "computer", "level": event.level} for i in range(event.players - 1)
        ]
        try:
            game_id = await self.games.start_entry(event.rules, event._numbers[row.instance], seats, player_key)
        except BaseException:
            async with self._sessions() as session:
                await session.execute(delete(EntryRow).where(EntryRow.id == row.id))
                await session.commit()
            raise
        async with self._sessions() as session:
            await session.execute(update(EntryRow).where(EntryRow.id == row.id).values(game_id=game_id))
            await session.commit()
        found = await self.entry_of(event.id, person)
        assert found is not None
        return found

    # ----------------------------------------------------------------- what the game asks

    async def event_table(self, game_id: int) -> EventTable | None:
        """:class:`~ohhell.web.events.EventTables`: the event whose entry the game is (asked whenever a table
        opens)."""

        def read(session: Session) -> EventTable | None:
            found = session.execute(
                select(EntryRow.event_id, EventRow.closes_at)
                .join(EventRow, EventRow.id == EntryRow.event_id)
                .where(EntryRow.game_id == game_id)
            ).first()
            return None if found is None else EventTable(found[0], _aware(found[1]), f"/duplicate/events/{found[0]}")

        return await self._reads(read)

    async def series_ended(self, result: SeriesResult) -> None:
        """:class:`~ohhell.web.results.ResultsHook`: an entry's series is kept for the close; others go on, and so
        does an entry's that ends after its event closed (it stands as unfinished, which cannot win)."""
        entry = await self.entry_of_game(result.game_id)
        if entry is None:
            await self.results.series_ended(result)
            return
        human = next((s for s in result.seats if s.kind == "human"), None)
        gave_up = human is None or result.resigned == human.seat or human.seat in result.left
        ended = (
            update(EntryRow)
            .where(EntryRow.id == entry.id, EntryRow.state == "playing")
            .values(
                state="gave-up" if gave_up else "finished",
                finished_at=result.ended_at,
                result=result_to_json(result),
            )
        )

        def write(session: Session) -> bool:
            # The event's row first, locked (PostgreSQL; a SQLite write holds the whole file): the close claims that
            # row before it reads the entries, so either it sees this entry finished or this sees the event scored.
            scored = session.execute(
                select(EventRow.scored_at).where(EventRow.id == entry.event_id).with_for_update()
            ).scalar_one()
            finished = session.execute(ended).rowcount == 1  # type: ignore[attr-defined]
            return finished and scored is not None

        if await self._writes(write):
            # the event closed while this series went on: scored as unfinished, its result is passed on from here
            event = await self.event(entry.event_id)
            assert event is not None
            await self.results.series_ended(as_reported(result, event.id, event.club_id, won=False))

    # ----------------------------------------------------------------- closing

    async def close_due(self, now: datetime | None = None) -> list[int]:
        """Score every event that has closed and is not scored yet; the ids this process scored."""
        moment = now or utc_now()
        async with self._sessions() as session:
            rows = await session.execute(
                select(EventRow.id).where(EventRow.closes_at <= moment, EventRow.scored_at.is_(None))
            )
            due = list(rows.scalars())
        done = []
        for event_id in due:
            if await self._score(event_id, moment):
                done.append(event_id)
        return done

    async def _score(self, event_id: int, moment: datetime) -> bool:
        async with self._sessions() as session:
            claimed = await session.execute(
                update(EventRow).where(EventRow.id == event_id, EventRow.scored_at.is_(None)).values(scored_at=moment)
            )
            await session.commit()
            if claimed.rowcount != 1:  # type: ignore[attr-defined]
                return False  # another process is scoring it
        event = await self.event(event_id)
        assert event is not None
        entries = await self.entries(event_id)
        standings = score_event(scoring_entries(entries, event.hands), event.hands, event.scoring)  # type: ignore[arg-type]
        by_id = {str(e.id): e for e in entries}
        stored = [standing_json(s, by_id[s.key]) for s in standings]
        async with self._sessions() as session:
            await session.execute(update(EventRow).where(EventRow.id == event_id).values(standings=stored))
            await session.commit()
        winners = winners_of(stored)
        for entry in entries:
            if entry.result is None:
                continue
            report = as_reported(entry.result, event.id, event.club_id, entry.id in winners)
            try:
                await self.results.series_ended(report)
            except Exception:
                log.exception("event %s: entry %s's series was not stored", event_id, entry.id)
        return True

    async def reports_by_game(self) -> dict[int, tuple[int, int | None, bool] | None]:
        """Every entry's table: ``(event, club, won)`` once its event is scored, ``None`` while its result is held
        (what ``ohhell club rebuild-stats`` needs to rebuild the rows the close stored)."""
        async with self._sessions() as session:
            rows = await session.execute(
                select(EntryRow.game_id, EntryRow.id, EventRow.id, EventRow.club_id, EventRow.standings)
                .join(EventRow, EventRow.id == EntryRow.event_id)
                .where(EntryRow.game_id.is_not(None))
            )
            out: dict[int, tuple[int, int | None, bool] | None] = {}
            for game_id, entry_id, event_id, club_id, standings in rows.tuples():
                out[game_id] = None if standings is None else (event_id, club_id, entry_id in winners_of(standings))
            return out

    # ----------------------------------------------------------------- what the club asks

    async def events_of_club(self, club_id: int) -> list[ClubEvent]:
        """:class:`~ohhell.web.events.ClubEvents`: the club's events, newest first."""
        now = utc_now()
        await self.close_due(now)
        out = []
        for event in await self.events("club", club_id):
            count = len(await self.entries(event.id))
            closed = not event.is_open(now)
            winners = tuple(
                str(line["name"]) for line in (event.standings or []) if line["place"] == 1 and line["complete"]
            )
            out.append(
                ClubEvent(
                    title=event.title,
                    url=f"/duplicate/events/{event.id}",
                    status="closed" if closed else "open",
                    closes_at=event.closes_at,
                    entries=count,
                    winners=winners if closed else (),
                )
            )
        return out
