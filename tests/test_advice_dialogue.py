"""Advice in the conversation: the advisor's best action (and a close runner-up) with the reason it gives, in
solo (the hand is known) and at a table (from the species or the hand the player names); off at a table of
several people unless the table turned it on, with a refusal that says how."""

import pytest

from companion.games.draftosaurus.actions import Roll
from companion.games.draftosaurus.advice import REASONS as DRAFT_REASONS
from companion.games.draftosaurus.advice import advise_seat
from companion.games.draftosaurus.engine import Game
from companion.games.jurassic_snack.advice import REASONS as SNACK_REASONS
from companion.games.jurassic_snack.advice import advise_seat as advise_snack
from companion.games.jurassic_snack.engine import PHYSICAL
from companion.games.jurassic_snack.engine import Game as SnackGame
from companion.language.messages import LANGUAGES, catalog
from tests.conftest import run_play, saved_state


def advice_lines(advice, lang: str) -> list[str]:
    """What the table must say of the advisor's output: each suggestion with the sentence of its reason."""
    words = catalog(lang)
    said = []
    for key, suggestion in (("advice_best", advice.best), ("advice_runner_up", advice.runner_up)):
        if suggestion is not None:
            why = words.say(f"reasons.{suggestion.reason.code}", **suggestion.reason.params)
            said.append(words.say(f"draft.{key}", species=suggestion.action.species, pen=suggestion.action.pen,
                                  why=why))
    return said


def draft_args(save, lang: str, *extra: str) -> list[str]:
    return ["play", "draftosaurus", "--engine", "text", "--lang", lang, "--seed", "9", "--save", str(save), *extra]


def test_in_solo_the_advice_is_the_advisor_s_for_the_hand_dealt(tmp_path):
    game = Game.new(["Alice", "Bot 1", "Bot 2", "Bot 3"], mode="full", seed=9)
    game.apply(game.roll_die())
    held = game.hand(0)[0]
    result = run_play(draft_args(tmp_path / "s.json", "fr", "--solo", "--players", "Alice"),
                      ["que me conseilles-tu ?", f"où mettre le {catalog('fr').name('species', held)} ?"], tmp_path)
    assert result.returncode == 0, result.stderr
    for line in advice_lines(advise_seat(game, 0, seed=9), "fr") + advice_lines(advise_seat(game, 0, [held], 9), "fr"):
        assert line in result.stdout, line
    best = advise_seat(game, 0, seed=9).best
    assert catalog("fr").say("draft.advice_chance", win_chance=best.reason.params["win_chance"]) in result.stdout


def test_at_a_table_advice_is_off_unless_the_table_turned_it_on(tmp_path):
    save = tmp_path / "t.json"
    result = run_play(draft_args(save, "en", "--players", "Alice,Bruno,Chloé"),
                      ["the die says cross", "what should I play?", "where should I put the triceratops?"], tmp_path)
    assert result.returncode == 0, result.stderr
    words = catalog("en")
    assert result.stdout.count(words.say("solo.advice_off")) == 2
    assert "--advice" in words.say("solo.advice_off")
    assert "For the triceratops, Alice can choose" in result.stdout  # what is allowed is still said
    assert "I suggest" not in result.stdout and "seats" not in saved_state(save)


def test_at_a_table_with_advice_the_player_names_a_species_or_the_hand(tmp_path):
    save = tmp_path / "t.json"
    result = run_play(draft_args(save, "es", "--players", "Alice,Bruno,Chloé", "--advice"),
                      ["dado: cruz", "¿dónde debería poner el tricerátops?", "¿qué me aconsejas?",
                       "dos tricerátops y un T-Rex", "¿qué me aconsejas?", "siete estegosaurios"], tmp_path)
    assert result.returncode == 0, result.stderr
    game = Game.new(["Alice", "Bruno", "Chloé"], seed=9)
    game.apply(Roll("forest"))
    words = catalog("es")
    assert words.say("draft.ask_hand", player="Alice") in result.stdout
    for line in (advice_lines(advise_seat(game, 0, ["triceratops"], 9), "es")
                 + advice_lines(advise_seat(game, 0, ["triceratops", "triceratops", "trex"], 9), "es")):
        assert line in result.stdout, line
    assert words.say("reasons.draft_advice_hand_too_big", count=7, limit=6) in result.stdout
    assert saved_state(save)["seats"]["advice"] is True


def test_jurassic_snack_advice_is_off_at_a_table_and_the_advisor_s_with_advice(tmp_path):
    off = run_play(["play", "jurassic-snack", "--engine", "text", "--lang", "fr", "--players", "Alice,Bruno",
                    "--tokens", PHYSICAL, "--seed", "4", "--save", str(tmp_path / "a.json")],
                   ["que me conseilles-tu ?"], tmp_path)
    assert catalog("fr").say("solo.advice_off") in off.stdout
    on = run_play(["play", "jurassic-snack", "--engine", "text", "--lang", "en", "--players", "Alice,Bruno",
                   "--tokens", PHYSICAL, "--seed", "4", "--advice", "--save", str(tmp_path / "b.json")],
                  ["what should I play?"], tmp_path)
    assert on.returncode == 0, on.stderr
    game = SnackGame.new(["Alice", "Bruno"], mode=PHYSICAL, seed=4)
    best = advise_snack(game, 0, seed=4).best
    assert on.stdout.count("I suggest ") == 1
    line = next(text for text in on.stdout.splitlines() if text.startswith("I suggest "))
    assert f"on {best.action.square} {best.action.direction}:" in line  # the advisor's move, by its square
    if best.reason.code == "js_advice_eat" and "expected_points" in best.reason.params:
        assert f"{best.reason.params['expected_points']:.1f}" in line  # the average the advisor gave


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_advice_reason_has_a_sentence_in_every_language(lang):
    messages = catalog(lang).messages
    assert [code for code in (*DRAFT_REASONS, *SNACK_REASONS, "js_advice_eat_seen")
            if f"reasons.{code}" not in messages] == []
