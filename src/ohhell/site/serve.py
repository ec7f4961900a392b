"""Run the site with uvicorn: what ``ohhell serve`` does."""

from __future__ import annotations

from typing import Final

import uvicorn
from sqlalchemy.engine import make_url

from ohhell.site.app import create_app
from ohhell.web.config import ServerConfig

MAX_MESSAGE_BYTES: Final = 16 * 1024
"""The largest WebSocket message uvicorn accepts (a larger one closes the connection with 1009); the game's
messages are under 2 KB, and :mod:`ohhell.server.messages` refuses anything over that."""
SHUTDOWN_SECONDS: Final = 3
"""On Ctrl+C, how long requests still running may take to finish (a keeper page's held ``/next`` ends within a
second of it, seeing ``app.state.stopping``)."""


def serve(host: str, port: int, config: ServerConfig) -> None:
    """Serve the site at ``http://host:port/`` until interrupted."""
    app = create_app(config)
    shown = make_url(config.database_url).render_as_string(hide_password=True)
    print(f"Oh Hell! is at http://{host}:{port}/ (games are saved in {shown}; Ctrl+C stops it)", flush=True)
    settings = uvicorn.Config(
        app,
        host=host,
        port=port,
        ws_max_size=MAX_MESSAGE_BYTES,
        ws_per_message_deflate=False,  # the messages are small changes: compressing them costs more than it saves
        log_level="warning",
        timeout_graceful_shutdown=SHUTDOWN_SECONDS,
    )
    server = uvicorn.Server(settings)
    app.state.stopping = lambda: server.should_exit  # held requests (the keeper's /next) end when this turns true
    server.run()
