"""Play whole series over the real WebSocket, as each person's browser would (its cookies, session included)."""

from __future__ import annotations

import asyncio
import json
from typing import Any, Final

import httpx
from websockets.asyncio.client import connect

from ohhell.server.table import snapshot
from server.serving import RunningServer

TIMEOUT: Final = 30.0


def cookie_header(client: httpx.Client) -> str:
    """The Cookie header a browser holding ``client``'s cookies sends."""
    return "; ".join(f"{name}={value}" for name, value in client.cookies.items())


def first_move(state: dict[str, Any]) -> dict[str, Any]:
    """The lowest allowed bid, the first playable card, or Next hand."""
    deal = state["deal"]
    if state["game"]["waiting_for_next"]:
        return {"type": "next", "deal": state["game"]["next_deal"]}
    if deal["bids"]:
        move: dict[str, Any] = {"type": "bid", "bid": next(o["bid"] for o in deal["bids"] if o["allowed"])}
    else:
        move = {"type": "play", "card": deal["playable"][0]}
    return {**move, "seq": state["seq"], "deal": deal["index"]}


async def play_series(
    server: RunningServer,
    game_id: int,
    client: httpx.Client,
    give_up_at_deal: int | None = None,
    start: bool = False,
) -> dict[str, Any]:
    """Play one seat to the end of the series (or give up when deal ``give_up_at_deal`` starts); the last state.

    ``start``: the host of a table of several people, whose friends have taken their seats, starts the game."""
    url = f"ws://127.0.0.1:{server.port}/ws/games/{game_id}"
    state: dict[str, Any] = {}
    async with connect(url, additional_headers={"Cookie": cookie_header(client)}) as socket:
        if start:
            await socket.send(json.dumps({"type": "start"}))
        while True:
            message = json.loads(await asyncio.wait_for(socket.recv(), TIMEOUT))
            if message["type"] not in ("state", "action"):
                continue
            state = snapshot.merge(state, message)
            game, deal = state["game"], state["deal"]
            if game["over"]:
                return state
            if give_up_at_deal is not None and deal["index"] == give_up_at_deal and deal["my_turn"]:
                await socket.send(json.dumps({"type": "resign", "seq": state["seq"]}))
                continue
            if (game["waiting_for_next"] and deal["index"] + 1 == game["next_deal"]) or (
                deal["my_turn"] and not game["waiting_for_next"]
            ):
                await socket.send(json.dumps(first_move(state)))
