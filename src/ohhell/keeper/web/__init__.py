"""The score keeper in the web app: sheets stored with the games, a page of their own, downloads.

:func:`ohhell.keeper.web.routes.keeper_router` is included in the server's application; the sheet itself is the
same :class:`~ohhell.keeper.sheet.ScoreSheet` the terminal keeps, rebuilt from its stored events on each request.
"""
