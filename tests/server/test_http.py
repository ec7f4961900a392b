"""The HTTP side: new games from a preset and Settings, the list of your games, records, replays, deal numbers."""

from __future__ import annotations

import html

import httpx

from ohhell import records
from ohhell.dealnumbers import MAX_DEAL_NUMBER
from ohhell.web.house_rules import SETTINGS_GROUPS
from server.seriesplay import play_series
from server.serving import RunningServer, player, run_async, start_game


def play_series_of(server: RunningServer, client: httpx.Client, game_id: object) -> None:
    """Play the game to its end over the real socket."""
    state = run_async(lambda: play_series(server, int(str(game_id)), client))
    assert state["game"]["over"]


def test_the_home_page_sets_a_player_cookie_and_offers_every_preset_and_settings_group(server: RunningServer) -> None:
    response = httpx.get(f"{server.url}/")
    assert response.status_code == 200
    assert "ohhell_player" in response.cookies
    for preset in ("full", "down-only", "short", "up-and-down", "traditional", "magicians"):
        assert f'value="{preset}"' in response.text
    assert SETTINGS_GROUPS == ("Hand sizes", "Scoring", "Hook", "Trump", "Bidding", "First lead", "Magicians & Jesters")
    for group in SETTINGS_GROUPS:
        assert f"<legend>{html.escape(group)}</legend>" in response.text


def test_settings_change_the_rules_on_top_of_the_preset(server: RunningServer) -> None:
    client = player(server)
    game = start_game(
        client,
        preset="full",
        settings={
            "scoring": "5+bid",
            "miss_penalty": True,
            "hook": False,
            "trump": "rotation-nt",
            "first_lead": "dealer",
        },
    )
    rules = client.get(f"/api/games/{game['id']}/record").json()["rules"]
    assert rules == {
        "preset": "full",
        "players": 4,
        "trump": {"rotation": ["S", "H", "D", "C", "NT"]},
        "hook": False,
        "first_lead": "dealer",
        "scoring": "5+bid",
        "miss_penalty": True,
    }


def test_impossible_rules_are_refused_with_the_sentence_that_says_why(server: RunningServer) -> None:
    client = player(server)
    six = [{"name": f"P{i}", "level": "easy"} for i in range(6)]
    response = client.post("/api/games", json={"preset": "magicians", "computers": six})
    assert response.status_code == 400
    assert response.json()["detail"] == "the 60-card pack with Magicians and Jesters is for 3 to 6 players, not 7"
    for bad in (
        {"preset": "poker"},
        {"computers": [{"name": "A"}]},
        {"number": MAX_DEAL_NUMBER + 1},
        {"number": -1},
        {"settings": {"schedule": "sideways"}},
        {"computers": [{"name": ""}, {"name": "B"}]},
        {"seat": 3},
    ):
        assert client.post("/api/games", json=bad).status_code == 422, bad


def test_a_game_started_from_a_number_deals_that_number_as_practice(server: RunningServer) -> None:
    client = player(server)
    game = start_game(client, number=123456789)
    assert game["number"] == "123456789" and game["practice"]  # the person chose it: it is theirs to see
    listed = next(g for g in client.get("/api/games").json() if g["id"] == game["id"])
    assert listed["number"] == "123456789" and listed["practice"]
    assert "practice" in client.get("/").text
    play_series_of(server, client, game["id"])
    record = client.get(f"/api/games/{game['id']}/record").json()
    assert record["deal_number"] == 123456789
    assert records.check(record)[0] == 0  # the cards are that number's (deal_commitment carries the salt)
    longest = start_game(client, number=str(MAX_DEAL_NUMBER))  # the form sends the digits as text
    assert longest["number"] == str(MAX_DEAL_NUMBER)


def test_replay_this_deal_is_refused_mid_series_and_after_the_end_starts_practice_with_the_same_cards(
    server: RunningServer,
) -> None:
    client = player(server)
    game = start_game(client, preset="traditional")
    assert game["number"] is None and not game["practice"]  # a secret number: not even its starter is told it
    early = client.post(f"/api/games/{game['id']}/replay-deal")
    assert early.status_code == 409 and "still being played" in early.json()["detail"]
    play_series_of(server, client, game["id"])
    replay = client.post(f"/api/games/{game['id']}/replay-deal")
    assert replay.status_code == 201
    again = replay.json()
    assert again["id"] != game["id"] and again["practice"]
    first = client.get(f"/api/games/{game['id']}/record").json()
    assert again["number"] == str(first["deal_number"])
    second = client.get(f"/api/games/{again['id']}/record").json()
    assert "deal_number" not in second  # told when its series is over, like any other
    for field in ("rules", "players", "first_dealer"):
        assert first[field] == second[field]
    assert second["deals"] == [] or second["deals"][0]["hands"] == first["deals"][0]["hands"]


def test_your_games_are_listed_and_nobody_elses(server: RunningServer) -> None:
    ann, bob = player(server), player(server)
    first = start_game(ann)
    second = start_game(ann, preset="full")
    start_game(bob)
    listed = ann.get("/api/games").json()
    assert [g["id"] for g in listed][:2] == [second["id"], first["id"]]
    assert all(g["status"].startswith("Hand 1 of") for g in listed)
    page = ann.get("/").text
    assert f'href="/games/{first["id"]}/replay"' in page
    assert f'href="/api/games/{first["id"]}/record"' in page
    for path in (f"/games/{first['id']}", f"/api/games/{first['id']}/record", f"/api/games/{first['id']}/replay"):
        assert bob.get(path).status_code == 403
    assert ann.get("/games/999999").status_code == 404


def test_the_record_of_an_unfinished_game_stops_at_its_last_finished_hand_and_checks(server: RunningServer) -> None:
    client = player(server)
    game = start_game(client)
    record = client.get(f"/api/games/{game['id']}/record")
    assert record.headers["content-disposition"] == f'attachment; filename="ohhell-game-{game["id"]}.json"'
    body = record.json()
    assert body["format"] == "ohhell-record/1"
    assert body["deals"] == []  # the first hand is being played: its cards stay hidden
    status, result = records.check(body)
    assert status == 0
    assert result["complete"] is False
    replay = client.get(f"/api/games/{game['id']}/replay").json()
    assert replay["deals"] == []
    assert replay["players"] == ["You", "Alice", "Bob", "Carol"]


def test_pages_for_the_game_and_its_replay_are_served(server: RunningServer) -> None:
    client = player(server)
    game = start_game(client)
    page = client.get(f"/games/{game['id']}")
    assert page.status_code == 200
    assert 'data-game="' in page.text
    assert client.get(f"/games/{game['id']}/replay").status_code == 200
    assert client.get("/static/cards/NOTICE.md").status_code == 200
    for card in ("AS", "TH", "2C", "MG", "JE", "back"):
        assert client.get(f"/static/cards/{card}.svg").headers["content-type"].startswith("image/svg")
