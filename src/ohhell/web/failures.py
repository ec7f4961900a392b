"""How the site answers what went wrong: refused input names the field, an unusable database is a 503.

- A refusal (403, 404, …) asked for by a browser's page load is a page that says it, not JSON.
- A request that does not validate gets 422 with each problem's field (``loc``) and sentence (``msg``), never
  the input itself (FastAPI's default echoes it, which turned one large body into a 56 MB answer, and a ``NaN``
  in it into a 500). A path that names nothing (``/games/abc``) is a 404.
- A database that is down, locked, damaged or read-only gives 503 with ``Retry-After``: a page for a browser,
  JSON for the API, and never a traceback. The server keeps running and answers again once the database does.
"""

from __future__ import annotations

import logging
import sqlite3
from typing import Any, Final

import psycopg
from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.templating import Jinja2Templates
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from starlette.exceptions import HTTPException as StarletteHTTPException

log = logging.getLogger(__name__)

RETRY_AFTER_SECONDS: Final = 5
DATABASE_DOWN: Final = (
    "The game database cannot be used right now (it is down, locked or damaged): try again in a moment."
)
DATABASE_ERRORS: Final = (
    OperationalError,
    DBAPIError,
    PoolTimeoutError,
    sqlite3.DatabaseError,
    psycopg.Error,
    ConnectionError,
)
"""What a database that cannot be used raises, whichever driver."""


def wants_page(request: Request) -> bool:
    """Whether the request is a browser's page load (answered with HTML) rather than an API call."""
    return not request.url.path.startswith("/api/") and "text/html" in request.headers.get("accept", "")


def validation_problems(error: RequestValidationError) -> list[dict[str, Any]]:
    """Each problem's place and sentence, without the input that caused it."""
    return [
        {"loc": list(e.get("loc", ())), "msg": str(e.get("msg", "")), "type": e.get("type")} for e in error.errors()
    ]


def install(app: FastAPI, templates: Jinja2Templates) -> None:
    """Answer validation errors, database failures and the unexpected as the module says."""

    def answer(request: Request, status: int, title: str, message: str, **headers: str) -> Response:
        if wants_page(request):
            return templates.TemplateResponse(
                request, "error.html", {"title": title, "message": message}, status_code=status, headers=headers
            )
        return JSONResponse({"detail": message}, status_code=status, headers=headers)

    @app.exception_handler(StarletteHTTPException)
    async def refused(request: Request, error: StarletteHTTPException) -> Response:
        if wants_page(request) and error.status_code >= 400:
            titles = {403: "Not your game", 404: "Not found", 410: "Gone"}
            return templates.TemplateResponse(
                request,
                "error.html",
                {"title": titles.get(error.status_code, "Not possible"), "message": str(error.detail)},
                status_code=error.status_code,
                headers=error.headers,
            )
        return await http_exception_handler(request, error)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: RequestValidationError) -> Response:
        problems = validation_problems(error)
        if problems and all(p["loc"][:1] == ["path"] for p in problems):
            return answer(request, 404, "Not found", "There is no such page.")
        if any(p["type"] == "json_invalid" for p in problems):
            return JSONResponse({"detail": "The request body is not valid JSON."}, status_code=400)
        return JSONResponse({"detail": problems}, status_code=422)

    async def database_down(request: Request, error: Exception) -> Response:
        log.warning("%s %s: the database failed: %s", request.method, request.url.path, type(error).__name__)
        return answer(request, 503, "Try again in a moment", DATABASE_DOWN, **{"Retry-After": str(RETRY_AFTER_SECONDS)})

    for kind in DATABASE_ERRORS:
        app.add_exception_handler(kind, database_down)


__all__ = ["DATABASE_DOWN", "DATABASE_ERRORS", "install", "validation_problems", "wants_page"]
