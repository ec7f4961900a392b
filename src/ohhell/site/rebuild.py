"""``ohhell club rebuild-stats``: the series results rebuilt from the game logs, compared with what was stored.

The game logs are the source of truth. Every finished game with a person at it (practice series aside: they earn
nothing) is replayed from its log
(:func:`ohhell.server.table.live.rebuild`), turned into its series result
(:func:`ohhell.server.table.results.series_result`) and each person's stored row
(:func:`ohhell.club.results.person_results`), and compared with the ``series_results`` rows field by field (all
but the moment it was stored). It lives in the site because it joins
two features, the game's logs and the club's results (and a duplicate event's entries, reported when the event
was scored, with its winners and club: :mod:`ohhell.duplicate.store`). With ``fix``, missing rows are stored and
differing ones replaced by the rebuilt ones; statistics, XP and ratings follow, being computed from the rows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select

from ohhell.club.results import PersonResult, person_results
from ohhell.club.store import ClubStore
from ohhell.duplicate.store import DuplicateStore, as_reported
from ohhell.server.party.live import left_of
from ohhell.server.party.store import PartyStore
from ohhell.server.storage.models import GameRow
from ohhell.server.storage.store import Store
from ohhell.server.table.live import rebuild_with_undos
from ohhell.server.table.results import series_result
from ohhell.site import schema


@dataclass
class Report:
    """What the rebuild found."""

    series: int = 0
    """Finished series with a person at them, replayed."""
    rows: int = 0
    """Person results rebuilt."""
    missing: list[tuple[int, int]] = field(default_factory=list)
    """``(game, seat)`` rebuilt but not stored."""
    differing: list[tuple[int, int, str, Any, Any]] = field(default_factory=list)
    """``(game, seat, field, stored, rebuilt)``."""
    unknown: list[tuple[int, int]] = field(default_factory=list)
    """Stored rows of no finished game's person."""
    fixed: int = 0

    @property
    def agrees(self) -> bool:
        """Whether the stored results are exactly the rebuilt ones."""
        return not (self.missing or self.differing or self.unknown)

    def lines(self) -> list[str]:
        """The report in words."""
        out = [f"{self.series} finished series replayed from their logs, {self.rows} results of people rebuilt."]
        out += [f"game {g} seat {s}: not stored" for g, s in self.missing]
        out += [f"game {g} seat {s}: {name} stored {a!r}, rebuilt {b!r}" for g, s, name, a, b in self.differing]
        out += [f"game {g} seat {s}: stored, but no finished game has a person there" for g, s in self.unknown]
        if self.agrees:
            out.append("The stored results agree with the game logs.")
        elif self.fixed:
            out.append(f"{self.fixed} results stored again from the game logs.")
        return out


async def rebuild_stats(url: str, fix: bool = False) -> Report:
    """Rebuild the series results of the database at ``url`` from its game logs, compare, and fix if asked."""
    schema.upgrade(url)
    store = Store(url)
    parties = PartyStore(store)
    clubs = ClubStore(url)
    duplicates = DuplicateStore(url)
    report = Report()
    try:
        async with store.engine.connect() as connection:
            ids = list(
                (await connection.execute(select(GameRow.id).where(GameRow.finished).order_by(GameRow.id))).scalars()
            )
        tables = await clubs.club_tables()
        entries = await duplicates.reports_by_game()  # duplicate events' tables: reported at the close, as it did
        rebuilt: dict[tuple[int, int], PersonResult] = {}
        for game_id in ids:
            stored = await store.load(game_id)
            if stored.practice or not any(seat.get("kind") == "human" for seat in stored.seats):
                continue  # a practice series earns nothing, as the live table's hook skips it
            game, undos = rebuild_with_undos(stored)
            game.left = left_of(await parties.party(game_id))  # seats given up at a table of several people
            if not game.is_over or (game_id in entries and entries[game_id] is None):
                continue  # an event's entry is held until the event is scored
            report.series += 1
            undone = {u.seat for u in undos}
            result = series_result(game, stored.seats, game_id, stored.updated_at, undone, tables.get(game_id))
            reported = entries.get(game_id)
            if reported is not None:
                result = as_reported(result, *reported)
            for person in person_results(result):
                rebuilt[(person.game_id, person.seat)] = person
        report.rows = len(rebuilt)
        kept = {(r.game_id, r.seat): r for r in await clubs.all_results()}
        for key, fresh in rebuilt.items():
            old = kept.get(key)
            if old is None:
                report.missing.append(key)
                continue
            was, now = old.compared(), fresh.compared()
            report.differing += [(*key, name, was[name], now[name]) for name in now if was[name] != now[name]]
        report.unknown = sorted(key for key in kept if key not in rebuilt)
        if fix:
            for key in report.missing:
                report.fixed += await clubs.store_results([rebuilt[key]])
            for key in sorted({(g, s) for g, s, *_ in report.differing}):
                await clubs.replace_result(rebuilt[key])
                report.fixed += 1
    finally:
        await store.close()
        await clubs.close()
        await duplicates.close()
    return report
