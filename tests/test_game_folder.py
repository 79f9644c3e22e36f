"""A game is one folder: the tests' race (tests/games/race: engine, table, spec, voices and grammars) plugs in by
registering its spec, nothing else, and a whole game is played by text in every language, saved and resumed."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from companion import registry
from companion.language.messages import LANGUAGES, catalog
from tests.conftest import ROOT, run_play, saved_state
from tests.games.race.engine import Advance, Game
from tests.games.race.spec import SPEC

FOLDER = ROOT / "tests" / "games" / "race"
PLAYERS = ["Alice", "Bruno"]
SQUARES = 8
MOVE = {"fr": "{player} : j'avance de {steps}", "en": "{player} moves {steps}", "es": "{player}: avanzo {steps}"}
EXTRA = {"fr": ("les règles", "où en est-on", "annule", "rétablis"),
         "en": ("the rules", "where are we", "undo", "redo"),
         "es": ("las reglas", "cómo va la partida", "deshacer", "rehacer")}


@pytest.fixture(autouse=True)
def race_registered(monkeypatch):
    monkeypatch.setattr(registry, "GAMES", registry.GAMES)
    registry.register(SPEC)


def a_race(seed: int) -> Game:
    """A finished race of Alice (first) and Bruno on 8 squares, every move drawn from `seed`."""
    game, choices = Game(PLAYERS, squares=SQUARES), random.Random(seed)
    while game.winner is None:
        game.apply(choices.choice(game.legal_actions()))
    return game


def lines_of(game: Game, lang: str) -> list[str]:
    return [MOVE[lang].format(player=PLAYERS[action.player], steps=action.steps) for action in game.actions]


def play(tmp_path: Path, lang: str, lines: list[str], *extra: str):
    return run_play(["play", "race", "--engine", "text", "--lang", lang, "--players", ",".join(PLAYERS),
                     "--squares", str(SQUARES), "--save", str(tmp_path / "race.json"), *extra], lines, tmp_path)


def test_everything_the_race_needs_lies_in_its_folder():
    for module in (SPEC.engine, SPEC.table, SPEC.random_start):
        assert module.startswith("tests.games.race."), module
    assert SPEC.voices_folder().is_relative_to(FOLDER) and SPEC.grammars_folder().is_relative_to(FOLDER)
    assert "race" in registry.ids() and SPEC.table_class().SPEC is SPEC is SPEC.engine_class().SPEC


def test_a_game_whose_names_are_taken_is_not_registered():
    registry.register(SPEC)  # again: nothing changes
    assert registry.ids().count("race") == 1
    for taken in ({"id": "dino"}, {"stem": "draftosaurus"}, {"namespace": "js"}, {"namespace": "race"}):
        other = dataclasses.replace(SPEC, **{"id": "race2", "stem": "race2", "namespace": "race2", **taken})
        with pytest.raises(ValueError):
            registry.register(other)
    assert "race2" not in registry.ids()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_whole_race_is_played_by_text(tmp_path, lang):
    game = a_race(seed=len(lang) + ord(lang[0]))
    words = catalog(lang)
    rules, status, undo, redo = EXTRA[lang]
    moves = lines_of(game, lang)
    too_far = MOVE[lang].format(player="Alice", steps=4)
    # the rules, a move of 4 (refused), the first move, where the pawns are, the move undone and said again
    lines = [rules, too_far, moves[0], status, undo, redo, *moves[1:]]
    result = play(tmp_path, lang, lines)
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert words.say("race.start", players=PLAYERS, squares=SQUARES) in out
    assert words.say("table.rules_topics", topics=words.join(["but", "tour", "fin"] if lang == "fr" else
                                                             ["goal", "turn", "end"] if lang == "en" else
                                                             ["objetivo", "turno", "final"])) in out
    assert words.say("table.refused", reason=words.say("reasons.race_steps", steps=4, most=3)) in out
    assert words.say("race.allowed", steps=words.join(["1", "2", "3"], "or")) in out
    first = game.actions[0]
    assert isinstance(first, Advance)
    assert words.say("race.where", player="Alice", square=first.steps, left=SQUARES - first.steps) in out
    what = words.say("race.action", player="Alice", steps=first.steps)
    assert words.say("table.undone", what=what) in out and words.say("table.redone", what=what) in out
    winner = PLAYERS[game.winner]
    assert words.say("race.winner", player=winner) in out
    assert words.say("table.ranking", ranking=[
        words.say("race.rank_item", place=place, player=PLAYERS[player], square=game.positions[player])
        for place, player in enumerate((game.winner, 1 - game.winner), start=1)]) in out
    saved = saved_state(tmp_path / "race.json")
    assert saved["finished"] and Game.from_json(saved["state"]).snapshot() == game.snapshot()


def test_a_race_stopped_halfway_is_resumed_where_it_stood(tmp_path):
    game = a_race(seed=3)
    moves = lines_of(game, "fr")
    first = play(tmp_path, "fr", [*moves[:3], "quitter"])
    assert first.returncode == 0, first.stderr
    assert Game.from_json(saved_state(tmp_path / "race.json")["state"]).actions == game.actions[:3]
    second = run_play(["resume", str(tmp_path / "race.json"), "--engine", "text"], moves[3:], tmp_path)
    assert second.returncode == 0, second.stderr
    assert catalog("fr").say("race.winner", player=PLAYERS[game.winner]) in second.stdout
    assert Game.from_json(saved_state(tmp_path / "race.json")["state"]).snapshot() == game.snapshot()
