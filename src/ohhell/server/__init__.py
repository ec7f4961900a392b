"""The game tables: Oh Hell! in the browser against computer players, saved as you go.

A feature of the site (:mod:`ohhell.site` includes its router); it imports the engine, the bots and the shared
web pieces (:mod:`ohhell.web`), never another feature. Its parts, inward to outward, each a package:

- :mod:`ohhell.server.storage`: the games and their action logs in the database, written through one journal;
- :mod:`ohhell.server.table`: the table and its protocol: one live game, what each seat is told and may send, its
  seats and computer players, Undo;
- :mod:`ohhell.server.party`: tables of several people: the waiting room, absence, spectators, chat, Play again;
- :mod:`ohhell.server.processes`: several server processes on one database: leases, relayed sockets (Redis);
- :mod:`ohhell.server.pages`: the pages, the HTTP API and the WebSocket (see docs/web.md).

``templates/`` and ``static/`` hold the pages' HTML and scripts.
"""

from pathlib import Path
from typing import Final

STATIC: Final = Path(__file__).parent / "static"
"""The game's scripts, served at ``/static/game``."""
