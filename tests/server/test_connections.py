"""Connections that cannot hog the server: slow and silent ones closed, forwarded headers only from a named proxy.

Against real ``ohhell serve`` processes on loopback; every wait is bounded.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect

from ohhell.site.deadline import REQUEST_SECONDS
from ohhell.web import identity
from ohhell.web.headers import CONTENT_SECURITY_POLICY
from server.accounts import CSRF
from server.serving import RunningServer, player, run_async, start_game, token_of

SLOW = 30
SILENT = 60
LINE_EVERY = 5.0
"""A header line every 5 seconds (slowloris)."""
BOUND = REQUEST_SECONDS + 8.0
"""Every slow or silent connection must be closed by then (the deadline, and room for a busy machine)."""


async def closed_within(reader: asyncio.StreamReader, seconds: float) -> bool:
    """Whether the server closes the connection within ``seconds`` (reading whatever it sends meanwhile)."""
    try:
        async with asyncio.timeout(seconds):
            while await reader.read(4096):
                pass
        return True
    except TimeoutError:
        return False
    except ConnectionError:
        return True


async def slowloris(port: int) -> bool:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")

    async def trickle() -> None:
        with contextlib.suppress(ConnectionError):
            for line in range(100):
                await asyncio.sleep(LINE_EVERY)
                writer.write(f"X-Slow-{line}: x\r\n".encode())
                await writer.drain()

    dripping = asyncio.create_task(trickle())
    try:
        return await closed_within(reader, BOUND)
    finally:
        dripping.cancel()
        writer.close()


async def silent(port: int) -> bool:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        return await closed_within(reader, BOUND)
    finally:
        writer.close()


def test_slow_and_silent_connections_are_closed_but_a_quiet_game_socket_stays(server: RunningServer) -> None:
    client = player(server)
    game = start_game(client)
    url = f"ws://127.0.0.1:{server.port}/ws/games/{game['id']}"
    headers = {"Cookie": f"{identity.COOKIE}={token_of(client)}"}

    async def scenario() -> tuple[list[bool], list[bool], str]:
        async with connect(url, additional_headers=headers) as socket:
            await asyncio.wait_for(socket.recv(), 20)
            slow = asyncio.gather(*(slowloris(server.port) for _ in range(SLOW)))
            quiet = asyncio.gather(*(silent(server.port) for _ in range(SILENT)))
            async with httpx.AsyncClient(base_url=server.url, timeout=10) as other:
                assert (await other.get("/healthz")).status_code == 200  # a real request is answered meanwhile
            closed_slow, closed_quiet = await slow, await quiet
            await socket.send(json.dumps({"type": "sync"}))  # the game socket sent nothing all that time
            async with asyncio.timeout(20):
                while (answer := json.loads(await socket.recv()))["type"] == "action":  # the computer players' moves
                    pass
        return closed_slow, closed_quiet, answer["type"]

    closed_slow, closed_quiet, answer = run_async(scenario)
    assert all(closed_slow), f"{closed_slow.count(False)} of {SLOW} slowloris connections still open"
    assert all(closed_quiet), f"{closed_quiet.count(False)} of {SILENT} silent connections still open"
    assert answer == "state"


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[RunningServer]:
    """A server that believes the proxy at 127.0.0.1 (as behind nginx on the same machine)."""
    running = RunningServer(
        f"sqlite:///{tmp_path / 'games.sqlite3'}",
        log_path=tmp_path / "server.log",
        extra=["--trusted-proxy", "127.0.0.1"],
    ).start()
    yield running
    running.stop()


FORWARDED_HTTPS = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9"}


def test_every_response_carries_the_security_headers(server: RunningServer) -> None:
    client = player(server)
    game = start_game(client)
    for path in ("/", f"/games/{game['id']}", "/static/game/game.js", "/api/games", "/no-such-page", "/keeper"):
        response = client.get(path)
        assert response.headers["content-security-policy"] == CONTENT_SECURITY_POLICY, path
        assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
        assert "'unsafe-inline'" not in response.headers["content-security-policy"].split("script-src")[1].split(";")[0]
        assert response.headers["referrer-policy"] == "same-origin"
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["x-frame-options"] == "DENY"


def test_forwarded_headers_are_ignored_unless_the_proxy_is_named(server: RunningServer, proxied: RunningServer) -> None:
    untrusted = httpx.get(f"{server.url}/", headers=FORWARDED_HTTPS)  # the default: no proxy believed
    assert "secure" not in untrusted.headers["set-cookie"].lower()
    trusted = httpx.get(f"{proxied.url}/", headers=FORWARDED_HTTPS)
    cookies = trusted.headers.get_list("set-cookie")
    assert cookies and all("; Secure" in cookie for cookie in cookies)
    plain = httpx.get(f"{proxied.url}/")  # the proxy says http: no Secure
    assert "secure" not in plain.headers["set-cookie"].lower()


def test_every_cookie_the_site_sets_is_secure_behind_https(proxied: RunningServer) -> None:
    """The guest's token and the CSRF token on the first page, the session on signing up: each ``Secure``.

    The cookies are carried by hand: a client keeps ``Secure`` cookies from plain-http URLs, as a browser would."""
    with httpx.Client(base_url=proxied.url, headers=FORWARDED_HTTPS, timeout=10) as client:
        form = client.get("/signup")
        first = form.headers.get_list("set-cookie")
        jar = "; ".join(cookie.split(";")[0] for cookie in first)
        csrf = CSRF.search(form.text)
        assert csrf is not None
        fields = {"csrf": csrf.group(1), "name": "Secure Sam", "password": "a long secret"}
        client.cookies.clear()
        signup = client.post("/signup", data=fields, headers={"Cookie": jar}, follow_redirects=False)
    assert signup.status_code == 303, signup.text
    cookies = first + signup.headers.get_list("set-cookie")
    names = {cookie.split("=")[0] for cookie in cookies}
    assert {identity.COOKIE, "ohhell_csrf"} < names, names  # and the session's
    assert all("; Secure" in cookie for cookie in cookies), cookies
