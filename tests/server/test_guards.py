"""Hostile input at a real server: oversized bodies, non-JSON numbers, echo-bait, ids no database can hold.

Each is refused with a clear 4xx that names what was wrong, never a 500, never a traceback in the log, and the
games stay as they were, on SQLite and on the local PostgreSQL.
"""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Iterator

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from server.serving import RunningServer, fresh_postgres, player, require_services, run_async, start_game

HUGE_IDS = ["2147483648", "99999999999999999999", "-1", "0", str(2**63), "1e3", "abc", "%00"]


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def hostile_server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    tmp_path = tmp_path_factory.mktemp(request.param)
    log = tmp_path / "server.log"
    if request.param == "sqlite":
        running = RunningServer(f"sqlite:///{tmp_path / 'games.sqlite3'}", log_path=log).start()
        yield running
        running.stop()
    else:
        require_services()
        with fresh_postgres() as url:
            running = RunningServer(url, log_path=log).start()
            yield running
            running.stop()
    assert "Traceback" not in log.read_text(errors="replace")


def raw_post(server: RunningServer, path: str, head: bytes, body: bytes) -> bytes:
    """A request written by hand (bodies no well-behaved client would send); the whole answer."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=20) as conn:
        conn.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n".encode() + head + b"\r\n")
        with contextlib.suppress(OSError):  # the server may answer and close before reading it all
            conn.sendall(body)
        answer = b""
        with contextlib.suppress(ConnectionResetError):
            while chunk := conn.recv(65536):
                answer += chunk
        return answer


def test_an_oversized_body_is_refused_before_it_is_read(hostile_server: RunningServer) -> None:
    client = player(hostile_server)
    game = start_game(client)
    six_mb = b'{"preset": "short", "name": "' + b"x" * (6 * 1024 * 1024) + b'"}'
    answer = raw_post(
        hostile_server,
        "/api/games",
        b"Content-Type: application/json\r\n" + f"Content-Length: {len(six_mb)}\r\n".encode(),
        six_mb,
    )
    assert answer.startswith(b"HTTP/1.1 413")
    assert len(answer) < 2000 and b"xxxx" not in answer
    chunked = b"".join(b"%x\r\n%s\r\n" % (40000, b"y" * 40000) for _ in range(2))  # no length: counted as read
    answer = raw_post(
        hostile_server, "/api/games", b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n", chunked
    )
    assert answer.startswith(b"HTTP/1.1 413")
    assert client.get(f"/api/games/{game['id']}/record").status_code == 200  # the server carries on


@pytest.mark.parametrize(
    "body",
    [
        b'{"preset": "short", "number": NaN}',
        b'{"preset": "short", "number": Infinity}',
        b'{"preset": "short", "number": -Infinity}',
        b'{"preset": "short", "number": 1e400}',
        b'{"preset": "short"',
        b"\xff\xfe",
    ],
)
def test_what_json_does_not_allow_is_refused_with_400(hostile_server: RunningServer, body: bytes) -> None:
    response = player(hostile_server).post("/api/games", content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == 400
    assert response.json()["detail"].startswith("The request body is not valid JSON")


def test_validation_errors_name_the_field_without_repeating_the_input(hostile_server: RunningServer) -> None:
    client = player(hostile_server)
    bait = "ECHO-" + "z" * 20000
    response = client.post("/api/games", json={"preset": "short", "name": bait, "number": -5, "extra": bait})
    assert response.status_code == 422
    assert "ECHO-" not in response.text and len(response.text) < 2000
    fields = {tuple(problem["loc"]) for problem in response.json()["detail"]}
    assert ("body", "name") in fields and ("body", "number") in fields and ("body", "extra") in fields
    keeper = client.post("/api/keeper/sheets", json={"preset": "short", "names": [bait[:5000]] * 4})
    assert keeper.status_code == 422
    assert "ECHO-" not in keeper.text


def test_ids_no_database_can_hold_name_no_game(hostile_server: RunningServer) -> None:
    client = player(hostile_server)
    start_game(client)
    for game_id in HUGE_IDS:
        for path in (f"/games/{game_id}", f"/api/games/{game_id}/record", f"/api/games/{game_id}/replay"):
            response = client.get(path)
            assert response.status_code == 404, (path, response.status_code)
        assert client.post(f"/api/games/{game_id}/replay-deal").status_code == 404
        assert client.get(f"/api/keeper/sheets/{game_id}").status_code == 404
    page = client.get("/games/99999999999999999999", headers={"Accept": "text/html"})
    assert page.status_code == 404 and "<html" in page.text


def test_a_socket_to_a_game_no_database_can_hold_is_refused(hostile_server: RunningServer) -> None:
    client = player(hostile_server)
    cookie = {"Cookie": f"ohhell_player={client.cookies.get('ohhell_player')}"}

    async def scenario() -> list[int]:
        statuses = []
        for game_id in ("99999999999999999999", "-1", "2147483648"):
            url = f"ws://127.0.0.1:{hostile_server.port}/ws/games/{game_id}"
            with pytest.raises(InvalidStatus) as refused:
                await connect(url, additional_headers=cookie)
            statuses.append(refused.value.response.status_code)
        return statuses

    assert all(status in (403, 404) for status in run_async(scenario))
