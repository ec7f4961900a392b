"""Tables of several people with real WebSocket clients: seats belong to their people, invite links renew,
spectators see only what every player may, chat is bounded, a person who leaves is played for by a computer."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
from websockets.exceptions import InvalidStatus

from ohhell import records
from ohhell.rules import Rules
from ohhell.server.party.live import MAX_WATCHERS
from server.partyclient import Client, join, new_table, play_to_the_end, seat_socket, watch_socket
from server.partyscan import leaks
from server.serving import RunningServer, player, run_async


def codes(people: dict[str, Any]) -> tuple[str, str]:
    """The invite and watch codes a host's people message names."""
    return people["invite"].rsplit("/", 1)[1], people["watch"].rsplit("/", 1)[1]


async def seated(server: RunningServer, game_id: int, client: httpx.Client) -> Client:
    socket = await seat_socket(server, game_id, client)
    await socket.until("people")
    return socket


def test_each_socket_acts_only_for_its_own_seat(server: RunningServer) -> None:
    host_client, game_id = new_table(server, friends=[2])

    async def scenario() -> None:
        host = await seated(server, game_id, host_client)
        invite, watch = codes(host.people)
        assert host.people["status"] == "waiting" and host.people["seats"][2]["kind"] == "open"
        stranger = player(server)
        try:
            await seat_socket(server, game_id, stranger)
            raise AssertionError("a browser without a seat was let in")
        except InvalidStatus:
            pass
        friend_client = join(server, invite, 2, "Bea")
        assert friend_client.post(f"/api/join/{invite}", json={"name": "Bea", "seat": 2}).status_code == 201
        taken = stranger.post(f"/api/join/{invite}", json={"name": "Cy", "seat": 2})
        assert taken.status_code == 409  # Bea has it
        friend = await seated(server, game_id, friend_client)
        assert friend.people["you"] == 2 and friend.people["invite"] is None  # only the host sees the invite
        await friend.send({"type": "start", "fill": True})
        assert (await friend.until("error"))["code"] == "not-allowed"
        await friend.send({"type": "bid", "bid": 0, "seq": 0, "deal": 0})
        assert (await friend.until("error"))["code"] == "not-started"
        watcher = await watch_socket(server, watch)
        await watcher.until("people")
        await host.send({"type": "start", "fill": False})
        await host.until("state")
        await friend.until("state")
        await watcher.until("state")
        assert host.state["game"]["you"] == 0 and friend.state["game"]["you"] == 2
        assert set(host.state["deal"]["hand"]).isdisjoint(friend.state["deal"]["hand"])
        assert watcher.state["deal"]["hand"] == [] and watcher.state["game"]["you"] == -1
        # whoever is to act, the other person's move is refused; a seat cannot be named; spectators never play
        for socket in (friend, host):
            await socket.until("people")  # the start's people message
        while not (host.my_turn() or friend.my_turn()):  # the computer players act until a person is to
            await (friend if friend.state["seq"] < host.state["seq"] else host).receive()
        right, wrong = (host, friend) if host.my_turn() else (friend, host)
        while wrong.state["seq"] < right.state["seq"]:
            await wrong.receive()
        state = wrong.state
        to_act = state["deal"]["to_act"]
        await wrong.send({"type": "bid", "bid": 0, "seq": state["seq"], "deal": 0})
        assert (await wrong.until("error"))["code"] == "not-your-turn"
        await right.send({"type": "hint"})  # a Hint is for the person who asked
        assert (await right.until("hint"))["text"]
        await wrong.send({"type": "sync"})
        await wrong.until("state")
        assert not any('"type":"hint"' in text for text in wrong.texts)
        await wrong.send({"type": "bid", "bid": 0, "seq": state["seq"], "deal": 0, "seat": to_act})
        assert (await wrong.until("error"))["code"] == "bad-message"
        await watcher.send({"type": "bid", "bid": 0, "seq": state["seq"], "deal": 0})
        assert (await watcher.until("error"))["code"] == "not-allowed"
        await watcher.send({"type": "hint"})
        assert (await watcher.until("error"))["code"] == "not-your-turn"
        await watcher.send({"type": "resign", "seq": state["seq"]})
        assert (await watcher.until("error"))["code"] == "not-allowed"
        await watcher.send({"type": "show_hands", "deal": 0})
        assert (await watcher.until("error"))["code"] == "not-allowed"  # the hand is still being played
        for socket in (host, friend, watcher):
            await socket.socket.close()

    run_async(scenario)


def test_the_host_renews_the_invite_link_and_the_old_one_says_so(server: RunningServer) -> None:
    host_client, game_id = new_table(server, friends=[1, 2])

    async def scenario() -> tuple[str, str]:
        host = await seated(server, game_id, host_client)
        old, _ = codes(host.people)
        friend_client = join(server, old, 1, "Bea")
        friend = await seated(server, game_id, friend_client)
        await friend.send({"type": "renew", "link": "join"})
        assert (await friend.until("error"))["code"] == "not-allowed"
        await host.send({"type": "renew", "link": "join"})
        while codes(host.people)[0] == old:
            await host.receive()
        new, _ = codes(host.people)
        await host.socket.close()
        await friend.socket.close()
        return old, new

    old, new = run_async(scenario)
    assert old != new and len(new) >= 16
    someone = player(server)
    page = someone.get(f"/join/{old}")
    assert page.status_code == 200 and "replaced by the host" in page.text
    assert someone.post(f"/api/join/{old}", json={"name": "Cy", "seat": 2}).status_code == 410
    assert someone.get(f"/join/{new}").status_code == 200
    assert someone.post(f"/api/join/{new}", json={"name": "Cy", "seat": 2}).status_code == 201
    assert someone.get(f"/join/{new}", follow_redirects=False).status_code == 303  # already seated: to the table
    assert someone.get("/join/nosuchcodeatall1234").status_code == 404
    assert f"/games/{game_id}" in someone.get("/").text  # the friend's list of games has the table


def test_spectators_and_people_see_no_hidden_card_over_a_whole_game(server: RunningServer) -> None:
    host_client, game_id = new_table(server, friends=[2])

    async def scenario() -> tuple[list[Client], Client]:
        host = await seated(server, game_id, host_client)
        invite, watch = codes(host.people)
        friend = await seated(server, game_id, join(server, invite, 2, "Bea"))
        watcher = await watch_socket(server, watch, "Dee")
        await watcher.until("people")
        while "Dee" not in host.people["watching"]:
            await host.receive()
        await host.send({"type": "start"})
        await play_to_the_end([host, friend], [watcher])
        await watcher.send({"type": "show_hands", "deal": 8})  # every hand is shown once it is over
        hands = await watcher.until("hands")
        assert all(len(p["hand"]) == 5 for p in hands["players"])
        for socket in (host, friend, watcher):
            await socket.socket.close()
        return [host, friend], watcher

    people, watcher = run_async(scenario)
    record = host_client.get(f"/api/games/{game_id}/record").json()
    for seat, client in ((0, people[0]), (2, people[1]), (-1, watcher)):
        named, leaked = leaks(record, seat, client.texts)
        assert named > 50 and leaked == 0, (seat, named, leaked)
    for text in watcher.texts:
        message = json.loads(text)
        deal = message.get("deal") if message["type"] == "state" else message.get("changes", {}).get("deal")
        assert not (deal or {}).get("hand"), message  # a spectator's table never has a hand in it


def test_chat_is_text_bounded_in_length_and_rate_and_can_be_closed_to_spectators(server: RunningServer) -> None:
    host_client, game_id = new_table(server, friends=[1])

    async def scenario() -> tuple[Client, Client]:
        host = await seated(server, game_id, host_client)
        _, watch = codes(host.people)
        watcher = await watch_socket(server, watch, "Dee")
        await watcher.until("people")
        await host.send({"type": "chat", "text": "x" * 201})
        assert (await host.until("error"))["code"] == "bad-message"
        await host.send({"type": "chat", "text": "hi", "phrase": "oops"})
        assert (await host.until("error"))["code"] == "bad-message"
        await host.send({"type": "chat", "text": "<b>hi</b>\u202e\x07 there"})
        line = (await watcher.until("chat"))["lines"][0]
        assert line == {"from": "Ann", "seat": 0, "watching": False, "text": "<b>hi</b> there", "phrase": None}
        await watcher.send({"type": "chat", "phrase": "good-luck"})
        while not host.chat or host.chat[-1]["from"] != "Dee":
            await host.receive()
        line = host.chat[-1]
        assert line["from"] == "Dee" and line["watching"] and line["text"] == "Good luck!"
        for _ in range(5):
            await host.send({"type": "chat", "phrase": "well-played"})
        assert (await host.until("error"))["code"] == "chat-too-fast"  # 5 lines in 10 s: the 6th of them
        await host.send({"type": "spectator_chat", "open": False})
        while watcher.people["settings"]["spectator_chat"]:
            await watcher.receive()
        await watcher.send({"type": "chat", "text": "let me in"})
        assert (await watcher.until("error"))["code"] == "chat-closed"
        late = await watch_socket(server, watch, "Eve")
        await late.until("chat")  # who joins gets the lines so far
        for socket in (host, watcher, late):
            await socket.socket.close()
        return host, late

    _, late = run_async(scenario)
    assert [line["text"] for line in late.chat][:2] == ["<b>hi</b> there", "Good luck!"]


def test_a_person_who_gives_up_is_played_for_to_the_end_and_loses(server: RunningServer) -> None:
    host_client, game_id = new_table(server, friends=[1], grace_seconds=1)

    async def scenario() -> tuple[Client, Client]:
        host = await seated(server, game_id, host_client)
        invite, _ = codes(host.people)
        friend = await seated(server, game_id, join(server, invite, 1, "Bea"))
        await host.send({"type": "start"})
        await host.until("state")
        await friend.until("state")
        await friend.send({"type": "resign", "seq": friend.state["seq"]})
        while host.people["seats"][1]["gone"] != "gave-up":
            await host.receive()
        assert host.people["seats"][1]["computer_playing"]
        assert not host.state["game"]["over"]  # the others play on
        await friend.socket.close()
        await play_to_the_end([host], [])
        await host.socket.close()
        return host, friend

    host, _ = run_async(scenario)
    record = host_client.get(f"/api/games/{game_id}/record").json()
    assert record["left"][0]["seat"] == 1
    status, result = records.check(record)
    assert status == 0 and result["complete"] and result["left"] == record["left"]
    assert 1 not in result["winners"] and result["winners"] == host.state["game"]["winners"]


def test_a_disconnected_persons_turn_is_played_after_the_grace_period_and_the_host_can_hand_a_seat_on(
    server: RunningServer,
) -> None:
    host_client, game_id = new_table(server, friends=[1, 2], grace_seconds=1)

    async def scenario() -> Client:
        host = await seated(server, game_id, host_client)
        invite, _ = codes(host.people)
        bea_client = join(server, invite, 1, "Bea")
        join(server, invite, 2, "Cy")  # Cy takes a seat and never comes: the computer player plays for Cy
        bea = await seated(server, game_id, bea_client)
        await host.send({"type": "start"})
        await bea.until("state")
        await bea.socket.close()  # Bea goes away too
        while not (host.people and host.people["seats"][2]["computer_playing"]):
            if host.my_turn():
                await host.send(host.first_move())
            await host.receive()
        bea = await seated(server, game_id, bea_client)  # back: Bea plays her own seat again
        assert not bea.people["seats"][1]["computer_playing"]
        await host.send({"type": "hand_over", "seat": 2})
        while host.people["seats"][2]["gone"] != "handed":
            await host.receive()
        await host.send({"type": "hand_over", "seat": 2})
        assert (await host.until("error"))["code"] == "not-allowed"
        await play_to_the_end([host, bea], [])
        watcher = await watch_socket(server, codes(host.people)[1])
        await watcher.until("state")
        await bea.send({"type": "again"})
        while not bea.people["seats"][1]["again"]:
            await bea.receive()
        await host.send({"type": "again"})
        await host.until("moved")
        await bea.until("moved")
        # the spectator follows to the new game as a spectator: its watch link, the new game's public view
        await watcher.until("moved")
        assert watcher.moved is not None and watcher.moved.startswith("/watch/")
        following = await watch_socket(server, watcher.moved.rsplit("/", 1)[1])
        state = await following.until("state")
        assert state["game"]["you"] == -1 and state["deal"]["index"] == 0 and not state["game"]["over"]
        for socket in (host, bea, watcher, following):
            await socket.socket.close()
        return host

    host = run_async(scenario)
    assert host.moved is not None
    new_id = int(host.moved.rsplit("/", 1)[1])
    stored = host_client.get(f"/games/{new_id}")
    assert stored.status_code == 200  # Play again: a new game for the same people
    listed = host_client.get("/api/games").json()
    new_game = next(g for g in listed if g["id"] == new_id)
    assert new_game["players"][:2] == ["Ann", "Bea"]
    old_game = next(g for g in listed if g["id"] == game_id)
    assert old_game["number"] is not None  # told once the series was over
    assert new_game["number"] is None and not new_game["practice"]  # a new secret number...
    assert new_game["commitment"] != old_game["commitment"]  # ...with a new commitment


def test_every_rule_option_works_the_same_at_a_table_of_several_people(server: RunningServer) -> None:
    rules = {"hook": True, "bid_changes": "until-next", "first_lead": "dealer"}
    host_client, game_id = new_table(server, friends=[1], preset="magicians", settings=rules)

    async def scenario() -> Client:
        host = await seated(server, game_id, host_client)
        invite, _ = codes(host.people)
        friend = await seated(server, game_id, join(server, invite, 1, "Bea"))
        await host.send({"type": "start"})
        await play_to_the_end([host, friend], [], limit=240)
        for socket in (host, friend):
            await socket.socket.close()
        return host

    host = run_async(scenario)
    record = host_client.get(f"/api/games/{game_id}/record").json()
    played = Rules.from_json(record["rules"])
    assert played.special_cards and played.hook and played.bid_changes == "until-next" and played.first_lead == "dealer"
    status, result = records.check(record)
    assert status == 0 and result["complete"] and result["totals"] == host.state["sheet"]["totals"]


def test_the_turn_timer_moves_for_a_connected_person_who_does_not_act(server: RunningServer) -> None:
    host_client, game_id = new_table(server, friends=[1], turn_seconds=15)

    async def scenario() -> Client:
        host = await seated(server, game_id, host_client)
        await host.send({"type": "start", "fill": True})  # the open seat goes to a computer player
        while not host.my_turn():
            await host.receive()
        seq = host.state["seq"]
        notice = await host.until("notice", code="time-up")  # the person waits; after 15 s the computer moves
        assert notice["message"].startswith("Time is up")
        action = await host.until("action", seq=seq)
        assert action["seat"] == 0
        await host.socket.close()
        return host

    host = run_async(scenario)
    assert host.people["seats"][1]["kind"] == "computer"


def test_a_table_takes_a_hundred_spectators_and_turns_the_next_away(server: RunningServer) -> None:
    host_client, game_id = new_table(server, friends=[1])

    async def scenario() -> dict[str, Any]:
        host = await seated(server, game_id, host_client)
        _, watch = codes(host.people)
        watchers = []
        readers = [asyncio.create_task(host.until("never"))]  # each reads what it is sent, as a page does
        for i in range(MAX_WATCHERS):
            watcher = await watch_socket(server, watch, f"W{i}")
            await watcher.until("people")
            watchers.append(watcher)
            readers.append(asyncio.create_task(watcher.until("never")))
        late = await watch_socket(server, watch, "Late")
        refused = await late.until("error")
        # the readers read on while the sockets close: a socket that stops reading fills its queue (websockets
        # keeps 16 messages), and its close handshake then waits out the 10-second close timeout
        for socket in (host, late, *watchers):
            await socket.socket.close()
        for reader in readers:
            reader.cancel()
        await asyncio.gather(*readers, return_exceptions=True)
        return refused

    refused = run_async(scenario)
    assert refused["code"] == "too-many-watchers"


def test_a_host_who_keeps_the_default_name_is_host_to_friends_and_no_friend_is_called_you(
    server: RunningServer,
) -> None:
    """Issue 22, problem 8: the score sheet read "You · F0 · You" (every page names its own seat "You")."""
    host_client, game_id = new_table(server, friends=[1], computers=2, host_name="You")

    async def scenario() -> Client:
        host = await seated(server, game_id, host_client)
        await host.socket.close()
        return host

    host = run_async(scenario)
    assert host.people["seats"][0]["name"] == "Host"
    invite, _ = codes(host.people)
    friend = player(server)
    refused = friend.post(f"/api/join/{invite}", json={"name": " you ", "seat": 1})
    assert refused.status_code == 400 and "You" in refused.json()["detail"]
    assert friend.post(f"/api/join/{invite}", json={"name": "Bea", "seat": 1}).status_code == 201
    # a game of one's own keeps "You"
    alone = player(server)
    assert alone.post("/api/games", json={"preset": "short"}).status_code == 201
    assert alone.get("/api/games").json()[0]["players"][0] == "You"
