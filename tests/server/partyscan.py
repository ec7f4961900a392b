"""Every message a person or a spectator received, checked against the game's record for cards hidden from them."""

from __future__ import annotations

import json
from typing import Any

from ohhell.records import hidden_cards
from ohhell.server.table import snapshot
from server.leaks import cards_mentioned


def tagged(texts: list[str]) -> list[tuple[int, int, dict[str, Any]]]:
    """Each received message with the moment the receiver's state was at after it: ``(deal shown, seq, message)``."""
    state: dict[str, Any] = {}
    out = []
    for text in texts:
        message = json.loads(text)
        if message.get("type") == "moved":
            break  # what follows belongs to the next game (Play again)
        if message.get("type") in ("state", "action") and (state or message["type"] == "state"):
            state = snapshot.merge(state, message)
        if state:
            out.append((state["deal"]["index"], state["seq"], message))
        else:
            out.append((0, 0, message))
    return out


def leaks(record: dict[str, Any], seat: int, texts: list[str]) -> tuple[int, int]:
    """``(cards named, cards named that were hidden from seat)`` over the messages ``texts`` it received."""
    hidden = hidden_cards(record, seat)
    named_count = leaked = 0
    for deal_index, seq, message in tagged(texts):
        if message.get("type") == "chat":
            continue  # what people typed, not what the table told
        named = cards_mentioned(message)
        named_count += len(named)
        bad = named & hidden.get((deal_index, seq), set())
        if bad:
            print("hidden cards", sorted(bad), "seen by seat", seat, "in", message)
        leaked += len(bad)
    return named_count, leaked
