"""The keeper's pages, API and downloads, as a router the site includes.

Pages: ``/keeper`` (your sheets, a new sheet, a blank sheet to print) and ``/keeper/{id}`` (keep score).
API: ``/api/keeper/sheets`` (list, create), ``/api/keeper/sheets/{id}`` (the sheet),
``/api/keeper/sheets/{id}/entries`` (one entry or correction) and ``/api/keeper/sheets/{id}/next?seen=N`` (the
sheet as soon as it has other than ``N`` events, or 204 after :data:`WAIT_SECONDS`: how a page hears at once of an
entry made on another phone). Downloads: ``/keeper/{id}/sheet.csv``,
``sheet.json``, ``sheet.pdf?paper=a4|letter``, the print view ``/keeper/{id}/print``, and
``/keeper/blank?preset=…&players=…``. A sheet belongs to the browser that started it, as a game does, and to
every browser that opened its share link (``POST /api/keeper/sheets/{id}/share`` gives the link and its QR code;
``/keeper/join/{code}`` joins), so that two phones at one table can keep the same sheet. Only the owner (the browser
that started it) sees the link, and can replace it (``…/share/renew``) or withdraw it (``…/share/withdraw``), either
optionally removing the browsers that joined; a visit to an old link gets a page that says what happened to it.
Sheet ids and ``seen`` counts beyond what the databases hold are refused (404, 400) before any query.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Final, Literal

import segno
from fastapi import APIRouter, FastAPI, HTTPException, Request, Response
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse

from ohhell.errors import OhHellError, RulesError
from ohhell.keeper.events import wall_clock
from ohhell.keeper.files import dumps, sheet_to_csv
from ohhell.keeper.printable import blank_sheet, filled_sheet, render_html, render_pdf
from ohhell.keeper.sheet import ScoreSheet
from ohhell.keeper.web.models import MAX_INTEGER
from ohhell.keeper.web.requests import EntryRequest, NewSheetRequest, ShareChangeRequest, apply_entry
from ohhell.keeper.web.store import (
    LinkRetiredError,
    SheetChangedError,
    SheetNotFoundError,
    SheetStore,
    valid_sheet_id,
)
from ohhell.keeper.web.view import sheet_state, sheet_summary
from ohhell.rules import PRESETS, Rules
from ohhell.web import house_rules
from ohhell.web.config import ServerConfig
from ohhell.web.database import database_back
from ohhell.web.pages import feature_templates

HERE: Final = Path(__file__).parent
STATIC_FILES: Final = frozenset({"keeper.css", "keeper.js", "keeper-home.js", "print-button.js"})
PRINT_SCRIPT: Final = "/keeper/static/print-button.js"
"""The printable sheet's Print button, wired from a file (the site's pages run no inline script)."""
Paper = Literal["a4", "letter"]
SHARE_CODE: Final = re.compile(r"[A-Za-z0-9_-]{8,32}")
WAIT_SECONDS: Final = 15.0
"""How long ``/next`` holds a request before answering that nothing changed."""
RECHECK_SECONDS: Final = 3.0
"""How often a held ``/next`` also looks at the database (an entry written by another server process)."""
Role = Literal["owner", "joined"]
"""How a browser keeps a sheet: it started it, or it joined through the share link."""
OWNER_ONLY: Final = (
    "Only the browser that started this score sheet can share it, or replace or withdraw its link:"
    " ask whoever started it."
)
GONE_LINKS: Final = {
    "replaced": (
        "This share link was replaced",
        "Whoever started this score sheet made a new link for it, so this one no longer opens it."
        " Ask them for the new link, or to show its QR code again.",
    ),
    "withdrawn": (
        "This share link was withdrawn",
        "Whoever started this score sheet stopped sharing it through this link."
        " Ask them to share it again if you should keep it too.",
    ),
}
NOT_KEPT: Final = "This score sheet is not kept in this browser: open its share link to keep it here too."
UNKNOWN_LINK: Final = (
    "This share link opens no score sheet",
    "No score sheet has this link: check that it was copied whole, or ask for it again.",
)


def keeper_router(config: ServerConfig) -> APIRouter:
    """The score keeper's routes over the database of ``config`` (its tables come with the server's migrations)."""
    holder: dict[str, SheetStore] = {}
    bells: dict[int, asyncio.Event] = {}
    """Per sheet with waiting pages: set (and replaced) when an entry is stored through this process."""

    def ring(sheet_id: int) -> None:
        bell = bells.pop(sheet_id, None)
        if bell is not None:
            bell.set()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        holder["store"] = SheetStore(config.database_url)
        database_back(app).append(holder["store"].engine.dispose)
        try:
            yield
        finally:
            await holder.pop("store").close()

    router = APIRouter(lifespan=lifespan)
    templates = feature_templates(HERE / "templates")

    def store() -> SheetStore:
        return holder["store"]

    def owner_of(request: Request) -> str:
        player: str = request.state.player
        return player

    async def role_here(request: Request, sheet_id: int) -> Role:
        """How this browser keeps the sheet: 404 if there is none (an id beyond the databases' integers is refused
        before any query), 403 if this browser does not keep it."""
        if not valid_sheet_id(sheet_id):
            raise HTTPException(404, f"There is no score sheet with that number: they run from 1 to {MAX_INTEGER}.")
        try:
            role = await store().role_of(sheet_id, owner_of(request))
        except SheetNotFoundError:
            raise HTTPException(404, f"There is no score sheet {sheet_id}.") from None
        if role is None:
            raise HTTPException(403, NOT_KEPT)
        return role

    async def kept_sheet(request: Request, sheet_id: int) -> tuple[ScoreSheet, Role]:
        """The sheet, and how this browser keeps it (refused as by :func:`role_here`)."""
        role = await role_here(request, sheet_id)
        try:
            _, sheet = await store().load(sheet_id)
        except SheetNotFoundError:
            raise HTTPException(404, f"There is no score sheet {sheet_id}.") from None
        return sheet, role

    async def own_sheet(request: Request, sheet_id: int) -> ScoreSheet:
        sheet, _ = await kept_sheet(request, sheet_id)
        return sheet

    async def require_owner(request: Request, sheet_id: int) -> None:
        """Refuse (403) a browser that only joined: the share link is the owner's alone."""
        if await role_here(request, sheet_id) != "owner":
            raise HTTPException(403, OWNER_ONLY)

    async def share_answer(request: Request, sheet_id: int, code: str) -> dict[str, Any]:
        path = f"/keeper/join/{code}"
        url = str(request.base_url).rstrip("/") + path
        qr = segno.make(url, error="m").svg_inline(scale=4, dark="#173223", title="QR code of the share link")
        return {"path": path, "url": url, "qr_svg": qr, "joined": await store().joined_count(sheet_id)}

    def message_page(request: Request, status: int, title: str, message: str) -> HTMLResponse:
        context = {"title": title, "message": message}
        return templates.TemplateResponse(request, "keeper_message.html", context, status_code=status)

    # ----------------------------------------------------------------- pages

    @router.get("/keeper", response_class=HTMLResponse)
    async def keeper_home(request: Request) -> HTMLResponse:
        sheets = [sheet_summary(s) for s in await store().sheets_of(owner_of(request))]
        return templates.TemplateResponse(
            request,
            "keeper_home.html",
            {
                "sheets": sheets,
                "presets": house_rules.PRESET_TITLES,
                "schedules": house_rules.SCHEDULE_TITLES,
                "scorings": house_rules.SCORING_TITLES,
                "trumps": house_rules.TRUMP_TITLES,
                "defaults": house_rules.preset_defaults(),
            },
        )

    @router.get("/keeper/blank")
    async def blank(
        preset: str = "full", players: int = 4, paper: Paper = "a4", format: Literal["pdf", "html"] = "pdf"
    ) -> Response:
        if preset not in PRESETS:
            raise HTTPException(400, f"There is no preset {preset!r}.")
        try:
            rules = Rules.preset(preset, players=players)
        except RulesError as exc:
            raise HTTPException(400, str(exc)) from None
        printed = blank_sheet(rules, paper)
        name = f"ohhell-blank-{preset}-{players}-players"
        if format == "html":
            return HTMLResponse(render_html(printed, print_button=True, print_script=PRINT_SCRIPT))
        pdf = await asyncio.to_thread(render_pdf, printed)
        return _download(pdf, "application/pdf", f"{name}.pdf")

    @router.get("/keeper/static/{name}")
    async def static(name: str) -> FileResponse:
        if name not in STATIC_FILES:
            raise HTTPException(404, "No such file.")
        return FileResponse(HERE / "static" / name)

    @router.get("/keeper/join/{code}", response_model=None)
    async def join(request: Request, code: str) -> Response:
        if not SHARE_CODE.fullmatch(code):
            return message_page(request, 404, *UNKNOWN_LINK)
        try:
            sheet_id = await store().join(code, owner_of(request))
        except SheetNotFoundError:
            return message_page(request, 404, *UNKNOWN_LINK)
        except LinkRetiredError as exc:
            return message_page(request, 410, *GONE_LINKS[exc.reason])
        return RedirectResponse(f"/keeper/{sheet_id}", status_code=303)

    @router.get("/keeper/{sheet_id}", response_class=HTMLResponse)
    async def keeper_page(request: Request, sheet_id: int) -> HTMLResponse:
        try:
            sheet, role = await kept_sheet(request, sheet_id)
        except HTTPException as exc:
            title = "No such score sheet" if exc.status_code == 404 else "Not kept in this browser"
            return message_page(request, exc.status_code, title, str(exc.detail))
        context = {
            "sheet_id": sheet_id,
            "state": sheet_state(sheet_id, sheet),
            "title": ", ".join(sheet.names),
            "owner": role == "owner",
        }
        return templates.TemplateResponse(request, "keeper_sheet.html", context)

    @router.get("/keeper/{sheet_id}/print", response_class=HTMLResponse)
    async def print_view(request: Request, sheet_id: int, paper: Paper = "a4") -> HTMLResponse:
        sheet = await own_sheet(request, sheet_id)
        return HTMLResponse(render_html(filled_sheet(sheet, paper), print_button=True, print_script=PRINT_SCRIPT))

    @router.get("/keeper/{sheet_id}/sheet.pdf")
    async def download_pdf(request: Request, sheet_id: int, paper: Paper = "a4") -> Response:
        sheet = await own_sheet(request, sheet_id)
        pdf = await asyncio.to_thread(render_pdf, filled_sheet(sheet, paper))
        return _download(pdf, "application/pdf", f"ohhell-sheet-{sheet_id}.pdf")

    @router.get("/keeper/{sheet_id}/sheet.csv")
    async def download_csv(request: Request, sheet_id: int) -> Response:
        sheet = await own_sheet(request, sheet_id)
        return _download(sheet_to_csv(sheet).encode(), "text/csv; charset=utf-8", f"ohhell-sheet-{sheet_id}.csv")

    @router.get("/keeper/{sheet_id}/sheet.json")
    async def download_json(request: Request, sheet_id: int) -> Response:
        sheet = await own_sheet(request, sheet_id)
        return _download(dumps(sheet).encode(), "application/json", f"ohhell-sheet-{sheet_id}.json")

    # ----------------------------------------------------------------- API

    @router.get("/api/keeper/sheets")
    async def list_sheets(request: Request) -> list[dict[str, Any]]:
        return [sheet_summary(s) for s in await store().sheets_of(owner_of(request))]

    @router.post("/api/keeper/sheets", status_code=201)
    async def create_sheet(request: Request, body: NewSheetRequest) -> dict[str, Any]:
        try:
            sheet = ScoreSheet(
                body.rules(), body.names, clock=wall_clock, first_dealer=body.first_dealer, keeper=body.keeper
            )
        except OhHellError as exc:
            raise HTTPException(400, str(exc)) from None
        sheet_id = await store().create(owner_of(request), sheet)
        return {"id": sheet_id, "url": f"/keeper/{sheet_id}"}

    @router.get("/api/keeper/sheets/{sheet_id}")
    async def get_sheet(request: Request, sheet_id: int) -> dict[str, Any]:
        return sheet_state(sheet_id, await own_sheet(request, sheet_id))

    @router.get("/api/keeper/sheets/{sheet_id}/next", response_model=None)
    async def next_state(request: Request, sheet_id: int, seen: int) -> dict[str, Any] | Response:
        if not 0 <= seen <= MAX_INTEGER:
            raise HTTPException(
                400, f"seen is how many entries the page shows: a whole number from 0 to {MAX_INTEGER}."
            )
        sheet = await own_sheet(request, sheet_id)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + WAIT_SECONDS
        recheck = loop.time() + RECHECK_SECONDS
        while len(sheet.events) == seen:
            now = loop.time()
            if now >= deadline or _stopping(request) or await request.is_disconnected():
                return Response(status_code=204)
            if now >= recheck:  # what another server process may have changed: the entries, who keeps the sheet
                recheck = now + RECHECK_SECONDS
                await role_here(request, sheet_id)
                if await store().event_count(sheet_id) != seen:
                    _, sheet = await store().load(sheet_id)
                continue
            bell = bells.setdefault(sheet_id, asyncio.Event())
            try:
                await asyncio.wait_for(bell.wait(), timeout=min(1.0, deadline - now))
            except TimeoutError:
                continue
            sheet = await own_sheet(request, sheet_id)  # a browser the owner just removed hears it at once
        return sheet_state(sheet_id, sheet)

    @router.post("/api/keeper/sheets/{sheet_id}/share")
    async def share(request: Request, sheet_id: int) -> dict[str, Any]:
        await require_owner(request, sheet_id)
        return await share_answer(request, sheet_id, await store().share_code(sheet_id))

    @router.post("/api/keeper/sheets/{sheet_id}/share/renew")
    async def renew_share(request: Request, sheet_id: int, body: ShareChangeRequest | None = None) -> dict[str, Any]:
        await require_owner(request, sheet_id)
        remove = body is not None and body.remove_joined
        code = await store().renew_share_code(sheet_id, remove_joined=remove)
        if remove:
            ring(sheet_id)
        return await share_answer(request, sheet_id, code)

    @router.post("/api/keeper/sheets/{sheet_id}/share/withdraw")
    async def withdraw_share(request: Request, sheet_id: int, body: ShareChangeRequest | None = None) -> dict[str, Any]:
        await require_owner(request, sheet_id)
        remove = body is not None and body.remove_joined
        await store().withdraw_share_code(sheet_id, remove_joined=remove)
        if remove:
            ring(sheet_id)
        return {"shared": False, "joined": await store().joined_count(sheet_id)}

    @router.post("/api/keeper/sheets/{sheet_id}/entries")
    async def enter(request: Request, sheet_id: int, body: EntryRequest) -> JSONResponse:
        sheet = await own_sheet(request, sheet_id)
        seen = len(sheet.events)
        if body.seen != seen:
            return _changed(sheet_id, sheet)
        try:
            apply_entry(sheet, body)
        except OhHellError as exc:
            return JSONResponse({"detail": _sentence(exc)}, status_code=400)
        try:
            await store().append(sheet_id, sheet, seen)
        except SheetChangedError:
            _, fresh = await store().load(sheet_id)
            return _changed(sheet_id, fresh)
        ring(sheet_id)
        return JSONResponse(sheet_state(sheet_id, sheet))

    return router


def _stopping(request: Request) -> bool:
    """Whether the server is shutting down (``ohhell serve`` sets ``app.state.stopping``; tests' apps may not)."""
    stopping = getattr(request.app.state, "stopping", None)
    return bool(stopping is not None and stopping())


def _changed(sheet_id: int, sheet: ScoreSheet) -> JSONResponse:
    detail = "The sheet changed since this page showed it (another entry came first): look again and re-enter."
    return JSONResponse({"detail": detail, "state": sheet_state(sheet_id, sheet)}, status_code=409)


def _sentence(exc: OhHellError) -> str:
    """An error message as a sentence: capital first, full stop last."""
    text = str(exc)
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def _download(body: bytes, media_type: str, filename: str) -> Response:
    return Response(body, media_type=media_type, headers={"Content-Disposition": f'attachment; filename="{filename}"'})
