"""The pages: the router with the HTTP API and the WebSocket (:mod:`~ohhell.server.pages.routes`), New game
(:mod:`~ohhell.server.pages.newgame`), How to play (:mod:`~ohhell.server.pages.howto`) and what leaves a table
as a whole (:mod:`~ohhell.server.pages.exports`).
"""
