"""Duplicate events for the server tests: enter through the real form, play a table, close an event early."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any, Final

import httpx
from websockets.asyncio.client import connect

from ohhell.dealnumbers import MAX_DEAL_NUMBER
from ohhell.duplicate.store import DuplicateStore
from ohhell.game import Game
from ohhell.rules import Rules
from ohhell.server.storage.store import Store
from ohhell.server.table import snapshot
from ohhell.web.models import utc_now
from server.accounts import post_form
from server.seriesplay import cookie_header, first_move
from server.serving import RunningServer, run_async

TIMEOUT: Final = 30.0
ENTER: Final = re.compile(r'action="/duplicate/events/(\d+)/enter"')


def event_on(client: httpx.Client, path: str) -> int:
    """The event whose Play button the page at ``path`` shows."""
    found = ENTER.search(client.get(path).text)
    assert found is not None, f"{path} offers no event to enter"
    return int(found.group(1))


def enter(client: httpx.Client, page: str, event_id: int, **fields: str) -> int:
    """Enter the event through its form; the id of the entry's table."""
    response = post_form(client, page, f"/duplicate/events/{event_id}/enter", **fields)
    assert response.status_code == 303, response.text
    return int(response.headers["location"].rsplit("/", 1)[1])


def last_move(state: dict[str, Any]) -> dict[str, Any]:
    """The highest allowed bid, the last playable card, or Next hand: another way to play the same cards."""
    move = first_move(state)
    deal = state["deal"]
    if move["type"] == "bid":
        move["bid"] = [o["bid"] for o in deal["bids"] if o["allowed"]][-1]
    elif move["type"] == "play":
        move["card"] = deal["playable"][-1]
    return move


async def play(
    server: RunningServer,
    game_id: int,
    client: httpx.Client,
    moves: int | None = None,
    asks: tuple[dict[str, Any], ...] = (),
    choose: Callable[[dict[str, Any]], dict[str, Any]] = first_move,
) -> tuple[dict[str, Any], list[str]]:
    """Play the ``choose`` move (the lowest bid and first card) to the end, or for ``moves`` moves; the last state
    and every message. ``asks`` are sent first, and their answers kept among the messages."""
    state: dict[str, Any] = {}
    texts: list[str] = []
    made = 0
    url = f"ws://127.0.0.1:{server.port}/ws/games/{game_id}"
    async with connect(url, additional_headers={"Cookie": cookie_header(client)}) as socket:
        for ask in asks:
            await socket.send(json.dumps(ask))
        while True:
            text = await asyncio.wait_for(socket.recv(), TIMEOUT)
            texts.append(str(text))
            message = json.loads(text)
            if message["type"] not in ("state", "action"):
                continue
            state = snapshot.merge(state, message)
            game, deal = state["game"], state["deal"]
            if game["over"] or (moves is not None and made >= moves):
                return state, texts
            if (game["waiting_for_next"] and deal["index"] + 1 == game["next_deal"]) or (
                deal["my_turn"] and not game["waiting_for_next"]
            ):
                await socket.send(json.dumps(choose(state)))
                made += 1


async def one_message(
    server: RunningServer, game_id: int, client: httpx.Client, ask: dict[str, Any], answer: str = "error"
) -> dict[str, Any]:
    """Send one message to a table when it is the seat's turn (its ``seq`` filled in); the first answer of type
    ``answer``."""
    url = f"ws://127.0.0.1:{server.port}/ws/games/{game_id}"
    async with connect(url, additional_headers={"Cookie": cookie_header(client)}) as socket:
        state: dict[str, Any] = {}
        while not state or not (state["deal"]["my_turn"] or state["game"]["waiting_for_next"]):
            message = json.loads(await asyncio.wait_for(socket.recv(), TIMEOUT))
            if message["type"] in ("state", "action"):
                state = snapshot.merge(state, message)
        await socket.send(json.dumps({"seq": state["seq"], **ask}))
        while True:
            message = json.loads(await asyncio.wait_for(socket.recv(), TIMEOUT))
            if message["type"] == answer:
                reply: dict[str, Any] = message
                return reply


def close_now(server: RunningServer, event_id: int) -> None:
    """Close the event now (the clock's stand-in: moves its closing time to a second ago)."""

    async def main() -> None:
        store = DuplicateStore(server.database_url)
        try:
            await store.move_close(event_id, utc_now() - timedelta(seconds=1))
        finally:
            await store.close()

    run_async(main)


def numbers_of(server: RunningServer, event_id: int) -> tuple[int, ...]:
    """The event's secret numbers, read from its row."""

    async def main() -> tuple[int, ...]:
        store = DuplicateStore(server.database_url)
        try:
            event = await store.event(event_id)
            assert event is not None
            revealed = event.revealed(event.closes_at)  # as they will be at the close
            assert revealed is not None
            return revealed[0]
        finally:
            await store.close()

    return run_async(main)


def logs_of(server: RunningServer, game_ids: list[int]) -> list[list[str]]:
    """Each game's action log, as ``seat action`` texts."""

    async def main() -> list[list[str]]:
        store = Store(server.database_url)
        try:
            return [[f"{a.seat} {a.action}" for a in (await store.load(g)).actions] for g in game_ids]
        finally:
            await store.close()

    return run_async(main)


def numbers_that_deal(texts: list[str], rules: Rules, number: int) -> set[int]:
    """Every whole number in ``texts`` that deals the same first hands as ``number`` would: a number that
    rebuilds the hidden hands, whatever form it was sent in (the deal number itself, or another that deals alike)."""
    real = Game(rules, number).deals[0].hands_dealt
    found = {int(n) for text in texts for n in re.findall(r"\d+", text) if int(n) <= MAX_DEAL_NUMBER}
    return {n for n in found if Game(rules, n).deals[0].hands_dealt == real}
