"""The pages and sockets of tables of several people: the invite link's join page, the watch link and its socket.

``GET /join/{code}`` (your name and a free seat), ``POST /api/join/{code}``, ``GET /watch/{code}`` (the table as
a spectator sees it), ``/ws/watch/{code}`` (a spectator's socket: the public view, never a hand). The host's
table itself is ``/games/{id}`` like any game; its socket carries the waiting room, the people and the chat
(:mod:`ohhell.server.party.live`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Request, WebSocket
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from ohhell.rules import Rules
from ohhell.server.party.live import clean_text
from ohhell.server.party.spectator import WATCHER
from ohhell.server.party.store import JOIN, WAITING, WATCH, PartyStore, SeatTakenError
from ohhell.server.storage.store import GameNotFoundError, Store
from ohhell.server.table.seats import OWN_SEAT
from ohhell.web.results import ClubTables

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=24)]


class JoinRequest(BaseModel):
    """The join page's form: your name and the seat you take."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: Name
    seat: Annotated[int, Field(ge=1, le=6)]


RETIRED = {
    "replaced": "This link was replaced by the host: ask them for the new one.",
}


class WatcherConnection:
    """A spectator's WebSocket: no seat, a name to be listed by, an address to be counted by."""

    def __init__(
        self, send: Callable[[str], Any], name: str, address: str, refuse: Callable[[str], Awaitable[None]]
    ) -> None:
        self._send = send
        self._refuse = refuse
        self.seat = WATCHER
        self.name = name
        self.address = address

    async def send(self, text: str) -> None:
        await self._send(text)

    async def refuse(self, reason: str) -> None:
        await self._refuse(reason)


def party_routes(
    router: APIRouter,
    store: Callable[[], Store],
    parties: Callable[[], PartyStore],
    page: Callable[..., HTMLResponse],
    clubs: ClubTables | None = None,
) -> None:
    """Add the join and watch pages to the game's router (``clubs``: who may take a club table's seats)."""

    async def link_or_page(request: Request, code: str, kind: str) -> tuple[int, HTMLResponse | None]:
        found = await parties().link(code)
        if found is None or found[1] != kind:
            raise HTTPException(404, "There is no table with that link.")
        game_id, _, retired = found
        if retired is not None:
            return game_id, page(request, "link_gone.html", message=RETIRED.get(retired, "This link no longer works."))
        return game_id, None

    @router.get("/join/{code}", response_class=HTMLResponse, response_model=None)
    async def join_page(request: Request, code: str) -> Response:
        game_id, gone = await link_or_page(request, code, JOIN)
        if gone is not None:
            return gone
        me: str = request.state.player
        party = await parties().party(game_id)
        stored = await store().game(game_id)
        if party is None:
            raise HTTPException(404, "There is no table with that link.")
        if any(player == me for player, _ in party.claims.values()):
            return RedirectResponse(f"/games/{game_id}", status_code=303)
        seats = []
        for index, seat in enumerate(stored.seats):
            claim = party.claims.get(index)
            kind = str(seat.get("kind"))
            seats.append(
                {
                    "seat": index,
                    "name": claim[1] if claim else "Open seat" if kind == "open" else str(seat["name"]),
                    "free": kind == "open" and claim is None,
                    "computer": kind == "computer",
                }
            )
        return page(
            request,
            "join.html",
            code=code,
            started=party.status != WAITING,
            host=party.claims.get(0, ("", "The host"))[1],
            rules=Rules.from_json(stored.rules).describe(),
            seats=seats,
            free=[s for s in seats if s["free"]],
        )

    @router.post("/api/join/{code}", status_code=201)
    async def join(request: Request, code: str, body: JoinRequest) -> dict[str, Any]:
        found = await parties().link(code)
        if found is None or found[1] != JOIN:
            raise HTTPException(404, "There is no table with that link.")
        game_id, _, retired = found
        if retired is not None:
            raise HTTPException(410, RETIRED.get(retired, "This link no longer works."))
        me: str = request.state.player
        party = await parties().party(game_id)
        if party is None:
            raise HTTPException(404, "There is no table with that link.")
        if any(player == me for player, _ in party.claims.values()):
            return {"url": f"/games/{game_id}"}
        if party.status != WAITING:
            raise HTTPException(409, "The game has started: every seat is taken.")
        stored = await store().game(game_id)
        if body.seat >= len(stored.seats) or stored.seats[body.seat].get("kind") != "open":
            raise HTTPException(400, "seat: that seat is not open for a friend.")
        club = await clubs.club_of_game(game_id) if clubs is not None else None
        if club is not None and (clubs is None or not await clubs.may_take_seat(club, me)):
            raise HTTPException(403, "This is a club table: only the club's members take its seats (sign in first).")
        name = clean_text(body.name)[:24]
        if not name:
            raise HTTPException(400, "name: give a name (up to 24 characters).")
        if name.casefold() == OWN_SEAT.casefold():
            raise HTTPException(
                400, f'name: "{OWN_SEAT}" is how the table names each person\'s own seat: choose another.'
            )
        try:
            await parties().claim(game_id, body.seat, me, name)
        except SeatTakenError:
            raise HTTPException(409, "Someone took that seat a moment ago: choose another.") from None
        return {"url": f"/games/{game_id}"}

    @router.get("/watch/{code}", response_class=HTMLResponse, response_model=None)
    async def watch_page(request: Request, code: str) -> Response:
        game_id, gone = await link_or_page(request, code, WATCH)
        if gone is not None:
            return gone
        stored = await store().game(game_id)
        preset = Rules.from_json(stored.rules).preset_name
        return page(request, "game.html", game_id=game_id, preset=preset, watch_code=code)


async def watch_target(parties: PartyStore, code: str) -> int | None:
    """The game a live watch code shows, if any."""
    found = await parties.link(code)
    if found is None or found[1] != WATCH or found[2] is not None:
        return None
    return found[0]


def watcher_name(websocket: WebSocket) -> str:
    """The name a spectator gave (``?name=``), cleaned, or "Spectator"."""
    return clean_text(websocket.query_params.get("name", ""))[:24] or "Spectator"


__all__ = ["GameNotFoundError", "JoinRequest", "WatcherConnection", "party_routes", "watch_target", "watcher_name"]
