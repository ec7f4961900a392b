"""What the web features share, below them: configuration, the database, identity, pages and guards.

The site is layered, and imports point down only:

- :mod:`ohhell.site` (above): composes the application from the features and serves it;
- the features: :mod:`ohhell.server` (the game tables), :mod:`ohhell.keeper.web` (the score keeper),
  :mod:`ohhell.club` (results, statistics, clubs, the Collection);
- :mod:`ohhell.web` (below, this package): :mod:`~ohhell.web.config`, :mod:`~ohhell.web.database`,
  :mod:`~ohhell.web.models` (the declarative base every feature's tables sit on), :mod:`~ohhell.web.identity`
  (the player cookie), :mod:`~ohhell.web.house_rules` (presets and Settings, for New game and the keeper),
  :mod:`~ohhell.web.pages` (templates), :mod:`~ohhell.web.guards` (limits, origins, errors),
  :mod:`~ohhell.web.accounts` (accounts, sessions, CSRF), :mod:`~ohhell.web.results` (the results hook and the
  club tables' questions, between the game and the club), the shared templates (``base.html``) and static files
  (the stylesheet, the card faces).

A feature never imports another feature, nor :mod:`ohhell.site`.
"""

from pathlib import Path
from typing import Final

STATIC: Final = Path(__file__).parent / "static"
"""Static files every page uses, served at ``/static``."""
TEMPLATES: Final = Path(__file__).parent / "templates"
"""``base.html`` and ``error.html``, which every feature's pages extend."""
