"""A meaning said in a language (companion.language.saying): what the program offers when a player speaks another
language than the game's is understood as that meaning in the state it is offered in, not a shorter sentence that
means something else (every game's examples: tests/test_games_conformance.py); and the grammar's templates are
walked in one place only (companion.language.compiler)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.language.saying import saying

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("game, lang, state, intent, slots, players, said", [
    # Its usual way, "on e 5", places a piece: the question is said whole.
    ("jurassic-snack", "en", "action", "what_square", {"square": "E5"}, [], "what's on e 5"),
    # "Xavier zoo" takes only a known player's name: Xavier is new.
    ("draftosaurus", "en", "turn", "zoo", {"player": "Xavier"}, ["Alice"], "the zoo of Xavier"),
    # A face alone, "plaine", is also a pen where every intent is open.
    ("draftosaurus", "fr", "any", "die", {"face": "grassland"}, [], "face plaine"),
])
def test_a_shorter_way_meaning_something_else_is_not_offered(game, lang, state, intent, slots, players, said):
    assert saying(game, lang, state, intent, slots, players) == said


def test_a_word_ending_in_an_apostrophe_is_joined_to_the_next_only_when_elided():
    assert saying("draftosaurus", "en", "winter_turn", "winter_zoo", {"pen": "lovers_bridge"}) == \
        "describe lovers' bridge"


@pytest.mark.parametrize("player, said", [("Ana", "d'Ana"), ("Yann", "de Yann"), ("Bruno", "de Bruno")])
def test_a_name_is_joined_to_the_word_before_it_as_french_writes_it(player, said):
    sentence = saying("draftosaurus", "fr", "turn", "zoo", {"pen": "forest_of_sameness", "player": player}, [player])
    assert sentence is not None and sentence.endswith(f"similaires {said}"), sentence


def test_only_the_compiler_walks_hassil_s_parsed_templates():
    """The parser, the recognisers' grammars and the sentences said for a meaning all read compiled nodes."""
    parts = {"Alternative", "Permutation", "RuleReference", "ListReference", "TextChunk", "Sequence", "Expression"}
    imports = re.compile(r"^from hassil[\w.]* import (\([^)]*\)|[^\n]*)", re.MULTILINE)
    used = re.compile(r"\bhassil(?:\.\w+)*\.(\w+)")  # `import hassil`, then hassil.Alternative

    def names(text: str) -> set[str]:
        imported = {word for found in imports.finditer(text) for word in re.findall(r"\w+", found.group(1))}
        return imported | set(used.findall(text))

    walkers = sorted(path.relative_to(ROOT).as_posix() for path in (ROOT / "companion").rglob("*.py")
                     if parts & names(path.read_text(encoding="utf-8")))
    assert walkers == ["companion/language/compiler.py"]
