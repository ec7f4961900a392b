"""The club against a real server: series results stored when a series ends, XP, statistics, clubs, ratings,
the Collection, and the rebuild of the statistics from the game logs on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
import subprocess
import sys
import uuid
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect

from ohhell.club.store import ClubStore
from ohhell.rules import Rules
from ohhell.server.party.store import PartyStore
from ohhell.server.storage.journal import NewGame
from ohhell.server.storage.store import Store
from ohhell.server.table.seats import Seat
from ohhell.web.accounts.store import AccountStore
from ohhell.web.models import utc_now
from ohhell.web.results import SeatResult, SeriesResult
from server.accounts import post_form, signed_up
from server.seriesplay import cookie_header, play_series
from server.serving import RunningServer, fresh_postgres, player, require_services, run_async, start_game


def unique(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:6]}"


def easy_game(client: httpx.Client) -> dict[str, object]:
    return start_game(client, computers=[{"name": n, "level": "easy"} for n in ("Alice", "Bob", "Carol")])


def wait_for_xp(client: httpx.Client, game_id: object) -> dict[str, object]:
    for _ in range(50):
        answer = client.get(f"/api/club/series/{game_id}")
        if answer.status_code == 200:
            found: dict[str, object] = answer.json()
            return found
        run_async(lambda: asyncio.sleep(0.1))
    raise AssertionError(f"no results were stored for game {game_id}")


def test_a_series_against_computers_is_stored_when_it_ends_with_its_xp(server: RunningServer) -> None:
    client = signed_up(server, unique("Xa"))
    game = easy_game(client)
    assert client.get(f"/api/club/series/{game['id']}").status_code == 404  # nothing before the end
    state = run_async(lambda: play_series(server, int(str(game["id"])), client))
    assert state["game"]["over"]
    xp = wait_for_xp(client, game["id"])
    assert re.fullmatch(r"\+\d+ XP · level \d+", str(xp["text"]))
    assert int(str(xp["xp"])) >= 100
    profile = client.get("/club/me", follow_redirects=True)
    assert 'id="stat-played">1<' in profile.text
    assert "against computer players" in profile.text
    assert 'id="results-chart"' in profile.text


def test_a_given_up_series_is_a_loss_without_xp(server: RunningServer) -> None:
    client = signed_up(server, unique("Xb"))
    game = easy_game(client)
    run_async(lambda: play_series(server, int(str(game["id"])), client, give_up_at_deal=1))
    xp = wait_for_xp(client, game["id"])
    assert xp["xp"] == 0 and xp["gave_up"] is True
    profile = client.get("/club/me", follow_redirects=True).text
    assert 'id="stat-won">0<' in profile and "gave up" in profile


def test_a_guests_statistics_become_the_accounts_on_signing_up(server: RunningServer) -> None:
    guest = httpx.Client(base_url=server.url, timeout=10)
    guest.get("/").raise_for_status()
    game = easy_game(guest)
    run_async(lambda: play_series(server, int(str(game["id"])), guest))
    wait_for_xp(guest, game["id"])
    assert post_form(guest, "/signup", "/signup", name=unique("Xc"), password="a long secret").status_code == 303
    assert 'id="stat-played">1<' in guest.get("/club/me", follow_redirects=True).text


TIED_NUMBER = 46
"""With seat 0 dealing first and everyone playing the lowest bid and the first playable card, deal number 46 of
the ``short`` rules for three ends 33, 48, 48: a tie at the top."""


def club_of_three(server: RunningServer) -> tuple[int, list[httpx.Client]]:
    """Three accounts, one club: the first creates it and invites the two others by link."""
    founder = signed_up(server, unique("Ka"))
    created = post_form(founder, "/club", "/club/clubs", name="Thursday club")
    assert created.status_code == 303
    club_id = int(created.headers["location"].rsplit("/", 1)[1])
    post_form(founder, f"/club/clubs/{club_id}", f"/club/clubs/{club_id}/invites")
    page = founder.get(f"/club/clubs/{club_id}").text
    code = re.search(r"/club/join/([\w-]+)", page)
    assert code is not None
    others = [signed_up(server, unique(p)) for p in ("Kb", "Kc")]
    for other in others:
        joined = post_form(other, f"/club/join/{code.group(1)}", f"/club/join/{code.group(1)}")
        assert joined.status_code == 303
    return club_id, [founder, *others]


def test_a_club_of_three_plays_a_series_at_a_club_table_to_the_end(server: RunningServer) -> None:
    """The table of several people is built by the "friends" work; here the club table's game is created the way
    it will create one (three people's seats) and registered through the club's hook, then played by the three
    over their own sockets."""
    club_id, people = club_of_three(server)
    url = server.database_url
    rules = Rules.preset("short", players=3)

    async def make_table() -> int:
        accounts, store, clubs = AccountStore(url), Store(url), ClubStore(url)
        try:
            keys = []
            for person in people:
                account = await accounts.by_name(person.get("/account").text.split("Your account: ")[1].split("<")[0])
                assert account is not None
                keys.append(account.player_key)
            seats = [Seat.human(f"P{i}", key).to_json() for i, key in enumerate(keys)]
            assert all([await clubs.may_take_seat(club_id, key) for key in keys])
            assert not await clubs.may_take_seat(club_id, "someone else")
            stored = await store.create_game(NewGame(TIED_NUMBER, rules.to_json(), 0, seats, keys[0]))
            await clubs.make_club_table(stored.id, club_id)
            return stored.id
        finally:
            await accounts.close()
            await store.close()
            await clubs.close()

    game_id = run_async(make_table)

    async def play_all() -> list[dict[str, object]]:
        return list(await asyncio.gather(*(play_series(server, game_id, person) for person in people)))

    states = run_async(play_all)
    assert all(state["game"]["over"] for state in states)  # type: ignore[index]
    for person in people:
        wait_for_xp(person, game_id)
    page = people[0].get(f"/club/clubs/{club_id}").text
    assert page.count("<tr><td>") >= 3  # three on the leaderboard, each with a rating and one series
    board = re.findall(r"<tr><td>(\d+)</td><td>[^<]+</td><td[^>]*>(\d+)</td>\s*<td>(\d+)</td><td>(\d+)</td>", page)
    assert len(board) == 3 and all(series == "1" for _, _, series, _ in board)
    winners = [row for row in board if row[3] == "1"]
    assert len(winners) == 2  # the tie at the top: both win, each a club win
    assert [place for place, *_ in board] == ["1", "1", "3"]  # and the tied ratings share first place
    profile = people[0].get("/club/me", follow_redirects=True).text
    assert 'id="stat-club-wins">' in profile


def seat_and_play(
    server: RunningServer, game_id: int, join_code: str, founder: httpx.Client, others: list[httpx.Client]
) -> None:
    """The others take the club table's seats through its invite link, and all play the series to its end."""
    for seat, member in enumerate(others, start=1):
        assert member.post(f"/api/join/{join_code}", json={"name": f"M{seat}", "seat": seat}).status_code == 201

    async def play_all() -> list[dict[str, object]]:
        host = asyncio.create_task(play_series(server, game_id, founder, start=True))
        await asyncio.sleep(0.2)
        rest = [asyncio.create_task(play_series(server, game_id, member)) for member in others]
        return list(await asyncio.gather(host, *rest))

    states = run_async(play_all)
    assert all(state["game"]["over"] for state in states)  # type: ignore[index]


def test_a_club_table_with_a_chosen_number_is_practice_and_earns_no_club_win_xp_or_statistics(
    server: RunningServer,
) -> None:
    club_id, (founder, *others) = club_of_three(server)
    body = {
        "preset": "short",
        "number": TIED_NUMBER,
        "name": "Host",
        "computers": [{"name": "A"}, {"name": "B"}],
        "friends": [1, 2],
        "club": club_id,
    }
    opened = founder.post("/api/games", json=body, headers={"Origin": server.url})
    assert opened.status_code == 201 and opened.json()["practice"], opened.text
    game_id = opened.json()["id"]
    seat_and_play(server, game_id, run_async(lambda: join_code(server.database_url, game_id)), founder, others)
    counted = easy_game(founder)  # a series that counts, after it: its results are stored once the hook has run
    run_async(lambda: play_series(server, int(str(counted["id"])), founder))
    wait_for_xp(founder, counted["id"])
    for person in (founder, *others):
        assert person.get(f"/api/club/series/{game_id}").status_code == 404  # no XP, no series result
    page = founder.get(f"/club/clubs/{club_id}").text
    assert not re.findall(r"<tr><td>(\d+)</td><td>[^<]+</td><td[^>]*>(\d+)</td>", page)  # no rating, no club win
    assert 'id="stat-played">1<' in founder.get("/club/me", follow_redirects=True).text  # the computers' one only
    assert 'id="stat-played">0<' in others[0].get("/club/me", follow_redirects=True).text


def test_a_club_table_takes_only_members_and_its_series_counts_for_the_club(server: RunningServer) -> None:
    club_id, (founder, *others) = club_of_three(server)
    body = {
        "preset": "short",
        "name": "Host",
        "computers": [{"name": "A"}, {"name": "B"}],
        "friends": [1, 2],
        "club": club_id,
    }
    outsider = signed_up(server, unique("Out"))
    assert outsider.post("/api/games", json=body).status_code == 403  # not a member: no club table
    assert founder.post("/api/games", json={**body, "friends": [1]}).status_code == 422  # every seat a member's
    opened = founder.post("/api/games", json=body, headers={"Origin": server.url})
    assert opened.status_code == 201, opened.text
    game_id = opened.json()["id"]
    path = server.database_url.removeprefix("sqlite:///")
    with sqlite3.connect(path) as connection:  # the tie's cards for a series that counts (a chosen one would not)
        connection.execute("UPDATE games SET deal_number = ?, first_dealer = 0 WHERE id = ?", (TIED_NUMBER, game_id))
    with sqlite3.connect(path) as connection:  # the invite link, as the host's waiting room shows it
        (join_code,) = connection.execute(
            "SELECT code FROM table_links WHERE game_id = ? AND kind = 'join'", (game_id,)
        ).fetchone()
    refused = outsider.post(f"/api/join/{join_code}", json={"name": "Out", "seat": 1})
    assert refused.status_code == 403 and "club table" in refused.text
    seat_and_play(server, game_id, join_code, founder, others)
    for person in (founder, *others):
        wait_for_xp(person, game_id)
    page = founder.get(f"/club/clubs/{club_id}").text
    board = re.findall(r"<tr><td>(\d+)</td><td>[^<]+</td><td[^>]*>(\d+)</td>\s*<td>(\d+)</td><td>(\d+)</td>", page)
    assert len(board) == 3 and all(series == "1" for _, _, series, _ in board)
    assert [place for place, *_ in board] == ["1", "1", "3"]  # the tie at the top shares first place
    assert sorted(wins for *_, wins in board) == ["0", "1", "1"]  # and each tied winner has a club win
    for person in (founder, *others):
        stats = person.get("/club/me", follow_redirects=True).text
        assert 'id="stat-played">1<' in stats

    async def play_again() -> list[str]:  # every person asks to play again: the next game is the club's table too
        async def ask(person: httpx.Client) -> str:
            url = f"ws://127.0.0.1:{server.port}/ws/games/{game_id}"
            async with connect(url, additional_headers={"Cookie": cookie_header(person)}) as socket:
                await socket.send(json.dumps({"type": "again"}))
                while True:
                    message = json.loads(await asyncio.wait_for(socket.recv(), 20))
                    if message["type"] == "moved":
                        return str(message["url"])

        return list(await asyncio.gather(*(ask(person) for person in (founder, *others))))

    moved = run_async(play_again)
    next_id = int(moved[0].rsplit("/", 1)[1])
    assert next_id != game_id

    async def club_of_next() -> int | None:
        clubs = ClubStore(server.database_url)
        try:
            return await clubs.club_of_game(next_id)
        finally:
            await clubs.close()

    assert run_async(club_of_next) == club_id


def test_the_collection_unlocks_by_level_and_refuses_a_locked_back(server: RunningServer) -> None:
    client = signed_up(server, unique("Co"))
    page = client.get("/club/collection").text
    assert "Unlocks at level 2" in page and "First win" in page
    assert post_form(client, "/club/collection", "/club/collection", back="gold").status_code == 403
    assert post_form(client, "/club/collection", "/club/collection", back="lattice").status_code == 303
    assert 'data-card-back="lattice"' in client.get("/").text
    assert client.get("/club/backs/lattice.svg").headers["content-type"].startswith("image/svg+xml")


async def join_code(url: str, game_id: int) -> str:
    """The invite code of a table of several people, from the store."""
    store = Store(url)
    try:
        return (await PartyStore(store).links(game_id))["join"]
    finally:
        await store.close()


def rebuild(url: str, *options: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-c", "from ohhell.cli import main; main()", "club", "rebuild-stats", "--database", url]
    return subprocess.run([*command, *options], capture_output=True, text=True, timeout=120, check=False)


def rebuild_agrees_after_play(url: str) -> None:
    running = RunningServer(url).start()
    try:
        client = signed_up(running, unique("Rb"))
        practice = [int(str(start_game(client, number=TIED_NUMBER)["id"]))]  # chosen: practice, as its replay is
        run_async(lambda: play_series(running, practice[0], client))
        replayed = client.post(f"/api/games/{practice[0]}/replay-deal")
        assert replayed.status_code == 201 and replayed.json()["practice"]
        practice.append(int(replayed.json()["id"]))
        run_async(lambda: play_series(running, practice[1], client))
        for give_up in (None, 1):
            game_id = int(str(easy_game(client)["id"]))

            async def play(game_id: int = game_id, give_up: int | None = give_up) -> dict[str, object]:
                return await play_series(running, game_id, client, give_up)

            run_async(play)
            wait_for_xp(client, game_id)
        host, friend = client, signed_up(running, unique("Rf"))
        opened = host.post(
            "/api/games", json={"preset": "short", "computers": [{"name": "A"}, {"name": "B"}], "friends": [1]}
        ).json()
        code = run_async(lambda: join_code(url, opened["id"]))  # the invite link of the host's waiting room
        assert friend.post(f"/api/join/{code}", json={"name": "Fr", "seat": 1}).status_code == 201

        async def party() -> None:  # the friend gives up at deal 1: a computer player plays the seat on
            first = asyncio.create_task(play_series(running, opened["id"], host, start=True))
            await asyncio.sleep(0.2)
            await asyncio.gather(first, play_series(running, opened["id"], friend, give_up_at_deal=1))

        run_async(party)
        wait_for_xp(host, opened["id"])
        assert wait_for_xp(friend, opened["id"])["gave_up"] is True
        assert all(client.get(f"/api/club/series/{g}").status_code == 404 for g in practice)  # they earned nothing
    finally:
        running.stop()
    agreed = rebuild(url)
    assert agreed.returncode == 0, agreed.stdout + agreed.stderr
    assert "3 finished series replayed" in agreed.stdout and "agree with the game logs" in agreed.stdout

    async def tamper() -> None:
        clubs = ClubStore(url)
        try:
            rows = await clubs.all_results()
            await clubs.replace_result(replace(rows[0], total=rows[0].total + 1, xp=999))
        finally:
            await clubs.close()

    run_async(tamper)
    found = rebuild(url)
    assert found.returncode == 1
    assert "total stored" in found.stdout and "xp stored 999" in found.stdout
    assert rebuild(url, "--fix").returncode == 0
    assert rebuild(url).returncode == 0


def test_the_statistics_rebuild_agrees_on_sqlite(tmp_path: Path) -> None:
    rebuild_agrees_after_play(f"sqlite:///{tmp_path / 'games.sqlite3'}")


@pytest.fixture
def postgres() -> Iterator[str]:
    require_services()
    with fresh_postgres() as url:
        yield url


def test_the_statistics_rebuild_agrees_on_postgresql(postgres: str) -> None:
    rebuild_agrees_after_play(postgres)


def test_faces_unlock_with_a_win_and_a_private_profile_is_for_club_members(server: RunningServer) -> None:
    _, (founder, member, _) = club_of_three(server)
    account_id = int(re.search(r"/club/players/(\d+)", founder.get("/account").text).group(1))  # type: ignore[union-attr]
    assert post_form(founder, "/club/collection", "/club/collection", faces="four-colour").status_code == 403
    url = server.database_url

    async def a_win() -> None:  # a won series, as the results hook stores one
        accounts, clubs = AccountStore(url), ClubStore(url)
        try:
            account = await accounts.account(account_id)
            assert account is not None
            seats = tuple(
                SeatResult(i, f"P{i}", "human", key, None, total, (1,), (1,), (total,))
                for i, (key, total) in enumerate(((account.player_key, 30), ("other", 20), ("third", 10)))
            )
            await clubs.series_ended(SeriesResult(10**6 + account_id, "short", 9, utc_now(), seats, winners=(0,)))
        finally:
            await accounts.close()
            await clubs.close()

    run_async(a_win)
    assert post_form(founder, "/club/collection", "/club/collection", faces="four-colour").status_code == 303
    assert 'data-card-faces="four-colour"' in founder.get("/").text
    assert founder.get("/club/faces/four-colour/QD.svg").status_code == 200
    assert post_form(founder, "/account", "/account/visibility", visibility="clubs").status_code == 200
    stranger = signed_up(server, unique("St"))
    assert stranger.get(f"/club/players/{account_id}").status_code == 404
    assert member.get(f"/club/players/{account_id}").status_code == 200  # a fellow member sees it


def test_statistics_are_for_club_members_by_default_and_a_refusal_names_nobody(server: RunningServer) -> None:
    _, (founder, member, _) = club_of_three(server)
    account_id = int(re.search(r"/club/players/(\d+)", founder.get("/account").text).group(1))  # type: ignore[union-attr]
    name = re.search(r'name="name" value="([^"]+)"', founder.get("/account").text)
    assert name is not None
    assert 'value="clubs" checked' in founder.get("/account").text  # members only, untouched since signing up
    assert member.get(f"/club/players/{account_id}").status_code == 200
    stranger, guest = signed_up(server, unique("St")), player(server)
    refusals = []
    for browser in (stranger, guest):
        for headers in ({}, {"Accept": "text/html"}):
            answers = [
                browser.get(f"/club/players/{some_id}", headers=headers) for some_id in (account_id, 2**31 - 1, 0)
            ]
            assert {r.status_code for r in answers} == {404}
            assert len({r.text for r in answers}) == 1  # the same answer whether the id exists or not
            refusals += answers
    assert not any(name.group(1) in r.text for r in refusals)
    assert post_form(founder, "/account", "/account/visibility", visibility="public").status_code == 200
    assert stranger.get(f"/club/players/{account_id}").status_code == 200


def test_a_club_that_allows_undo_gives_its_tables_undo(server: RunningServer) -> None:
    club_id, (founder, *_) = club_of_three(server)
    body = {"preset": "short", "computers": [{"name": "A"}, {"name": "B"}], "friends": [1, 2], "club": club_id}
    game_id = founder.post("/api/games", json=body).json()["id"]
    url = server.database_url

    async def allowed() -> bool:
        clubs = ClubStore(url)
        try:
            return await clubs.allows_undo(game_id)
        finally:
            await clubs.close()

    assert not run_async(allowed)
    post_form(founder, f"/club/clubs/{club_id}", f"/club/clubs/{club_id}/settings", allow_undo="on")
    assert run_async(allowed)
    assert "Undo at the club's tables: allowed" in founder.get(f"/club/clubs/{club_id}").text
