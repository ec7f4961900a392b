"""Tables of several people: the waiting room, absence, chat and Play again (:mod:`~ohhell.server.party.live`),
their rows (:mod:`~ohhell.server.party.live.models`, :mod:`~ohhell.server.party.live.store`), the invite and watch pages
(:mod:`~ohhell.server.party.live.routes`) and what a spectator sees (:mod:`~ohhell.server.party.live.spectator`).
"""
