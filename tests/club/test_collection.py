"""The Collection: backs by level, faces by achievements, every picture drawn as valid SVG."""

from __future__ import annotations

from xml.etree import ElementTree

import pytest

from ohhell.club import collection


def test_at_least_six_backs_and_three_face_styles_are_drawn_here() -> None:
    drawn_backs = [b.key for b in collection.BACKS if b.key != "classic"]
    drawn_faces = [f.key for f in collection.FACES if f.key != "classic"]
    assert len(drawn_backs) >= 6 and len(drawn_faces) >= 3
    for key in drawn_backs:
        assert ElementTree.fromstring(collection.back_svg(key)).tag.endswith("svg")
    for style in drawn_faces:
        for card in sorted(collection.CARD_TEXT):
            ElementTree.fromstring(collection.face_svg(style, card))


def test_backs_unlock_by_level_and_faces_by_achievement() -> None:
    assert collection.backs_unlocked(1) == ["classic", "lattice"]
    assert "gold" in collection.backs_unlocked(8)
    assert collection.faces_unlocked(set()) == ["classic"]
    assert collection.faces_unlocked({"first-win"}) == ["classic", "four-colour"]


def test_a_card_that_does_not_exist_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="there is no card 'ZZ'"):
        collection.face_svg("plain", "ZZ")
