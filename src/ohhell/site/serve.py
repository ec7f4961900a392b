"""Run the site with uvicorn: what ``ohhell serve`` does.

One process by default. With ``workers`` above 1 (PostgreSQL and Redis required), uvicorn starts that many
processes on the one port, each with its own tables, meeting in Redis (:mod:`ohhell.server.processes.hub`); uvicorn
starts a new process in place of one that dies, and the tables the dead one owned are taken over by the others.
"""

from __future__ import annotations

import dataclasses
import json
import os
from typing import Any, Final

import uvicorn
from fastapi import FastAPI
from sqlalchemy.engine import make_url

from ohhell.site import deadline, websocket
from ohhell.site.app import create_app
from ohhell.web.config import ServerConfig

MAX_MESSAGE_BYTES: Final = 16 * 1024
"""The largest WebSocket message uvicorn accepts (a larger one closes the connection with 1009); the game's
messages are under 2 KB, and :mod:`ohhell.server.table.messages` refuses anything over that."""
SHUTDOWN_SECONDS: Final = 3
"""On Ctrl+C, how long requests still running may take to finish (a keeper page's held ``/next`` ends within a
second of it, seeing ``app.state.stopping``)."""
CONFIG_VARIABLE: Final = "OHHELL_SERVER_CONFIG"
"""How the settings reach the worker processes of ``--workers``."""


def _uvicorn_options(host: str, port: int, config: ServerConfig) -> dict[str, Any]:
    return {
        "host": host,
        "port": port,
        "http": deadline.PROTOCOL,  # a whole request within a few seconds (ohhell.site.deadline)
        "ws": websocket.PROTOCOL,  # a closed socket freed at once (ohhell.site.websocket)
        # X-Forwarded-For and -Proto only from the proxies named (uvicorn's default believes any local peer)
        "proxy_headers": bool(config.trusted_proxies),
        "forwarded_allow_ips": list(config.trusted_proxies),
        "ws_max_size": MAX_MESSAGE_BYTES,
        "ws_per_message_deflate": False,  # the messages are small changes: compressing them costs more than saves
        "log_level": "warning",
        "timeout_graceful_shutdown": SHUTDOWN_SECONDS,
        # uvloop where installed; asyncio's own loop to time each callback (ohhell.site.callbacktimes)
        "loop": "asyncio" if config.time_callbacks else "auto",
    }


def app_from_environment() -> FastAPI:
    """The application of one ``--workers`` process, from the settings the parent put in the environment."""
    fields = json.loads(os.environ[CONFIG_VARIABLE])
    fields["allowed_origins"] = tuple(fields["allowed_origins"])
    fields["trusted_proxies"] = tuple(fields["trusted_proxies"])
    return create_app(ServerConfig(**fields), own_process=True)


def serve(host: str, port: int, config: ServerConfig, workers: int = 1) -> None:
    """Serve the site at ``http://host:port/`` until interrupted, in ``workers`` processes."""
    if workers > 1 and config.redis_url is None:
        raise ValueError("several worker processes meet in Redis: give --redis (and a PostgreSQL --database)")
    shown = make_url(config.database_url).render_as_string(hide_password=True)
    processes = f" in {workers} processes" if workers > 1 else ""
    print(f"Oh Hell! is at http://{host}:{port}/{processes} (games are saved in {shown}; Ctrl+C stops it)", flush=True)
    if workers > 1:
        os.environ[CONFIG_VARIABLE] = json.dumps(dataclasses.asdict(config))
        uvicorn.run(
            "ohhell.site.serve:app_from_environment",
            factory=True,
            workers=workers,
            **_uvicorn_options(host, port, config),
        )
        return
    app = create_app(config, own_process=True)
    server = uvicorn.Server(uvicorn.Config(app, **_uvicorn_options(host, port, config)))
    app.state.stopping = lambda: server.should_exit  # held requests (the keeper's /next) end when this turns true
    server.run()
