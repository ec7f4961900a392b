"""The web application: the shared static files, the game and the score keeper, over one database.

The database may be unusable when the server starts (a damaged or unreadable SQLite file, PostgreSQL not up
yet): the server starts anyway, every request that needs the database answers 503 (:mod:`ohhell.web.failures`),
``/healthz`` says what is wrong, and the schema is tried again every few seconds until it works.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, Final

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles

from ohhell import club, duplicate, server, transfer, web
from ohhell.club.routes import club_router
from ohhell.club.store import ClubStore
from ohhell.duplicate.routes import duplicate_router
from ohhell.duplicate.store import DuplicateStore
from ohhell.keeper.web.routes import keeper_router
from ohhell.server.pages.routes import game_router
from ohhell.site import schema
from ohhell.site.callbacktimes import CallbackTimes
from ohhell.site.collector import OldGeneration
from ohhell.site.loopwatch import LoopWatch
from ohhell.transfer.routes import transfer_router
from ohhell.web import failures
from ohhell.web.accounts.csrf import OriginCheck
from ohhell.web.accounts.routes import account_router
from ohhell.web.accounts.sessions import AccountSessions
from ohhell.web.accounts.sockets import OpenSockets
from ohhell.web.accounts.store import AccountStore
from ohhell.web.config import ServerConfig
from ohhell.web.database import database_back
from ohhell.web.events import EventGames
from ohhell.web.guards import BodyGuard
from ohhell.web.headers import SecurityHeaders
from ohhell.web.identity import PlayerCookie
from ohhell.web.openings import Openings
from ohhell.web.pages import feature_templates

log = logging.getLogger(__name__)

SCHEMA_RETRY_SECONDS: Final = 5.0
LOOPBACK: Final = frozenset({"127.0.0.1", "::1"})


def create_app(config: ServerConfig, *, own_process: bool = False) -> FastAPI:
    """The application for one database; the schema is brought up to date at startup.

    ``own_process``: the application is the whole process (``ohhell serve``), so the garbage collector's old
    generation is its to manage: what it holds once started is frozen, and the old generation is walked only when
    memory has grown (:class:`~ohhell.site.collector.OldGeneration`).
    """
    if config.redis_url:
        # redis-py's first import takes 0.2-0.4 s: here, before the loop runs, not on the loop in the hub's start
        import redis.asyncio  # noqa: F401
    problem: dict[str, str | None] = {"database": None}
    accounts = AccountStore(config.database_url)
    clubs = ClubStore(config.database_url, sync_each_commit=config.sync_each_commit)
    watch = LoopWatch()
    callbacks = CallbackTimes() if config.time_callbacks else None
    old_generation = OldGeneration()
    # the duplicate events are the results hook, in front of the club's: entries wait for the close
    duplicates = DuplicateStore(config.database_url, results=clubs, sync_each_commit=config.sync_each_commit)
    sockets = OpenSockets()  # the seats' sockets by session: ending a session closes them on every process

    def deal_entries_with(games: EventGames) -> None:
        duplicates.games = games

    async def bring_schema_up_to_date(app: FastAPI) -> bool:
        try:
            await asyncio.to_thread(schema.upgrade, config.database_url)
        except Exception as exc:
            if problem["database"] is None:
                log.error("the database cannot be used: %s (trying again every %g s)", exc, SCHEMA_RETRY_SECONDS)
            problem["database"] = f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}"
            return False
        if problem["database"] is not None:
            log.warning("the database can be used again")
            for reconnect in database_back(app):
                await reconnect()
        problem["database"] = None
        return True

    async def keep_trying(app: FastAPI) -> None:
        while not await bring_schema_up_to_date(app):
            await asyncio.sleep(SCHEMA_RETRY_SECONDS)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        retrying = None if await bring_schema_up_to_date(app) else asyncio.create_task(keep_trying(app))
        checking = asyncio.create_task(sockets.keep_checking(accounts.ended))  # for an announcement missed
        if own_process:
            old_generation.start()
        database_back(app).extend((accounts.reconnect, clubs.reconnect, duplicates.reconnect))
        watch.start()
        if callbacks is not None:
            callbacks.install()
        try:
            yield
        finally:
            watch.stop()
            if callbacks is not None:
                callbacks.uninstall()
            old_generation.stop()
            checking.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await checking
            await accounts.close()
            await clubs.close()
            await duplicates.close()
            if retrying is not None:
                retrying.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await retrying

    app = FastAPI(title="Oh Hell!", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.add_middleware(AccountSessions, store=accounts)  # inside PlayerCookie: a session replaces the guest's key
    app.add_middleware(PlayerCookie)
    app.add_middleware(OriginCheck, allowed_origins=config.allowed_origins)  # CSRF: see ohhell.web.accounts.csrf
    app.add_middleware(BodyGuard)  # no body reaches anything before it is bounded and checked
    app.add_middleware(SecurityHeaders)  # every response, refusals too (ohhell.web.headers)
    app.add_middleware(Openings)  # outermost: a crowd of new games waits before any other work (ohhell.web.openings)
    failures.install(app, feature_templates(web.TEMPLATES))
    app.mount("/static/game", StaticFiles(directory=server.STATIC), name="game-static")
    app.mount("/static/club", StaticFiles(directory=club.STATIC), name="club-static")
    app.mount("/static/duplicate", StaticFiles(directory=duplicate.STATIC), name="duplicate-static")
    app.mount("/static/transfer", StaticFiles(directory=transfer.STATIC), name="transfer-static")
    app.mount("/static", StaticFiles(directory=web.STATIC), name="static")

    @app.get("/healthz", response_model=None)
    async def health(request: Request) -> dict[str, Any] | JSONResponse:
        if problem["database"] is not None:
            return JSONResponse({"ok": False, "database": problem["database"]}, status_code=503)
        live_tables = getattr(request.app.state, "live_tables", None)
        return {"ok": True, "process": os.getpid(), "tables": live_tables() if live_tables else 0}

    @app.get("/api/server-stats")
    async def server_stats(request: Request) -> dict[str, Any]:
        """The event loop's lag, the collector's pauses and the tables' counts (:mod:`ohhell.site.loopwatch`), for
        a reader on this machine only (a benchmark, a monitor): from elsewhere there is no such page."""
        if request.client is None or request.client.host not in LOOPBACK:
            raise HTTPException(404, "Not Found")
        table_counts = getattr(request.app.state, "table_counts", None)
        return {
            "process": os.getpid(),
            "loop": watch.stats(),
            "callbacks": None if callbacks is None else callbacks.stats(),
            "old_generation": old_generation.stats(),
            "tables": table_counts() if table_counts else {},
        }

    # the game: /, /games, /api/games, /ws/games (ohhell.server)
    app.include_router(
        game_router(config, duplicates, clubs, duplicates, on_entry_games=deal_entries_with, sockets=sockets)
    )
    app.include_router(account_router(accounts, sockets))  # /signup, /signin, /signout, /account (ohhell.web.accounts)
    app.include_router(club_router(clubs, accounts, duplicates))  # /club: statistics, clubs, events (ohhell.club)
    app.include_router(duplicate_router(duplicates, clubs))  # /duplicate: the daily deal, events (ohhell.duplicate)
    app.include_router(keeper_router(config))  # the score keeper: /keeper, /api/keeper (ohhell.keeper.web)
    app.include_router(transfer_router(config))  # moving your games: /transfer, /api/transfer (ohhell.transfer)
    return app
