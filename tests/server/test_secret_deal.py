"""The secret deal through the real server: a table of three people and a spectator plays a whole series, and
nothing any of them was told before the end (messages, pages, API answers, the record and replay) rebuilds a hidden
hand or opens the commitment; at the end everyone is told the number and salt, which match the commitment shown
from the start, and ``ohhell check`` verifies the downloaded record (and refuses it tampered). On SQLite in one
process, and on PostgreSQL across two processes (the friends and the spectator relayed to the owner)."""

from __future__ import annotations

import copy
import json

import httpx

from ohhell import commitment, records
from server.dealscan import rebuilt_hands
from server.partyclient import Client, join, new_table, play_to_the_end, seat_socket, watch_socket
from server.serving import RunningServer, player, run_async


def told_before_the_end(texts: list[str]) -> list[str]:
    """The messages a client received before the one that ended the series."""
    out = []
    for text in texts:
        message = json.loads(text)
        game = message.get("game") if message["type"] == "state" else message.get("changes", {}).get("game")
        if (game or {}).get("over"):
            break
        out.append(text)
    return out


def pages(client: httpx.Client, paths: list[str]) -> list[str]:
    """The bodies of ``paths`` as ``client`` gets them (HTML or JSON), every one answered."""
    bodies = []
    for path in paths:
        response = client.get(path, follow_redirects=True)
        assert response.status_code == 200, (path, response.status_code)
        bodies.append(response.text)
    return bodies


def seated_paths(game_id: int, invite: str) -> list[str]:
    return [
        f"/games/{game_id}",
        "/",
        "/api/games",
        f"/api/games/{game_id}/record",
        f"/api/games/{game_id}/replay",
        f"/games/{game_id}/replay",
        f"/join/{invite}",
    ]


def three_people_and_a_spectator(first: RunningServer, second: RunningServer) -> None:
    """The host on ``first`` (which owns the table), two friends and a spectator on ``second``; the second friend
    gives up half-way and stays connected."""
    host_client, game_id = new_table(first, friends=[1, 2], computers=3, grace_seconds=30)
    clients: dict[str, httpx.Client] = {"host": host_client, "watcher": player(second)}
    told: dict[str, list[str]] = {"host": [], "bea": [], "cy": [], "watcher": []}

    async def scenario() -> dict[str, Client]:
        host = await seat_socket(first, game_id, host_client)
        await host.until("people")
        invite, watch = (host.people[k].rsplit("/", 1)[1] for k in ("invite", "watch"))
        clients["bea"] = join(second, invite, 1, "Bea")
        clients["cy"] = join(second, invite, 2, "Cy")
        sockets = {"host": host}
        for name in ("bea", "cy"):
            sockets[name] = await seat_socket(second, game_id, clients[name])
            await sockets[name].until("people")
        sockets["watcher"] = await watch_socket(second, watch, "Dee")
        await sockets["watcher"].until("people")

        def look() -> None:  # every page each of them may open, at this moment
            for name in ("host", "bea", "cy"):
                told[name] += pages(clients[name], seated_paths(game_id, invite))
            told["watcher"] += pages(clients["watcher"], [f"/watch/{watch}", f"/join/{invite}"])

        look()
        while not all(host.people["seats"][s]["connected"] for s in (1, 2)) or "Dee" not in host.people["watching"]:
            await host.receive()
        await host.send({"type": "start"})
        people = [sockets["host"], sockets["bea"], sockets["cy"]]
        await play_to_the_end(people, [sockets["watcher"]], moves=12)
        look()
        sealed = {c.state["game"]["commitment"]["sha256"] for c in sockets.values()}
        assert len(sealed) == 1 and all(c.state["game"]["commitment"]["number"] is None for c in sockets.values())
        cy = sockets["cy"]
        await cy.send({"type": "resign", "seq": cy.state["seq"]})
        while host.people["seats"][2]["gone"] != "gave-up":
            await host.receive()
        await play_to_the_end(people[:2], [sockets["watcher"]], moves=40)
        look()
        await play_to_the_end(people[:2], [sockets["watcher"], cy])
        for socket in sockets.values():
            await socket.socket.close()
        return sockets

    sockets = run_async(scenario)
    record = host_client.get(f"/api/games/{game_id}/record").json()
    sealed = record["deal_commitment"]["sha256"]
    number, salt = record["deal_number"], record["deal_commitment"]["salt"]
    assert rebuilt_hands([f'{{"id":"{number}"}}'], record, sealed)  # the scan finds the number told in any form,
    assert rebuilt_hands([f"/x/{number:x}/"], record, sealed)  # in hex too,
    assert rebuilt_hands([f"n{number}x{salt}"], record, sealed)  # and number and salt as a pair
    for name, socket in sockets.items():
        before = told_before_the_end(socket.texts) + told[name]
        assert len(before) > 50, name
        assert not [t for t in before if str(number) in t or salt in t], name  # never written out
        assert rebuilt_hands(before, record, sealed) == [], name  # nor derivable from anything told
        seal = socket.state["game"]["commitment"]
        assert socket.state["game"]["over"] and seal["sha256"] == sealed, name  # the one shown from the start
        assert (seal["number"], seal["salt"]) == (str(number), salt), name  # told to everyone, Cy included
        assert commitment.commitment(int(seal["number"]), seal["salt"]) == sealed
    status, result = records.check(record)
    assert status == 0 and result["complete"], result
    tampered = copy.deepcopy(record)
    tampered["deal_commitment"]["salt"] = ("0" if salt[0] != "0" else "1") + salt[1:]
    assert records.check(tampered)[1]["error"]["code"] == "commitment-mismatch"
    tampered = {**copy.deepcopy(record), "deal_number": number ^ 1}
    assert records.check(tampered)[1]["error"]["code"] == "commitment-mismatch"
    forged = copy.deepcopy(tampered)  # another number, its own commitment: the cards give it away
    forged["deal_commitment"]["sha256"] = commitment.commitment(number ^ 1, salt)
    assert records.check(forged)[1]["error"]["code"] == "deal-not-from-number"
    after = pages(clients["bea"], [f"/api/games/{game_id}/replay", "/api/games"])
    assert all(str(number) in body for body in after)  # the replay and the list tell it now


def test_three_people_and_a_spectator_are_told_nothing_of_the_deal_number_until_the_end(
    server: RunningServer,
) -> None:
    three_people_and_a_spectator(server, server)


def test_the_deal_number_stays_sealed_across_two_processes_on_postgresql(
    two_servers: tuple[RunningServer, RunningServer],
) -> None:
    three_people_and_a_spectator(*two_servers)


def test_at_a_shared_practice_table_only_the_host_who_chose_the_number_is_told_it(server: RunningServer) -> None:
    host_client = player(server)
    body = {
        "preset": "short",
        "name": "Ann",
        "number": 9876543210123,
        "computers": [{"name": "Bot1", "level": "easy"}, {"name": "Bot2", "level": "easy"}],
        "friends": [1],
    }
    opened = host_client.post("/api/games", json=body)
    assert opened.status_code == 201 and opened.json()["practice"] and opened.json()["number"] == "9876543210123"
    game_id = opened.json()["id"]

    async def scenario() -> tuple[Client, Client]:
        host = await seat_socket(server, game_id, host_client)
        await host.until("people")
        invite, watch = (host.people[k].rsplit("/", 1)[1] for k in ("invite", "watch"))
        bea = await seat_socket(server, game_id, join(server, invite, 1, "Bea"))
        await bea.until("people")
        watcher = await watch_socket(server, watch, "Dee")
        await watcher.until("people")
        while not host.people["seats"][1]["connected"]:
            await host.receive()
        await host.send({"type": "start"})
        await play_to_the_end([host, bea], [watcher], moves=3)
        seals = [c.state["game"]["commitment"] for c in (host, bea, watcher)]
        assert all(seal["practice"] and seal["chooser"] == 0 for seal in seals)
        assert [seal["number"] for seal in seals] == ["9876543210123", None, None]  # the host typed it; not the others
        await play_to_the_end([host, bea], [watcher])
        for socket in (host, bea, watcher):
            await socket.socket.close()
        return bea, watcher

    bea, watcher = run_async(scenario)
    for socket in (bea, watcher):
        assert not [t for t in told_before_the_end(socket.texts) if "9876543210123" in t]
        assert socket.state["game"]["commitment"]["number"] == "9876543210123"  # told to all at the end
    record = host_client.get(f"/api/games/{game_id}/record").json()
    assert record["deal_number"] == 9876543210123 and records.check(record)[0] == 0
