"""A table of several people across two processes: a friend and a spectator relayed to the owner, chat across, and
after the owner is killed, the other process takes the table over and restarts the absence timer from the log."""

from __future__ import annotations

from server.partyclient import Client, join, new_table, play_to_the_end, seat_socket, watch_socket
from server.partyscan import leaks
from server.serving import RunningServer, run_async


def test_a_table_of_friends_across_two_processes_survives_its_owner(
    two_servers: tuple[RunningServer, RunningServer],
) -> None:
    first, second = two_servers
    host_client, game_id = new_table(first, friends=[2], grace_seconds=1)

    async def scenario() -> tuple[Client, Client, Client]:
        host = await seat_socket(first, game_id, host_client)  # the first process owns the table
        await host.until("people")
        invite = host.people["invite"].rsplit("/", 1)[1]
        watch = host.people["watch"].rsplit("/", 1)[1]
        friend_client = join(second, invite, 2, "Bea")  # the friend comes in through the other process
        friend = await seat_socket(second, game_id, friend_client)
        await friend.until("people")
        watcher = await watch_socket(second, watch, "Dee")
        await watcher.until("people")
        while "Dee" not in host.people["watching"] or not host.people["seats"][2]["connected"]:
            await host.receive()
        await watcher.send({"type": "chat", "text": "hello from the other process"})
        while not host.chat:
            await host.receive()
        assert host.chat[0]["from"] == "Dee"
        await host.send({"type": "start"})
        await play_to_the_end([host, friend], [watcher], moves=6)
        assert friend.state["game"]["you"] == 2 and watcher.people["seats"][0]["connected"]
        first.kill()  # the owner dies; the second process takes the table over from the log
        # the host is gone with it: after the grace period a computer player plays for them, on the new owner
        await play_to_the_end([friend], [watcher], limit=90)
        assert friend.people["seats"][0]["computer_playing"]
        for socket in (friend, watcher):
            await socket.socket.close()
        return host, friend, watcher

    host, friend, watcher = run_async(scenario)
    record = host_client.get(f"{second.url}/api/games/{game_id}/record").json()
    assert len(record["deals"]) == 9
    for seat, client in ((0, host), (2, friend), (-1, watcher)):
        named, leaked = leaks(record, seat, client.texts)
        assert named > 10 and leaked == 0, (seat, named, leaked)
