"""Moving your games to another device (a feature): a private, one-time transfer code or link.

Until there are accounts, a browser *is* its player token (:mod:`ohhell.web.identity`). A transfer hands that
token to a second browser: ``POST /api/transfer`` makes a code (80 random bits, shown as ``XXXX-XXXX-XXXX-XXXX``
and as a link ``/transfer/{code}``) that works once, for :data:`~ohhell.transfer.store.LIFETIME`; opening the link
or typing the code on the other device and confirming (``POST /api/transfer/redeem``) gives that browser the same
player cookie, so it sees and plays the same games and score sheets. The database never holds the token nor the
code: a row keeps the code's hash and the token sealed with a key drawn from the code (see
:mod:`ohhell.transfer.store`). See docs/web.md, "Moving your games to another device".
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

STATIC: Final = Path(__file__).parent / "static"
