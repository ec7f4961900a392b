"""A series' results per person, XP and levels, statistics and ratings, from real games of the engine."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from ohhell.club.rating import club_ratings, places
from ohhell.club.results import PersonResult, longest_run, person_results, ranks
from ohhell.club.stats import achievements, chart_svg, statistics, xp_line
from ohhell.club.xp import EXACT_BID_XP, FINISH_XP, WIN_XP, level_of, xp_for_level
from ohhell.game import Game
from ohhell.rules import Rules
from ohhell.server.table.results import series_result
from ohhell.web.results import SeatResult, SeriesResult

NOW = datetime(2026, 12, 1, tzinfo=UTC)


def people(n: int) -> list[dict[str, str]]:
    return [{"name": f"P{i}", "kind": "human", "player": f"key{i}"} for i in range(n)]


def played(number: int, seats: list[dict[str, str]], resign: int | None = None) -> Game:
    game = Game(Rules.preset("short", players=len(seats)), number)
    chooser = random.Random(number)
    while not game.is_over:
        if resign is not None and len(game.results) == 2:
            game.resign(resign)
            break
        game.apply(chooser.choice(game.legal_actions()))
    return game


def test_every_person_of_a_finished_series_gets_a_row_with_rank_total_and_xp() -> None:
    seats = [*people(1), {"name": "Bob", "kind": "computer", "level": "hard"}, *people(3)[1:]]
    game = played(7, seats)
    rows = person_results(series_result(game, seats, 1, NOW))
    assert [r.seat for r in rows] == [0, 2, 3]  # the computer player has none
    for row in rows:
        assert row.total == game.totals[row.seat] == sum(row.points)
        assert row.deals == game.rules.deals == len(row.exact)
        assert row.exact_bids == sum(row.exact)
        assert row.finished and not row.gave_up
        assert row.against_computers and row.opponents == "hard" and row.club_id is None
        winner = row.seat in (game.winners or [])
        assert row.winner == winner
        assert row.xp == FINISH_XP + EXACT_BID_XP * row.exact_bids + (WIN_XP if winner else 0)
        assert row.rank == 1 + sum(1 for t in game.totals if t > row.total)


def test_a_tie_at_the_top_makes_every_tied_player_a_winner_and_a_club_winner() -> None:
    seats = tuple(
        SeatResult(i, f"P{i}", "human", f"key{i}", None, total, (1,), (1,), (total,))
        for i, total in enumerate((61, 61, 40))
    )
    result = SeriesResult(1, "short", 9, NOW, seats, winners=(0, 1), club_id=5)
    rows = person_results(result)
    assert [(r.winner, r.shared_win, r.rank, r.club_id) for r in rows] == [
        (True, True, 1, 5),
        (True, True, 1, 5),
        (False, False, 3, 5),
    ]
    assert statistics(rows[:1]).overall.club_wins == 1


def test_giving_up_is_a_loss_without_xp_and_the_others_keep_theirs() -> None:
    seats = people(3)
    game = played(11, seats, resign=1)
    rows = person_results(series_result(game, seats, 2, NOW))
    quitter = rows[1]
    assert quitter.gave_up and not quitter.finished and not quitter.winner
    assert quitter.xp == 0 and quitter.rank == 3 and quitter.deals == 2
    assert all(r.finished and r.xp >= FINISH_XP for r in (rows[0], rows[2]))
    assert statistics([quitter]).overall.given_up == 1


def test_against_computer_players_a_series_never_counts_for_a_club() -> None:
    seats = [*people(1), {"name": "Bob", "kind": "computer", "level": "easy"}, *people(3)[1:]]
    game = played(3, seats)
    rows = person_results(series_result(game, seats, 3, NOW), club_id=9)
    assert all(r.club_id is None and r.against_computers for r in rows)


def test_levels_and_runs() -> None:
    assert [xp_for_level(n) for n in range(1, 6)] == [0, 100, 300, 600, 1000]
    assert [level_of(x) for x in (0, 99, 100, 299, 300, 1000)] == [1, 1, 2, 2, 3, 5]
    assert longest_run([False, True, True, False, True]) == 2
    assert ranks([10, 10, 5], set()) == [1, 1, 3]
    assert xp_line(120, 4) == "+120 XP · level 4"


def result_row(game_id: int, key: str, rank: int, minutes: int, total: int = 50) -> PersonResult:
    return PersonResult(
        game_id, int(key[-1]), key, key, NOW + timedelta(minutes=minutes), "short", True, False, rank, total, 9, 4,
        10 if key == "key0" else 2, [total], [True], rank == 1, False, False, "people", 1, False, 60,
    )  # fmt: skip


def test_club_ratings_share_a_place_on_a_tie_and_count_the_series() -> None:
    results = [
        result_row(1, "key0", 1, 0),
        result_row(1, "key1", 1, 0),
        result_row(1, "key2", 3, 0),
        result_row(2, "key0", 1, 1),
        result_row(2, "key1", 2, 1),
        result_row(2, "key2", 3, 1),
    ]
    ratings = club_ratings(results[:3])
    assert ratings[0].mu == ratings[1].mu > ratings[2].mu  # OpenSkill: tied places, equal updates
    assert places([r.shown for r in ratings]) == [1, 1, 3]
    after = club_ratings(results)
    assert [r.player_key for r in after] == ["key0", "key1", "key2"]
    assert all(r.series == 2 for r in after)


def test_statistics_and_the_chart() -> None:
    results = [result_row(1, "key0", 1, 0, 70), result_row(2, "key0", 2, 5, 40)]
    stats = statistics(results)
    assert stats.overall.played == 2 and stats.overall.won == 1 and stats.overall.best_total == 70
    assert stats.overall.win_rate == 0.5 and stats.xp == 120 and stats.level == 2
    assert achievements(results) == {"first-win", "first-club-win", "ten-exact"}
    svg = chart_svg(results)
    assert svg.startswith("<svg") and svg.count("<circle") == 2 and "won" in svg


def test_opponents_among_people_are_counted_by_their_level_before_the_series() -> None:
    from ohhell.club.stats import opponents_title, people_levels

    veteran = [result_row(g, "key1", 1, g) for g in range(1, 6)]  # 5 x 60 XP: level 3 after them
    together = [result_row(9, "key0", 2, 10), result_row(9, "key1", 1, 10)]
    mine = [together[0]]
    levels = people_levels(mine, [*veteran, *together])
    assert levels == {9: 3}
    stats = statistics(mine, levels)
    assert list(stats.by_opponents) == ["people-3"] and opponents_title("people-3") == "people of level 3"
