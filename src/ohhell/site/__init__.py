"""The site: the one place that composes the web application from its features, and serves it.

:func:`~ohhell.site.app.create_app` mounts the shared static files, includes the game
(:mod:`ohhell.server`) and the score keeper (:mod:`ohhell.keeper.web`), and brings the database schema up to
date (:mod:`~ohhell.site.schema`, whose migrations cover every feature's tables). ``ohhell serve`` runs it
(:mod:`~ohhell.site.serve`). Nothing below imports this package.
"""
