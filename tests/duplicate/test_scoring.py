"""Scoring against the field: the worked example of docs/duplicate.md, ties, entries not played out, pools."""

from __future__ import annotations

import pytest

from ohhell.duplicate.scoring import Entry, Result, differences, field_of, matchpoints, percentages, score_event


def test_the_worked_example_of_the_docs() -> None:
    # docs/duplicate.md: four players, two hands. Hand 1: 23, 11, 11, -1. Hand 2: 2, 13, 2, 13.
    assert matchpoints([23, 11, 11, -1]) == [6, 3, 3, 0]
    assert percentages([23, 11, 11, -1]) == [100.0, 50.0, 50.0, 0.0]
    assert matchpoints([2, 13, 2, 13]) == [1, 5, 1, 5]
    entries = [
        Entry("Ann", 0, (23, 2)),
        Entry("Bo", 0, (11, 13)),
        Entry("Cy", 0, (11, 2)),
        Entry("Di", 0, (-1, 13)),
    ]
    standings = score_event(entries, hands=2)
    assert [(s.key, s.place, round(s.score, 2)) for s in standings] == [
        ("Bo", 1, 66.67),
        ("Ann", 2, 58.33),
        ("Di", 3, 41.67),
        ("Cy", 4, 33.33),
    ]
    assert next(s for s in standings if s.key == "Bo").matchpoints == (3, 5)


def test_two_points_a_result_beaten_and_one_a_tie() -> None:
    assert matchpoints([5, 5, 5]) == [2, 2, 2]
    assert matchpoints([1, 2, 3]) == [0, 2, 4]
    assert matchpoints([7]) == [0] and percentages([7]) == [50.0]


def test_an_entry_not_played_out_is_the_field_s_worst_on_every_hand() -> None:
    assert matchpoints([-20, None, 3]) == [2, 0, 4]
    assert matchpoints([None, None, 3]) == [1, 1, 4]
    entries = [Entry("played", 0, (-30, -30)), Entry("gave up", 0, None), Entry("best", 0, (12, 12))]
    standings = {s.key: s for s in score_event(entries, hands=2)}
    assert standings["gave up"].score == 0.0 and standings["gave up"].place == 3
    assert standings["played"].score == 50.0  # beat only the entry given up
    assert differences([10, None, 4]) == [4.0, -2.0, -2.0]  # the given-up entry counts as the lowest played, 4


def test_a_pool_compares_each_hand_only_with_the_same_instance() -> None:
    entries = [Entry("a", 0, (10,)), Entry("b", 0, (0,)), Entry("c", 1, (-5,)), Entry("d", 1, (-9,))]
    standings = {s.key: (s.place, s.score) for s in score_event(entries, hands=1)}
    assert standings == {"a": (1, 100.0), "c": (1, 100.0), "b": (3, 0.0), "d": (3, 0.0)}


def test_the_difference_from_the_mean() -> None:
    entries = [Entry("a", 0, (10, 0)), Entry("b", 0, (0, 0)), Entry("c", 0, (2, 6))]
    standings = score_event(entries, hands=2, method="mean")
    assert [(s.key, s.place, s.score) for s in standings] == [("a", 1, 4.0), ("c", 2, 2.0), ("b", 3, -6.0)]


def test_bad_input_names_the_rule() -> None:
    with pytest.raises(ValueError, match="scoring method must be one of matchpoints, mean"):
        score_event([], hands=1, method="imps")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="entry x: 1 hands of points, the series has 2"):
        score_event([Entry("x", 0, (1,))], hands=2)


def test_the_field_of_a_hand() -> None:
    field = field_of(
        [Result("Ann", 2, 2, 12), Result("Bo", 1, 2, -1), Result("Cy", 2, 2, 12), Result("Di", None, None, None)]
    )
    assert field.results == 4 and field.bids == ((1, 1), (2, 2)) and field.made == 2
    assert field.best == 12 and field.best_by == ("Ann", "Cy")
