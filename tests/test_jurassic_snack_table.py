"""`companion play jurassic-snack` in text mode: whole scripted games in fr, en and es (hidden and physical
tokens), save and resume, refusals with reasons, and secrets that reach one player only."""

import io
import json
import random
from pathlib import Path

import pytest

from companion.dialogue.jurassic_snack import JurassicSnackTable, direction_between
from companion.dialogue.session import EndOfInput, Session
from companion.games.jurassic_snack.actions import Fly
from companion.games.jurassic_snack.engine import HIDDEN, OVER, PHYSICAL, Game
from companion.language.messages import catalog
from companion.speech.base import TextListener, TextSpeaker
from tests.conftest import run_play, saved_state
from tests.conftest import snack_script as script


def random_game(seed: int, mode: str) -> Game:
    game = Game.new(["Ana", "Ben"], mode=mode, seed=seed)
    chooser = random.Random(seed)
    while game.phase != OVER:
        game.apply(chooser.choice(game.legal_actions()))
    return game


def play_args(save: Path, lang: str, mode: str, seed: int) -> list[str]:
    return ["play", "jurassic-snack", "--engine", "text", "--lang", lang, "--players", "Ana,Ben",
            "--tokens", mode, "--seed", str(seed), "--save", str(save)]


@pytest.mark.parametrize("lang, mode, seed", [("fr", HIDDEN, 11), ("en", HIDDEN, 12), ("es", HIDDEN, 13),
                                              ("fr", PHYSICAL, 14), ("en", PHYSICAL, 15), ("es", PHYSICAL, 16)])
def test_a_whole_scripted_game_ends_with_the_engines_result(tmp_path, lang, mode, seed):
    game = random_game(seed, mode)
    save = tmp_path / "game.json"
    result = run_play(play_args(save, lang, mode, seed), script(game, lang), tmp_path)
    assert result.returncode == 0, result.stderr
    content = saved_state(save)
    assert content["finished"] is True
    assert content["state"] == json.loads(json.dumps(game.to_json()))
    final = catalog(lang).say("js.game_over")
    assert final in result.stdout and "Traceback" not in result.stderr
    winner = game.players[game.outcome.winners[0]]
    assert winner in result.stdout.split(final, 1)[1]


def test_a_game_stopped_half_way_resumes_where_it_stood(tmp_path):
    game = random_game(21, HIDDEN)
    lines = script(game, "fr")
    half = len(lines) // 2
    save = tmp_path / "game.json"
    first = run_play(play_args(save, "fr", HIDDEN, 21), lines[:half], tmp_path, process=True)  # the program itself
    assert first.returncode == 0 and "companion resume" in first.stdout
    assert saved_state(save)["finished"] is False
    second = run_play(["resume", str(save), "--engine", "text"], lines[half:], tmp_path, process=True)
    assert second.returncode == 0, second.stderr
    assert saved_state(save)["state"] == json.loads(json.dumps(game.to_json()))


def test_refusals_say_why_and_change_nothing(tmp_path):
    save = tmp_path / "game.json"
    lines = ["diplo en B5 vers le sud",      # blocked by the yellow diplo on B4
             "diplo jaune en B4 vers le nord",  # not yellow's turn
             "B5 en B4",                        # stops elsewhere
             "B5 en C6",                        # not a straight line
             "T-Rex en C3 vers l'est",          # no T-Rex there
             "quitter"]
    result = run_play(play_args(save, "fr", HIDDEN, 5), lines, tmp_path)
    assert result.returncode == 0
    out = result.stdout
    assert "Refusé. Le diplo de B5 ne peut pas aller vers le sud : juste à côté, il y a un diplo jaune." in out
    assert "C'est à Ana de jouer, pas à Ben." in out
    assert "De B5 à C6, ce n'est pas une ligne droite." in out
    assert "Pas de T-Rex en C3. En C3 : de l'herbe." in out
    assert saved_state(save)["state"]["actions"] == []


def test_a_bad_player_list_is_a_clear_error(tmp_path):
    result = run_play(["play", "jurassic-snack", "--engine", "text", "--players", "Ana,Ben,Chloé",
                       "--save", str(tmp_path / "g.json")], [], tmp_path)
    assert result.returncode == 2 and "Jurassic Snack se joue à deux" in result.stderr
    assert "Traceback" not in result.stderr


class Lines(TextListener):
    def __init__(self, lines):
        super().__init__(io.StringIO("\n".join(lines) + "\n"))


def table_after(actions, lines, tmp_path, seed=7):
    out = io.StringIO()
    session = Session(game="jurassic-snack", lang="fr", speaker=TextSpeaker(out), listener=Lines(lines))
    game = Game.new(["Ana", "Ben"], mode=HIDDEN, seed=seed)
    for action in actions:
        game.apply(action)
    return JurassicSnackTable(session, game, tmp_path / "g.json"), session, out


def find_scout_game() -> tuple[int, list, int]:
    """A seed, the actions up to a Scouting choice, and who scouts, from random play."""
    for seed in range(200):
        game = Game.new(["Ana", "Ben"], mode=HIDDEN, seed=seed)
        chooser = random.Random(seed)
        while game.phase != OVER:
            if game.pending == "scouting":
                return seed, list(game.actions), game.player
            game.apply(chooser.choice(game.legal_actions()))
    raise AssertionError("no scouting in 200 games")


def test_a_secret_is_said_only_when_its_player_asks_and_is_never_repeated(tmp_path):
    seed, actions, player = find_scout_game()
    name = ["Ana", "Ben"][player]
    table, session, out = table_after(actions, ["plateau A", "plateau B", "plateau C", "plateau D",
                                                f"{name} : mon secret", "oui", "répète", "message précédent"],
                                      tmp_path, seed)
    with pytest.raises(EndOfInput):
        table.run()  # the lines run out
    text = out.getvalue()
    note = table.game.notes_for(player)[0]
    token_words = catalog("fr").say(f"js.tokens.{note.tokens[0][1]}")
    before_ask = text.split("bouche-toi les oreilles", 1)[0]
    assert "information secrète" in before_ask and f"{note.tokens[0][0]}, {token_words}" not in before_ask
    after = text.split("dis oui pour écouter.", 1)[1]
    assert f"{note.tokens[0][0]}, {token_words}" in after
    assert all(f"{note.tokens[0][0]}, {token_words}" not in message for message in session.history.messages())
    assert table.game.notes_for(1 - player) == []


def test_direction_between_two_squares():
    assert direction_between("B2", "B6") == "north" and direction_between("E4", "A4") == "west"
    assert direction_between("B2", "C3") is None and direction_between("B2", "B2") is None


@pytest.mark.parametrize("lang", ["fr", "en", "es"])
def test_every_action_can_be_said_for_undo(lang):
    """Undo and redo name the action taken back: each kind must have words (a Fly once had none)."""
    session = Session(game="jurassic-snack", lang=lang, speaker=TextSpeaker(io.StringIO()),
                      listener=TextListener(io.StringIO()))
    table = JurassicSnackTable.__new__(JurassicSnackTable)
    table.session, table.game = session, Game.new(["Ana", "Ben"], seed=1)
    said = table.describe(Fly(0, "B2", "C5"))
    assert table.square_words("B2") in said and table.square_words("C5") in said
