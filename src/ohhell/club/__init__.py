"""The club: series results, XP and levels, statistics, clubs and their ratings, and the Collection of cards.

A feature of the site beside the game (:mod:`ohhell.server`), which it never imports (nor does the game import
it): the game tells the site's results hook (:class:`ohhell.web.results.ResultsHook`) when a series ends, and
the site wires :class:`~ohhell.club.store.ClubStore` there. Its parts:

- :mod:`~ohhell.club.models`: series results, clubs, members, invites, club tables;
- :mod:`~ohhell.club.xp`: the XP formula and the levels;
- :mod:`~ohhell.club.stats`: statistics from the stored results, the chart;
- :mod:`~ohhell.club.rating`: OpenSkill Plackett-Luce ratings of a club's series;
- :mod:`~ohhell.club.collection`: the card backs and faces (drawn here, as SVG) and how each is unlocked;
- :mod:`~ohhell.club.store`: the reads and writes;
- :mod:`~ohhell.club.routes`: the pages (``/club``…).

See docs/club.md.
"""

from pathlib import Path
from typing import Final

TEMPLATES: Final = Path(__file__).parent / "templates"
STATIC: Final = Path(__file__).parent / "static"
"""The club's scripts, served at ``/static/club``."""
