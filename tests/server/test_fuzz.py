"""Hypothesis sends malformed and hostile input to every HTTP endpoint and every socket message type.

Whatever arrives, the answer is a refusal or a result, never a server error; a refusal never repeats what was
sent; and nothing refused changes a game: its record is the same after the storm as before.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.routing import Mount

from ohhell.site.app import create_app
from ohhell.web.config import ServerConfig

MARK = "Zq9Marker"
"""A string that hostile input carries, so that an answer repeating it can be caught."""

hostile_text = st.one_of(
    st.text(max_size=40),
    st.sampled_from(
        [
            "",
            "0",
            "-1",
            "1e400",
            "NaN",
            "Infinity",
            "99999999999999999999999",
            str(2**31),
            str(2**63),
            "../../etc/passwd",
            "%00",
            "<script>alert(1)</script>",
            '=HYPERLINK("http://x")',
            "☃" * 30,
            MARK * 10,
        ]
    ),
)
json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    hostile_text,
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(hostile_text, inner, max_size=5),
    max_leaves=20,
)
raw_bodies = st.one_of(
    json_values.map(lambda v: json.dumps(v).encode()),
    st.binary(max_size=200),
    st.sampled_from([b'{"preset": NaN}', b'{"number": Infinity}', b"[" * 500, b'{"a": 1e999}', b"\xff\xfe\x00"]),
)
forms = st.fixed_dictionaries(
    {},
    optional={
        "preset": st.one_of(hostile_text, st.sampled_from(["short", "full", "magicians", "up-and-down"])),
        "name": hostile_text,
        "names": st.lists(hostile_text, max_size=8),
        "computers": st.lists(st.dictionaries(st.sampled_from(["name", "level"]), hostile_text), max_size=8),
        "settings": st.dictionaries(st.sampled_from(["schedule", "hook", "scoring", "trump"]), json_values),
        "number": st.integers(min_value=-(2**70), max_value=2**70),
        "seen": st.integers(min_value=-(2**70), max_value=2**70),
        "entry": st.dictionaries(st.sampled_from(["type", "bid", "trump", "tricks", "seat"]), json_values),
    },
)


def routes(app: Any) -> list[tuple[str, str]]:
    """Every HTTP endpoint of the site, as ``(method, path template)``."""
    found: list[tuple[str, str]] = []
    for route in app.routes:
        if isinstance(route, APIRoute):
            found.extend((method, route.path) for method in sorted(route.methods or ()))
        elif isinstance(route, Mount):
            found.append(("GET", route.path + "/{name}"))
    return found


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, int, str]]:
    """A site on a fresh SQLite file, one game of the client's in it, and its record."""
    folder: Path = tmp_path_factory.mktemp("fuzz")
    with TestClient(create_app(ServerConfig(f"sqlite:///{folder / 'fuzz.sqlite3'}", animation_scale=0))) as client:
        client.get("/").raise_for_status()
        game = client.post("/api/games", json={"preset": "short"}).json()
        record = client.get(f"/api/games/{game['id']}/record").text
        yield client, game["id"], record


def check_answer(status: int, text: str, sent: str) -> None:
    assert status < 500, (status, text[:300])
    if status >= 400 and MARK in sent:
        assert MARK not in text, text[:300]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_every_http_endpoint_refuses_hostile_input_without_a_server_error(
    site: tuple[TestClient, int, str], data: st.DataObject
) -> None:
    client, game_id, _ = site
    method, template = data.draw(st.sampled_from(routes(client.app)), label="endpoint")
    path = re.sub(
        r"\{(\w+)(:\w+)?\}",
        lambda m: (
            quote(str(data.draw(st.one_of(st.just(str(game_id)), hostile_text), label=m.group(1))), safe="") or "x"
        ),
        template,
    )
    query = data.draw(st.dictionaries(st.sampled_from(["seen", "paper", "preset", "players", "format"]), hostile_text))
    if method in ("POST", "PUT", "PATCH", "DELETE"):
        body = data.draw(st.one_of(forms.map(lambda f: json.dumps(f).encode()), raw_bodies), label="body")
        response = client.request(
            method, path, params=query, content=body, headers={"Content-Type": "application/json"}
        )
        sent = body.decode("utf-8", "replace") + json.dumps(query)
    else:
        response = client.request(method, path, params=query, headers={"Accept": "text/html"})
        sent = path + json.dumps(query)
    check_answer(response.status_code, response.text, sent)


MESSAGE_TYPES = ["bid", "change", "play", "trump", "resign", "next", "hint", "show_hands", "sync", "cheat"]
socket_messages = st.one_of(
    st.fixed_dictionaries(
        {"type": st.sampled_from(MESSAGE_TYPES)},
        optional={
            "bid": json_values,
            "card": st.one_of(hostile_text, st.sampled_from(["AS", "QH", "10D", "MG", "JE", "ZZ"])),
            "suit": st.one_of(hostile_text, st.sampled_from(["S", "H", "D", "C", "NT"])),
            "seq": st.one_of(st.integers(min_value=-(2**70), max_value=2**70), json_values),
            "deal": st.one_of(st.integers(min_value=-5, max_value=2**40), json_values),
            "seat": st.integers(min_value=-3, max_value=9),
        },
    ).map(json.dumps),
    json_values.map(json.dumps),
    st.text(max_size=300),
    st.sampled_from(['{"type": "bid", "bid": 1, "seq": NaN, "deal": 0}', "{" * 1000, "x" * 5000]),
)


TERMINATOR = json.dumps({"type": "show_hands", "deal": 100_000})
"""Always refused (no such hand), so its error closes the answer to the message sent before it."""


def settled_state(client: TestClient, game_id: int) -> dict[str, Any]:
    """The table once the computer players have stopped acting: it waits for the person (their turn, Next hand, or
    the game over), and reads the same twice. Not two equal readings alone: on a loaded machine a computer player
    may take longer to choose than the pause between them."""
    previous: dict[str, Any] | None = None
    for _ in range(250):
        with client.websocket_connect(f"/ws/games/{game_id}") as socket:
            state: dict[str, Any] = socket.receive_json()
        game, deal = state.get("game") or {}, state.get("deal") or {}
        waits = bool(deal.get("my_turn") or game.get("over") or game.get("waiting_for_next"))
        if waits and state == previous:
            return state
        previous = state
        time.sleep(0.02)
    raise AssertionError("the computer players did not stop")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(messages=st.lists(socket_messages, min_size=1, max_size=6))
def test_every_socket_message_type_refuses_hostile_input_and_changes_nothing(
    site: tuple[TestClient, int, str], messages: list[str]
) -> None:
    client, game_id, _ = site
    for text in messages:
        before = settled_state(client, game_id)
        replies = []
        with client.websocket_connect(f"/ws/games/{game_id}") as socket:
            assert socket.receive_json() == before
            socket.send_text(text)
            socket.send_text(TERMINATOR)
            while True:
                reply = socket.receive_json()
                assert reply["type"] in ("state", "error", "hint", "hands", "action", "notice"), reply
                if reply["type"] == "error":
                    assert reply["code"] != "server-error", (text, reply)
                    assert MARK not in reply["message"]
                    if reply["code"] == "not-allowed" and reply["message"].startswith("Show All Hands"):
                        break
                replies.append(reply)
        if not any(r["type"] in ("action", "state") for r in replies):  # refused, or only asked: nothing changed
            assert settled_state(client, game_id) == before, text
