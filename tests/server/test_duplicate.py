"""Duplicate events against a real server: the daily deal entered, played, closed and scored; the same moves meet
the same computer moves; the event's rules at its tables; nothing secret before the close; a club's event."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from datetime import date, timedelta
from pathlib import Path

import pytest

from ohhell.duplicate.models import EntryRow
from ohhell.duplicate.store import DuplicateStore
from ohhell.rules import Rules
from ohhell.site import schema
from ohhell.web.models import utc_now
from ohhell.web.results import SeatResult, SeriesResult
from server.accounts import post_form, signed_up
from server.duplicateplay import close_now, enter, event_on, logs_of, numbers_of, numbers_that_deal, one_message, play
from server.leaks import cards_mentioned
from server.partyscan import leaks
from server.serving import RunningServer, fresh_postgres, player, require_services, run_async


@pytest.fixture(scope="module")
def fresh_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    """A server of this module's own: its daily deal is closed by the tests."""
    folder = tmp_path_factory.mktemp("duplicate")
    running = RunningServer(f"sqlite:///{folder / 'games.sqlite3'}", log_path=folder / "server.log").start()
    yield running
    running.stop()


def test_the_daily_deal_from_entry_to_standings(fresh_server: RunningServer) -> None:
    server = fresh_server
    ann, bo, cy, di = (player(server) for _ in range(4))
    event_id = event_on(ann, "/duplicate")
    games = [enter(c, "/duplicate", event_id, name=n) for c, n in ((ann, "Ann"), (bo, "Bo"), (cy, "Cy"), (di, "Di"))]
    assert enter(ann, "/signup", event_id) == games[0]  # one entry per person: the same table again (any form's token)
    assert len(set(games)) == 4
    numbers = numbers_of(server, event_id)

    async def main() -> list[list[str]]:
        asks = ({"type": "hint"}, {"type": "show_hands", "deal": 0})
        plays = await asyncio.gather(
            play(server, games[0], ann, asks=asks),
            play(server, games[1], bo),
            play(server, games[2], cy, moves=3),  # leaves, and comes back below
            play(server, games[3], di, moves=2),  # leaves for good: unfinished at the close
        )
        _, back = await play(server, games[2], cy, moves=6)
        return [texts for _, texts in plays] + [back]

    messages = run_async(main)
    refusals = [m for m in messages[0] if '"type":"error"' in m]
    assert any("no hints in a duplicate event" in m for m in refusals)
    assert any("Show All Hands waits for the event to close" in m for m in refusals)
    undo = run_async(lambda: one_message(server, games[2], cy, {"type": "undo"}))
    assert undo["code"] == "not-allowed"
    gave_up = run_async(lambda: one_message(server, games[2], cy, {"type": "resign"}, answer="state"))
    assert gave_up["game"]["over"]
    rules = Rules.preset("up-and-down", players=4)
    for texts in messages:  # no number that deals these cards, in any message of any of the four tables
        assert numbers_that_deal(texts, rules, numbers[0]) == set()
    for client, game in ((ann, games[0]), (di, games[3])):
        pages = [client.get(path).text for path in ("/duplicate", f"/duplicate/events/{event_id}", f"/games/{game}")]
        assert numbers_that_deal(pages, rules, numbers[0]) == set()
        assert all(cards_mentioned(text) == set() for text in pages[:2])
        assert "results-later" in pages[1] and 'id="standings"' not in pages[1]
        assert client.get(f"/api/games/{game}/record").status_code == 403
        assert client.get(f"/api/games/{game}/replay").status_code == 403
        assert client.post(f"/api/games/{game}/replay-deal").status_code == 403
    assert ann.get(f"/duplicate/events/{event_id}/entries/1").status_code == 403

    # The same moves on the same deal meet the same computer moves: Ann's and Bo's logs are the same, move for move.
    logs = logs_of(server, games)
    assert logs[0] == logs[1] and len(logs[0]) > 100
    assert logs[2] == logs[0][: len(logs[2])]  # Cy made the same moves as far as they went

    close_now(server, event_id)
    late = run_async(lambda: one_message(server, games[3], di, {"type": "bid", "bid": 0, "deal": 0}))
    assert late["code"] == "event-closed"
    page = ann.get(f"/duplicate/events/{event_id}").text
    rows = re.findall(r"<tr><td>(\d+)</td><td><a href=\"[^\"]+\">(\w+)</a></td>\s*<td>([\d.]+)%</td>", page)
    assert sorted(rows) == sorted([("1", "Ann", "83.3"), ("1", "Bo", "83.3"), ("3", "Cy", "16.7"), ("3", "Di", "16.7")])
    assert numbers_that_deal([page], rules, numbers[0]) == {numbers[0]}  # revealed at the close (the scan sees it)
    mine = re.search(r'href="(/duplicate/events/\d+/entries/\d+)">Ann', page)
    assert mine is not None
    hands = ann.get(mine.group(1)).text
    assert hands.count("<tr><td>") == 25 and "by Ann, Bo" in hands and 'id="practice-replay"' in hands
    assert ann.get(f"/api/games/{games[0]}/replay").status_code == 200
    assert ann.post(f"/api/games/{games[0]}/replay-deal").status_code == 201
    assert cards_mentioned(page) == set()
    for index, (client, game) in enumerate(zip((ann, bo, cy, di), games, strict=True)):  # no hidden card sent
        record = client.get(f"/api/games/{game}/record").json()
        named, leaked = leaks(record, 0, messages[index])
        assert leaked == 0 and (named > 0 or index == 3)


def test_a_club_event_for_members_only_with_its_results_on_the_club_page(fresh_server: RunningServer) -> None:
    server = fresh_server
    admin = signed_up(server, "Eve" + str(id(server))[-5:])
    member = signed_up(server, "Fay" + str(id(server))[-5:])
    stranger = signed_up(server, "Gus" + str(id(server))[-5:])
    created = post_form(admin, "/club", "/club/clubs", name="Duplicate club")
    club = created.headers["location"]
    invite = post_form(admin, club, f"{club}/invites")
    assert invite.status_code == 303
    code = re.search(r"/club/join/([\w-]+)", admin.get(club).text)
    assert code is not None
    assert post_form(member, f"/club/join/{code.group(1)}", f"/club/join/{code.group(1)}").status_code == 303
    club_id = int(club.rsplit("/", 1)[1])
    refused = post_form(member, club, f"/duplicate/clubs/{club_id}/events", title="Mine", preset="short", players="3")
    assert refused.status_code == 403
    bad = post_form(
        admin, club, f"/duplicate/clubs/{club_id}/events", title="X", preset="short", players="3", level="hard"
    )
    assert bad.status_code == 400 and "level: one of easy, normal" in bad.text
    opened = post_form(
        admin, club, f"/duplicate/clubs/{club_id}/events", title="Friday", preset="short", players="3", minutes="60"
    )
    assert opened.status_code == 303
    event_page = opened.headers["location"]
    event_id = int(event_page.rsplit("/", 1)[1])
    assert stranger.get(event_page).status_code == 403
    guest = player(server)
    assert guest.get(event_page).status_code == 403
    games = [enter(c, event_page, event_id) for c in (admin, member)]

    async def main() -> None:
        await asyncio.gather(play(server, games[0], admin), play(server, games[1], member))

    run_async(main)
    assert "Friday" in admin.get(club).text and "won by" not in admin.get(club).text
    close_now(server, event_id)
    page = admin.get(club).text
    assert re.search(r"Friday</a>: 2 entries,\s*closed; won by Eve\w*, Fay\w*", page)
    stats = admin.get("/club/me", follow_redirects=True).text  # the entry counted at the close, with a club win
    assert re.search(r'id="stat-played">1<', stats) and re.search(r'id="stat-club-wins">1<', stats)
    command = [sys.executable, "-c", "from ohhell.cli import main; main()", "club", "rebuild-stats"]
    rebuilt = subprocess.run(
        [*command, "--database", server.database_url], capture_output=True, text=True, timeout=120, check=False
    )  # the rows the closes stored (both events', with their winners and club) are the logs' own
    assert "The stored results agree with the game logs." in rebuilt.stdout, rebuilt.stdout + rebuilt.stderr


def test_the_close_is_scored_by_one_process(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'events.sqlite3'}"
    schema.upgrade(url)

    async def main() -> list[list[int]]:
        store = DuplicateStore(url)
        other = DuplicateStore(url)
        try:
            event = await store.daily(date(2026, 11, 30))
            again = await other.daily(date(2026, 11, 30))
            assert again.id == event.id
            assert event.revealed(event.opens_at) is None and event.revealed(event.closes_at) is not None
            moment = event.closes_at + timedelta(seconds=1)
            return list(await asyncio.gather(store.close_due(moment), other.close_due(moment)))
        finally:
            await store.close()
            await other.close()

    assert sorted(run_async(main)) == [[], [1]]


class Reports:
    """A results hook that keeps what it is told."""

    def __init__(self) -> None:
        self.told: list[SeriesResult] = []

    async def series_ended(self, result: SeriesResult) -> None:
        self.told.append(result)


def entry_result(game_id: int, hands: int) -> SeriesResult:
    """A series played to its end by the entrant (seat 0) against three computer players."""
    seats = tuple(
        SeatResult(seat, f"P{seat}", "human" if seat == 0 else "computer", "key" if seat == 0 else None,
                   None if seat == 0 else "normal", 10 * hands, (1,) * hands, (1,) * hands, (10,) * hands)
        for seat in range(4)
    )  # fmt: skip
    return SeriesResult(game_id, "short", hands, utc_now(), seats, winners=(0, 1, 2, 3))


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
@pytest.mark.parametrize("late", [False, True], ids=["before-the-close", "after-the-close"])
def test_an_entry_that_ends_by_the_close_is_reported_once(tmp_path: Path, late: bool, database: str) -> None:
    """An entry's series reported to the club once, whether it ends before its event is scored (by the close) or
    after (by itself: it stands unfinished and wins nothing). It used to be lost when it ended after the close
    had read the entries."""
    if database == "postgresql":
        require_services()
    with ExitStack() as stack:
        url = stack.enter_context(fresh_postgres()) if database == "postgresql" else f"sqlite:///{tmp_path / 'e.db'}"
        schema.upgrade(url)
        told, state, event_id = run_async(lambda: close_and_end(url, late))
    assert state == "finished"
    assert len(told) == 1 and told[0].game_id == 77 and told[0].event_id == event_id
    assert told[0].winners == ((0,) if not late else ())  # alone in the event, on time it wins; late, nobody does


async def close_and_end(url: str, late: bool) -> tuple[list[SeriesResult], str, int]:
    """An event with one entry playing, closed and its series ended (in that order if ``late``): what the results
    hook was told, the entry's state and the event."""
    reports = Reports()
    store = DuplicateStore(url, reports)
    try:
        event = await store.daily(date(2026, 11, 30))
        async with store._sessions() as session:
            session.add(EntryRow(event_id=event.id, person="guest:key", player_key="key", name="P0", instance=0,
                                 game_id=77, state="playing"))  # fmt: skip
            await session.commit()
        result = entry_result(77, event.hands)
        moment = event.closes_at + timedelta(seconds=1)
        if late:
            assert await store.close_due(moment) == [event.id]
            await store.series_ended(result)
        else:
            await store.series_ended(result)
            assert reports.told == []  # kept for the close
            assert await store.close_due(moment) == [event.id]
        await store.series_ended(result)  # told twice: nothing more
        entry = await store.entry_of(event.id, "guest:key")
        assert entry is not None
        return reports.told, entry.state, event.id
    finally:
        await store.close()


def test_the_daily_deal_over_two_processes_on_postgresql(two_servers: tuple[RunningServer, RunningServer]) -> None:
    one, two = two_servers
    ann, bo = player(one), player(two)
    with ThreadPoolExecutor(2) as pool:  # both processes open today's deal at once: one event
        ids = list(pool.map(lambda c: event_on(c, "/duplicate"), (ann, bo)))
    assert ids[0] == ids[1]
    event_id = ids[0]
    games = [enter(ann, "/duplicate", event_id, name="Ann"), enter(bo, "/duplicate", event_id, name="Bo")]

    async def main() -> None:
        await play(one, games[0], ann, moves=15)
        await asyncio.gather(play(two, games[0], ann, moves=15), play(one, games[1], bo, moves=30))  # Ann resumes

    run_async(main)
    for _ in range(60):  # the computer players' moves up to the person's turn may still be under way
        logs = logs_of(one, games)
        if logs[0] == logs[1]:
            break
        time.sleep(0.5)
    assert logs[0] == logs[1] and len(logs[0]) > 30
    close_now(one, event_id)
    for client in (ann, bo):  # each client on its own process
        page = client.get(f"/duplicate/events/{event_id}").text
        assert sorted(re.findall(r"<td>([\d.]+)%</td>", page)) == ["50.0", "50.0"]  # unfinished both: a tie
