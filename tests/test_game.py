"""A game: deals in series, the dealer passing left, totals, shared wins, giving up, undo and copy."""

from __future__ import annotations

import random

import pytest

from conftest import game_state, play_game_randomly, random_move
from ohhell.actions import bid, choose_trump
from ohhell.cards import HEARTS, CardSet, parse_card
from ohhell.dealnumbers import MAX_DEAL_NUMBER, draw_for_deal, random_first_dealer, shuffled_pack
from ohhell.errors import DealError, NotYourTurnError, TooManyDealsError, UnexpectedActionError
from ohhell.game import DealResult, Game
from ohhell.rules import Rules
from ohhell.scoring import deal_points


def step(game: Game, rng: random.Random) -> None:
    """One random legal action, bid changes included."""
    seat, action = random_move(game.deal, rng)
    game.apply(action, seat)


def finish_deal(game: Game, rng: random.Random) -> None:
    """Play random legal actions until the current deal is over."""
    index = game.deal_index
    while not game.is_over and game.deal_index == index:
        step(game, rng)


def one_card_game(deals: int = 2) -> Game:
    """A 3-player game of 1-card deals with hands given by :meth:`Game.start_deal`, seat 0 dealing first."""
    rules = Rules.preset("full", players=3, schedule=(1,) * deals, hook=False)
    return Game(rules, first_dealer=0, deal_cards=False)


# ----------------------------------------------------------------- deals in series


def test_the_next_deal_is_dealt_as_the_last_trick_of_a_deal_is_played() -> None:
    game = Game(Rules.preset("short", players=4), number=12)
    rng = random.Random(0)
    for index, size in enumerate(game.rules.hand_sizes):
        assert game.deal_index == index
        assert game.deal.size == size
        assert game.deal.deal_index == index
        assert not game.is_over
        finish_deal(game, rng)
    assert game.is_over
    assert len(game.deals) == len(game.results) == 9
    assert game.legal_actions() == ()


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_the_deal_passes_to_the_left_after_every_deal(players: int) -> None:
    game = Game(Rules.preset("full", players=players, schedule=(1,) * (players + 2)), number=3)
    play_game_randomly(game, random.Random(players))
    dealers = [deal.dealer for deal in game.deals]
    assert dealers == [(game.first_dealer + i) % players for i in range(players + 2)]
    assert [r.dealer for r in game.results] == dealers
    assert all(game.dealer_of(i) == d for i, d in enumerate(dealers))


def test_each_deal_is_dealt_from_the_games_number() -> None:
    game = Game(Rules.preset("full", players=4, schedule=(3, 2)), number=41)
    rng = random.Random(1)
    for index in range(2):
        pack = shuffled_pack(41, 4, False, index)
        deal = game.deal
        size = deal.size
        dealt = [pack[j] for j in range(4 * size)]
        for seat in range(4):
            expected = {dealt[j] for j in range(4 * size) if (deal.dealer + 1 + j) % 4 == seat}
            assert set(CardSet(deal.hands_dealt[seat])) == expected
        assert deal.turn_up == pack[4 * size]
        finish_deal(game, rng)


def test_totals_add_up_the_points_of_every_deal() -> None:
    rules = Rules.preset("traditional", players=4, schedule=(4, 3, 2, 1))
    game = Game(rules, number=2024)
    play_game_randomly(game, random.Random(3))
    for result, deal in zip(game.results, game.deals, strict=True):
        assert result == DealResult(
            dealer=deal.dealer,
            cards=deal.size,
            trump=deal.trump,
            bids=tuple(deal.bids),
            tricks=tuple(deal.tricks_won),
            points=tuple(deal_points(b, t, rules) for b, t in zip(deal.bids, deal.tricks_won, strict=True)),
        )
    assert game.totals == [sum(r.points[s] for r in game.results) for s in range(4)]
    assert game.totals_before(0) == (0, 0, 0, 0)
    assert game.totals_before(4) == tuple(game.totals)
    assert game.totals_before(2) == tuple(sum(r.points[s] for r in game.results[:2]) for s in range(4))


def test_the_totals_before_a_hand_add_up_the_hands_before_it_at_every_position_undo_included() -> None:
    """``totals_before`` of the hand in play takes the running totals (the short way every view takes): they must
    be the hands' points added up, after every action and after actions taken back across hands."""
    rng = random.Random(7)
    game = Game(Rules.preset("full", players=4), number=11)

    def added_up(hands: int) -> tuple[int, ...]:
        return tuple(sum(r.points[s] for r in game.results[:hands]) for s in range(4))

    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
        if rng.random() < 0.05 and len(game.results) > 1:
            for _ in range(rng.randint(1, 12)):
                game.undo()
        for hands in range(len(game.results) + 1):
            assert game.totals_before(hands) == added_up(hands)
        assert game.view(game.deal_index % 4).totals == added_up(game.deal_index)


def test_the_highest_total_wins() -> None:
    game = one_card_game()
    game.start_deal([CardSet.parse("AS"), CardSet.parse("KS"), CardSet.parse("QS")], parse_card("2C"))
    game.bid(1)
    game.bid(0)
    game.bid(0)
    game.play("KS")
    game.play("QS")
    game.play("AS")
    assert game.results[0].points == (1, 0, 10)
    game.start_deal([CardSet.parse("AH"), CardSet.parse("KH"), CardSet.parse("QH")], parse_card("2C"))
    for n in (0, 0, 0):
        game.bid(n)
    game.play("QH")
    game.play("AH")
    game.play("KH")
    assert game.totals == [2, 10, 20]
    assert game.is_over
    assert game.winners == [2]


def test_players_tied_on_the_highest_total_share_the_win() -> None:
    """Seeds 000, 001, 002: all players tied on the highest total share the win."""
    game = one_card_game(deals=1)
    game.start_deal([CardSet.parse("AS"), CardSet.parse("KS"), CardSet.parse("QS")], parse_card("2C"))
    for n in (0, 0, 0):
        game.bid(n)
    for card in ("KS", "QS", "AS"):
        game.play(card)
    assert game.totals == [1, 10, 10]
    assert game.winners == [1, 2]


def test_there_are_no_winners_before_the_game_is_over() -> None:
    game = Game(Rules.preset("short"), number=1)
    assert game.winners is None


# ----------------------------------------------------------------- giving up


def test_a_player_who_gives_up_loses_and_the_game_ends() -> None:
    game = Game(Rules.preset("full", players=4, schedule=(2, 2, 2)), number=8)
    rng = random.Random(4)
    finish_deal(game, rng)
    leader = max(range(4), key=game.totals.__getitem__)
    game.resign(leader)
    assert game.is_over
    assert game.resigned == leader
    assert game.winners is not None
    assert leader not in game.winners
    others = [t for s, t in enumerate(game.totals) if s != leader]
    assert game.winners == [s for s, t in enumerate(game.totals) if s != leader and t == max(others)]
    assert game.legal_actions() == ()
    with pytest.raises(UnexpectedActionError, match="the game is over"):
        game.apply(game.deal.legal_actions()[0])
    with pytest.raises(UnexpectedActionError, match="the game is over"):
        game.bid(0)
    with pytest.raises(UnexpectedActionError, match="the game is over"):
        game.resign(0)
    with pytest.raises(UnexpectedActionError, match=f"seat {leader} gave up"):
        game.undo()


def test_giving_up_names_a_seat_that_exists() -> None:
    game = Game(Rules.preset("short"), number=1)
    with pytest.raises(ValueError, match="there is no seat 4"):
        game.resign(4)
    assert not game.is_over


# ----------------------------------------------------------------- undo and copy


def test_undo_takes_back_the_last_card_of_a_deal_across_the_start_of_the_next() -> None:
    game = Game(Rules.preset("traditional", players=3, schedule=(3, 2)), number=10)
    rng = random.Random(5)
    while True:
        before = game_state(game)
        step(game, rng)
        if game.deal_index == 1:
            break
    after = game_state(game)
    last = game.deals[0].actions[-1]
    assert len(game.results) == 1
    assert not game.deal.actions
    assert game.undo() == last
    assert game_state(game) == before
    assert game.deal_index == 0
    assert game.results == []
    assert game.totals == [0, 0, 0]
    assert not game.deal.is_over
    game.apply(last[1], last[0])
    assert game_state(game) == after


def test_undo_all_the_way_back_gives_the_new_game() -> None:
    rules = Rules.preset("magicians", players=3, schedule=(3, 1, 2), bid_changes="until-next")
    game = Game(rules, number=31)
    fresh = game_state(game)
    play_game_randomly(game, random.Random(6))
    count = sum(len(d.actions) for d in game.deals)
    for _ in range(count):
        game.undo()
    assert game_state(game) == fresh
    with pytest.raises(UnexpectedActionError, match="no action to take back"):
        game.undo()


def test_a_copy_is_independent_within_a_deal() -> None:
    game = Game(Rules.preset("short", players=4), number=77)
    rng = random.Random(7)
    for _ in range(6):
        step(game, rng)
    original = game_state(game)
    other = game.copy()
    assert game_state(other) == original
    play_game_randomly(other, random.Random(8))
    assert other.is_over
    assert game_state(game) == original


def test_a_copy_is_independent_when_its_play_runs_into_later_deals() -> None:
    game = Game(Rules.preset("short", players=4), number=77)
    finish_deal(game, random.Random(9))
    original = game_state(game)
    other = game.copy()
    finish_deal(other, random.Random(10))
    assert game_state(game) == original


def test_undo_on_a_copy_at_the_start_of_a_deal_leaves_the_original_alone() -> None:
    game = Game(Rules.preset("short", players=3), number=7)
    finish_deal(game, random.Random(1))
    original = game_state(game)
    other = game.copy()
    other.undo()
    assert game_state(game) == original


# ----------------------------------------------------------------- the first dealer and the number


def test_the_first_dealer_random_comes_from_the_number() -> None:
    game = Game(Rules.preset("full", players=5), number=123)
    assert game.first_dealer == random_first_dealer(123, 5)
    assert game.deal.dealer == game.first_dealer
    assert game.draws == []


def test_the_first_dealer_by_draw_records_the_cards_drawn() -> None:
    game = Game(Rules.preset("traditional", players=4), number=14)
    dealer, rounds = draw_for_deal(14, 4)
    assert (game.first_dealer, game.draws) == (dealer, rounds)
    assert game.deal.dealer == dealer


def test_a_fixed_first_dealer_seat() -> None:
    assert Game(Rules.preset("full", first_dealer=2), number=1).deal.dealer == 2


def test_a_first_dealer_given_to_the_game_overrides_the_rules() -> None:
    assert Game(Rules.preset("traditional"), number=1, first_dealer=3).first_dealer == 3
    with pytest.raises(DealError, match="the first dealer must be a seat from 0 to 3, not 4"):
        Game(Rules.preset("full"), number=1, first_dealer=4)


def test_the_same_number_gives_the_same_game() -> None:
    rules = Rules.preset("full", players=4)
    a, b = Game(rules, number=555), Game(rules, number=555)
    assert game_state(a) == game_state(b)
    assert Game(rules, number=556).deal.hands_dealt != a.deal.hands_dealt


def test_house_rules_do_not_change_the_cards_of_a_number() -> None:
    """Only the number, the table size and the pack decide the cards."""
    base = Game(Rules.preset("full", players=4, first_dealer=0), number=9)
    other = Game(Rules.preset("full", players=4, first_dealer=0, hook=False, scoring="5+bid"), number=9)
    assert other.deal.hands_dealt == base.deal.hands_dealt
    assert other.deal.turn_up == base.deal.turn_up


def test_a_game_without_a_number_draws_one() -> None:
    game = Game(Rules.preset("short"))
    assert game.number is not None
    assert 1 <= game.number <= 999_999_999


@pytest.mark.parametrize("number", [-1, MAX_DEAL_NUMBER + 1, True, "12"])
def test_a_bad_number_is_refused(number: object) -> None:
    with pytest.raises(ValueError, match="a deal number is a whole number"):
        Game(Rules.preset("short"), number=number)  # type: ignore[arg-type]


def test_names_are_one_per_seat() -> None:
    assert Game(Rules.preset("short", players=3), number=1).names == ["Seat 0", "Seat 1", "Seat 2"]
    assert Game(Rules.preset("short", players=3), number=1, names=["A", "B", "C"]).names == ["A", "B", "C"]
    with pytest.raises(ValueError, match="2 names were given for 3 players"):
        Game(Rules.preset("short", players=3), number=1, names=["A", "B"])


# ----------------------------------------------------------------- deals given from elsewhere


def test_a_game_without_a_number_needs_its_first_dealer() -> None:
    with pytest.raises(DealError, match="a game without a number needs its first dealer"):
        Game(Rules.preset("short"), deal_cards=False)


def test_given_deals_follow_the_schedule() -> None:
    game = one_card_game()
    with pytest.raises(UnexpectedActionError, match="no deal has been dealt yet"):
        _ = game.deal
    assert game.legal_actions() == ()
    deal = game.start_deal([CardSet.parse("AS"), CardSet.parse("KS"), CardSet.parse("QS")], parse_card("2C"))
    assert deal is game.deal
    assert deal.dealer == 0
    with pytest.raises(UnexpectedActionError, match="deal 0 is not finished"):
        game.start_deal([CardSet.parse("AH"), CardSet.parse("KH"), CardSet.parse("QH")], parse_card("2C"))
    with pytest.raises(DealError, match="seat 0 holds 2 cards, but deal 0 is a 1-card deal"):
        Game(game.rules, first_dealer=0, deal_cards=False).start_deal(
            [CardSet.parse("AS 2S"), CardSet.parse("KS 2H"), CardSet.parse("QS 2D")], parse_card("2C")
        )
    for n in (0, 0, 0):
        game.bid(n)
    for card in ("KS", "QS", "AS"):
        game.play(card)
    with pytest.raises(UnexpectedActionError, match="the deal is over and the next one has not been dealt"):
        game.bid(0)
    with pytest.raises(UnexpectedActionError, match="the deal is over"):
        game.apply(bid(0))
    second = game.start_deal([CardSet.parse("AH"), CardSet.parse("KH"), CardSet.parse("QH")], parse_card("2C"))
    assert second.dealer == 1
    assert second.deal_index == 1


def test_no_deal_past_the_schedule() -> None:
    game = one_card_game(deals=1)
    game.start_deal([CardSet.parse("AS"), CardSet.parse("KS"), CardSet.parse("QS")], parse_card("2C"))
    for n in (0, 0, 0):
        game.bid(n)
    for card in ("KS", "QS", "AS"):
        game.play(card)
    with pytest.raises(TooManyDealsError, match="the schedule has 1 deals; there is no deal 1"):
        game.start_deal([CardSet.parse("AH"), CardSet.parse("KH"), CardSet.parse("QH")], parse_card("2C"))


# ----------------------------------------------------------------- acting through the game


def test_acting_through_the_game_checks_the_seat() -> None:
    game = Game(Rules.preset("short", players=4, first_dealer=0), number=3)
    with pytest.raises(NotYourTurnError):
        game.bid(1, seat=3)
    game.bid(1, seat=1)
    assert game.to_act == 2


def test_the_dealer_chooses_trump_through_the_game() -> None:
    rules = Rules.preset("magicians", players=3, schedule=(1,), first_dealer=0)
    game = Game(rules, first_dealer=0, deal_cards=False)
    game.start_deal([CardSet.parse("AS"), CardSet.parse("KS"), CardSet.parse("QS")], parse_card("MG"))
    assert game.legal_actions() == tuple(choose_trump(s) for s in range(4))
    game.choose_trump(HEARTS)
    assert game.deal.trump == HEARTS


def test_a_bid_change_through_the_game() -> None:
    game = Game(Rules.preset("traditional", players=4, first_dealer=3), number=2)
    game.bid(2)
    game.change_bid(3, 0)
    assert game.deal.bids[0] == 3


def test_repr_names_the_number_rules_deal_and_totals() -> None:
    game = Game(Rules.preset("short", players=4), number=42)
    assert repr(game) == (
        "<Game #42 short, 4 players: 9 deals (5 4 ... 5), hook, tricks+10 scoring; deal 1/9, totals [0, 0, 0, 0]>"
    )
