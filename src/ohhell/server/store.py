"""The games and their action logs in the database: reads through SQLAlchemy's async engine, writes through the
:class:`~ohhell.server.journal.Journal` (many tables' actions in one transaction).

Every action is written as it happens, together with the game row's summary columns; :meth:`Store.load`
returns the log that rebuilds the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker

from ohhell.server.journal import (
    AppendAction,
    ChangeGame,
    CreateGame,
    Journal,
    NewGame,
    Progress,
    StoredAction,
    progress_values,
)
from ohhell.server.models import ActionRow, GameRow
from ohhell.web.database import create_server_engine

MAX_ID: Final = 2**31 - 1
"""The largest id a game can have (the databases' 32-bit integer); larger ids name no game."""


@dataclass(frozen=True)
class StoredGame:
    """A game row and, when loaded with :meth:`Store.load`, its whole log in order."""

    id: int
    created_at: datetime
    updated_at: datetime
    deal_number: int
    rules: dict[str, Any]
    first_dealer: int
    seats: list[dict[str, Any]]
    owner: str
    shown_deal: int
    action_count: int
    finished: bool
    totals: list[int] | None
    winners: list[int] | None
    replay_of: int | None
    resigned: int | None = None
    actions: tuple[StoredAction, ...] = ()


def _stored(row: GameRow, actions: tuple[StoredAction, ...] = ()) -> StoredGame:
    return StoredGame(
        id=row.id,
        created_at=row.created_at,
        updated_at=row.updated_at,
        deal_number=row.deal_number,
        rules=row.rules,
        first_dealer=row.first_dealer,
        seats=row.seats,
        owner=row.owner,
        shown_deal=row.shown_deal,
        action_count=row.action_count,
        finished=row.finished,
        totals=row.totals,
        winners=row.winners,
        replay_of=row.replay_of,
        resigned=row.resigned,
        actions=actions,
    )


class GameNotFoundError(LookupError):
    """No game has that id."""


class Store:
    """Games and actions in one database. Create with a URL; :meth:`close` when done."""

    def __init__(self, url: str, **engine_options: Any) -> None:
        self.engine: AsyncEngine = create_server_engine(url, **engine_options)
        self._sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        self.journal = Journal(url, engine_options.get("connect_args"))

    async def reconnect(self) -> None:
        """Drop every connection, so that the next ones open the database afresh (it was replaced or repaired)."""
        await self.engine.dispose()
        await self.journal.reconnect()

    async def close(self) -> None:
        """Finish the writes under way and release the connections."""
        await self.journal.close()
        await self.engine.dispose()

    # ----------------------------------------------------------------- writes (through the journal)

    async def create_game(self, new: NewGame) -> StoredGame:
        """Store a new game with an empty log."""
        game_id = await self.journal.submit(CreateGame(new))
        assert game_id is not None
        return await self.load(game_id)

    async def append_action(self, game_id: int, action: StoredAction, progress: Progress) -> None:
        """Write one action at the end of the log (its ``seq`` must be the next one) and the game's progress.

        A second writer of the same ``seq`` fails on the primary key, and nothing is written.
        """
        await self.journal.submit(AppendAction(game_id, action, progress))

    async def resign(self, game_id: int, seat: int, progress: Progress) -> None:
        """Record that ``seat`` gave up, which ends the game, with the final standings."""
        await self.journal.submit(ChangeGame(game_id, (("resigned", seat), *progress_values(progress))))

    async def set_shown_deal(self, game_id: int, deal_index: int) -> None:
        """Record that the table moved on to deal ``deal_index`` (Next hand)."""
        await self.journal.submit(ChangeGame(game_id, (("shown_deal", deal_index),)))

    # ----------------------------------------------------------------- reads

    async def game(self, game_id: int) -> StoredGame:
        """The game row alone (:class:`GameNotFoundError` if there is none)."""
        if not 1 <= game_id <= MAX_ID:
            raise GameNotFoundError(f"there is no game {game_id}")
        async with self._sessions() as session:
            row = await session.get(GameRow, game_id)
            if row is None:
                raise GameNotFoundError(f"there is no game {game_id}")
            return _stored(row)

    async def load(self, game_id: int) -> StoredGame:
        """The game and its whole log, in order."""
        if not 1 <= game_id <= MAX_ID:
            raise GameNotFoundError(f"there is no game {game_id}")
        async with self._sessions() as session:
            row = await session.get(GameRow, game_id)
            if row is None:
                raise GameNotFoundError(f"there is no game {game_id}")
            result = await session.execute(
                select(ActionRow.seq, ActionRow.deal_index, ActionRow.seat, ActionRow.action, ActionRow.reason)
                .where(ActionRow.game_id == game_id)
                .order_by(ActionRow.seq)
            )
            actions = tuple(StoredAction(*fields) for fields in result)
            return _stored(row, actions)

    async def games_of(self, owner: str, limit: int = 200) -> list[StoredGame]:
        """The games ``owner`` started, most recently played first (without their logs)."""
        async with self._sessions() as session:
            result = await session.execute(
                select(GameRow).where(GameRow.owner == owner).order_by(GameRow.updated_at.desc()).limit(limit)
            )
            return [_stored(row) for row in result.scalars()]


__all__ = ["MAX_ID", "GameNotFoundError", "NewGame", "Progress", "Store", "StoredAction", "StoredGame"]
