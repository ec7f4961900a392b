"""The duplicate events' pages: the daily deal (``/duplicate``), an event, a person's hands against the field, and
a club admin's form to open a club's event.

Nothing here shows a deal number, the commitment or anyone else's result while an event is open: the standings,
the entries' pages and the numbers appear once it has closed (closing is checked on every page, by whichever
process serves it first).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from ohhell.duplicate import TEMPLATES
from ohhell.duplicate.scoring import Field, Result, field_of
from ohhell.duplicate.store import LEVELS, DuplicateStore, Event, EventEntry, EventError, day_of
from ohhell.errors import RulesError
from ohhell.rules import Rules
from ohhell.web.accounts.routes import form_fields
from ohhell.web.events import ClubDirectory
from ohhell.web.house_rules import PRESET_TITLES
from ohhell.web.models import utc_now
from ohhell.web.pages import feature_templates


@dataclass(frozen=True)
class HandLine:
    """One hand of a person's page: their result beside the field's."""

    index: int
    cards: int
    bid: int | None
    tricks: int | None
    points: int | None
    score: float
    matchpoints: int
    field: Field


def person_of(request: Request) -> str:
    """Who enters: an account (whichever browser), or a guest's player key."""
    account = request.state.account
    return f"account:{account.id}" if account is not None else f"guest:{request.state.player}"


def hand_lines(
    event: Event, entries: list[EventEntry], standings: list[dict[str, Any]], mine: EventEntry
) -> list[HandLine]:
    """Hand by hand, the entry's bid, tricks and score beside the field of its instance."""
    rules = Rules.from_json(event.rules)
    field_entries = [e for e in entries if e.instance == mine.instance]
    line = next(s for s in standings if s["entry"] == mine.id)
    seat = mine.human_seat() if mine.complete else None
    out = []
    for hand in range(rules.deals):
        results = []
        for other in field_entries:
            other_seat = other.human_seat() if other.complete else None
            if other_seat is None or hand >= len(other_seat.points):
                results.append(Result(other.name, None, None, None))
            else:
                results.append(
                    Result(other.name, other_seat.bids[hand], other_seat.tricks[hand], other_seat.points[hand])
                )
        out.append(
            HandLine(
                index=hand,
                cards=rules.hand_sizes[hand],
                bid=None if seat is None else seat.bids[hand],
                tricks=None if seat is None else seat.tricks[hand],
                points=None if seat is None else seat.points[hand],
                score=float(line["hands"][hand]),
                matchpoints=int(line["matchpoints"][hand]),
                field=field_of(results),
            )
        )
    return out


def duplicate_router(store: DuplicateStore, clubs: ClubDirectory) -> APIRouter:
    """The duplicate events' routes over their store; ``clubs`` says who belongs to which club."""
    router = APIRouter()
    templates = feature_templates(TEMPLATES)

    def page(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
        return templates.TemplateResponse(request, template, context, status_code=status)

    async def visible_event(request: Request, event_id: int) -> Event:
        """The event, if the request may see it (a club's: its members only); closed ones scored first."""
        await store.close_due()
        event = await store.event(event_id)
        if event is None:
            raise HTTPException(404, f"There is no event {event_id}.")
        if event.club_id is not None:
            if request.state.account is None:
                raise HTTPException(403, "A club's event is for its members: sign in first.")
            if await clubs.club_role(event.club_id, request.state.player) is None:
                raise HTTPException(403, "A club's event is for its members.")
        return event

    def describe(event: Event, now: datetime) -> dict[str, Any]:
        rules = Rules.from_json(event.rules)
        return {
            "event": event,
            "rules": rules.describe(),
            "preset_title": PRESET_TITLES.get(rules.preset_name, rules.preset_name),
            "open": event.is_open(now),
            "revealed": event.revealed(now),
        }

    # ----------------------------------------------------------------- the daily deal

    @router.get("/duplicate", response_class=HTMLResponse)
    async def daily_page(request: Request) -> HTMLResponse:
        await store.close_due()
        now = utc_now()
        today = await store.daily(day_of(now))
        entry = await store.entry_of(today.id, person_of(request))
        past = [e for e in await store.events("daily") if e.id != today.id]
        return page(
            request,
            "daily.html",
            **describe(today, now),
            entry=entry,
            entries=len(await store.entries(today.id)),
            past=past,
        )

    @router.get("/duplicate/about", response_class=HTMLResponse)
    async def about_page(request: Request) -> HTMLResponse:
        return page(request, "about.html")

    # ----------------------------------------------------------------- an event

    @router.post("/duplicate/events/{event_id}/enter", response_model=None)
    async def enter(request: Request, event_id: int) -> Response:
        fields = await form_fields(request)
        event = await visible_event(request, event_id)
        account = request.state.account
        if event.kind != "daily" and account is None:
            raise HTTPException(403, "A club's event is for its members: sign in first.")
        name = account.name if account is not None else (fields.get("name", "").strip()[:24] or "Guest")
        try:
            entry = await store.enter(event, person_of(request), request.state.player, name)
        except EventError as exc:
            raise HTTPException(409, str(exc)) from None
        return RedirectResponse(f"/games/{entry.game_id}", status_code=303)

    @router.get("/duplicate/events/{event_id}", response_class=HTMLResponse)
    async def event_page(request: Request, event_id: int) -> HTMLResponse:
        event = await visible_event(request, event_id)
        now = utc_now()
        entries = await store.entries(event.id)
        mine = next((e for e in entries if e.person == person_of(request)), None)
        closed = not event.is_open(now) and event.standings is not None
        return page(
            request,
            "event.html",
            **describe(event, now),
            entry=mine,
            entries=len(entries),
            standings=event.standings if closed else None,
        )

    @router.get("/duplicate/events/{event_id}/entries/{entry_id}", response_class=HTMLResponse)
    async def entry_page(request: Request, event_id: int, entry_id: int) -> HTMLResponse:
        event = await visible_event(request, event_id)
        now = utc_now()
        if event.is_open(now) or event.standings is None:
            raise HTTPException(403, "The hands and the field's results are shown once the event has closed.")
        entries = await store.entries(event.id)
        entry = next((e for e in entries if e.id == entry_id), None)
        if entry is None:
            raise HTTPException(404, f"Event {event_id} has no entry {entry_id}.")
        line = next(s for s in event.standings if s["entry"] == entry.id)
        return page(
            request,
            "entry.html",
            **describe(event, now),
            entry=entry,
            line=line,
            own=entry.person == person_of(request),
            hands=hand_lines(event, entries, event.standings, entry),
        )

    # ----------------------------------------------------------------- club events

    @router.post("/duplicate/clubs/{club_id}/events", response_model=None)
    async def open_club_event(request: Request, club_id: int) -> Response:
        fields = await form_fields(request)
        if request.state.account is None or await clubs.club_role(club_id, request.state.player) != "admin":
            raise HTTPException(403, "Only the club's admins may open its events.")
        try:
            players = int(fields.get("players", "4"))
            minutes = int(fields.get("minutes", "1440"))
            pool = int(fields.get("pool", "1"))
        except ValueError:
            raise HTTPException(400, "players, minutes and pool are whole numbers.") from None
        preset = fields.get("preset", "short")
        level = fields.get("level", "normal")
        if preset not in PRESET_TITLES:
            raise HTTPException(400, f"preset: one of {', '.join(PRESET_TITLES)}, not {preset!r}")
        if level not in LEVELS:
            raise HTTPException(400, f"level: one of {', '.join(LEVELS)}, not {level!r}")
        try:
            rules = Rules.preset(preset, players=players)
            event = await store.open_club_event(
                club_id,
                fields.get("title", ""),
                rules,
                level,
                minutes,
                request.state.player,
                pool=pool,
                scoring=fields.get("scoring", "matchpoints"),
            )
        except (RulesError, EventError) as exc:
            raise HTTPException(400, str(exc)) from None
        return RedirectResponse(f"/duplicate/events/{event.id}", status_code=303)

    return router
