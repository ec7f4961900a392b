"""The web application: the shared static files, the game and the score keeper, over one database."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.staticfiles import StaticFiles

from ohhell import server, web
from ohhell.keeper.web.routes import keeper_router
from ohhell.server.routes import game_router
from ohhell.site import schema
from ohhell.web.config import ServerConfig
from ohhell.web.identity import PlayerCookie


def create_app(config: ServerConfig) -> FastAPI:
    """The application for one database; the schema is brought up to date at startup."""

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await asyncio.to_thread(schema.upgrade, config.database_url)
        yield

    app = FastAPI(title="Oh Hell!", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.add_middleware(PlayerCookie)
    app.mount("/static/game", StaticFiles(directory=server.STATIC), name="game-static")
    app.mount("/static", StaticFiles(directory=web.STATIC), name="static")

    @app.get("/healthz")
    async def health(request: Request) -> dict[str, Any]:
        live_tables = getattr(request.app.state, "live_tables", None)
        return {"ok": True, "tables": live_tables() if live_tables else 0}

    app.include_router(game_router(config))  # the game: /, /games, /api/games, /ws/games (ohhell.server)
    app.include_router(keeper_router(config))  # the score keeper: /keeper, /api/keeper (ohhell.keeper.web)
    return app
