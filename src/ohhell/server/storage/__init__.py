"""Storage: the games and their action logs in the database (:mod:`~ohhell.server.storage.models`,
:mod:`~ohhell.server.storage.store`), written through one group-committing journal
(:mod:`~ohhell.server.storage.journal`).
"""
