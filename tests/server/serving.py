"""Run ``ohhell serve`` as a real server process for the protocol and browser tests, and talk to it."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, TypeVar

import httpx

from ohhell.web import identity

T = TypeVar("T")

FAST: Final = 0.02
"""Animation scale for tests: every pause of the table is 2% of what a person sees."""
STARTUP_SECONDS: Final = 60.0
RELAXED_LIMITS: Final = (
    "--sockets-per-address",
    "100000",
    "--messages-per-person",
    "100000",
    "--messages-per-address",
    "100000",
    "--new-games-per-address",
    "100000",
    "--new-games-per-player",
    "100000",
)
"""The limits per address and per player lifted: every test's browsers and clients share 127.0.0.1, and many start
games by the dozen. The tests of those limits start their server with ``limits=()`` (the defaults)."""


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class RunningServer:
    """An ``ohhell serve`` process on a port of its own, with its database."""

    database_url: str
    port: int = field(default_factory=free_port)
    animation_scale: float = FAST
    log_path: Path | None = None
    extra: list[str] = field(default_factory=list)
    """More ``ohhell serve`` options (``--redis …``, ``--idle-seconds …``)."""
    limits: tuple[str, ...] = RELAXED_LIMITS
    """The options of the limits per address and per player (:data:`RELAXED_LIMITS` unless told)."""
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """The server's base URL, without a trailing slash."""
        return f"http://127.0.0.1:{self.port}"

    def start(self, healthy: bool = True) -> RunningServer:
        """Start the process and wait until it answers (``healthy=False``: answers at all, even 503)."""
        command = [
            sys.executable,
            "-c",
            "from ohhell.cli import main; main()",
            "serve",
            "--port",
            str(self.port),
            "--database",
            self.database_url,
            "--animation-scale",
            str(self.animation_scale),
            *self.limits,
            *self.extra,
        ]
        log = open(self.log_path, "ab") if self.log_path else subprocess.DEVNULL  # noqa: SIM115
        self.process = subprocess.Popen(command, stdout=log, stderr=log, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"ohhell serve exited with status {self.process.returncode}")
            try:
                status = httpx.get(f"{self.url}/healthz", timeout=1).status_code
                if status == 200 or not healthy:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError(f"ohhell serve did not answer within {STARTUP_SECONDS} s")

    def kill(self) -> None:
        """Kill the process at once (``kill -9``): nothing gets to finish."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
        self.process = None

    def stop(self) -> None:
        """Stop the process (as Ctrl+C would) and wait for it."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None


async def serve_in_task(server: Any) -> asyncio.Task[None]:
    """Start a ``uvicorn.Server`` in a task of the running loop and wait until it listens (within 4 s)."""
    serving = asyncio.create_task(server.serve())
    for _ in range(200):
        if server.started:
            return serving
        assert not serving.done(), "the test server did not start"
        await asyncio.sleep(0.02)
    raise AssertionError("the test server did not start within 4 s")


def player(server: RunningServer) -> httpx.Client:
    """An HTTP client holding a fresh player cookie, as a new browser would."""
    client = httpx.Client(base_url=server.url, timeout=10)
    client.get("/").raise_for_status()
    return client


def token_of(client: httpx.Client) -> str:
    """The player token a client holds."""
    token = client.cookies.get(identity.COOKIE)
    assert token is not None
    return token


def start_game(client: httpx.Client, **body: Any) -> dict[str, Any]:
    """Start a game through the API (``short`` with Normal computer players unless told otherwise)."""
    request: dict[str, Any] = {
        "preset": "short",
        "computers": [{"name": n, "level": "normal"} for n in ("Alice", "Bob", "Carol")],
    }
    request.update(body)
    response = client.post("/api/games", json=request)
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


def run_async(main: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run ``main()`` to its end on an event loop of its own thread.

    Playwright's sync API keeps an event loop running in the test thread once a browser test has run, and
    ``asyncio.run`` refuses to start inside it.
    """
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(main())).result()


POSTGRES: Final = "postgresql://postgres@127.0.0.1:5432"
REDIS: Final = "redis://127.0.0.1:6379/0"


def services_reachable(redis_too: bool = False) -> bool:
    """Whether the local PostgreSQL (and Redis) answer."""
    import psycopg
    import redis

    try:
        with psycopg.connect(f"{POSTGRES}/postgres", connect_timeout=3):
            pass
        if redis_too:
            redis.Redis.from_url(REDIS, socket_timeout=3).ping()
        return True
    except Exception:
        return False


def require_services(redis_too: bool = False) -> None:
    """Skip the test where the local PostgreSQL (and Redis) are missing; under CI they must be there."""
    import pytest

    if not services_reachable(redis_too):
        if os.environ.get("CI"):
            pytest.fail("CI needs the local PostgreSQL and Redis")
        pytest.skip("no PostgreSQL at 127.0.0.1:5432" + (" or no Redis at 127.0.0.1:6379" if redis_too else ""))


@contextmanager
def fresh_postgres() -> Iterator[str]:
    """The URL of a new database of the local PostgreSQL, dropped afterwards."""
    import psycopg

    name = f"ohhell_test_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(f"{POSTGRES}/postgres", autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"{POSTGRES}/{name}"
    finally:
        with psycopg.connect(f"{POSTGRES}/postgres", autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
