"""The keeper's web API and storage, without a browser: refusals with sentences, nothing lost, whose sheet is whose."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import psycopg
import pytest
from alembic.script import ScriptDirectory
from fastapi.testclient import TestClient

from ohhell.keeper.web import routes
from ohhell.keeper.web.store import SheetChangedError, SheetNotFoundError, SheetStore
from ohhell.site.app import create_app
from ohhell.site.schema import alembic_config, upgrade
from ohhell.web.config import ServerConfig
from server.test_store import POSTGRES, postgres_reachable

from .helpers import new_sheet

NAMES = ["Ann", "Bob", "Cy", "Di"]


@pytest.fixture
def database(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'web.sqlite3'}"


@pytest.fixture
def client(database: str) -> Iterator[TestClient]:
    with TestClient(create_app(ServerConfig(database))) as test_client:
        test_client.get("/keeper").raise_for_status()
        yield test_client


def create(client: TestClient, **body: Any) -> int:
    response = client.post("/api/keeper/sheets", json={"preset": "short", "names": NAMES, **body})
    assert response.status_code == 201, response.text
    sheet_id: int = response.json()["id"]
    return sheet_id


def enter(client: TestClient, sheet_id: int, seen: int, **entry: Any) -> Any:
    return client.post(f"/api/keeper/sheets/{sheet_id}/entries", json={"seen": seen, "entry": entry})


def test_the_dealers_forbidden_bid_is_refused_with_its_sentence_and_nothing_is_lost(client: TestClient) -> None:
    sheet_id = create(client, first_dealer=3)
    assert enter(client, sheet_id, 0, type="trump", trump="H").status_code == 200
    for seen, bid in enumerate((2, 0, 2), 1):
        state = enter(client, sheet_id, seen, type="bid", bid=bid).json()
    assert state["now"]["forbidden_bid"] == 1
    assert (
        state["now"]["forbidden_reason"] == "Di deals and may not bid 1: the bids would total 5, the number of tricks."
    )
    refused = enter(client, sheet_id, 4, type="bid", bid=1)
    assert refused.status_code == 400
    assert refused.json()["detail"] == "Di deals and may not bid 1: the bids would total 5, the number of tricks."
    after = client.get(f"/api/keeper/sheets/{sheet_id}").json()
    assert (after["seq"], after["now"]["bids"]) == (4, [2, 0, 2, None])
    bad_tricks = enter(client, sheet_id, 4, type="bid", bid=3)
    assert bad_tricks.status_code == 200
    refused = enter(client, sheet_id, 5, type="tricks", tricks=[1, 1, 1, 1])
    assert refused.json()["detail"].startswith("The tricks add up to 4, but a 5-card deal has 5 tricks")


def test_an_entry_against_a_sheet_that_moved_on_is_not_made(client: TestClient) -> None:
    """A second tap on a bid button must not enter the next player's bid."""
    sheet_id = create(client)
    enter(client, sheet_id, 0, type="trump", trump="S")
    assert enter(client, sheet_id, 1, type="bid", bid=2).status_code == 200
    stale = enter(client, sheet_id, 1, type="bid", bid=2)
    assert stale.status_code == 409
    assert stale.json()["state"]["now"]["bids"] == [None, 2, None, None]


def test_a_correction_and_who_made_it_are_in_the_history(client: TestClient) -> None:
    sheet_id = create(client, keeper="Eve")
    seen = 0
    entries: list[dict[str, Any]] = [{"type": "trump", "trump": "D"}, *({"type": "bid", "bid": 1} for _ in range(4))]
    for entry in entries:
        enter(client, sheet_id, seen, **entry)
        seen += 1
    enter(client, sheet_id, seen, type="tricks", tricks=[2, 1, 1, 1])
    body = {"seen": seen + 1, "by": "Bob", "entry": {"type": "correct", "deal": 0, "tricks": {"0": 1, "1": 2}}}
    state = client.post(f"/api/keeper/sheets/{sheet_id}/entries", json=body).json()
    assert state["rows"][0]["points"] == ["11", "2", "11", "11"]
    assert state["rows"][0]["corrected"] == ["tricks:0", "tricks:1"]
    last = state["history"][-1]
    assert (last["by"], last["correction"]) == ("Bob", True)
    assert last["text"] == "corrected deal 1: Ann's tricks 2 → 1; Bob's tricks 1 → 2"
    assert state["history"][0]["by"] == "Eve"


def test_impossible_rules_and_names_are_refused_with_a_reason(client: TestClient) -> None:
    refused = client.post("/api/keeper/sheets", json={"preset": "magicians", "names": [*NAMES, "Eve", "Fay", "Gus"]})
    assert refused.status_code == 400
    assert "for 3 to 6 players, not 7" in refused.json()["detail"]
    twice = client.post("/api/keeper/sheets", json={"preset": "short", "names": ["Ann", "ann", "Cy"]})
    assert twice.json()["detail"] == "two players are called ann: give each a different name, such as ann B"
    assert client.post("/api/keeper/sheets", json={"preset": "short", "names": ["Ann", "Bob"]}).status_code == 422


def test_a_sheet_belongs_to_the_browser_that_started_it(client: TestClient, database: str) -> None:
    sheet_id = create(client)
    with TestClient(create_app(ServerConfig(database))) as stranger:
        assert stranger.get(f"/keeper/{sheet_id}").status_code == 403
        assert stranger.get(f"/api/keeper/sheets/{sheet_id}").status_code == 403
        assert stranger.get("/api/keeper/sheets").json() == []
    assert client.get("/keeper/999").status_code == 404
    assert [s["id"] for s in client.get("/api/keeper/sheets").json()] == [sheet_id]


def test_a_shared_sheet_is_kept_from_a_second_phone(client: TestClient, database: str) -> None:
    sheet_id = create(client)
    shared = client.post(f"/api/keeper/sheets/{sheet_id}/share").json()
    assert shared["path"].startswith("/keeper/join/") and shared["url"].endswith(shared["path"])
    assert shared["qr_svg"].startswith("<svg")
    assert client.post(f"/api/keeper/sheets/{sheet_id}/share").json()["path"] == shared["path"]  # one link a sheet
    with TestClient(create_app(ServerConfig(database))) as phone:
        assert phone.get(f"/api/keeper/sheets/{sheet_id}").status_code == 403
        assert phone.post(f"/api/keeper/sheets/{sheet_id}/share").status_code == 403
        assert phone.get("/keeper/join/not-a-real-code").status_code == 404
        assert phone.get("/keeper/join/x").status_code == 404
        joined = phone.get(shared["path"], follow_redirects=False)
        assert joined.status_code == 303 and joined.headers["location"] == f"/keeper/{sheet_id}"
        assert phone.get(shared["path"], follow_redirects=False).status_code == 303  # again: no harm
        assert phone.get(f"/keeper/{sheet_id}").status_code == 200
        assert phone.post(f"/api/keeper/sheets/{sheet_id}/share").status_code == 403  # joined: not handed on
        assert enter(phone, sheet_id, 0, type="trump", trump="H").status_code == 200
        assert [s["id"] for s in phone.get("/api/keeper/sheets").json()] == [sheet_id]
        assert enter(client, sheet_id, 1, type="bid", bid=1).status_code == 200
        stale = enter(phone, sheet_id, 1, type="bid", bid=2)
        assert stale.status_code == 409 and stale.json()["state"]["seq"] == 2
    assert client.get(f"/api/keeper/sheets/{sheet_id}").json()["seq"] == 2
    assert client.get(shared["path"], follow_redirects=False).status_code == 303  # the owner's own link


def test_blank_sheets_for_a_preset_and_table_size(client: TestClient) -> None:
    pdf = client.get("/keeper/blank", params={"preset": "up-and-down", "players": 3, "paper": "letter"})
    assert pdf.content.startswith(b"%PDF")
    assert "attachment" in pdf.headers["content-disposition"]
    html = client.get("/keeper/blank", params={"preset": "full", "players": 7, "format": "html"})
    assert "size: A4 landscape" in html.text
    assert client.get("/keeper/blank", params={"preset": "magicians", "players": 7}).status_code == 400


def test_the_keepers_migration_follows_the_servers_and_leaves_one_head(database: str) -> None:
    heads = ScriptDirectory.from_config(alembic_config(database)).get_heads()
    assert len(heads) == 1
    upgrade(database)


def test_two_writers_of_the_same_position_keep_only_the_first(database: str) -> None:
    upgrade(database)

    async def race() -> None:
        store = SheetStore(database)
        try:
            sheet = new_sheet()
            sheet_id = await store.create("owner", sheet)
            _, first = await store.load(sheet_id)
            _, second = await store.load(sheet_id)
            first.enter_trump("S")
            second.enter_trump("H")
            await store.append(sheet_id, first, 0)
            with pytest.raises(SheetChangedError):
                await store.append(sheet_id, second, 0)
            _, stored = await store.load(sheet_id)
            assert [row.trump for row in stored.rows] == [first.rows[0].trump]
        finally:
            await store.close()

    # in a thread of its own: the browser tests' Playwright keeps an event loop running in this one
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, race()).result()


def test_a_waiting_page_hears_of_another_phones_entry_at_once(client: TestClient, database: str) -> None:
    sheet_id = create(client)
    with ThreadPoolExecutor(1) as thread:
        start = time.monotonic()
        waiting = thread.submit(client.get, f"/api/keeper/sheets/{sheet_id}/next", params={"seen": 0})
        time.sleep(0.3)
        assert not waiting.done(), "nothing new yet: the request is held"
        assert enter(client, sheet_id, 0, type="trump", trump="H").status_code == 200
        heard = waiting.result(timeout=10)
        assert time.monotonic() - start < 3.0, "answered on the entry, not at the end of the wait"
    assert heard.status_code == 200 and heard.json()["seq"] == 1
    # A page that is behind is answered at once; a stranger's browser is refused as for the sheet itself.
    assert client.get(f"/api/keeper/sheets/{sheet_id}/next", params={"seen": 0}).json()["seq"] == 1
    with TestClient(create_app(ServerConfig(database))) as stranger:
        assert stranger.get(f"/api/keeper/sheets/{sheet_id}/next", params={"seen": 1}).status_code == 403


def test_a_held_wait_ends_empty_and_sees_entries_written_elsewhere(
    client: TestClient, database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(routes, "WAIT_SECONDS", 0.6)
    monkeypatch.setattr(routes, "RECHECK_SECONDS", 0.2)
    sheet_id = create(client)
    assert client.get(f"/api/keeper/sheets/{sheet_id}/next", params={"seen": 0}).status_code == 204

    async def write_elsewhere() -> None:  # as another server process would: straight to the database
        await asyncio.sleep(0.1)
        store = SheetStore(database)
        try:
            _, sheet = await store.load(sheet_id)
            sheet.enter_trump("D")
            await store.append(sheet_id, sheet, 0)
        finally:
            await store.close()

    monkeypatch.setattr(routes, "WAIT_SECONDS", 10.0)
    with ThreadPoolExecutor(2) as threads:
        waiting = threads.submit(client.get, f"/api/keeper/sheets/{sheet_id}/next", params={"seen": 0})
        threads.submit(asyncio.run, write_elsewhere()).result()
        heard = waiting.result(timeout=10)
    assert heard.status_code == 200 and heard.json()["seq"] == 1


def test_a_held_wait_ends_when_the_server_stops(database: str) -> None:
    stopping = False
    app = create_app(ServerConfig(database))
    app.state.stopping = lambda: stopping  # what ``ohhell serve`` sets: uvicorn's should_exit
    with TestClient(app) as client, ThreadPoolExecutor(1) as thread:
        client.get("/keeper").raise_for_status()
        sheet_id = create(client)
        waiting = thread.submit(client.get, f"/api/keeper/sheets/{sheet_id}/next", params={"seen": 0})
        time.sleep(0.3)
        assert not waiting.done()
        start = time.monotonic()
        stopping = True
        assert waiting.result(timeout=10).status_code == 204
        assert time.monotonic() - start < 2.5, "within a second or so, not at the end of the 15 s wait"


# ------------------------------------------------------------------ the share link is the owner's


def share(client: TestClient, sheet_id: int, action: str = "", **body: Any) -> Any:
    return client.post(f"/api/keeper/sheets/{sheet_id}/share{action}", json=body)


@pytest.fixture
def phones(database: str) -> Iterator[tuple[TestClient, TestClient]]:
    """Two more browsers on the same server: one that will join, one that never does."""
    with (
        TestClient(create_app(ServerConfig(database))) as joiner,
        TestClient(create_app(ServerConfig(database))) as stranger,
    ):
        yield joiner, stranger


def test_only_the_owner_sees_renews_or_withdraws_the_link(
    client: TestClient, phones: tuple[TestClient, TestClient]
) -> None:
    joiner, stranger = phones
    sheet_id = create(client)
    link = share(client, sheet_id).json()
    assert link["joined"] == 0
    assert joiner.get(link["path"], follow_redirects=False).status_code == 303
    assert share(client, sheet_id).json() == {**link, "joined": 1}
    for action in ("", "/renew", "/withdraw"):
        refused = share(joiner, sheet_id, action)
        assert refused.status_code == 403, action
        assert refused.json()["detail"].startswith("Only the browser that started this score sheet can share it")
        assert share(stranger, sheet_id, action).status_code == 403
        assert "not kept in this browser" in share(stranger, sheet_id, action).json()["detail"]
    assert share(client, sheet_id).json()["path"] == link["path"], "the refusals changed nothing"
    assert 'id="share-button"' in client.get(f"/keeper/{sheet_id}").text
    page = joiner.get(f"/keeper/{sheet_id}")
    assert page.status_code == 200
    assert 'id="share-button"' not in page.text and 'id="share-dialog"' not in page.text
    assert link["path"] not in page.text


def test_a_new_link_ends_the_old_one(client: TestClient, phones: tuple[TestClient, TestClient]) -> None:
    joiner, stranger = phones
    sheet_id = create(client)
    old = share(client, sheet_id).json()["path"]
    joiner.get(old, follow_redirects=False)
    renewed = share(client, sheet_id, "/renew").json()
    assert renewed["path"] != old and renewed["url"].endswith(renewed["path"]) and renewed["joined"] == 1
    assert share(client, sheet_id).json()["path"] == renewed["path"]
    gone = stranger.get(old, follow_redirects=False)
    assert gone.status_code == 410 and gone.headers["content-type"].startswith("text/html")
    assert "This share link was replaced" in gone.text and "made a new link" in gone.text
    assert stranger.get(f"/api/keeper/sheets/{sheet_id}").status_code == 403
    assert joiner.get(old, follow_redirects=False).headers["location"] == f"/keeper/{sheet_id}"  # still keeps it
    assert joiner.get(f"/api/keeper/sheets/{sheet_id}").status_code == 200
    assert stranger.get(renewed["path"], follow_redirects=False).status_code == 303
    assert stranger.get(f"/api/keeper/sheets/{sheet_id}").status_code == 200


def test_withdrawing_the_link_and_removing_who_joined(
    client: TestClient, phones: tuple[TestClient, TestClient]
) -> None:
    joiner, stranger = phones
    sheet_id = create(client)
    first = share(client, sheet_id).json()["path"]
    joiner.get(first)
    assert share(client, sheet_id, "/withdraw").json() == {"shared": False, "joined": 1}
    gone = stranger.get(first)
    assert gone.status_code == 410 and "This share link was withdrawn" in gone.text
    assert joiner.get(f"/api/keeper/sheets/{sheet_id}").status_code == 200, "withdrawing alone keeps who joined"
    second = share(client, sheet_id).json()["path"]  # Share again: a new link
    assert second != first
    assert stranger.get(second, follow_redirects=False).status_code == 303
    assert share(client, sheet_id, "/withdraw", remove_joined=True).json() == {"shared": False, "joined": 0}
    for phone in phones:
        assert phone.get(f"/api/keeper/sheets/{sheet_id}").status_code == 403
        assert phone.get("/api/keeper/sheets").json() == []
        page = phone.get(f"/keeper/{sheet_id}")
        assert page.status_code == 403 and "not kept in this browser" in page.text
        assert phone.get(second).status_code == 410
    assert client.get(f"/api/keeper/sheets/{sheet_id}").status_code == 200
    third = share(client, sheet_id, "/renew", remove_joined=True).json()  # renew works with no link too
    assert third["joined"] == 0 and third["path"] not in (first, second)
    unknown = stranger.get("/keeper/join/AAAAAAAAAAAAAAAA")
    assert unknown.status_code == 404 and "opens no score sheet" in unknown.text


def test_a_removed_browser_waiting_for_entries_hears_it_at_once(database: str) -> None:
    app = create_app(ServerConfig(database))
    with TestClient(app) as client:
        joiner = TestClient(app)  # another browser (its own cookies) on the same server process
        sheet_id = create(client)
        joiner.get(share(client, sheet_id).json()["path"])
        with ThreadPoolExecutor(1) as thread:
            waiting = thread.submit(joiner.get, f"/api/keeper/sheets/{sheet_id}/next", params={"seen": 0})
            time.sleep(0.3)
            assert not waiting.done()
            start = time.monotonic()
            share(client, sheet_id, "/renew", remove_joined=True)
            removed = waiting.result(timeout=10)
            assert time.monotonic() - start < 1.0, "at once, not at the next look at the database"
        assert removed.status_code == 403 and "not kept in this browser" in removed.json()["detail"]


def test_a_browser_removed_through_another_process_hears_it_at_the_next_look(
    client: TestClient, phones: tuple[TestClient, TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(routes, "RECHECK_SECONDS", 0.2)
    joiner, _ = phones  # a server process of its own
    sheet_id = create(client)
    joiner.get(share(client, sheet_id).json()["path"])
    with ThreadPoolExecutor(1) as thread:
        waiting = thread.submit(joiner.get, f"/api/keeper/sheets/{sheet_id}/next", params={"seen": 0})
        time.sleep(0.3)
        share(client, sheet_id, "/withdraw", remove_joined=True)
        assert waiting.result(timeout=5).status_code == 403


# ------------------------------------------------------------------ ids beyond the databases' integers


@pytest.fixture(params=["sqlite", "postgresql"])
def any_database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A SQLite file, or a schema of the local PostgreSQL of its own (dropped afterwards), named in the URL."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'ids.sqlite3'}"
        return
    if not postgres_reachable():
        pytest.skip("no PostgreSQL at 127.0.0.1:5432 (user postgres, database test)")
    pg_schema = f"ohhell_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect("host=127.0.0.1 port=5432 user=postgres dbname=test", autocommit=True) as admin:
        admin.execute(f'CREATE SCHEMA "{pg_schema}"')
        try:
            yield f"{POSTGRES}?options=-csearch_path%3D{pg_schema}"
        finally:
            admin.execute(f'DROP SCHEMA "{pg_schema}" CASCADE')


OUT_OF_RANGE = [0, -1, 2**31, 2**63, 10**20, 10**30]


def test_sheet_ids_beyond_the_databases_integers_are_not_found(any_database: str) -> None:
    with TestClient(create_app(ServerConfig(any_database)), raise_server_exceptions=False) as client:
        sheet_id = create(client)
        expected = "There is no score sheet with that number: they run from 1 to 2147483647."
        for bad in OUT_OF_RANGE:
            for path in (f"/api/keeper/sheets/{bad}", f"/api/keeper/sheets/{bad}/next?seen=0"):
                answer = client.get(path)
                assert (answer.status_code, answer.json()) == (404, {"detail": expected}), path
            for path in (f"/keeper/{bad}/sheet.csv", f"/keeper/{bad}/sheet.json", f"/keeper/{bad}/print"):
                assert client.get(path).status_code == 404, path
            page = client.get(f"/keeper/{bad}")
            assert page.status_code == 404 and "There is no score sheet with that number" in page.text
            for action in ("", "/renew", "/withdraw"):
                assert share(client, bad, action).status_code == 404
            assert enter(client, bad, 0, type="trump", trump="S").status_code == 404
        assert client.get(f"/api/keeper/sheets/{2**31 - 1}").status_code == 404  # in range: simply none
        for seen in (10**30, 2**31, -1):
            answer = client.get(f"/api/keeper/sheets/{sheet_id}/next", params={"seen": seen})
            assert answer.status_code == 400, seen
            assert answer.json()["detail"].startswith("seen is how many entries the page shows")
        assert enter(client, sheet_id, 10**30, type="trump", trump="S").status_code == 422
        assert client.get(f"/api/keeper/sheets/{sheet_id}").json()["seq"] == 0


def test_the_store_finds_no_sheet_beyond_the_databases_integers(any_database: str) -> None:
    upgrade(any_database)

    async def look() -> None:
        store = SheetStore(any_database)
        try:
            for bad in OUT_OF_RANGE:
                for lookup in (store.load, store.event_count, store.share_code, store.renew_share_code):
                    with pytest.raises(SheetNotFoundError):
                        await lookup(bad)
                with pytest.raises(SheetNotFoundError):
                    await store.role_of(bad, "someone")
                with pytest.raises(SheetNotFoundError):
                    await store.withdraw_share_code(bad)
        finally:
            await store.close()

    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, look()).result()
