"""Every reason the Draftosaurus engine and scorer can give has a sentence in every language, and the
sentences count and list things the way each language says them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.language.messages import LANGUAGES, catalog

SOURCE = Path(__file__).parent.parent / "companion" / "games" / "draftosaurus"
CODE_PATTERNS = [re.compile(r'Reason\(\s*"(\w+)"'), re.compile(r'unknown_id\(\s*"(\w+)"'),
                 re.compile(r'code = "(\w+)"'), re.compile(r'"(draft_die_\w+)"')]


def reason_codes() -> set[str]:
    codes: set[str] = set()
    for path in SOURCE.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        for pattern in CODE_PATTERNS:
            codes.update(pattern.findall(text))
    return codes


def test_the_source_gives_many_reasons():
    codes = reason_codes()
    assert {"draft_die_forest", "draft_pen_has_trex", "draft_pen_full", "draft_bag_exhausted", "draft_win_shared",
            "draft_score_king_lost"} <= codes
    assert len(codes) > 50


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_reason_has_a_sentence(lang):
    missing = sorted(code for code in reason_codes() if f"reasons.{code}" not in catalog(lang).messages)
    assert missing == []


@pytest.mark.parametrize("lang, count, expected", [
    ("fr", 0, "Rivière : aucun dinosaure, 0 point."),
    ("fr", 1, "Rivière : 1 dinosaure, 1 point."),
    ("fr", 3, "Rivière : 3 dinosaures, 3 points."),
    ("en", 0, "River: no dinosaur, 0 points."),
    ("en", 1, "River: 1 dinosaur, 1 point."),
    ("es", 1, "Río: 1 dinosaurio, 1 punto."),
    ("es", 2, "Río: 2 dinosaurios, 2 puntos."),
])
def test_counted_words_agree_with_the_number(lang, count, expected):
    sentence = catalog(lang).say("reasons.draft_score_river", pen="river", count=count, points=count)
    assert sentence[:1].upper() + sentence[1:] == expected


@pytest.mark.parametrize("lang, expected", [
    ("fr", "Ana et Ben se partagent la victoire : 30 points et 1 T-Rex chacun."),
    ("en", "Ana and Ben share the victory: 30 points and 1 T-Rex each."),
    ("es", "Ana y Ben comparten la victoria: 30 puntos y 1 T-Rex cada uno."),
])
def test_lists_of_names_are_said_as_a_list(lang, expected):
    assert catalog(lang).say("reasons.draft_win_shared", winners=["Ana", "Ben"], points=30, trex_count=1) == expected


def test_the_example_refusal_is_short_and_names_the_pen_and_the_die():
    assert catalog("fr").say("reasons.draft_die_forest", pen="prairie_of_love", face="forest") == (
        "Pas dans la prairie des amoureux : le dé impose un enclos de la forêt.")
    assert catalog("en").say("reasons.draft_die_forest", pen="prairie_of_love", face="forest") == (
        "Not the prairie of love: the die calls for a forest pen.")
