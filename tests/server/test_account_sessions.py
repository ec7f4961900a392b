"""Accounts that stay theirs: an old guest token acts as nobody, ended sessions end their sockets on every process,
and the sign-in limit holds under tries sent at once; on SQLite and PostgreSQL, and across two processes."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from ohhell.server.table import snapshot
from ohhell.web.accounts.sessions import SESSION_COOKIE
from ohhell.web.accounts.sockets import SIGNED_OUT_CODE
from server.accounts import CSRF, post_form, signed_in, signed_up
from server.serving import (
    REDIS,
    RunningServer,
    fresh_postgres,
    player,
    require_services,
    run_async,
    start_game,
    token_of,
)

CLOSE_SECONDS = 10.0
"""How long a socket may take to be closed once its session ended (it is marked at once; the close is a bound)."""


def unique(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:6]}"


@pytest.fixture(params=["sqlite", "postgresql"])
def running(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[RunningServer]:
    """One server on a fresh SQLite file or PostgreSQL database."""
    if request.param == "sqlite":
        server = RunningServer(f"sqlite:///{tmp_path / 'games.sqlite3'}", log_path=tmp_path / "server.log").start()
        yield server
        server.stop()
        return
    require_services()
    with fresh_postgres() as url:
        server = RunningServer(url, log_path=tmp_path / "server.log").start()
        yield server
        server.stop()


def cookies_of(client: httpx.Client) -> dict[str, str]:
    """The client's cookies as a socket sends them."""
    return {"Cookie": "; ".join(f"{name}={value}" for name, value in client.cookies.items())}


def socket_url(server: RunningServer, game_id: int) -> str:
    return f"ws://127.0.0.1:{server.port}/ws/games/{game_id}"


def account_id_of(client: httpx.Client) -> int:
    found = re.search(r"/club/players/(\d+)", client.get("/account").text)
    assert found is not None
    return int(found.group(1))


async def my_turn(socket: ClientConnection) -> dict[str, Any]:
    """Read the table until it is the seat's turn; a legal move then (the first bid or card allowed)."""
    state: dict[str, Any] = {}
    async with asyncio.timeout(30):
        while True:
            message = json.loads(await socket.recv())
            if message["type"] in ("state", "action"):
                state = snapshot.merge(state, message)
                deal = state["deal"]
                if deal["my_turn"]:
                    if deal["bids"]:
                        bid = next(o["bid"] for o in deal["bids"] if o["allowed"])
                        return {"type": "bid", "bid": bid, "seq": state["seq"], "deal": deal["index"]}
                    return {"type": "play", "card": deal["playable"][0], "seq": state["seq"], "deal": deal["index"]}


async def closed_code(socket: ClientConnection) -> int | None:
    """Read until the server closes the socket; its close code."""
    async with asyncio.timeout(CLOSE_SECONDS):
        try:
            while True:
                await socket.recv()
        except ConnectionClosed as closed:
            return None if closed.rcvd is None else closed.rcvd.code


def actions_of(client: httpx.Client, game_id: int) -> int:
    """How many actions the game's record holds (asked by a browser of the account)."""
    response = client.get(f"/api/games/{game_id}/replay")
    response.raise_for_status()
    return len(response.json()["actions"])


# ----------------------------------------------------------------- an old guest token acts as nobody


def copy_of(server: RunningServer, token: str) -> httpx.Client:
    """A browser that sends the player token ``token`` on every request, whatever it is told to keep."""
    return httpx.Client(base_url=server.url, timeout=10, headers={"Cookie": f"ohhell_player={token}"})


def test_an_old_copy_of_the_guest_token_reaches_none_of_the_accounts_games(running: RunningServer) -> None:
    attacker = player(running)
    kept = token_of(attacker)
    code = attacker.post("/api/transfer").json()["code"]  # the attacker's own token, handed to the victim
    victim = player(running)
    assert victim.post("/api/transfer/redeem", json={"code": code}).status_code == 200
    assert token_of(victim) == kept
    old = start_game(victim)
    assert copy_of(running, kept).get("/api/games").json()[0]["id"] == old["id"]  # a guest's games: shared so far
    assert post_form(victim, "/signup", "/signup", name=unique("Vi"), password="a long secret").status_code == 303
    new = start_game(victim)
    assert {g["id"] for g in victim.get("/api/games").json()} == {old["id"], new["id"]}
    assert post_form(victim, "/account", "/signout-everywhere").status_code == 303  # and signing out changes nothing

    with copy_of(running, kept) as copy:
        assert copy.get("/api/games").json() == []
        answer = copy.get("/")
        assert f"ohhell_player={kept}" not in answer.headers.get("set-cookie", "")
        assert "ohhell_player=" in answer.headers.get("set-cookie", "")  # a fresh guest token in its place
        for game in (old, new):
            assert copy.get(f"/api/games/{game['id']}/record").status_code == 403
            assert copy.get(f"/api/games/{game['id']}/replay").status_code == 403
            assert copy.get(game["url"], headers={"Accept": "text/html"}).status_code == 403
            assert copy.post(f"/api/games/{game['id']}/replay-deal").status_code == 403

    async def sockets_of_the_copy() -> list[int]:
        refusals = []
        for game in (old, new):
            with pytest.raises(InvalidStatus) as refused:
                async with connect(
                    socket_url(running, game["id"]), additional_headers={"Cookie": f"ohhell_player={kept}"}
                ):
                    pass
            refusals.append(refused.value.response.status_code)
        return refusals

    assert run_async(sockets_of_the_copy) == [403, 403]  # refused before it is opened: it is nobody's socket


# ----------------------------------------------------------------- ended sessions end their sockets, on every process


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RunningServer, RunningServer]]:
    """Two processes on one fresh PostgreSQL database and the local Redis, for this module's tests."""
    require_services(redis_too=True)
    folder = tmp_path_factory.mktemp("pair")
    with fresh_postgres() as url:
        servers: list[RunningServer] = []
        try:
            for index in range(2):
                extra = ["--redis", REDIS, "--computer-processes", "0"]
                servers.append(RunningServer(url, log_path=folder / f"server-{index}.log", extra=extra).start())
            yield servers[0], servers[1]
        finally:
            for server in servers:
                server.stop()


def logged_actions(server: RunningServer, game_id: int) -> int:
    """How many actions of the game are stored (read from the database)."""
    import psycopg

    with psycopg.connect(server.database_url) as connection:
        row = connection.execute("SELECT count(*) FROM actions WHERE game_id = %s", (game_id,)).fetchone()
    assert row is not None
    return int(row[0])


def end_session(way: str, here: httpx.Client, there: httpx.Client) -> None:
    """End ``there``'s session by ``way``, from the browser ``here`` (signed in to the same account)."""
    if way == "sign-out":
        response = post_form(there, "/account", "/signout")
    elif way == "sign-out-everywhere":
        response = post_form(here, "/account", "/signout-everywhere")
    elif way == "new-password":
        response = post_form(here, "/account", "/account/password", password="a long secret", new_password="a new one")
    else:
        response = post_form(here, "/account", "/account/delete", password="a long secret")
    assert response.status_code in (200, 303), response.text


@pytest.mark.parametrize("way", ["sign-out", "sign-out-everywhere", "new-password", "delete"])
def test_an_ended_session_ends_its_sockets_on_every_process(
    pair: tuple[RunningServer, RunningServer], way: str
) -> None:
    first, second = pair
    name = unique("So")
    here = signed_up(first, name)  # a browser on the first process
    there = signed_in(second, name)  # another browser, its socket on the second process
    game = start_game(there)

    async def scenario() -> tuple[int | None, int, int]:
        async with connect(socket_url(second, game["id"]), additional_headers=cookies_of(there)) as socket:
            move = await my_turn(socket)
            before = logged_actions(second, game["id"])
            await asyncio.to_thread(end_session, way, here, there)
            with contextlib.suppress(ConnectionClosed):
                await socket.send(json.dumps(move))  # a move sent once the session has ended goes nowhere
            code = await closed_code(socket)
        return code, before, logged_actions(second, game["id"])

    code, before, after = run_async(scenario)
    assert code == SIGNED_OUT_CODE
    assert after == before
    assert there.get("/account").status_code == 303  # and the browser is signed out at its next page
    if way == "new-password":
        page = here.get("/account")
        assert page.status_code == 200 and name in page.text  # the browser that changed it stays signed in
        assert here.cookies.get(SESSION_COOKIE)


def test_signing_up_ends_the_sockets_of_the_old_guest_token_on_every_process(
    pair: tuple[RunningServer, RunningServer],
) -> None:
    first, second = pair
    attacker = player(second)
    victim = player(first)
    code = attacker.post("/api/transfer").json()["code"]
    assert victim.post("/api/transfer/redeem", json={"code": code}).status_code == 200
    game = start_game(victim)

    async def scenario() -> tuple[int | None, int, int]:
        async with connect(socket_url(second, game["id"]), additional_headers=cookies_of(attacker)) as socket:
            move = await my_turn(socket)
            before = logged_actions(second, game["id"])
            signup = await asyncio.to_thread(
                post_form, victim, "/signup", "/signup", name=unique("Ve"), password="a long secret"
            )
            assert signup.status_code == 303
            with contextlib.suppress(ConnectionClosed):
                await socket.send(json.dumps(move))
            code = await closed_code(socket)
        return code, before, logged_actions(second, game["id"])

    code, before, after = run_async(scenario)
    assert code == SIGNED_OUT_CODE
    assert after == before
    assert attacker.get("/api/games").json() == []


# ----------------------------------------------------------------- the sign-in limit under tries sent at once


async def tries_at_once(server: RunningServer, client: httpx.Client, names: list[str]) -> list[str]:
    """One wrong password for each of ``names``, all sent at once from one browser; what each answer says."""
    csrf_page = client.get("/signin")
    found = CSRF.search(csrf_page.text)
    assert found is not None
    token = found.group(1)
    limits = httpx.Limits(max_connections=len(names))
    async with httpx.AsyncClient(base_url=server.url, cookies=client.cookies, timeout=60, limits=limits) as browser:
        answers = await asyncio.gather(
            *(browser.post("/signin", data={"csrf": token, "name": n, "password": "not it"}) for n in names)
        )
    return [
        "checked" if "do not match" in a.text else "refused" if "Too many failed attempts" in a.text else a.text
        for a in answers
    ]


def test_the_sign_in_limit_holds_for_tries_sent_at_once(running: RunningServer) -> None:
    name = unique("Li")
    signed_up(running, name)
    client = player(running)
    by_name = run_async(lambda: tries_at_once(running, client, [name] * 40))
    assert set(by_name) <= {"checked", "refused"}
    assert 1 <= by_name.count("checked") <= 5  # at most five passwords of one name are ever checked
    # A try counted while others were written can be refused by one that is then taken back, so fewer than five may
    # have been checked: tries one at a time are checked until five have been, and refused after.
    checked = by_name.count("checked")
    one_by_one = [run_async(lambda: tries_at_once(running, client, [name]))[0] for _ in range(6 - checked)]
    assert one_by_one == ["checked"] * (5 - checked) + ["refused"]
    by_address = run_async(lambda: tries_at_once(running, client, [f"guess{i % 15}" for i in range(60)]))
    assert set(by_address) <= {"checked", "refused"}
    assert 1 <= by_address.count("checked") <= 20 - 5  # twenty from one address in all
    refused = post_form(client, "/signin", "/signin", name=name, password="a long secret")
    assert "Too many failed attempts" in refused.text
