"""Run the web game with uvicorn: what ``ohhell serve`` does."""

from __future__ import annotations

from typing import Final

import uvicorn
from sqlalchemy.engine import make_url

from ohhell.site.app import create_app
from ohhell.web.config import ServerConfig, default_database_url, default_processes

MAX_MESSAGE_BYTES: Final = 64 * 1024
"""The largest WebSocket frame uvicorn accepts; the game's messages are far smaller."""
SHUTDOWN_SECONDS: Final = 3
"""On Ctrl+C, how long requests still running may take to finish (a keeper page's held ``/next`` ends within a
second of it, seeing ``app.state.stopping``)."""


def serve(
    host: str,
    port: int,
    database_url: str | None = None,
    animation_scale: float = 1.0,
    computer_processes: int | None = None,
) -> None:
    """Serve the game at ``http://host:port/`` until interrupted; games go to ``database_url`` (default: SQLite)."""
    url = database_url or default_database_url()
    processes = default_processes() if computer_processes is None else computer_processes
    app = create_app(ServerConfig(url, animation_scale, processes))
    shown = make_url(url).render_as_string(hide_password=True)
    print(f"Oh Hell! is at http://{host}:{port}/ (games are saved in {shown}; Ctrl+C stops it)", flush=True)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        ws_max_size=MAX_MESSAGE_BYTES,
        log_level="warning",
        timeout_graceful_shutdown=SHUTDOWN_SECONDS,
    )
    server = uvicorn.Server(config)
    app.state.stopping = lambda: server.should_exit  # held requests (the keeper's /next) end when this turns true
    server.run()
