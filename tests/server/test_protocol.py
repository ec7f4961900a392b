"""The WebSocket protocol, with real clients against a running server: bad input changes nothing, and no
message to a seat ever names a card of another seat's hidden hand."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from ohhell import records
from ohhell.records import hidden_cards
from ohhell.server.table import snapshot
from ohhell.web import identity
from server.leaks import cards_mentioned
from server.serving import RunningServer, player, run_async, start_game, token_of

TIMEOUT = 20.0


@dataclass
class Peer:
    """A WebSocket client of one seat that keeps every message with the moment it was sent at."""

    socket: ClientConnection
    received: list[tuple[int, int, dict[str, Any]]] = field(default_factory=list)
    """``(deal shown, actions so far, message)`` for every message."""
    state: dict[str, Any] = field(default_factory=dict)

    async def receive(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(self.socket.recv(), TIMEOUT))
        if message["type"] in ("state", "action"):
            self.state = snapshot.merge(self.state, message)
        self.received.append((self.state["deal"]["index"], self.state["seq"], message))
        return message

    async def until_my_turn(self) -> dict[str, Any]:
        """Read messages until the person is to act, the hand waits for Next hand, or the game is over."""
        while True:
            await self.receive()
            game, deal = self.state["game"], self.state["deal"]
            if game["over"] or game["waiting_for_next"] or deal["my_turn"]:
                return self.state

    async def send(self, message: dict[str, Any] | str | bytes) -> None:
        await self.socket.send(message if isinstance(message, (str, bytes)) else json.dumps(message))


def socket_url(server: RunningServer, game_id: int) -> str:
    return f"ws://127.0.0.1:{server.port}/ws/games/{game_id}"


def cookie(client: httpx.Client) -> dict[str, str]:
    return {"Cookie": f"{identity.COOKIE}={token_of(client)}"}


def bad_messages(seq: int, size: int) -> list[tuple[str | bytes, str]]:
    """Messages that must be refused while the person is to bid (in hand 1), with the error code each gets."""
    other = seq - 1 if seq else seq + 1
    return [
        (f'{{"type": "bid", "bid": 1, "seq": {seq}}}', "bad-message"),
        (f'{{"type": "bid", "bid": 1, "seq": {seq}, "deal": 1}}', "stale"),
        ('{"type": "bid", "bid": 1, "seq": NaN, "deal": 0}', "bad-message"),
        (f'{{"type": "bid", "bid": 1, "seq": {10**30}, "deal": 0}}', "bad-message"),
        (f'{{"type": "bid", "bid": Infinity, "seq": {seq}, "deal": 0}}', "bad-message"),
        ("not json", "bad-message"),
        ("[1, 2]", "bad-message"),
        ('{"type": "cheat"}', "bad-message"),
        ('{"type": "bid"}', "bad-message"),
        (f'{{"type": "bid", "bid": "1", "seq": {seq}, "deal": 0}}', "bad-message"),
        (f'{{"type": "bid", "bid": true, "seq": {seq}, "deal": 0}}', "bad-message"),
        (f'{{"type": "bid", "bid": 1, "seq": {seq}, "seat": 2}}', "bad-message"),
        (f'{{"type": "bid", "bid": 1, "seq": {other}, "deal": 0}}', "stale"),
        (f'{{"type": "bid", "bid": {size + 1}, "seq": {seq}, "deal": 0}}', "bid-out-of-range"),
        (f'{{"type": "bid", "bid": -1, "seq": {seq}, "deal": 0}}', "bad-message"),
        (f'{{"type": "play", "card": "AS", "seq": {seq}, "deal": 0}}', "unexpected-action"),
        (f'{{"type": "play", "card": "ZZ", "seq": {seq}, "deal": 0}}', "bad-message"),
        (f'{{"type": "trump", "suit": "H", "seq": {seq}, "deal": 0}}', "unexpected-action"),
        (f'{{"type": "change", "bid": 1, "seq": {seq}, "deal": 0}}', "bid-change-not-allowed"),
        ('{"type": "next", "deal": 1}', "unexpected-action"),
        ('{"type": "resign"}', "bad-message"),
        (f'{{"type": "resign", "seq": {seq}, "seat": 2}}', "bad-message"),
        ('{"type": "show_hands", "deal": 0}', "not-allowed"),
        ('{"type": "bid", "bid": 1, "seq": 0, "pad": "' + "x" * 4000 + '"}', "bad-message"),
        (b"\x00\x01binary", "bad-message"),
    ]


def test_bad_input_gets_an_error_and_changes_nothing(server: RunningServer) -> None:
    client = player(server)
    game = start_game(client)
    record_before = client.get(f"/api/games/{game['id']}/record").json()

    async def scenario() -> None:
        async with connect(socket_url(server, game["id"]), additional_headers=cookie(client)) as socket:
            peer = Peer(socket)
            state = await peer.until_my_turn()
            assert state["deal"]["phase"] == "bidding"
            for message, code in bad_messages(state["seq"], state["deal"]["size"]):
                await peer.send(message)
                reply = await peer.receive()
                assert reply["type"] == "error", message
                assert reply["code"] == code, (message, reply)
                assert reply["message"]
                if code == "stale":
                    assert await peer.receive() == state  # the sender is shown the table as it is
            await peer.send({"type": "sync"})
            assert await peer.receive() == state

    run_async(scenario)
    assert client.get(f"/api/games/{game['id']}/record").json() == record_before


def test_a_connection_without_the_seats_cookie_is_turned_away(server: RunningServer) -> None:
    owner = player(server)
    game = start_game(owner)
    stranger = player(server)

    async def scenario() -> None:
        for headers in (cookie(stranger), {}):
            with pytest.raises(InvalidStatus):
                async with connect(socket_url(server, game["id"]), additional_headers=headers):
                    pass
        with pytest.raises(InvalidStatus):
            async with connect(socket_url(server, 999_999), additional_headers=cookie(owner)):
                pass

    run_async(scenario)


def test_a_page_of_another_site_may_not_open_the_game(server: RunningServer) -> None:
    client = player(server)
    game = start_game(client)

    async def scenario() -> None:
        headers = {**cookie(client), "Origin": "http://evil.example"}
        with pytest.raises(InvalidStatus):
            await connect(socket_url(server, game["id"]), additional_headers=headers)
        headers = {**cookie(client), "Origin": server.url}
        async with connect(socket_url(server, game["id"]), additional_headers=headers) as socket:
            assert (await Peer(socket).receive())["type"] == "state"

    run_async(scenario)


async def read_all(peer: Peer, codes: list[str]) -> None:
    """Read until the connection ends, keeping the error codes."""
    while True:
        message = await peer.receive()
        if message["type"] == "error":
            codes.append(message["code"])


@pytest.fixture
def strict(tmp_path: Path) -> Iterator[RunningServer]:
    """A server with the default limits (the shared one lifts them)."""
    running = RunningServer(f"sqlite:///{tmp_path / 'games.sqlite3'}", limits=()).start()
    yield running
    running.stop()


def test_a_flood_of_messages_is_refused_then_closed(strict: RunningServer) -> None:
    server = strict
    client = player(server)
    game = start_game(client)

    async def scenario() -> list[str]:
        codes: list[str] = []
        async with connect(socket_url(server, game["id"]), additional_headers=cookie(client)) as socket:
            peer = Peer(socket)
            await peer.until_my_turn()
            for _ in range(700):
                await peer.send({"type": "hint"})
            with pytest.raises(ConnectionClosed) as closed:
                await read_all(peer, codes)
        assert closed.value.rcvd is not None
        assert closed.value.rcvd.code == 1008
        return codes

    codes = run_async(scenario)
    assert "too-fast" in codes
    assert client.get(f"/api/games/{game['id']}/record").status_code == 200  # the server carries on


def test_across_a_whole_game_no_message_names_another_seats_hidden_card(server: RunningServer) -> None:
    client = player(server)
    game = start_game(
        client, computers=[{"name": n, "level": lv} for n, lv in (("Ann", "easy"), ("Ben", "normal"), ("Cy", "easy"))]
    )
    refused: list[str] = []

    async def scenario() -> Peer:
        async with connect(socket_url(server, game["id"]), additional_headers=cookie(client)) as socket:
            peer = Peer(socket)
            while True:
                state = await peer.until_my_turn()
                if state["game"]["over"]:
                    return peer
                if state["game"]["waiting_for_next"]:
                    await peer.send({"type": "show_hands", "deal": state["deal"]["index"]})
                    assert (await peer.receive())["type"] == "hands"
                    await peer.send({"type": "next", "deal": state["game"]["next_deal"]})
                    continue
                deal = state["deal"]
                await peer.send({"type": "hint"})
                hinted = await peer.receive()
                assert hinted["type"] == "hint", hinted
                if deal["bids"]:
                    forbidden = [o["bid"] for o in deal["bids"] if not o["allowed"]]
                    if forbidden:
                        await peer.send(
                            {"type": "bid", "bid": forbidden[0], "seq": state["seq"], "deal": deal["index"]}
                        )
                        reply = await peer.receive()
                        assert reply["code"] == "hook"
                        refused.append(reply["message"])
                    allowed = next(o["bid"] for o in deal["bids"] if o["allowed"])
                    await peer.send({"type": "bid", "bid": allowed, "seq": state["seq"], "deal": deal["index"]})
                else:
                    for card, reason in deal["unplayable"].items():
                        await peer.send({"type": "play", "card": card, "seq": state["seq"], "deal": deal["index"]})
                        reply = await peer.receive()
                        assert reply["code"] == "must-follow-suit"
                        assert reply["message"] == reason
                        refused.append(reason)
                        break
                    await peer.send(
                        {"type": "play", "card": deal["playable"][0], "seq": state["seq"], "deal": deal["index"]}
                    )

    peer = run_async(scenario)
    record = client.get(f"/api/games/{game['id']}/record").json()
    status, result = records.check(record)
    assert status == 0 and result["complete"]
    assert result["totals"] == peer.state["sheet"]["totals"]
    hidden = hidden_cards(record, seat=0)
    seen = 0
    for deal_index, seq, message in peer.received:
        named = cards_mentioned(message)
        seen += len(named)
        leaked = named & hidden[(deal_index, seq)]
        assert not leaked, (message["type"], leaked)
    assert seen > 100
    assert any(text.startswith("You must follow") for text in refused)
