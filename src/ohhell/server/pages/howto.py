"""How to play: a page for each preset, in the site's own words, written from the preset's rules.

Every sentence that depends on the rules is chosen from the :class:`~ohhell.rules.Rules` of the preset (hand sizes,
trump, the hook, bid changes, the first lead, the scoring, Magicians and Jesters), so the page says what the table
will do. ``GET /how-to-play`` lists the games; ``GET /how-to-play/{preset}`` is one game.

>>> [title for title, _ in sections(Rules.preset("short"))][:3]
['The aim', 'The deal', 'Trump']
>>> "exactly" in dict(sections(Rules.preset("short")))["Scoring"][0]
True
"""

from __future__ import annotations

from typing import Any, Final

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from ohhell.rules import PRESETS, Rules
from ohhell.web.house_rules import PRESET_TITLES

PLAYERS: Final = 4
"""The table the examples speak of (the default of New game)."""


def _sizes(rules: Rules) -> str:
    sizes = rules.hand_sizes
    shown = " ".join(str(n) for n in sizes) if len(sizes) <= 12 else f"{' '.join(map(str, sizes[:5]))} … {sizes[-1]}"
    return f"{len(sizes)} hands with {PLAYERS} players, of {shown} cards"


def _trump(rules: Rules) -> list[str]:
    if rules.turns_up_trump:
        lines = [
            "After the deal the next card of the pack is turned up: its suit is trump for the whole hand. When every"
            " card has been dealt there is nothing to turn up, and the hand is played without trump."
        ]
        if rules.special_cards:
            lines.append(
                "A turned-up Magician lets the dealer name trump before the bidding; a turned-up Jester means no trump."
            )
        return lines
    order = ", ".join(
        "no trump" if s == "NT" else {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}[s]
        for s in rules.trump
    )
    return [f"Trump goes round in a fixed order, one step a hand: {order}."]


def _bidding(rules: Rules) -> list[str]:
    lines = [
        "Starting with the player on the dealer's left, everyone says how many tricks they will take, from 0 to the"
        " number of cards in the hand. The dealer bids last."
    ]
    if rules.hook:
        lines.append(
            "The hook: the dealer may not make the bids add up to the number of tricks, so that someone must miss."
            " The table crosses that number out and says why."
        )
    if rules.bid_changes == "until-next":
        lines.append(
            "A bid may still change until the next player has bid (the dealer's, until the first card is played)."
        )
    return lines


def _playing(rules: Rules) -> list[str]:
    leader = "The dealer" if rules.first_lead == "dealer" else "The player on the dealer's left"
    lines = [
        f"{leader} leads the first trick with any card. The others follow suit if they can; if not, they may play"
        " any card. The highest trump takes the trick, or, without a trump in it, the highest card of the suit led."
        " Whoever takes a trick leads the next.",
    ]
    if rules.special_cards:
        lines.append(
            "Magicians and Jesters may be played at any time, even when you could follow suit. The first Magician"
            " played takes the trick; a Jester never does (unless every card is a Jester: then the first one)."
        )
    return lines


def _scoring(rules: Rules) -> list[str]:
    exact = {
        "tricks+10": "a point for every trick you take, and 10 more if you took exactly the number you bid",
        "10+bid": "10 plus your bid when you take exactly the number you bid; nothing when you miss",
        "5+bid": "5 plus your bid when you take exactly the number you bid; nothing when you miss",
        "magicians": "20 plus 10 a trick bid when you take exactly the number you bid; 10 off for every trick you"
        " are over or under",
    }[rules.scoring]
    lines = [f"Each hand scores {exact}."]
    if rules.miss_penalty:
        lines.append("A missed bid costs a point for every trick you were over or under, instead.")
    if rules.zero_bid_bonus is not None:
        lines.append(f"A made bid of 0 scores {rules.zero_bid_bonus} instead of the usual bonus.")
    lines.append("After the last hand the highest total wins; players tied on it share the win.")
    return lines


def sections(rules: Rules) -> list[tuple[str, list[str]]]:
    """The page's sections for ``rules``: a title and its paragraphs each."""
    pack = (
        "60 cards: the 52 of an ordinary pack, four Magicians and four Jesters"
        if rules.special_cards
        else ("an ordinary pack of 52 cards, aces high")
    )
    dealer = (
        "Everyone draws a card for the first deal: the highest card deals (ties draw again). The table shows the draw."
        if rules.first_dealer == "draw"
        else "The first dealer is drawn by lot; the deal then passes to the left."
    )
    return [
        (
            "The aim",
            [
                "Bid how many tricks you will take, then take exactly that many: not one more, not one less. A bid"
                " of 0 is a bid too, and made by taking no trick at all."
            ],
        ),
        ("The deal", [f"The game is played with {pack}. There are {_sizes(rules)}.", dealer]),
        ("Trump", _trump(rules)),
        ("Bidding", _bidding(rules)),
        ("Playing the cards", _playing(rules)),
        ("Scoring", _scoring(rules)),
        (
            "At this table",
            [
                "Hint suggests a bid or a card from your own cards only; Why? tells what the computer players meant."
                " Press ? at the table for the keys, and Table settings (in More) for the pace.",
            ],
        ),
    ]


def howto_router(templates: Jinja2Templates) -> APIRouter:
    """``/how-to-play`` and ``/how-to-play/{preset}``."""
    router = APIRouter()

    def page(request: Request, **context: Any) -> HTMLResponse:
        return templates.TemplateResponse(request, "howto.html", {"presets": PRESET_TITLES, **context})

    @router.get("/how-to-play", response_class=HTMLResponse)
    async def all_games(request: Request) -> HTMLResponse:
        return page(request, preset=None, title="How to play", sections=[])

    @router.get("/how-to-play/{preset}", response_class=HTMLResponse)
    async def one_game(request: Request, preset: str) -> HTMLResponse:
        if preset not in PRESETS:
            raise HTTPException(404, "There is no such game: pick one from the list of games.")
        rules = Rules.preset(preset, players=PLAYERS)
        title = PRESET_TITLES[preset].split(":")[0]
        return page(request, preset=preset, title=title, sections=sections(rules), lead=PRESET_TITLES[preset])

    return router
