"""The game tables: Oh Hell! in the browser against computer players, saved as you go.

A feature of the site (:mod:`ohhell.site` includes its router); it imports the engine, the bots and the shared
web pieces (:mod:`ohhell.web`), never another feature. Its parts, inward to outward:

- :mod:`~ohhell.server.models`, :mod:`~ohhell.server.store`: the action log in the database;
- :mod:`~ohhell.server.players`: the one door to the computer players (moves, Hint and Why?);
- :mod:`~ohhell.server.wording` and :mod:`~ohhell.server.snapshot`: what a seat is told, built from its view;
- :mod:`~ohhell.server.table`: one live game, its seats (a human connection or a computer player) and its log;
- :mod:`~ohhell.server.routes`: the pages, the HTTP API and the WebSocket (see docs/web.md).
"""

from pathlib import Path
from typing import Final

STATIC: Final = Path(__file__).parent / "static"
"""The game's scripts, served at ``/static/game``."""
