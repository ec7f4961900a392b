"""The site's settings: where the games are stored, how processes meet, how fast the table animates, what it allows."""

from __future__ import annotations

import ipaddress
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Final

DEFAULT_DATA_DIR: Final = Path("data")
DEFAULT_DATABASE_FILE: Final = "ohhell.sqlite3"


def default_database_url(data_dir: Path = DEFAULT_DATA_DIR) -> str:
    """The SQLite file under ``data_dir`` (created if missing): ``sqlite:///data/ohhell.sqlite3``."""
    data_dir.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{data_dir / DEFAULT_DATABASE_FILE}"


def default_processes() -> int:
    """Worker processes for the searching computer players: one per core, at least two."""
    return max(2, os.cpu_count() or 2)


@dataclass(frozen=True)
class ServerConfig:
    """Settings of one server process.

    ``database_url`` is any SQLAlchemy URL: ``sqlite:///path``, ``sqlite+aiosqlite:///path``,
    ``postgresql://…`` or ``postgresql+psycopg://…``. ``animation_scale`` multiplies every animation
    delay of the table (1 for people; tests use a small value so whole games run in seconds).
    ``computer_processes``: 0 (threads) unless given; ``ohhell serve`` gives :func:`default_processes`.
    """

    database_url: str
    animation_scale: float = 1.0
    computer_processes: int = 0
    """Worker processes for the searching computer players (Hard); 0 runs every computer player in a thread."""
    quick_processes: int = 1
    """Worker processes for the quick computer players (Easy, Normal) and Hints, when ``computer_processes`` > 0."""
    idle_seconds: float = 120.0
    """A live table nobody uses is let go after this long, and rebuilt from its log when next needed."""
    allowed_origins: tuple[str, ...] = ()
    """Origins besides the server's own whose pages may open the game socket (``https://cards.example.org``)."""
    redis_url: str | None = None
    """With several server processes on one PostgreSQL database: the Redis where they meet (leases, messages)."""
    sync_each_commit: bool = False
    """SQLite: wait for the disk at every commit of the moves (``synchronous=FULL``, in a thread), so that an
    acknowledged move survives a power cut too. Off, a commit is written on the event loop without waiting for the
    disk (``synchronous=NORMAL``) and the journal syncs it within :data:`~ohhell.server.storage.journal.
    CHECKPOINT_SECONDS`: a crash of the server loses nothing, a power cut at most the last two seconds
    (docs/hosting.md#durability). PostgreSQL's commits are its server's business."""
    trusted_proxies: tuple[str, ...] = ()
    """The reverse proxies (addresses or networks: ``127.0.0.1``, ``10.0.0.0/8``) whose ``X-Forwarded-For`` and
    ``X-Forwarded-Proto`` are believed; from anyone else those headers are ignored (docs/hosting.md)."""
    sockets_per_address: int = 200
    """Game and watch sockets open at once from one address (in each server process)."""
    messages_per_person: float = 50.0
    """Socket messages a second from one person (player key; a spectator: address), all sockets together (twice
    that at once): far above a person, or a program playing as fast as the table answers, far below a flood."""
    messages_per_address: float = 400.0
    """Socket messages a second from one address, all its sockets together (twice that at once)."""
    new_games_per_address: int = 30
    """New games one address may start at once, and again in each 10 minutes after that (in each process)."""
    new_games_per_player: int = 10
    """New games one player (a signed-in account, or a browser's guest key) may start at once, and per 10 minutes."""
    time_callbacks: bool = False
    """A measurement: run on asyncio's own event loop instead of uvloop, and time every callback of it on its own
    (:mod:`ohhell.site.callbacktimes`; the figures in ``/api/server-stats``). Slower: for benchmarks."""

    def __post_init__(self) -> None:
        if not 0 <= self.animation_scale <= 10:
            raise ValueError(f"animation_scale must be from 0 to 10, not {self.animation_scale!r}")
        if not 0 <= self.computer_processes <= 64:
            raise ValueError(f"computer_processes must be from 0 to 64, not {self.computer_processes!r}")
        if not 0 <= self.quick_processes <= 64:
            raise ValueError(f"quick_processes must be from 0 to 64, not {self.quick_processes!r}")
        if not self.idle_seconds > 0:
            raise ValueError(f"idle_seconds must be positive, not {self.idle_seconds!r}")
        if self.redis_url is not None and not self.database_url.startswith("postgresql"):
            raise ValueError("several server processes (a Redis URL) need a PostgreSQL database; SQLite runs alone")
        for name in ("sockets_per_address", "new_games_per_address", "new_games_per_player"):
            if not 1 <= getattr(self, name) <= 1_000_000:
                raise ValueError(f"{name} must be from 1 to 1000000, not {getattr(self, name)!r}")
        for name in ("messages_per_person", "messages_per_address"):
            if not 1 <= getattr(self, name) <= 1_000_000:
                raise ValueError(f"{name} must be from 1 to 1000000, not {getattr(self, name)!r}")
        for proxy in self.trusted_proxies:
            try:
                ipaddress.ip_network(proxy)
            except ValueError:
                raise ValueError(
                    f"a trusted proxy is an IP address or network (127.0.0.1, 10.0.0.0/8), not {proxy!r}"
                ) from None
        for origin in self.allowed_origins:
            if not origin.startswith(("http://", "https://")) or origin.endswith("/"):
                raise ValueError(f"an allowed origin is written scheme://host[:port], not {origin!r}")
