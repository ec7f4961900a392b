"""Moving your games to another device, without a browser: the code works once, expires, and the database holds
neither the code nor the token."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from ohhell.site.app import create_app
from ohhell.transfer import store as transfer_store
from ohhell.transfer.store import TransferStore, normal_code
from ohhell.web import identity
from ohhell.web.config import ServerConfig
from ohhell.web.models import utc_now


@pytest.fixture
def database(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'transfer.sqlite3'}"


@pytest.fixture
def app_config(database: str) -> ServerConfig:
    return ServerConfig(database, computer_processes=0)


@pytest.fixture
def phone(app_config: ServerConfig) -> Iterator[TestClient]:
    with TestClient(create_app(app_config)) as client:
        client.get("/transfer").raise_for_status()
        yield client


@pytest.fixture
def laptop(app_config: ServerConfig) -> Iterator[TestClient]:
    with TestClient(create_app(app_config)) as client:
        client.get("/transfer").raise_for_status()
        yield client


def test_a_code_gives_the_other_browser_the_same_player_once(phone: TestClient, laptop: TestClient) -> None:
    made = phone.post("/api/transfer")
    assert made.status_code == 201
    answer = made.json()
    assert answer["url"].endswith(f"/transfer/{answer['code']}")
    assert "<svg" in answer["qr_svg"]
    assert laptop.cookies[identity.COOKIE] != phone.cookies[identity.COOKIE]
    # the link's page asks first: opening it changes nothing
    page = laptop.get(f"/transfer/{answer['code']}")
    assert page.status_code == 200 and "Use this browser for my games" in page.text
    assert laptop.cookies[identity.COOKIE] != phone.cookies[identity.COOKIE]
    used = laptop.post("/api/transfer/redeem", json={"code": answer["code"].lower().replace("-", " ")})
    assert used.status_code == 200
    assert laptop.cookies[identity.COOKIE] == phone.cookies[identity.COOKIE]
    again = laptop.post("/api/transfer/redeem", json={"code": answer["code"]})
    assert again.status_code == 404
    assert "used already" in again.json()["detail"]


def test_a_browser_without_a_cookie_gets_the_token_of_the_code_not_a_new_one(
    phone: TestClient, app_config: ServerConfig
) -> None:
    code = phone.post("/api/transfer").json()["code"]
    with TestClient(create_app(app_config)) as fresh:
        used = fresh.post("/api/transfer/redeem", json={"code": code})
        assert used.status_code == 200
        cookies = [c for c in used.headers.get_list("set-cookie") if c.startswith(f"{identity.COOKIE}=")]
        assert len(cookies) == 1
        assert fresh.cookies[identity.COOKIE] == phone.cookies[identity.COOKIE]


@pytest.mark.parametrize("code", ["", "nonsense", "0000-0000-0000-0000", "A" * 40])
def test_a_wrong_code_is_refused_with_a_sentence(laptop: TestClient, code: str) -> None:
    before = laptop.cookies[identity.COOKIE]
    answer = laptop.post("/api/transfer/redeem", json={"code": code})
    assert answer.status_code in (404, 422)
    assert laptop.cookies[identity.COOKIE] == before


def test_the_database_holds_neither_the_code_nor_the_token(phone: TestClient, database: str) -> None:
    code = phone.post("/api/transfer").json()["code"]
    token = phone.cookies[identity.COOKIE]
    engine = sa.create_engine(database)
    with engine.connect() as connection:
        rows = connection.execute(sa.text("SELECT * FROM player_transfers")).all()
    engine.dispose()
    assert len(rows) == 1
    stored = " ".join(str(value) for value in rows[0])
    assert str(normal_code(code)) not in stored and code not in stored and token not in stored
    assert identity.player_key(token) not in stored


def test_a_code_expires(database: str, phone: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    async def scenario() -> str | None:
        store = TransferStore(database)
        try:
            monkeypatch.setattr(transfer_store, "LIFETIME", timedelta(seconds=-1))
            code, expires = await store.create("abcdefghijklmnopqrstuvwxyz012345")
            assert expires < utc_now()
            return await store.redeem(code)
        finally:
            await store.close()

    assert asyncio.run(scenario()) is None


def test_a_game_of_another_browser_is_a_page_that_says_how_to_move_it(phone: TestClient, laptop: TestClient) -> None:
    started = phone.post(
        "/api/games",
        json={"preset": "short", "computers": [{"name": n, "level": "easy"} for n in ("Al", "Bo", "Cy")]},
    )
    assert started.status_code == 201
    answer = laptop.get(started.json()["url"], headers={"Accept": "text/html"})
    assert answer.status_code == 403
    assert answer.headers["content-type"].startswith("text/html")
    assert "Move your games to another device" in answer.text
    assert "{" not in answer.text.split("<main", 1)[1].split("</main>")[0]
