"""Accounts, sessions, retired guest keys and sign-in tries in the site's database.

A session cookie holds a random token; the database holds its SHA-256 only, so a copy of the database signs
nobody in. Deleting a session's row signs that browser out at its next request; "Sign out everywhere", a new
password and deleting the account delete all of an account's rows (and the site closes their open sockets,
:mod:`~ohhell.web.accounts.sockets`). The guest key a browser signs up with becomes the account's and is retired
at once: no player cookie acts as it again, only the account's sessions do. Tries to sign in are counted per name
and per address over :data:`FAILURE_WINDOW`, each written *before* its password is checked, so that tries sent at
once count each other; past the limits, sign-in is refused before the password is even checked.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker
from sqlalchemy.orm import Session
from sqlalchemy.sql.elements import ColumnElement

from ohhell.web.accounts.models import (
    AccountPlayerRow,
    AccountRow,
    RetiredPlayerKeyRow,
    SessionRow,
    SignInFailureRow,
)
from ohhell.web.accounts.passwords import hash_password, needs_rehash, password_problem, verify_password
from ohhell.web.database import LoopReads, create_server_engine
from ohhell.web.models import utc_now

NAME_PATTERN: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9 _.\-]{0,22}[A-Za-z0-9_.\-]?")
FAILURE_WINDOW: Final = timedelta(minutes=15)
FAILURES_PER_NAME: Final = 5
FAILURES_PER_ADDRESS: Final = 20
"""Five wrong passwords for one name, or twenty from one address, within 15 minutes: sign-in waits."""
DELETED_PLAYER: Final = "deleted player"
"""How a deleted account's past series are shown."""
_BATCH: Final = 500
"""Keys asked about in one query (SQLite takes a bounded number of parameters)."""
# A hash to check a password against when the name is unknown, so that the answer takes as long either way.
_DUMMY_HASH: Final = hash_password("not a password of anyone")


def session_key(token: str) -> str:
    """The stored form of a session token."""
    return hashlib.sha256(token.encode()).hexdigest()


def name_key(name: str) -> str:
    """The form of a name that must be unique (lower case)."""
    return name.strip().lower()


def name_problem(name: str) -> str | None:
    """What is wrong with an account name, or ``None``."""
    if not name.strip():
        return "The name is missing."
    if len(name.strip()) > 24:
        return "The name may have at most 24 characters."
    if not NAME_PATTERN.fullmatch(name.strip()):
        return "The name may hold letters, digits, spaces and . _ - (starting with a letter or digit)."
    if name_key(name) == DELETED_PLAYER:
        return "That name is kept for deleted accounts."
    return None


@dataclass(frozen=True)
class Account:
    """An account as the pages and features see it (never its password hash)."""

    id: int
    name: str
    player_key: str
    public_profile: bool
    card_back: str
    card_faces: str
    created_at: datetime


def _account(row: AccountRow) -> Account:
    return Account(row.id, row.name, row.player_key, row.public_profile, row.card_back, row.card_faces, row.created_at)


class AccountError(ValueError):
    """A refused account action, with the sentence to show and the form field it concerns."""

    def __init__(self, message: str, field: str = "name") -> None:
        super().__init__(message)
        self.field = field


class AccountStore:
    """The accounts over one database URL; :meth:`close` when done."""

    def __init__(self, url: str, **engine_options: Any) -> None:
        self.engine: AsyncEngine = create_server_engine(url, **engine_options)
        self._sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        self._reads = LoopReads(url, self._sessions)

    async def close(self) -> None:
        """Release the connections."""
        await self.engine.dispose()
        self._reads.close()

    async def reconnect(self) -> None:
        """Drop every connection (the database was replaced or repaired)."""
        await self.engine.dispose()
        self._reads.close()

    # ----------------------------------------------------------------- accounts

    async def sign_up(self, name: str, password: str, player_key: str) -> Account:
        """A new account playing as ``player_key`` (the browser's guest key, whose games become the account's).

        The key is retired in the same transaction: from then on only the account's sessions act as it, and the
        browser is given a fresh guest token (:mod:`~ohhell.web.accounts.routes`).
        """
        problem = name_problem(name)
        if problem:
            raise AccountError(problem, "name")
        problem = password_problem(password)
        if problem:
            raise AccountError(problem, "password")
        hashed = await asyncio.to_thread(hash_password, password)
        async with self._sessions() as session:
            if (
                await session.get(AccountPlayerRow, player_key) is not None
                or await session.get(RetiredPlayerKeyRow, player_key) is not None
            ):
                raise AccountError("This browser already belongs to an account: sign in instead.", "name")
            row = AccountRow(name=name.strip(), name_key=name_key(name), password_hash=hashed, player_key=player_key)
            session.add(row)
            try:
                await session.flush()
                session.add(AccountPlayerRow(player_key=player_key, account_id=row.id))
                if await session.get(RetiredPlayerKeyRow, player_key) is None:
                    session.add(RetiredPlayerKeyRow(player_key=player_key))
                await session.commit()
            except IntegrityError:
                raise AccountError("That name is taken: choose another.", "name") from None
            return _account(row)

    async def account(self, account_id: int) -> Account | None:
        """The account with that id, if it still exists."""
        async with self._sessions() as session:
            row = await session.get(AccountRow, account_id)
            return None if row is None else _account(row)

    async def by_name(self, name: str) -> Account | None:
        """The account of that name (any case)."""
        async with self._sessions() as session:
            row = (await session.execute(select(AccountRow).where(AccountRow.name_key == name_key(name)))).scalar()
            return None if row is None else _account(row)

    async def accounts_of_keys(self, keys: Iterable[str]) -> dict[str, Account]:
        """The account each of these player keys belongs to (keys of no account are left out)."""
        wanted = sorted(set(keys))
        if not wanted:
            return {}
        async with self._sessions() as session:
            rows = await session.execute(
                select(AccountPlayerRow.player_key, AccountRow)
                .join(AccountRow, AccountRow.id == AccountPlayerRow.account_id)
                .where(AccountPlayerRow.player_key.in_(wanted))
            )
            return {key: _account(row) for key, row in rows.tuples()}

    async def keys_of(self, account_id: int) -> list[str]:
        """Every player key linked to the account (its own first)."""
        async with self._sessions() as session:
            account = await session.get(AccountRow, account_id)
            if account is None:
                return []
            rows = await session.execute(
                select(AccountPlayerRow.player_key).where(AccountPlayerRow.account_id == account_id)
            )
            others = sorted(key for key in rows.scalars() if key != account.player_key)
            return [account.player_key, *others]

    async def link_player(self, account_id: int, player_key: str) -> None:
        """Count a guest key's games and results as the account's (a key already linked stays where it is)."""
        async with self._sessions() as session:
            if await session.get(AccountPlayerRow, player_key) is None:
                session.add(AccountPlayerRow(player_key=player_key, account_id=account_id))
                try:
                    await session.commit()
                except IntegrityError:
                    await session.rollback()

    async def rename(self, account_id: int, name: str) -> Account:
        """Give the account a new name (not one another account has)."""
        problem = name_problem(name)
        if problem:
            raise AccountError(problem, "name")
        async with self._sessions() as session:
            row = await session.get(AccountRow, account_id)
            if row is None:
                raise AccountError("There is no such account.")
            row.name, row.name_key = name.strip(), name_key(name)
            try:
                await session.commit()
            except IntegrityError:
                raise AccountError("That name is taken: choose another.", "name") from None
            return _account(row)

    async def change_password(self, account_id: int, current: str, new: str) -> tuple[str, list[str]]:
        """Set a new password, given the current one: every session ends, the one browser that changed it gets a
        new one. The new session's token, and the keys of the sessions ended (to close their sockets)."""
        problem = password_problem(new)
        if problem:
            raise AccountError(problem, "new_password")
        async with self._sessions() as session:
            row = await session.get(AccountRow, account_id)
            if row is None or not await asyncio.to_thread(verify_password, row.password_hash, current):
                raise AccountError("The current password is not right.", "password")
            row.password_hash = await asyncio.to_thread(hash_password, new)
            ended = await _delete_sessions(session, SessionRow.account_id == account_id)
            token = secrets.token_urlsafe(32)
            session.add(SessionRow(key=session_key(token), account_id=account_id))
            await session.commit()
            return token, ended

    async def delete(self, account_id: int, password: str) -> list[str]:
        """Delete the account, its sessions and its links (its games and series stay, as a deleted player's; its
        keys stay retired, so nobody plays them again); the keys of the sessions ended."""
        async with self._sessions() as session:
            row = await session.get(AccountRow, account_id)
            if row is None or not await asyncio.to_thread(verify_password, row.password_hash, password):
                raise AccountError("The password is not right.", "password")
            ended = await _delete_sessions(session, SessionRow.account_id == account_id)
            await session.execute(delete(AccountPlayerRow).where(AccountPlayerRow.account_id == account_id))
            await session.delete(row)
            await session.commit()
            return ended

    async def set_choices(
        self,
        account_id: int,
        *,
        card_back: str | None = None,
        card_faces: str | None = None,
        public: bool | None = None,
    ) -> None:
        """Store the card back and faces chosen in the Collection, or the profile's visibility."""
        values: dict[str, Any] = {}
        if card_back is not None:
            values["card_back"] = card_back
        if card_faces is not None:
            values["card_faces"] = card_faces
        if public is not None:
            values["public_profile"] = public
        if values:
            async with self._sessions() as session:
                await session.execute(update(AccountRow).where(AccountRow.id == account_id).values(**values))
                await session.commit()

    # ----------------------------------------------------------------- signing in

    async def sign_in(self, name: str, password: str, address: str) -> Account:
        """The account, if the name and password match and the limits allow a try (:class:`AccountError` if not).

        The try is written and committed first, then the tries of its name and of its address are counted, itself
        included: of tries sent at once, each one counted sees every one written before it, so at most
        :data:`FAILURES_PER_NAME` of them reach the password check (and a refused try is taken back). A wrong
        password leaves its try as a failure; the right one clears the name's.
        """
        key = name_key(name)[:24]
        address = address[:64]
        since = utc_now() - FAILURE_WINDOW
        async with self._sessions() as session:
            attempt = SignInFailureRow(name_key=key, address=address)
            session.add(attempt)
            await session.commit()
            counts = await session.execute(
                select(
                    func.count().filter(SignInFailureRow.name_key == key),
                    func.count().filter(SignInFailureRow.address == address),
                ).where(
                    SignInFailureRow.at >= since,
                    (SignInFailureRow.name_key == key) | (SignInFailureRow.address == address),
                )
            )
            by_name, by_address = counts.one()
            if by_name > FAILURES_PER_NAME or by_address > FAILURES_PER_ADDRESS:
                await session.execute(delete(SignInFailureRow).where(SignInFailureRow.id == attempt.id))
                await session.commit()
                minutes = int(FAILURE_WINDOW.total_seconds() // 60)
                raise AccountError(
                    f"Too many failed attempts to sign in: wait {minutes} minutes and try again.", "password"
                )
            row = (await session.execute(select(AccountRow).where(AccountRow.name_key == key))).scalar()
            stored = row.password_hash if row is not None else _DUMMY_HASH
            matches = await asyncio.to_thread(verify_password, stored, password)
            if row is None or not matches:
                await session.execute(delete(SignInFailureRow).where(SignInFailureRow.at < since))
                await session.commit()
                raise AccountError("That name and password do not match an account.", "password")
            if needs_rehash(row.password_hash):
                row.password_hash = await asyncio.to_thread(hash_password, password)
            await session.execute(delete(SignInFailureRow).where(SignInFailureRow.name_key == key))
            await session.commit()
            return _account(row)

    async def new_session(self, account_id: int) -> str:
        """A session for the account: the token for its cookie."""
        token = secrets.token_urlsafe(32)
        async with self._sessions() as session:
            session.add(SessionRow(key=session_key(token), account_id=account_id))
            await session.commit()
        return token

    async def signed_in(self, token: str | None, guest_key: str | None) -> tuple[Account | None, bool]:
        """Who a request is: the account its session token signs in (if the session still exists), and whether its
        guest key is retired (it became an account's: the cookie then acts as nobody). Every request asks this: it
        is a read of :class:`~ohhell.web.database.LoopReads`."""

        def read(session: Session) -> tuple[Account | None, bool]:
            account = None
            if token is not None:
                row = session.execute(
                    select(AccountRow)
                    .join(SessionRow, SessionRow.account_id == AccountRow.id)
                    .where(SessionRow.key == session_key(token))
                ).scalar()
                account = None if row is None else _account(row)
            retired = guest_key is not None and session.get(RetiredPlayerKeyRow, guest_key) is not None
            return account, retired

        return await self._reads(read)

    async def end_session(self, token: str) -> list[str]:
        """Sign one browser out; the key of the session ended (none if it had ended already)."""
        async with self._sessions() as session:
            ended = await _delete_sessions(session, SessionRow.key == session_key(token))
            await session.commit()
            return ended

    async def end_all_sessions(self, account_id: int) -> list[str]:
        """Sign the account out everywhere; the keys of the sessions ended."""
        async with self._sessions() as session:
            ended = await _delete_sessions(session, SessionRow.account_id == account_id)
            await session.commit()
            return ended

    async def ended(self, sessions: list[str], guests: list[str]) -> tuple[list[str], list[str]]:
        """Of these session keys and guest keys, the sessions that no longer exist and the keys that are retired."""
        found: set[str] = set()
        retired: set[str] = set()
        async with self._sessions() as session:
            for start in range(0, max(len(sessions), len(guests)), _BATCH):
                some_sessions, some_guests = sessions[start : start + _BATCH], guests[start : start + _BATCH]
                if some_sessions:
                    rows = await session.execute(select(SessionRow.key).where(SessionRow.key.in_(some_sessions)))
                    found.update(rows.scalars())
                if some_guests:
                    keys = select(RetiredPlayerKeyRow.player_key).where(RetiredPlayerKeyRow.player_key.in_(some_guests))
                    retired.update((await session.execute(keys)).scalars())
        return [key for key in sessions if key not in found], [key for key in guests if key in retired]

    async def session_count(self, account_id: int) -> int:
        """How many browsers are signed in to the account."""
        async with self._sessions() as session:
            count = await session.scalar(select(func.count()).where(SessionRow.account_id == account_id))
            return int(count or 0)


async def _delete_sessions(session: AsyncSession, which: ColumnElement[bool]) -> list[str]:
    """Delete the sessions ``which`` selects; their keys."""
    found = await session.execute(delete(SessionRow).where(which).returning(SessionRow.key))
    return list(found.scalars())
