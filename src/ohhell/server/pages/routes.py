"""The game's pages, HTTP API and WebSocket, as a router the site includes (see docs/web.md).

Pages: ``/`` (New game and your games), ``/games/{id}`` (the table), ``/games/{id}/replay``. API:
``POST /api/games``, ``GET /api/games``, ``POST /api/games/{id}/replay-deal``, ``GET /api/games/{id}/record``,
``GET /api/games/{id}/replay``. The table: ``/ws/games/{id}``. The player cookie (:mod:`ohhell.web.identity`)
says which human seats are yours.
"""

from __future__ import annotations

import asyncio
import math
from collections import Counter
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Final

from fastapi import APIRouter, FastAPI, HTTPException, Request, WebSocket
from fastapi.responses import HTMLResponse, JSONResponse
from starlette.websockets import WebSocketDisconnect, WebSocketDisconnected

from ohhell.dealnumbers import draw_for_deal
from ohhell.errors import RulesError
from ohhell.game import Game
from ohhell.rules import Rules
from ohhell.server.pages import exports, howto, newgame
from ohhell.server.party.live import left_of, open_table
from ohhell.server.party.routes import WatcherConnection, party_routes, watch_target, watcher_name
from ohhell.server.party.store import JOIN, PartyStore
from ohhell.server.processes.hub import Allowance, Hub, RedisHub, SoloHub
from ohhell.server.processes.relay import Relay
from ohhell.server.storage.store import GameNotFoundError, Store, StoredGame
from ohhell.server.table import wording
from ohhell.server.table.live import (
    CHANGE_WINDOW,
    Table,
    TableClosedError,
    TableFullError,
    Tables,
    rebuild_with_undos,
)
from ohhell.server.table.outbox import Outbox
from ohhell.server.table.seats import COMPUTER_NAMES, LEVEL_NAMES, Seat
from ohhell.server.table.secret import secret_of
from ohhell.server.table.thinkers import Thinkers
from ohhell.server.table.undo import Undo
from ohhell.web import failures, guards, house_rules, identity
from ohhell.web.accounts.sockets import SIGNED_OUT_CODE, HeldSocket, OpenSockets
from ohhell.web.config import ServerConfig
from ohhell.web.database import database_back
from ohhell.web.events import EventGames, EventTables, NoEvents
from ohhell.web.models import utc_now
from ohhell.web.pages import feature_templates
from ohhell.web.results import ClubTables, NoResults, ResultsHook

HERE: Final = Path(__file__).parent.parent  # ohhell/server, beside templates/ and static/
NOT_YOURS: Final = (
    "This game was started in another browser, so it is not yours here. If it is your game, open"
    " “Move your games to another device” on the home page of the browser that has it: the private link it"
    " gives brings your games to this one."
)


FULL_CODE: Final = 4429
"""The close code of a socket turned away for too many of its kind (a seat's tabs, an address's sockets, a table's
spectators): the page shows the reason and does not reconnect by itself."""
NEW_GAMES_WINDOW: Final = 600.0
"""``new_games_per_address`` and ``new_games_per_player`` are counted over 10 minutes."""


async def refuse_socket(websocket: WebSocket, outbox: Outbox, reason: str) -> None:
    """Close an accepted socket with :data:`FULL_CODE` and the reason, after what it was sent already."""
    await outbox.flush()
    await websocket.close(code=FULL_CODE, reason=reason[:120])


class SocketConnection:
    """A browser's WebSocket, seated at one seat of a table; what the table sends it waits in its outbox."""

    def __init__(self, websocket: WebSocket, seat: int) -> None:
        self.websocket = websocket
        self.seat = seat
        self.address = guards.client_address(websocket.scope)
        self.outbox = Outbox(websocket)

    async def send(self, text: str) -> None:
        """Queue one message for the socket (:mod:`ohhell.server.table.outbox`: a reader falling behind is closed)."""
        await self.outbox.send(text)

    async def refuse(self, reason: str) -> None:
        await refuse_socket(self.websocket, self.outbox, reason)


def game_summary(stored: StoredGame, player: str, held: bool = False) -> dict[str, Any]:
    """One line of ``player``'s list of games, from the game row alone: the deal number (as text) once the series
    is over (unless ``held``: a duplicate event's entry while the event is open), or of a practice series to the
    person who chose it; the commitment otherwise."""
    seat = seat_of(stored, player)
    told = secret_of(stored).told_to(-1 if seat is None else seat, stored.finished and not held)
    rules = Rules.from_json(stored.rules)
    names = [str(seat["name"]) for seat in stored.seats]
    if stored.finished and stored.winners is not None and stored.totals is not None:
        status = wording.result_text(stored.winners, stored.totals, -1, names, stored.resigned)
    elif any(seat.get("kind") == "open" for seat in stored.seats):
        status = "Waiting room: seats open for friends"
    else:
        status = f"Hand {stored.shown_deal + 1} of {rules.deals}"
    return {
        "id": stored.id,
        "number": str(stored.deal_number) if told else None,
        "commitment": secret_of(stored).sealed,
        "practice": stored.practice,
        "preset": rules.preset_name,
        "rules": rules.describe(),
        "players": names,
        "finished": stored.finished,
        "status": status,
        "updated": stored.updated_at.strftime("%Y-%m-%d %H:%M"),
        "url": f"/games/{stored.id}",
    }


def first_draw(rules: Rules, stored: StoredGame, seat: int) -> str | None:
    """The draw for the first deal in words, when the rules draw: the deal number gives the cards drawn again.

    The draw is from a pack of its own before the deal, seen by everyone, so it names no card of any hand.
    """
    if rules.first_dealer != "draw":
        return None
    dealer, draws = draw_for_deal(stored.deal_number, rules.players)
    return wording.draw_text(draws, dealer, seat, [str(s["name"]) for s in stored.seats])


def seat_of(stored: StoredGame, player: str) -> int | None:
    """The human seat of a stored game that belongs to ``player``'s key, if any."""
    for index, seat in enumerate(stored.seats):
        if seat.get("kind") == "human" and seat.get("player") == player:
            return index
    return None


class EntryGames:
    """:class:`~ohhell.web.events.EventGames`: the tables of a duplicate event's entries, stored like every game."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables

    async def start_entry(self, rules: dict[str, Any], number: int, seats: list[dict[str, Any]], owner: str) -> int:
        """A new game dealt from the event's secret number; its id."""
        seated = [Seat.from_json(s) for s in seats]
        stored = await self.tables.start(Rules.from_json(rules), number, seated, owner, practice=False)
        return stored.id


def game_router(
    config: ServerConfig,
    results: ResultsHook | None = None,
    clubs: ClubTables | None = None,
    events: EventTables | None = None,
    on_entry_games: Callable[[EventGames], None] | None = None,
    sockets: OpenSockets | None = None,
) -> APIRouter:
    """The game's routes over the database of ``config`` (whose schema the site brings up to date first).

    ``results`` is told of every series that ends, and ``clubs`` answers for club tables (the site wires the club's
    store to both); ``events`` says which games are duplicate events' entries, and ``on_entry_games`` is handed the
    :class:`EntryGames` that deals them once the tables are up (the site wires the duplicate events' store);
    ``sockets`` keeps the seats' sockets by session, so that ending a session closes them (the site shares it with
    the accounts)."""
    club_tables: ClubTables = clubs if clubs is not None else NoResults()
    event_tables: EventTables = events if events is not None else NoEvents()
    session_sockets = sockets if sockets is not None else OpenSockets()
    holder: dict[str, Any] = {}
    messages_of_people = guards.Buckets(config.messages_per_person, 2 * config.messages_per_person)
    messages_of_addresses = guards.Buckets(config.messages_per_address, 2 * config.messages_per_address)
    games_of_players = Allowance(
        "new-games-player", config.new_games_per_player / NEW_GAMES_WINDOW, config.new_games_per_player
    )
    games_of_addresses = Allowance(
        "new-games-address", config.new_games_per_address / NEW_GAMES_WINDOW, config.new_games_per_address
    )
    open_sockets: Counter[str] = Counter()
    """This process's open game and watch sockets, by address."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(config.database_url, sync_each_commit=config.sync_each_commit)
        thinkers = Thinkers(config.computer_processes, config.quick_processes if config.computer_processes else 0)
        warming = asyncio.create_task(thinkers.start())
        hub: Hub = RedisHub(config.redis_url, config.database_url) if config.redis_url else SoloHub()
        hub.hear(session_sockets.heard)  # sessions ended on any process: their sockets here close
        session_sockets.announce_with(hub.announce)
        tables = Tables(store, thinkers, CHANGE_WINDOW * config.animation_scale, config.idle_seconds, hub, results)
        parties = PartyStore(store)

        async def opener(stored: StoredGame) -> Table:
            table = await open_table(stored, store, thinkers, parties, tables.change_window)
            table.undo_by_host = await club_tables.allows_undo(stored.id)
            table.on_play_again = club_tables.play_again
            table.event = await event_tables.event_table(stored.id)
            table.event_source = event_tables.event_table
            return table

        tables.opener = opener
        if on_entry_games is not None:
            on_entry_games(EntryGames(tables))
        relay = Relay(tables)
        await relay.start()
        holder["tables"], holder["relay"], holder["parties"] = tables, relay, parties
        app.state.live_tables = lambda: len(tables)  # what /healthz reports
        app.state.table_counts = tables.counts  # what /api/server-stats reports
        database_back(app).append(store.reconnect)
        try:
            yield
        finally:
            await tables.close()
            await relay.close()
            warming.cancel()
            thinkers.close()
            await store.close()

    router = APIRouter(lifespan=lifespan)
    templates = feature_templates(HERE / "templates")
    router.include_router(howto.howto_router(templates))  # /how-to-play (ohhell.server.pages.howto)

    def tables() -> Tables:
        result: Tables = holder["tables"]
        return result

    def relay() -> Relay:
        result: Relay = holder["relay"]
        return result

    def parties() -> PartyStore:
        result: PartyStore = holder["parties"]
        return result

    async def seat_at(stored: StoredGame, player: str) -> int | None:
        """The player's seat at a game: in its seats, or claimed at a table of several people not yet started."""
        seat = seat_of(stored, player)
        if seat is None and any(s.get("kind") == "open" for s in stored.seats):
            seat = await parties().seat_of(stored.id, player)
        return seat

    def player_of(request: Request) -> str:
        key: str = request.state.player
        return key

    async def own_game(request: Request, game_id: int) -> StoredGame:
        """The game row, if the request's player has a seat at it (404 or 403 otherwise)."""
        try:
            stored = await tables().store.game(game_id)
        except GameNotFoundError:
            raise HTTPException(404, f"There is no game {game_id}.") from None
        if await seat_at(stored, player_of(request)) is None:
            raise HTTPException(403, NOT_YOURS)
        return stored

    async def summaries(player: str, games: list[StoredGame]) -> list[dict[str, Any]]:
        """The lines of ``player``'s list of games; a finished entry of a duplicate event still open keeps its
        number sealed (the other entrants play those cards)."""

        async def held(stored: StoredGame) -> bool:
            if not stored.finished or stored.practice:
                return False
            event = await event_tables.event_table(stored.id)
            return event is not None and utc_now() < event.closes_at

        return [game_summary(g, player, await held(g)) for g in games]

    async def sealed_until_event_closes(game_id: int) -> None:
        """403 for a duplicate event's entry while the event is open: others still play these cards."""
        event = await event_tables.event_table(game_id)
        if event is not None and utc_now() < event.closes_at:
            raise HTTPException(403, "This is a duplicate event's deal: its hands are shown once the event has closed.")

    async def own_played_game(request: Request, game_id: int) -> tuple[StoredGame, Game, list[Undo]]:
        """The game and its engine state, rebuilt from the log (with its undos), for a player with a seat at it."""
        await own_game(request, game_id)
        await sealed_until_event_closes(game_id)
        stored = await tables().store.load(game_id)
        game, undos = rebuild_with_undos(stored)
        game.left = left_of(await parties().party(game_id))
        return stored, game, undos

    def page(request: Request, name: str, **context: Any) -> HTMLResponse:
        return templates.TemplateResponse(
            request, name, {"animation_scale": config.animation_scale, "watch_code": None, **context}
        )

    async def games_of(player: str) -> list[StoredGame]:
        """The games ``player`` started and those whose seat they took through an invite link."""
        own = await tables().store.games_of(player)
        known = {g.id for g in own}
        for game_id in await parties().games_of(player):
            if game_id not in known:
                try:
                    own.append(await tables().store.game(game_id))
                except GameNotFoundError:
                    continue
        return sorted(own, key=lambda g: g.updated_at, reverse=True)

    # ----------------------------------------------------------------- pages

    @router.get("/", response_class=HTMLResponse)
    async def home(request: Request) -> HTMLResponse:
        games = await games_of(player_of(request))
        return page(
            request,
            "home.html",
            games=await summaries(player_of(request), games),
            presets=house_rules.PRESET_TITLES,
            schedules=house_rules.SCHEDULE_TITLES,
            scorings=house_rules.SCORING_TITLES,
            trumps=house_rules.TRUMP_TITLES,
            levels=LEVEL_NAMES,
            computer_names=COMPUTER_NAMES,
            defaults=house_rules.preset_defaults(),
        )

    @router.get("/games/{game_id}", response_class=HTMLResponse)
    async def game_page(request: Request, game_id: int) -> HTMLResponse:
        stored = await own_game(request, game_id)
        rules = Rules.from_json(stored.rules)
        seat = await seat_at(stored, player_of(request))
        invite = None  # the host's invite link is in the page from the start (people.js keeps it up to date)
        if any(s.get("kind") == "open" for s in stored.seats):
            party = await parties().party(game_id)
            if party is not None and party.host == player_of(request):
                code = (await parties().links(game_id)).get(JOIN)
                invite = None if code is None else f"{str(request.base_url).rstrip('/')}/join/{code}"
        event = await event_tables.event_table(game_id)
        return page(
            request,
            "game.html",
            game_id=stored.id,
            event_url=None if event is None else event.url,
            preset=rules.preset_name,
            draw=first_draw(rules, stored, -1 if seat is None else seat),
            invite_url=invite,
        )

    @router.get("/games/{game_id}/replay", response_class=HTMLResponse)
    async def replay_page(request: Request, game_id: int) -> HTMLResponse:
        stored = await own_game(request, game_id)
        await sealed_until_event_closes(game_id)
        return page(request, "replay.html", game_id=stored.id)

    async def count_new_game(request: Request) -> None:
        """Count a new game against its player and its address, or refuse it (429, with ``Retry-After``).

        Counted where every process sees it (Redis, with several), so ``--workers`` multiplies nothing."""
        spends = [(games_of_players, player_of(request)), (games_of_addresses, guards.client_address(request.scope))]
        waits = await tables().hub.take(spends)
        if max(waits) > 0:
            after = math.ceil(max(waits))
            whose = "your browser or account" if waits[0] >= waits[1] else "your address"
            raise HTTPException(
                429,
                f"Too many new games from {whose}: try again in {after} seconds.",
                headers={"Retry-After": str(after)},
            )

    # ----------------------------------------------------------------- API

    @router.get("/api/games")
    async def list_games(request: Request) -> list[dict[str, Any]]:
        return await summaries(player_of(request), await games_of(player_of(request)))

    @router.post("/api/games", status_code=201)
    async def start_game(request: Request, body: newgame.NewGameRequest) -> dict[str, Any]:
        try:
            rules = body.rules()
        except RulesError as exc:
            raise HTTPException(400, str(exc)) from None
        if body.club is not None and not await club_tables.may_take_seat(body.club, player_of(request)):
            raise HTTPException(403, "club: only a member of the club may open its table (sign in first).")
        await count_new_game(request)
        stored = await tables().start(rules, body.number, body.seats(player_of(request)), player_of(request))
        if body.friends:
            await parties().create(stored.id, player_of(request), body.host_name, body.table.model_dump())
        if body.club is not None:
            await club_tables.make_club_table(stored.id, body.club)
        return started(stored)

    def started(stored: StoredGame) -> dict[str, Any]:
        """The answer to a new game: its page, and its number when the person chose it (practice)."""
        number = str(stored.deal_number) if stored.practice else None
        return {"id": stored.id, "number": number, "practice": stored.practice, "url": f"/games/{stored.id}"}

    @router.post("/api/games/{game_id}/replay-deal", status_code=201)
    async def replay_deal(request: Request, game_id: int) -> dict[str, Any]:
        """A new game with the same number, rules and seats: the same cards again, as practice. Refused while the
        series is played: its number would deal anyone at the table every hand still to come."""
        old = await own_game(request, game_id)
        await sealed_until_event_closes(game_id)
        if not old.finished:
            raise HTTPException(
                409,
                "replay-deal: this series is still being played; its cards can be played again once it is over.",
            )
        me = player_of(request)
        await count_new_game(request)
        seats = [Seat.from_json(seat) for seat in old.seats]
        seats = [  # the others' seats of a table of several people are computer players in one's own replay
            Seat.human(s.name, me)
            if s.is_human and s.player == me
            else Seat.computer(s.name, "normal")
            if s.is_human
            else s
            for s in seats
        ]
        rules = Rules.from_json(old.rules)
        stored = await tables().start(rules, old.deal_number, seats, me, replay_of=old.id)
        return started(stored)

    @router.get("/api/games/{game_id}/record")
    async def download_record(request: Request, game_id: int) -> JSONResponse:
        stored, game, undos = await own_played_game(request, game_id)
        return JSONResponse(
            exports.public_record(game, secret_of(stored), undos),
            headers={"Content-Disposition": f'attachment; filename="ohhell-game-{stored.id}.json"'},
        )

    @router.get("/api/games/{game_id}/replay")
    async def replay_data(request: Request, game_id: int) -> dict[str, Any]:
        stored, game, undos = await own_played_game(request, game_id)
        return exports.replay_data(game, [str(seat["name"]) for seat in stored.seats], undos, secret_of(stored))

    # ----------------------------------------------------------------- the table

    @router.websocket("/ws/games/{game_id}")
    async def game_socket(websocket: WebSocket, game_id: int) -> None:
        if not guards.origin_allowed(websocket.scope, config.allowed_origins):
            await websocket.close(code=4403, reason="this page may not open the game from another site")
            return
        player = identity.scope_player(websocket.scope)  # the cookie's key, or the signed-in account's
        if player is None:
            await websocket.close(code=SIGNED_OUT_CODE, reason="open the game page first")
            return
        try:
            stored = await tables().store.game(game_id)
        except GameNotFoundError:
            await websocket.close(code=4404, reason="no such game")
            return
        except failures.DATABASE_ERRORS:
            await websocket.close(code=1013, reason="the game database cannot be used now: try again")
            return
        try:
            seat = await seat_at(stored, player)
        except failures.DATABASE_ERRORS:
            await websocket.close(code=1013, reason="the game database cannot be used now: try again")
            return
        if seat is None:
            await websocket.close(code=4403, reason="this game belongs to another player")
            return
        await websocket.accept()
        connection = SocketConnection(websocket, seat)

        async def signed_out(code: int, reason: str) -> None:
            await connection.outbox.aclose()
            await websocket.close(code=code, reason=reason)

        held = session_sockets.hold(websocket.scope, signed_out)
        try:
            await serve_socket(websocket, game_id, connection, connection.outbox, player, held)
        finally:
            session_sockets.release(held)

    @router.websocket("/ws/watch/{code}")
    async def watch_socket(websocket: WebSocket, code: str) -> None:
        if not guards.origin_allowed(websocket.scope, config.allowed_origins):
            await websocket.close(code=4403, reason="this page may not open the game from another site")
            return
        try:
            game_id = await watch_target(parties(), code)
        except failures.DATABASE_ERRORS:
            await websocket.close(code=1013, reason="the game database cannot be used now: try again")
            return
        if game_id is None:
            await websocket.close(code=4404, reason="no table has that watch link")
            return
        await websocket.accept()
        outbox = Outbox(websocket)
        address = guards.client_address(websocket.scope)
        watcher = WatcherConnection(
            outbox.send, watcher_name(websocket), address, lambda reason: refuse_socket(websocket, outbox, reason)
        )
        await serve_socket(websocket, game_id, watcher, outbox, None)

    async def serve_socket(
        websocket: WebSocket,
        game_id: int,
        connection: Any,
        outbox: Outbox,
        player: str | None,
        held: HeldSocket | None = None,
    ) -> None:
        """Seat an accepted socket's connection at its table and pass its messages on until it closes (or, for a
        seat's socket, until its session ends: ``held``, :mod:`ohhell.web.accounts.sockets`).

        ``player``: whose socket it is (``None``: a spectator's, who is known by the address alone). The address
        may hold ``sockets_per_address`` open at once in this process; messages are counted against the person's
        and the address's buckets, shared by all their sockets.
        """
        address = guards.client_address(websocket.scope)
        if open_sockets[address] >= config.sockets_per_address:
            await refuse_socket(
                websocket, outbox, f"Too many connections from your address ({config.sockets_per_address}): close some."
            )
            await outbox.aclose()
            return
        open_sockets[address] += 1
        try:
            person = ("player", player) if player else ("watching", address)
            await pass_messages(websocket, game_id, connection, outbox, person, address, held)
        finally:
            open_sockets[address] -= 1
            if not open_sockets[address]:
                del open_sockets[address]

    async def pass_messages(
        websocket: WebSocket,
        game_id: int,
        connection: Any,
        outbox: Outbox,
        person: tuple[str, str],
        address: str,
        held: HeldSocket | None,
    ) -> None:
        try:
            link = await relay().connect(game_id, connection)
        except TableFullError as full:  # the seat's tabs, the table's spectators
            await refuse_socket(websocket, outbox, str(full))
            await outbox.aclose()
            return
        except (GameNotFoundError, TableClosedError, *failures.DATABASE_ERRORS):
            await outbox.flush()
            await outbox.aclose()
            await websocket.close(code=1013, reason="the table cannot be reached now: try again")
            return
        limit = guards.RateLimit(messages_of_people, messages_of_addresses, person, address)
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect" or (held is not None and held.ended):
                    break  # signed out: nothing more it sends reaches the table, and it is being closed
                verdict = limit.take()
                if verdict == "close":
                    await outbox.flush()  # the refusals already queued reach the page before it is closed
                    await websocket.close(code=1008, reason="too many messages")
                    break
                if verdict == "refuse":
                    await connection.send(guards.TOO_FAST)
                    continue
                await link.receive(message.get("text") or message.get("bytes") or b"")
                if len(outbox):
                    await asyncio.sleep(0)  # let the socket's writer send the answer before reading on
        except (WebSocketDisconnect, WebSocketDisconnected):
            pass
        finally:
            relay().disconnect(link)
            await outbox.aclose()

    party_routes(router, lambda: tables().store, parties, page, club_tables)
    return router
