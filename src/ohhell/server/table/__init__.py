"""The table and its protocol: one live game (:mod:`~ohhell.server.table.live`), what each seat is told
(:mod:`~ohhell.server.table.snapshot`, :mod:`~ohhell.server.table.live.wording`), the messages a browser may send
(:mod:`~ohhell.server.table.live.messages`), its seats and computer players (:mod:`~ohhell.server.table.live.seats`,
:mod:`~ohhell.server.table.live.players`, :mod:`~ohhell.server.table.live.thinkers`), Undo, each socket's outbox and the
series result.
"""
