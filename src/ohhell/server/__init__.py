"""The web game: Oh Hell! in the browser against computer players, saved as you go.

The server imports the engine, never the reverse. Its parts, inward to outward:

- :mod:`~ohhell.server.models`, :mod:`~ohhell.server.database`, :mod:`~ohhell.server.store`: the action log in a
  real database (SQLAlchemy, Alembic migrations in ``migrations/``);
- :mod:`~ohhell.server.players`: the one door to the computer players (moves, Hint and Why?);
- :mod:`~ohhell.server.wording` and :mod:`~ohhell.server.snapshot`: what a seat is told, built from its view;
- :mod:`~ohhell.server.table`: one live game, its seats (a human connection or a computer player) and its log;
- :mod:`~ohhell.server.app`: the pages, the HTTP API and the WebSocket (see docs/web.md).

Start it with ``ohhell serve``.
"""
