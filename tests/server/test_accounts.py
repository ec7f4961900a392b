"""Accounts against a real server: sign up, in and out, sessions on the server, limits, CSRF, no password kept."""

from __future__ import annotations

import sqlite3
import uuid
from pathlib import Path

import httpx
import pytest

from server.accounts import csrf_of, post_form, signed_in, signed_up
from server.serving import RunningServer, player, start_game


def unique(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:6]}"


def test_sign_up_keeps_the_guests_games_and_signs_in_on_another_browser(server: RunningServer) -> None:
    guest = player(server)
    game = start_game(guest)
    name = unique("Ann")
    response = post_form(guest, "/signup", "/signup", name=name, password="a long secret")
    assert response.status_code == 303
    assert [g["id"] for g in guest.get("/api/games").json()] == [game["id"]]  # the guest's game is the account's
    elsewhere = signed_in(server, name)
    assert [g["id"] for g in elsewhere.get("/api/games").json()] == [game["id"]]
    assert elsewhere.get(game["url"]).status_code == 200
    assert name in elsewhere.get("/account").text


def test_signing_out_leaves_a_guest_who_holds_none_of_the_accounts_games(server: RunningServer) -> None:
    name = unique("Bo")
    client = signed_up(server, name)
    game = start_game(client)
    assert post_form(client, "/account", "/signout").status_code == 303
    assert client.get("/api/games").json() == []
    assert client.get(game["url"], headers={"Accept": "text/html"}).status_code == 403
    assert "Sign in" in client.get("/").text


def test_a_wrong_password_is_refused_and_the_limit_holds_even_the_right_one(server: RunningServer) -> None:
    name = unique("Cy")
    signed_up(server, name)
    client = player(server)
    for _ in range(5):
        wrong = post_form(client, "/signin", "/signin", name=name, password="not the password")
        assert wrong.status_code == 400
        assert "do not match" in wrong.text
    refused = post_form(client, "/signin", "/signin", name=name, password="a long secret")
    assert refused.status_code == 400
    assert "Too many failed attempts" in refused.text


def test_sign_out_everywhere_ends_every_session(server: RunningServer) -> None:
    name = unique("Di")
    first = signed_up(server, name)
    second = signed_in(server, name)
    assert post_form(first, "/account", "/signout-everywhere").status_code == 303
    assert second.get("/account").status_code == 303  # back to Sign in: the session is gone on the server
    assert second.get("/account").headers["location"].startswith("/signin")


def test_forms_without_their_token_and_requests_from_other_sites_are_refused(server: RunningServer) -> None:
    client = player(server)
    no_token = client.post("/signup", data={"name": unique("Ed"), "password": "a long secret"})
    assert no_token.status_code == 403
    other_site = client.post(
        "/signup",
        data={"csrf": csrf_of(client, "/signup"), "name": unique("Ed"), "password": "a long secret"},
        headers={"Origin": "https://evil.example"},
    )
    assert other_site.status_code == 403
    api = client.post("/api/games", json={"preset": "short"}, headers={"Origin": "https://evil.example"})
    assert api.status_code == 403
    cross = client.post("/api/games", json={"preset": "short"}, headers={"Sec-Fetch-Site": "cross-site"})
    assert cross.status_code == 403
    same = client.post("/api/games", json={"preset": "short"}, headers={"Origin": server.url})
    assert same.status_code == 201


def test_rename_change_password_and_delete(server: RunningServer) -> None:
    name, new_name = unique("Fi"), unique("Fy")
    client = signed_up(server, name)
    game = start_game(client)
    assert new_name in post_form(client, "/account", "/account/rename", name=new_name).text
    taken = signed_up(server, unique("Gu"))
    assert "taken" in post_form(taken, "/account", "/account/rename", name=new_name.upper()).text
    changed = post_form(client, "/account", "/account/password", password="a long secret", new_password="another one")
    assert "Your password is changed" in changed.text
    signed_in(server, new_name, "another one")
    wrong = post_form(client, "/account", "/account/delete", password="a long secret")
    assert wrong.status_code == 400
    assert post_form(client, "/account", "/account/delete", password="another one").status_code == 303
    assert post_form(player(server), "/signin", "/signin", name=new_name, password="another one").status_code == 400
    with httpx.Client(base_url=server.url) as fresh:
        assert fresh.get(f"/games/{game['id']}").status_code == 403  # the game stays, belonging to nobody now


def test_no_password_is_stored_or_logged_in_clear(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    log = tmp_path / "server.log"
    running = RunningServer(f"sqlite:///{database}", log_path=log).start()
    password = "Plain-Text-Password-" + uuid.uuid4().hex
    try:
        client = signed_up(running, unique("Ha"), password)
        post_form(client, "/account", "/account/password", password=password, new_password=password + "2")
        post_form(player(running), "/signin", "/signin", name="nobody", password=password)
    finally:
        running.stop()
    with sqlite3.connect(database) as connection:
        connection.execute("PRAGMA wal_checkpoint(FULL)")
        hashes = [row[0] for row in connection.execute("SELECT password_hash FROM accounts")]
    assert hashes and all(h.startswith("$argon2id$") for h in hashes)
    for path in (p for p in tmp_path.iterdir() if p.is_file()):
        content = path.read_bytes()
        assert password.encode() not in content, f"{path.name} holds the password"


@pytest.mark.parametrize("name", ["", "x" * 25, "<script>", "deleted player"])
def test_bad_names_are_refused_with_a_sentence(server: RunningServer, name: str) -> None:
    client = player(server)
    response = post_form(client, "/signup", "/signup", name=name, password="a long secret")
    assert response.status_code == 400
    assert 'aria-invalid="true"' in response.text


def test_the_limit_per_address_holds_across_names(tmp_path: Path) -> None:
    running = RunningServer(f"sqlite:///{tmp_path / 'games.sqlite3'}").start()
    try:
        name = unique("Ad")
        signed_up(running, name)
        client = player(running)
        for attempt in range(20):  # twenty wrong names or passwords from one address, four per name
            wrong = post_form(client, "/signin", "/signin", name=f"guess{attempt // 4}", password="not it")
            assert "do not match" in wrong.text
        refused = post_form(client, "/signin", "/signin", name=name, password="a long secret")
        assert refused.status_code == 400 and "Too many failed attempts" in refused.text
    finally:
        running.stop()
