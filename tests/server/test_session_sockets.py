"""The open sockets' check against the database (:meth:`OpenSockets.check`): what a process does for an announcement
it missed, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from ohhell.site import schema
from ohhell.web.accounts.sockets import SIGNED_OUT_CODE, OpenSockets
from ohhell.web.accounts.store import AccountStore
from server.serving import fresh_postgres, require_services, run_async


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        found = f"sqlite:///{tmp_path / 'games.sqlite3'}"
        schema.upgrade(found)
        yield found
        return
    require_services()
    with fresh_postgres() as found:
        schema.upgrade(found)
        yield found


def test_the_check_ends_the_sockets_of_sessions_gone_and_keys_retired_and_no_other(url: str) -> None:
    async def scenario() -> tuple[dict[str, list[tuple[int, str]]], dict[str, bool], int]:
        store = AccountStore(url)
        try:
            account = await store.sign_up("Checked", "a long secret", "guest-key-that-signed-up")
            ended_token, kept_token = await store.new_session(account.id), await store.new_session(account.id)
            sockets = OpenSockets()  # announcing nothing: as a process that missed the announcements
            closes: dict[str, list[tuple[int, str]]] = {}
            scopes = {
                "ended session": {"session_token": ended_token},
                "live session": {"session_token": kept_token},
                "retired guest": {"player": "guest-key-that-signed-up"},
                "other guest": {"player": "a-guest-key-of-nobody"},
            }
            held = {}
            for what, state in scopes.items():

                async def close(code: int, reason: str, what: str = what) -> None:
                    closes.setdefault(what, []).append((code, reason))

                held[what] = sockets.hold({"type": "websocket", "state": state}, close)
            await store.end_session(ended_token)  # deleted, and nobody told this process
            await sockets.check(store.ended)
            for _ in range(10):  # the closes run as tasks of their own
                await asyncio.sleep(0)
            return closes, {what: h.ended for what, h in held.items()}, len(sockets)
        finally:
            await store.close()

    closes, ended, still_open = run_async(scenario)
    assert ended == {"ended session": True, "live session": False, "retired guest": True, "other guest": False}
    assert closes == {
        "ended session": [(SIGNED_OUT_CODE, "signed out")],
        "retired guest": [(SIGNED_OUT_CODE, "signed out")],
    }
    assert still_open == 2
