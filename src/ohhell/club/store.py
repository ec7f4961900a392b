"""The club's reads and writes: series results (the site's results hook), clubs, members, invites, club tables.

Statistics, XP and ratings are never stored apart: they are computed from the ``series_results`` rows
(:mod:`~ohhell.club.stats`, :mod:`~ohhell.club.rating`), so they cannot disagree with them. Only the rows
themselves could disagree with the game logs, which ``ohhell club rebuild-stats`` checks.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker
from sqlalchemy.orm import Session

from ohhell.club.models import ClubInviteRow, ClubMemberRow, ClubRow, ClubTableRow, SeriesResultRow
from ohhell.club.results import PersonResult, person_results
from ohhell.web.accounts.models import AccountPlayerRow
from ohhell.web.database import LoopReads, LoopWrites, create_server_engine
from ohhell.web.models import utc_now
from ohhell.web.results import SeriesResult

log = logging.getLogger(__name__)

ROLES: Final = ("admin", "member")
_FIELDS: Final = tuple(PersonResult.__dataclass_fields__)


def row_values(result: PersonResult) -> dict[str, Any]:
    """The columns of a result's row."""
    return {name: getattr(result, name) for name in _FIELDS}


def from_row(row: SeriesResultRow) -> PersonResult:
    """The result a row holds."""
    values = {name: getattr(row, name) for name in _FIELDS}
    return PersonResult(**values)


@dataclass(frozen=True)
class Club:
    """A club."""

    id: int
    name: str
    created_at: datetime
    allow_undo: bool


@dataclass(frozen=True)
class Member:
    """A member of a club."""

    account_id: int
    role: str
    joined_at: datetime


class ClubError(ValueError):
    """A refused club action, with the sentence to show."""


def club_name_problem(name: str) -> str | None:
    """What is wrong with a club's name, or ``None``."""
    name = name.strip()
    if not name:
        return "The club's name is missing."
    if len(name) > 40:
        return "A club's name may have at most 40 characters."
    return None


class ClubStore:
    """The club's tables over one database URL; the site's :class:`~ohhell.web.results.ResultsHook`."""

    def __init__(self, url: str, *, sync_each_commit: bool = False, **engine_options: Any) -> None:
        self.engine: AsyncEngine = create_server_engine(url, **engine_options)
        self._sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        self._reads = LoopReads(url, self._sessions)
        self._writes = LoopWrites(url, self._sessions, sync_each_commit=sync_each_commit)

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

    # ----------------------------------------------------------------- series results

    async def series_ended(self, result: SeriesResult) -> None:
        """Store every person's result of a series that ended (a second call for the same game changes nothing)."""
        club_id = result.club_id if result.club_id is not None else await self.club_of_game(result.game_id)
        await self.store_results(person_results(result, club_id))

    async def store_results(self, results: Iterable[PersonResult]) -> int:
        """Insert results not stored yet; how many were new (one small transaction, :class:`LoopWrites`: every
        series' end stores one, beside the moves of every other table)."""
        wanted = list(results)

        def insert(session: Session) -> int:
            added = 0
            for result in wanted:
                if session.get(SeriesResultRow, (result.game_id, result.seat)) is None:
                    session.add(SeriesResultRow(**row_values(result)))
                    added += 1
            session.flush()
            return added

        try:
            return await self._writes(insert)
        except IntegrityError:  # stored meanwhile by another process: theirs stands
            return 0

    async def replace_result(self, result: PersonResult) -> None:
        """Store a rebuilt result in place of the one stored (the rebuild's ``--fix``)."""
        async with self._sessions() as session:
            await session.execute(
                delete(SeriesResultRow).where(
                    SeriesResultRow.game_id == result.game_id, SeriesResultRow.seat == result.seat
                )
            )
            session.add(SeriesResultRow(**row_values(result)))
            await session.commit()

    async def results_of(self, keys: Iterable[str]) -> list[PersonResult]:
        """Every result of these player keys, oldest first."""
        wanted = sorted(set(keys))
        if not wanted:
            return []
        async with self._sessions() as session:
            rows = await session.execute(
                select(SeriesResultRow)
                .where(SeriesResultRow.player_key.in_(wanted))
                .order_by(SeriesResultRow.ended_at, SeriesResultRow.game_id)
            )
            return [from_row(row) for row in rows.scalars()]

    async def results_of_games(self, game_ids: Iterable[int]) -> list[PersonResult]:
        """Every person's result of these games."""
        wanted = sorted(set(game_ids))
        if not wanted:
            return []
        async with self._sessions() as session:
            rows = await session.execute(select(SeriesResultRow).where(SeriesResultRow.game_id.in_(wanted)))
            return [from_row(row) for row in rows.scalars()]

    async def all_results(self) -> list[PersonResult]:
        """Every stored result, by game and seat."""
        async with self._sessions() as session:
            rows = await session.execute(
                select(SeriesResultRow).order_by(SeriesResultRow.game_id, SeriesResultRow.seat)
            )
            return [from_row(row) for row in rows.scalars()]

    async def club_results(self, club_id: int) -> list[PersonResult]:
        """The results of the club's series, oldest first."""
        async with self._sessions() as session:
            rows = await session.execute(
                select(SeriesResultRow)
                .where(SeriesResultRow.club_id == club_id)
                .order_by(SeriesResultRow.ended_at, SeriesResultRow.game_id, SeriesResultRow.seat)
            )
            return [from_row(row) for row in rows.scalars()]

    async def xp_of_keys(self, keys: Iterable[str]) -> int:
        """The XP these player keys earned in all."""
        wanted = sorted(set(keys))
        if not wanted:
            return 0
        async with self._sessions() as session:
            total = await session.scalar(
                select(func.coalesce(func.sum(SeriesResultRow.xp), 0)).where(SeriesResultRow.player_key.in_(wanted))
            )
            return int(total or 0)

    # ----------------------------------------------------------------- club tables

    async def make_club_table(self, game_id: int, club_id: int) -> None:
        """Make a game a club table (called by the table of several people when it is created for a club)."""
        async with self._sessions() as session:
            session.add(ClubTableRow(game_id=game_id, club_id=club_id))
            await session.commit()

    async def club_of_game(self, game_id: int) -> int | None:
        """The club whose table the game is, if any (asked at every series' end)."""

        def read(session: Session) -> int | None:
            row = session.get(ClubTableRow, game_id)
            return None if row is None else row.club_id

        return await self._reads(read)

    async def play_again(self, game_id: int, next_game_id: int) -> None:
        """:class:`~ohhell.web.results.ClubTables`: the next game of a club table's people is the club's table too."""
        club_id = await self.club_of_game(game_id)
        if club_id is not None:
            await self.make_club_table(next_game_id, club_id)

    async def allows_undo(self, game_id: int) -> bool:
        """Whether the game is a table of a club whose admins allow Undo (asked whenever a table opens)."""

        def read(session: Session) -> bool:
            allowed = session.scalar(
                select(ClubRow.allow_undo)
                .join(ClubTableRow, ClubTableRow.club_id == ClubRow.id)
                .where(ClubTableRow.game_id == game_id)
            )
            return bool(allowed)

        return await self._reads(read)

    async def club_tables(self) -> dict[int, int]:
        """Every club table: game id to club id."""
        async with self._sessions() as session:
            rows = await session.execute(select(ClubTableRow.game_id, ClubTableRow.club_id))
            return dict(rows.tuples().all())

    # ----------------------------------------------------------------- clubs

    async def create_club(self, name: str, account_id: int) -> Club:
        """A new club with its founder as admin."""
        problem = club_name_problem(name)
        if problem:
            raise ClubError(problem)
        async with self._sessions() as session:
            row = ClubRow(name=name.strip())
            session.add(row)
            await session.flush()
            session.add(ClubMemberRow(club_id=row.id, account_id=account_id, role="admin"))
            await session.commit()
            return Club(row.id, row.name, row.created_at, row.allow_undo)

    async def club(self, club_id: int) -> Club | None:
        """The club with that id."""
        if not 1 <= club_id <= 2**31 - 1:
            return None
        async with self._sessions() as session:
            row = await session.get(ClubRow, club_id)
            return None if row is None else Club(row.id, row.name, row.created_at, row.allow_undo)

    async def set_allow_undo(self, club_id: int, allow: bool) -> None:
        """Whether the club's tables allow Undo (the club aid)."""
        async with self._sessions() as session:
            await session.execute(update(ClubRow).where(ClubRow.id == club_id).values(allow_undo=allow))
            await session.commit()

    async def clubs_of(self, account_id: int) -> list[tuple[Club, str]]:
        """The clubs an account belongs to, with its role in each."""
        async with self._sessions() as session:
            rows = await session.execute(
                select(ClubRow, ClubMemberRow.role)
                .join(ClubMemberRow, ClubMemberRow.club_id == ClubRow.id)
                .where(ClubMemberRow.account_id == account_id)
                .order_by(ClubRow.name)
            )
            return [(Club(c.id, c.name, c.created_at, c.allow_undo), role) for c, role in rows.tuples()]

    async def members(self, club_id: int) -> list[Member]:
        """The club's members, admins first."""
        async with self._sessions() as session:
            rows = await session.execute(
                select(ClubMemberRow).where(ClubMemberRow.club_id == club_id).order_by(ClubMemberRow.joined_at)
            )
            members = [Member(r.account_id, r.role, r.joined_at) for r in rows.scalars()]
            return sorted(members, key=lambda m: m.role != "admin")

    async def role_of(self, club_id: int, account_id: int) -> str | None:
        """The account's role in the club (``None``: not a member)."""
        async with self._sessions() as session:
            row = await session.get(ClubMemberRow, (club_id, account_id))
            return None if row is None else row.role

    async def shares_a_club(self, one: int, other: int) -> bool:
        """Whether two accounts are members of a club together."""
        async with self._sessions() as session:
            mine = select(ClubMemberRow.club_id).where(ClubMemberRow.account_id == one)
            count = await session.scalar(
                select(func.count()).where(ClubMemberRow.account_id == other, ClubMemberRow.club_id.in_(mine))
            )
            return bool(count)

    async def join(self, club_id: int, account_id: int) -> bool:
        """Make the account a member (``False`` if it already was one)."""
        async with self._sessions() as session:
            if await session.get(ClubMemberRow, (club_id, account_id)) is not None:
                return False
            session.add(ClubMemberRow(club_id=club_id, account_id=account_id, role="member"))
            try:
                await session.commit()
            except IntegrityError:
                return False
            return True

    async def remove(self, club_id: int, account_id: int) -> None:
        """Take a member out of the club (leaving, or removed by an admin); the last admin cannot go while others
        stay, and a club whose last member leaves is closed."""
        async with self._sessions() as session:
            row = await session.get(ClubMemberRow, (club_id, account_id))
            if row is None:
                raise ClubError("That person is not a member of this club.")
            others = (
                (
                    await session.execute(
                        select(ClubMemberRow).where(
                            ClubMemberRow.club_id == club_id, ClubMemberRow.account_id != account_id
                        )
                    )
                )
                .scalars()
                .all()
            )
            if not others:
                await session.execute(delete(ClubRow).where(ClubRow.id == club_id))
                await session.commit()
                return
            if row.role == "admin" and not any(other.role == "admin" for other in others):
                raise ClubError("The club's last admin must name another admin before leaving.")
            await session.delete(row)
            await session.commit()

    async def set_role(self, club_id: int, account_id: int, role: str) -> None:
        """Make a member an admin, or an admin a member again (the club keeps at least one admin)."""
        if role not in ROLES:
            raise ClubError(f"role must be one of {', '.join(ROLES)}, not {role!r}")
        async with self._sessions() as session:
            row = await session.get(ClubMemberRow, (club_id, account_id))
            if row is None:
                raise ClubError("That person is not a member of this club.")
            if role == "member" and row.role == "admin":
                admins = await session.scalar(
                    select(func.count()).where(ClubMemberRow.club_id == club_id, ClubMemberRow.role == "admin")
                )
                if (admins or 0) <= 1:
                    raise ClubError("A club keeps at least one admin.")
            row.role = role
            await session.commit()

    async def may_take_seat(self, club_id: int, player: str) -> bool:
        """:class:`~ohhell.web.results.SeatPolicy`: whether the player key's account is a member of the club."""
        async with self._sessions() as session:
            count = await session.scalar(
                select(func.count())
                .select_from(ClubMemberRow)
                .join(AccountPlayerRow, AccountPlayerRow.account_id == ClubMemberRow.account_id)
                .where(ClubMemberRow.club_id == club_id, AccountPlayerRow.player_key == player)
            )
            return bool(count)

    async def club_name(self, club_id: int) -> str | None:
        """:class:`~ohhell.web.events.ClubDirectory`: the club's name (``None``: no such club)."""
        club = await self.club(club_id)
        return None if club is None else club.name

    async def club_role(self, club_id: int, player: str) -> str | None:
        """:class:`~ohhell.web.events.ClubDirectory`: the role in the club of the account holding ``player``'s key."""
        async with self._sessions() as session:
            role = await session.scalar(
                select(ClubMemberRow.role)
                .join(AccountPlayerRow, AccountPlayerRow.account_id == ClubMemberRow.account_id)
                .where(ClubMemberRow.club_id == club_id, AccountPlayerRow.player_key == player)
            )
            return None if role is None else str(role)

    # ----------------------------------------------------------------- invites

    async def new_invite(self, club_id: int) -> str:
        """A fresh invite code (the link is ``/club/join/<code>``)."""
        code = secrets.token_urlsafe(12)
        async with self._sessions() as session:
            session.add(ClubInviteRow(code=code, club_id=club_id))
            await session.commit()
        return code

    async def invites(self, club_id: int) -> list[str]:
        """The club's live invite codes, newest first."""
        async with self._sessions() as session:
            rows = await session.execute(
                select(ClubInviteRow.code)
                .where(ClubInviteRow.club_id == club_id, ClubInviteRow.revoked_at.is_(None))
                .order_by(ClubInviteRow.created_at.desc())
            )
            return list(rows.scalars())

    async def revoke_invite(self, club_id: int, code: str) -> None:
        """Withdraw an invite link: it lets nobody in any more."""
        async with self._sessions() as session:
            await session.execute(
                update(ClubInviteRow)
                .where(ClubInviteRow.club_id == club_id, ClubInviteRow.code == code)
                .values(revoked_at=utc_now())
            )
            await session.commit()

    async def invite(self, code: str) -> tuple[Club, bool] | None:
        """The club an invite code leads to, and whether it is still live (``None``: no such code)."""
        if len(code) > 32:
            return None
        async with self._sessions() as session:
            row = await session.get(ClubInviteRow, code)
            if row is None:
                return None
            club = await session.get(ClubRow, row.club_id)
            if club is None:
                return None
            return Club(club.id, club.name, club.created_at, club.allow_undo), row.revoked_at is None
