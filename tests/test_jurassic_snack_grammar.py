"""Jurassic Snack grammars: every square, direction and token can be said, states keep them apart, and
`companion parse --game jurassic-snack` answers (the example sentences are checked with every game's in
test_grammar_examples)."""

import json
import subprocess
import sys

import pytest

from companion.games.jurassic_snack.ids import DIRECTIONS, TOKENS
from companion.games.jurassic_snack.layout import Layout
from companion.language.grammar import parse, states
from companion.language.messages import LANGUAGES, Catalog

GAME = "jurassic-snack"
MOVE = {"fr": "diplo en {square} vers {direction}", "en": "diplo on {square} towards the {direction}",
        "es": "diplo en {square} hacia {direction}"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_square_and_direction_as_the_program_says_them(lang):
    words = Catalog(lang)
    for square in Layout.default().squares:
        for direction in DIRECTIONS:
            text = MOVE[lang].format(square=square, direction=words.say(f"js.directions.{direction}"))
            result = parse(text, game=GAME, lang=lang, state="action")
            assert result.slots == {"piece": "diplo", "square": square, "direction": direction}, text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_token_as_the_program_names_it(lang):
    words = Catalog(lang)
    for token in TOKENS:
        name = words.say(f"js.tokens.{token}")
        assert parse(name, game=GAME, lang=lang, state="reveal").slots == {"token": token}, name


def test_states_keep_moves_tokens_and_choices_apart():
    assert set(states(GAME)) == {"action", "reveal", "place", "board", "fly", "pick", "confirm", "setup", "who",
                                 "any"}
    assert parse("naissance", game=GAME, lang="fr", state="action").intent is None
    assert parse("naissance", game=GAME, lang="fr", state="reveal").intent == "reveal"
    assert parse("B2 nord", game=GAME, lang="fr", state="reveal").intent is None


def test_parse_command_understands_a_move():
    result = subprocess.run([sys.executable, "-m", "companion", "parse", "--game", GAME, "--json",
                             "diplo bleu en B2 vers le nord"], capture_output=True, text=True, timeout=120,
                            check=False)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["slots"] == {"piece": "diplo", "color": "blue", "square": "B2",
                                                  "direction": "north"}
    spoken = subprocess.run([sys.executable, "-m", "companion", "parse", "--game", GAME, "--lang", "en",
                             "T-Rex on C3 east"], capture_output=True, text=True, timeout=120, check=False)
    assert spoken.returncode == 0 and "T-Rex" not in spoken.stderr
