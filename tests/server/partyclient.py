"""Real WebSocket clients at a table of several people: the host, friends through the invite link, spectators."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from ohhell.server.table import snapshot
from server.serving import RunningServer, player, token_of

TIMEOUT = 20.0


def new_table(
    server: RunningServer,
    friends: list[int],
    computers: int = 3,
    host_name: str = "Ann",
    preset: str = "short",
    settings: dict[str, Any] | None = None,
    **table: Any,
) -> tuple[httpx.Client, int]:
    """A host's client and the id of a game (``short`` unless told) whose ``friends`` seats wait for friends."""
    client = player(server)
    body: dict[str, Any] = {
        "preset": preset,
        "name": host_name,
        "computers": [{"name": f"Bot{i}", "level": "easy"} for i in range(1, computers + 1)],
        "friends": friends,
        "table": table,
    }
    if settings is not None:
        body["settings"] = settings
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return client, int(response.json()["id"])


@dataclass
class Client:
    """One socket: every message it received, the state merged as the page does, the last people message."""

    socket: ClientConnection
    texts: list[str] = field(default_factory=list)
    state: dict[str, Any] = field(default_factory=dict)
    people: dict[str, Any] = field(default_factory=dict)
    chat: list[dict[str, Any]] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    moved: str | None = None

    async def receive(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        text = await asyncio.wait_for(self.socket.recv(), timeout)
        assert isinstance(text, str)
        self.texts.append(text)
        message: dict[str, Any] = json.loads(text)
        kind = message["type"]
        if kind in ("state", "action") and (self.state or kind == "state"):
            self.state = snapshot.merge(self.state, message)
        elif kind == "people":
            self.people = message
        elif kind == "chat":
            self.chat.extend(message["lines"])
        elif kind == "error":
            self.errors.append(message)
        elif kind == "moved":
            self.moved = message["url"]
        return message

    async def until(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Read until a message of ``kind`` (with those field values) comes."""
        while True:
            message = await self.receive()
            if message["type"] == kind and all(message.get(k) == v for k, v in fields.items()):
                return message

    async def send(self, message: dict[str, Any] | str) -> None:
        await self.socket.send(message if isinstance(message, str) else json.dumps(message))

    def my_turn(self) -> bool:
        if not self.state:
            return False
        game, deal = self.state["game"], self.state["deal"]
        return not game["over"] and not game["waiting_for_next"] and bool(deal["my_turn"])

    def first_move(self) -> dict[str, Any]:
        deal = self.state["deal"]
        if deal["trumps"]:
            move: dict[str, Any] = {"type": "trump", "suit": deal["trumps"][0]}
        elif deal["bids"]:
            move = {"type": "bid", "bid": next(o["bid"] for o in deal["bids"] if o["allowed"])}
        else:
            move = {"type": "play", "card": deal["playable"][0]}
        return {**move, "seq": self.state["seq"], "deal": deal["index"]}


def cookie_of(client: httpx.Client) -> dict[str, str]:
    return {"Cookie": f"ohhell_player={token_of(client)}"}


async def seat_socket(server: RunningServer, game_id: int, client: httpx.Client) -> Client:
    url = f"ws://127.0.0.1:{server.port}/ws/games/{game_id}"
    return Client(await connect(url, additional_headers=cookie_of(client)))


async def watch_socket(server: RunningServer, code: str, name: str = "Dee") -> Client:
    return Client(await connect(f"ws://127.0.0.1:{server.port}/ws/watch/{code}?name={name}"))


def join(server: RunningServer, code: str, seat: int, name: str) -> httpx.Client:
    """A new browser that takes ``seat`` through the invite link."""
    client = player(server)
    response = client.post(f"/api/join/{code}", json={"name": name, "seat": seat})
    assert response.status_code == 201, response.text
    return client


async def play_to_the_end(
    people: list[Client], watchers: list[Client], limit: float = 120.0, moves: int | None = None
) -> None:
    """Every person plays the first legal move when it is their turn; the first presses Next hand.

    With ``moves``: until every person's table has had that many actions (not to the end).
    """

    def done(client: Client) -> bool:
        if not client.state:
            return False
        return bool(client.state["game"]["over"]) or (moves is not None and client.state["seq"] >= moves)

    async def person(client: Client, first: bool) -> None:
        while True:
            game = client.state.get("game") if client.state else None
            if done(client):
                return
            if client.my_turn():
                await client.send(client.first_move())
            elif first and game is not None and game["waiting_for_next"]:
                await client.send({"type": "next", "deal": game["next_deal"]})
            await client.receive()

    async def watcher(client: Client) -> None:
        while not done(client):
            await client.receive()

    await asyncio.wait_for(
        asyncio.gather(*(person(c, i == 0) for i, c in enumerate(people)), *(watcher(w) for w in watchers)), limit
    )
