"""Accounts: a name and a password, server-side sessions, CSRF protection; playing without one keeps working.

Shared by every feature (the club reads who is signed in, the game page draws the chosen cards), so it sits in
:mod:`ohhell.web`. Its parts:

- :mod:`~ohhell.web.accounts.models`: accounts, the player keys linked to them, sessions, failed sign-ins;
- :mod:`~ohhell.web.accounts.passwords`: Argon2id hashes (``argon2-cffi``), never a password in clear;
- :mod:`~ohhell.web.accounts.store`: the reads and writes, on the site's database;
- :mod:`~ohhell.web.accounts.sessions`: the middleware that makes a signed-in request act as its account's player;
- :mod:`~ohhell.web.accounts.csrf`: the double-submit token of every form and the origin check of every
  state-changing request;
- :mod:`~ohhell.web.accounts.routes`: the Sign up, Sign in, Sign out and Account pages.

An account is linked to player keys (:mod:`ohhell.web.identity`): the guest key of the browser that signed up
becomes the account's own, so the guest's games and statistics are the account's; a signed-in request acts as
that key in every browser.
"""

from pathlib import Path
from typing import Final

TEMPLATES: Final = Path(__file__).parent / "templates"
