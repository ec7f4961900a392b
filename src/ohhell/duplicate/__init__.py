"""Duplicate Oh Hell!: the same cards for many players, each hand scored against the others who held it.

A feature of the site beside the club and the game, importing neither: it asks the game to deal an entry's table
and the game asks it which tables are entries (:mod:`ohhell.web.events`); finished entries reach the club through
the results hook (:mod:`ohhell.web.results`) once their event has closed. Its parts:

- :mod:`~ohhell.duplicate.scoring`: matchpoints, the difference from the mean, the standings, the field's summary;
- :mod:`~ohhell.duplicate.models`: events and entries;
- :mod:`~ohhell.duplicate.store`: the reads and writes, the daily deal, closing and scoring an event;
- :mod:`~ohhell.duplicate.routes`: the pages (``/duplicate``…).

See docs/duplicate.md.
"""

from pathlib import Path
from typing import Final

TEMPLATES: Final = Path(__file__).parent / "templates"
STATIC: Final = Path(__file__).parent / "static"
"""The duplicate events' script, served at ``/static/duplicate``."""
