"""The conversation at the table has no dead ends: every question takes the answer it invites, a new command,
help and repeat; half a command is completed; a guess offered back can be accepted; resumed games keep how they
were played. Each case is played through the text engine, in French, English and Spanish where it applies."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from companion.dialogue.savefile import write_save
from companion.games.dino.engine import Game as DinoGame
from companion.games.draftosaurus.engine import Game, Roll
from companion.games.jurassic_snack.engine import HIDDEN, OVER
from companion.games.jurassic_snack.engine import Game as SnackGame
from tests.conftest import run_play, saved_state


def play(tmp_path: Path, game: str, lines: list[str], *options: str, lang: str = "fr") -> subprocess.CompletedProcess:
    return run_play(["play", game, "--engine", "text", "--lang", lang, "--save", str(tmp_path / "g.json"), *options],
                    lines, tmp_path)


def draft(tmp_path: Path, lines: list[str], players: str = "Alice,Bruno,David", lang: str = "fr",
          *options: str) -> subprocess.CompletedProcess:
    return play(tmp_path, "draftosaurus", lines, "--players", players, *options, lang=lang)


def zoos(tmp_path: Path) -> list[dict[str, list[str]]]:
    return Game.from_json(saved_state(tmp_path / "g.json")["state"]).zoos


# ---------------------------------------------------------------- 1. every name said at once

@pytest.mark.parametrize("lang, lines, names, sentence", [
    ("fr", ["quatre", "Alice, Bruno, Chloé et David", "oui", "Bruno", "oui", "oui", "non"],
     ["Alice", "Bruno", "Chloé", "David"],
     "Je note 4 noms : Alice, Bruno, Chloé et David. C'est bien ça ?"),
    ("en", ["three", "Ann, Ben and Cid", "yes", "Ben", "yes", "yes", "no"], ["Ann", "Ben", "Cid"],
     "I have 3 names: Ann, Ben and Cid. Is that right?"),
    ("es", ["tres", "Ana, Beto y Carla", "sí", "Beto", "sí", "sí", "no"], ["Ana", "Beto", "Carla"],
     "Apunto 3 nombres: Ana, Beto y Carla. ¿Es correcto?"),
])
def test_every_name_said_at_once_is_split_and_confirmed_in_one_sentence(tmp_path, lang, lines, names, sentence):
    result = play(tmp_path, "draftosaurus", lines, lang=lang)
    assert result.returncode == 0, result.stderr
    assert sentence in result.stdout
    setup = saved_state(tmp_path / "g.json")["state"]["setup"]
    assert setup["players"] == names and setup["first_roller"] == 1


@pytest.mark.parametrize("lang, lines, said", [
    ("fr", ["deux", "euh", "Carmen", "Bruno euh", "oui"],
     ["Je n'ai pas entendu de nom. Quel nom ?", "Je note 2 noms : Carmen et Bruno. C'est bien ça ?"]),
    ("en", ["two", "Carmen", "uh, Bob", "yes"], ["I have 2 names: Carmen and Bob. Is that right?"]),
    ("es", ["dos", "me llamo Carmen", "eh, Beto", "sí"], ["Apunto 2 nombres: Carmen y Beto. ¿Es correcto?"]),
    ("fr", ["deux", "Ben, euh, et Bruno", "oui"], ["Je note 2 noms : Ben et Bruno. C'est bien ça ?"]),
])
def test_a_sound_of_hesitation_around_a_name_is_no_name(tmp_path, lang, lines, said):
    """"uh, Bob" said for the second player was two names, "uh" and "Bob", that took the place of the first
    player's; "Bruno euh" was a name. "Ben", a French filler word, stays a name."""
    out = play(tmp_path, "dino", lines, lang=lang).stdout
    assert all(sentence in out for sentence in said), out


def test_a_name_holding_a_separator_is_refused_with_the_reason(tmp_path):
    result = play(tmp_path, "draftosaurus",
                  ["deux", "Alice; Bruno", "Alice", "Bruno", "oui", "Alice", "oui", "oui", "non"])
    out = result.stdout
    assert "Un nom ne peut pas contenir « ; », donc « Alice; Bruno » ne convient pas." in out
    assert "Nouvelle partie de Draftosaurus à 2 joueurs : Alice et Bruno." in out
    refused = run_play(["play", "draftosaurus", "--engine", "text", "--players", "Ann;Ben,Cid", "--lang", "en",
                        "--save", str(tmp_path / "other.json")], [], tmp_path)
    assert refused.returncode == 2 and "A name cannot hold \";\"" in refused.stderr


def test_a_name_of_marks_only_is_no_name(tmp_path):
    out = play(tmp_path, "jurassic-snack", ["Alice", "?", "Bruno", "oui"]).stdout
    assert "Je n'ai pas entendu de nom. Quel nom ?" in out and "Je note 2 noms : Alice et Bruno." in out


def test_too_many_names_at_once_are_said_again(tmp_path):
    out = play(tmp_path, "dino", ["deux", "Ana, Bruno et Chloé", "Ana et Bruno", "oui", "Bruno"]).stdout
    assert "J'entends Ana, Bruno et Chloé : c'est trop pour 2 joueurs. Redis les noms." in out
    assert "Je note 2 noms : Ana et Bruno. C'est bien ça ?" in out


@pytest.mark.parametrize("lang, lines, confirmed, too_many", [
    ("fr", ["deux", "Alice met le tricératops dans la rivière", "Alice et Bruno", "oui", "Bruno", "oui", "oui", "non"],
     "Je note 2 noms : Alice et Bruno. C'est bien ça ?", "c'est trop pour"),
    ("en", ["two", "Ann puts the triceratops in the river", "Ann and Ben", "yes", "Ben", "yes", "yes", "no"],
     "I have 2 names: Ann and Ben. Is that right?", "too many for"),
    ("es", ["dos", "Ana pone el tricerátops en el río", "Ana y Beto", "sí", "Beto", "sí", "sí", "no"],
     "Apunto 2 nombres: Ana y Beto. ¿Es correcto?", "son demasiados"),
])
def test_every_name_said_at_once_replaces_the_names_said_before(tmp_path, lang, lines, confirmed, too_many):
    """A first line taken for a name (a move said too early) is mended by saying every name at once, as the
    question invites, not refused as too many names."""
    out = play(tmp_path, "draftosaurus", lines, lang=lang).stdout
    assert confirmed in out and too_many not in out
    assert saved_state(tmp_path / "g.json")["state"]["setup"]["players"] == lines[2].split()[::2]


def test_names_said_at_once_that_cannot_be_taken_leave_the_names_said_before(tmp_path):
    """A whole table said at once with a name twice is refused, and the names said before stay; where each
    question asks for one player (Jurassic Snack's colours), names said at once are too many, not a new table."""
    lines = ["deux", "Alice", "Bruno et bruno", "Bruno", "oui", "Alice", "oui", "oui", "non"]
    out = play(tmp_path, "draftosaurus", lines).stdout
    assert "Le nom bruno est déjà pris." in out and "Je note 2 noms : Alice et Bruno. C'est bien ça ?" in out
    out = play(tmp_path / "snack", "jurassic-snack", ["Ann", "Ben and Cid", "Ben"], lang="en").stdout
    assert "I hear Ben and Cid: that is too many for 2 players." in out and "I have 2 names: Ann and Ben." in out


@pytest.mark.parametrize("lang, lines", [
    ("es", ["2", "Ana y Beto", "sí", "Ana", "sí", "no", "B5", "E1", "B3", "C3", "B4", "D4", "entre D4 y D5",
            "entre D5 y D6", "entre D2 y D3", "sí", "ya está", "sí"]),
    ("fr", ["2", "Ana et Beto", "oui", "Ana", "oui", "non", "B5", "E1", "B3", "C3", "B4", "D4", "entre D4 et D5",
            "entre D5 et D6", "entre D2 et D3", "oui", "annule", "non", "oui"]),
    ("en", ["2", "Ana and Ben", "yes", "Ana", "yes", "no", "B5", "E1", "B3", "C3", "B4", "D4", "between D4 and D5",
            "between D5 and D6", "between D2 and D3", "yes", "no", "yes"]),
])
def test_a_yes_to_one_more_barrier_is_taken_back_by_no_that_is_all_or_undo(tmp_path, lang, lines):
    """Placing Dino's barriers by hand, a yes to one more after the least needed is no dead end: the question for
    the next barrier takes a no or "that's all", and the game goes on with those placed; an undo takes the yes back
    and asks "one more?" again (test_dino_play.py), and a no to it then ends them."""
    result = play(tmp_path, "dino", lines, "--seed", "1", lang=lang)
    assert result.returncode == 0, result.stderr
    assert len(saved_state(tmp_path / "g.json")["state"]["setup"]["barriers"]) == 3


# ---------------------------------------------------------------- 2. a guess offered back

@pytest.mark.parametrize("lang, wrong, guess, yes, pen", [
    ("fr", "tricératop dans la prairi", "Voulais-tu dire : tricératops dans la prairie ? Oui ou non.", "oui",
     "prairie_of_love"),
    ("en", "tricerotops in the river", "Did you mean: triceratops in the river? Yes or no.", "yes", "river"),
    ("es", "tricerátop en la pradra del amor", "¿Querías decir: triceratops en la pradera del amor? Sí o no.", "sí",
     "prairie_of_love"),
])
def test_yes_to_a_guess_applies_it(tmp_path, lang, wrong, guess, yes, pen):
    die = {"fr": "dé croix", "en": "the die says cross", "es": "dado cruz"}[lang]
    result = draft(tmp_path, [die, wrong, yes], lang=lang)
    assert guess in result.stdout
    assert zoos(tmp_path)[0][pen] == ["triceratops"]


def test_no_to_a_guess_changes_nothing_and_a_new_command_replaces_it(tmp_path):
    out = draft(tmp_path, ["dé croix", "tricératop dans la prairi", "non", "tricératop dans la prairi",
                           "stégosaure dans la rivière"]).stdout
    assert "D'accord. Redis-le autrement, ou dis aide." in out
    assert zoos(tmp_path)[0] == {**zoos(tmp_path)[0], "prairie_of_love": [], "river": ["stegosaurus"]}


def test_a_guess_takes_help_and_repeat_and_asks_again_shortly(tmp_path):
    out = draft(tmp_path, ["dé croix", "tricératop dans la prairi", "aide", "répète", "bof", "oui"]).stdout
    assert "Réponds oui ou non. Tu peux aussi dire directement autre chose." in out
    assert out.count("Voulais-tu dire : tricératops dans la prairie ? Oui ou non.") == 4  # after help too
    assert "Je n'ai pas compris « bof ». Voulais-tu dire : tricératops dans la prairie ? Oui ou non." in out
    assert zoos(tmp_path)[0]["prairie_of_love"] == ["triceratops"]


# ---------------------------------------------------------------- 3. half a command

@pytest.mark.parametrize("lang, lines, asked", [
    ("fr", ["dé croix", "tricératops", "dans le trio", "forêt des similaires", "stégosaure"],
     ["Alice, dans quel enclos mets-tu le tricératops ? Tu peux choisir :",
      "Bruno, quel dinosaure mets-tu dans la forêt des similaires ?"]),
    ("en", ["the die says cross", "triceratops", "in the trio", "forest of sameness", "stegosaurus"],
     ["Alice, which pen for the triceratops? You can choose:",
      "Bruno, which dinosaur goes in the forest of sameness?"]),
    ("es", ["dado cruz", "tricerátops", "en el trío", "bosque de la igualdad", "estegosaurio"],
     ["Alice, ¿en qué corral pones el tricerátops? Puedes elegir:",
      "Bruno, ¿qué dinosaurio pones en el bosque de la igualdad?"]),
])
def test_half_a_placement_is_completed_by_asking_for_the_missing_part(tmp_path, lang, lines, asked):
    out = draft(tmp_path, lines, lang=lang).stdout
    for question in asked:
        assert question in out
    alice, bruno, _ = zoos(tmp_path)
    assert alice["woody_trio"] == ["triceratops"] and bruno["forest_of_sameness"] == ["stegosaurus"]


def test_a_whole_new_command_answers_the_question_for_the_missing_part(tmp_path):
    out = draft(tmp_path, ["dé croix", "tricératops", "Bruno : stégosaure dans la rivière"]).stdout
    alice, bruno, _ = zoos(tmp_path)
    assert bruno["river"] == ["stegosaurus"] and not any(alice.values())
    assert out.rstrip().splitlines()[-2] == "Alice, quel dinosaure mets-tu, et dans quel enclos ?"  # Alice's turn again


def test_undo_during_half_a_command_drops_it(tmp_path):
    out = draft(tmp_path, ["dé croix", "tricératops", "annule", "stégosaure dans la rivière"]).stdout
    assert "D'accord, j'oublie « tricératops »." in out
    assert zoos(tmp_path)[0]["river"] == ["stegosaurus"]


DINO_SETUP = ["oui", "non", "B2", "C5", "D3", "E2", "B5", "D5", "entre C3 et C4", "entre D4 et D5", "entre B2 et C2",
              "non", "oui"]


def test_dino_steps_without_a_pawn_ask_which_pawn_then_where(tmp_path):
    result = play(tmp_path, "dino", [*DINO_SETUP, "avance de trois", "le premier", "B2", "non"],
                  "--players", "Ana,Bruno")
    out = result.stdout
    assert ("Quel pion rouge : le premier, qui attend à la machine de A1, ou le second, qui attend à la machine "
            "de F6 ?") in out
    assert "Sur quel carré s'arrête le pion rouge ?" in out
    assert "Ana : pion rouge en B2, 3 emplacements." in out


def test_dino_a_new_move_answers_a_question_of_the_move(tmp_path):
    out = play(tmp_path, "dino", [*DINO_SETUP, "avance de trois", "tout pour la météorite"],
               "--players", "Ana,Bruno").stdout
    assert "La météorite avance : 4 pierres ; 24 pierres avant sa chute." in out


def test_dino_an_egg_of_a_colour_not_there_asks_again(tmp_path):
    out = play(tmp_path, "dino", [*DINO_SETUP, "mon pion rouge numéro 1 avance de 3 jusqu'en B2",
                                  "je prends un œuf vert", "oui"], "--players", "Ana,Bruno").stdout
    assert out.count("Il y a un œuf rouge à prendre en B2. Le prends-tu ? Oui ou non.") == 2
    assert "Ana prend un œuf rouge" in out


@pytest.mark.parametrize("lang, lines, question", [
    ("fr", ["nord", "B5"], "Ana, depuis quelle case ?"),
    ("en", ["north", "B5"], "Ana, from which square?"),
    ("es", ["norte", "B5"], "Ana, ¿desde qué casilla?"),
])
def test_jurassic_snack_a_direction_alone_asks_from_which_square(tmp_path, lang, lines, question):
    result = play(tmp_path, "jurassic-snack", lines, "--players", "Ana,Ben", "--tokens", "physical", "--seed", "3",
                  lang=lang)
    assert question in result.stdout
    game = SnackGame.from_json(saved_state(tmp_path / "g.json")["state"])
    assert [(a.square, a.direction) for a in game.actions] == [("B5", "north")]


def test_jurassic_snack_a_square_alone_asks_which_way(tmp_path):
    out = play(tmp_path, "jurassic-snack", ["B5", "vers le nord"], "--players", "Ana,Ben", "--tokens", "physical",
               "--seed", "3").stdout
    assert "Ana, depuis B5, vers où : nord, sud, est ou ouest ?" in out


# ---------------------------------------------------------------- undo: the next question goes to whoever acts now

@pytest.mark.parametrize("game, options, lines, undone, asked", [
    ("draftosaurus", ["--players", "Alice,Bruno"], ["dé croix", "Alice : stégosaure dans la rivière", "annule"],
     "Annulé : le stégosaure d'Alice dans la rivière.", "Alice, quel dinosaure mets-tu, et dans quel enclos ?"),
    ("jurassic-snack", ["--players", "Ana,Ben", "--tokens", "physical", "--seed", "3"], ["B5 vers le nord", "annule"],
     "Annulé : le coup du diplo de B5 vers le nord.",
     "Ana, bleus, 1 action : quelle pièce, depuis quelle case, vers où ?"),
    ("dino", ["--players", "Ana,Bruno", "--seed", "1"], [*DINO_SETUP, "tout pour la météorite", "annule"],
     "Annulé : les quatre points d'Ana à la météorite.",
     "Ana, pion rouge : de combien d'emplacements, et jusqu'où ? Ou bien tout pour la météorite."),
])
def test_after_an_undo_the_player_whose_action_was_taken_back_is_asked(tmp_path, game, options, lines, undone, asked):
    lines_out = play(tmp_path, game, lines, *options).stdout.rstrip().splitlines()
    assert lines_out[-3:-1] == [undone, asked]


# ---------------------------------------------------------------- 4. resume keeps how the game was played

def test_resume_keeps_the_language_engine_die_verbosity_and_tracked_player(tmp_path):
    save = tmp_path / "elsewhere" / "game.json"
    env_lines = ["the die says cross"]
    first = run_play(["play", "draftosaurus", "--engine", "text", "--lang", "en", "--verbosity", "short",
                      "--players", "Ann,Ben,Cid", "--only-mine", "Ben", "--die", "virtual", "--seed", "3",
                      "--save", str(save)], env_lines, tmp_path)
    assert first.returncode == 0, first.stderr
    assert f"To go on, type: companion resume {save}." in first.stdout
    content = saved_state(save)
    assert content["session"] == {"lang": "en", "engine": "text", "verbosity": "short"}
    assert content["settings"]["die"] == "virtual"
    second = run_play(["resume"], ["Ben: triceratops in the river"], tmp_path)  # no file: the newest save
    assert second.returncode == 0, second.stderr
    assert second.stdout.startswith("Resuming the game: round 1 of 2, turn 1.")
    assert "Ben?" in second.stdout  # short messages, and only Ben's zoo is followed
    game = Game.from_json(saved_state(save)["state"])
    assert game.tracked == (1,) and game.zoos[1]["river"] == ["triceratops"]
    french = run_play(["resume", str(save), "--lang", "fr"], [], tmp_path)
    assert french.stdout.startswith("Reprise de la partie")


@pytest.mark.parametrize("lang, lines, board", [
    ("fr", ["dé forêt", "aide"], "summer"), ("en", ["die forest", "help"], "summer"),
    ("es", ["dado bosque", "ayuda"], "summer"), ("en", ["keep"] * 6 + ["die forest", "help"], "winter"),
])
def test_help_with_only_one_zoo_followed_speaks_of_that_zoo_alone(tmp_path, lang, lines, board):
    from companion.language.messages import catalog

    out = draft(tmp_path, lines, "Alice,Bruno", lang, "--only-mine", "Alice", "--board", board).stdout
    state = "turn" if board == "summer" else "winter_turn"
    assert catalog(lang).say(f"draft.help.{state}_mine") in out
    assert catalog(lang).say(f"draft.help.{state}", other="Bruno") not in out  # the help of a table followed whole


def test_resume_without_a_file_takes_the_game_saved_last_wherever_it_is(tmp_path):
    older = tmp_path / "a" / "older.json"
    newer = tmp_path / "b" / "newer.json"
    run_play(["play", "draftosaurus", "--engine", "text", "--players", "A,B", "--save", str(older)], [], tmp_path)
    time.sleep(0.05)
    run_play(["play", "jurassic-snack", "--engine", "text", "--players", "Ana,Ben", "--tokens", "hidden",
              "--save", str(newer)], [], tmp_path)
    result = run_play(["resume"], [], tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Reprise de la partie, tour 1.")
    by_name = run_play(["resume", "draftosaurus"], [], tmp_path)
    assert by_name.returncode == 2  # its usual save does not exist: these games were saved elsewhere


def test_the_player_being_asked_is_saved_and_asked_again_after_resume(tmp_path):
    draft(tmp_path, ["dé croix", "Bruno : stégosaure dans la rivière", "David : tricératops dans la rivière",
                     "annule"])
    assert saved_state(tmp_path / "g.json")["dialogue"]["asked"] == 2  # David's move was taken back
    resumed = run_play(["resume", str(tmp_path / "g.json"), "--engine", "text"], [], tmp_path)
    assert "David, quel dinosaure mets-tu, et dans quel enclos ?" in resumed.stdout


# ---------------------------------------------------------------- 5. a pen of a named player

@pytest.mark.parametrize("lang, players, lines, answer", [
    ("fr", "Alice,Bruno,David", ["dé croix", "David : stégosaure dans la rivière", "la rivière de David"],
     "La rivière de David : un stégosaure."),
    ("fr", "Alice,Ève", ["dé croix", "Alice : stégosaure dans l'île", "l'île d'Alice"],
     "L'île du solitaire d'Alice : un stégosaure."),
    ("en", "Ann,Ben", ["the die says cross", "Ben: stegosaurus in the river", "the river of Ben"],
     "Ben's river: a stegosaurus."),
    ("es", "Ana,Beto", ["dado cruz", "Ana: estegosaurio en el río", "el río de Ana"],
     "El río de Ana: un estegosaurio."),
])
def test_a_pen_of_a_named_player_is_answered_naming_the_player(tmp_path, lang, players, lines, answer):
    assert answer in draft(tmp_path, lines, players, lang).stdout


# ---------------------------------------------------------------- 6. refusals say what is allowed

@pytest.mark.parametrize("lang, line, faces", [
    ("fr", "dé cœur", ("La prairie des amoureux est un enclos, pas une face du dé. Les faces sont : croix pour "
                       "forêt, fleur pour plaine, fenêtre pour côté toilettes, rond pour côté cafétéria, carré pour "
                       "enclos vide et triangle pour attention au T-Rex.")),
    ("en", "die heart", ("Prairie of love is a pen, not a die face. The faces are: cross for forest, flower for "
                         "grassland, window for toilets side, circle for cafeteria side, square for empty pen and "
                         "triangle for watch out for the T-Rex.")),
    ("es", "dado corazón", ("La pradera del amor es un corral, no una cara del dado. Las caras son: cruz para bosque, "
                            "flor para pastizal, ventana para lado de los baños, círculo para lado de la cafetería, "
                            "cuadrado para corral vacío y triángulo para cuidado con el T-Rex.")),
])
def test_a_pen_sticker_said_for_the_die_lists_the_six_faces(tmp_path, lang, line, faces):
    assert faces in draft(tmp_path, [line], lang=lang).stdout


def test_an_unknown_name_lists_the_players(tmp_path):
    out = draft(tmp_path, ["dé croix", "le zoo de Xavier"]).stdout
    assert "Je ne connais personne qui s'appelle Xavier. Les joueurs sont Alice, Bruno et David." in out
    setup = play(tmp_path / "s", "draftosaurus", ["deux", "Alice, Bruno", "oui", "Xavier", "Bruno"]).stdout
    assert "Je ne connais personne qui s'appelle Xavier. Les joueurs sont Alice et Bruno." in setup


@pytest.mark.parametrize("lang, lines, said", [
    ("fr", ["dé croix", "le zoo de la bruno", "le zoo de Marie Claire", "le zoo de Bruno et Alice"],
     ["Le zoo de Bruno est vide.", "Je ne connais personne qui s'appelle Marie Claire.",
      "Je ne connais personne qui s'appelle Bruno et Alice."]),
    ("en", ["the die says cross", "the zoo of the bruno"], ["Bruno's zoo is empty."]),
    ("es", ["dado cruz", "el zoo de la bruno"], ["El zoo de Bruno está vacío."]),
])
def test_a_name_heard_with_a_word_before_it_is_the_player_whose_name_ends_it(tmp_path, lang, lines, said):
    """"le zoo de Bruno", heard "le zoo de la bruno" (the article taken into the name): Bruno's zoo, where it said
    that nobody is called "la bruno"; a name no player's ends is still nobody's."""
    out = draft(tmp_path, lines, lang=lang).stdout
    for sentence in said:
        assert sentence in out


def test_a_command_during_the_pause_says_how_to_go_on(tmp_path):
    out = draft(tmp_path, ["pause", "dé croix", "reprendre", "dé croix"]).stdout
    assert "La partie est en pause. Dis reprendre pour continuer, ou quitter." in out
    assert len(Game.from_json(saved_state(tmp_path / "g.json")["state"]).actions) == 1


def test_ctrl_c_during_the_set_up_says_nothing_is_saved_yet(tmp_path):
    env = dict(os.environ, COMPANION_HOME=str(tmp_path), COMPANION_CONFIG=str(tmp_path / "c.json"))
    process = subprocess.Popen([sys.executable, "-m", "companion", "play", "draftosaurus", "--engine", "text",
                                "--save", str(tmp_path / "g.json")], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               text=True, env=env)
    assert process.stdout.readline().startswith("Combien de joueurs")
    process.send_signal(signal.SIGINT)
    out, _ = process.communicate(timeout=30)
    assert "Interruption pendant la préparation : rien n'est encore enregistré." in out
    assert not (tmp_path / "g.json").exists()


# ---------------------------------------------------------------- 7. what was revealed cannot be taken back alone

def _hidden_token_game() -> tuple[int, list]:
    """A seed, and the actions before a Diplo of the first player eats a hidden token."""
    for seed in range(100):
        game = SnackGame.new(["Ana", "Ben"], mode=HIDDEN, seed=seed)
        for action in game.legal_actions():
            trial = game.copy()
            if any(event.code == "js_token" for event in trial.apply(action)):
                return seed, [action]
    raise AssertionError("no first move eats grass")


def test_undoing_a_revealed_token_needs_the_other_player_and_it_stays_known(tmp_path):
    seed, (move,) = _hidden_token_game()
    direction = {"north": "le nord", "south": "le sud", "east": "l'est", "west": "l'ouest"}[move.direction]
    line = f"diplo en {move.square} vers {direction}"
    result = play(tmp_path, "jurassic-snack", [line, "annule", "non", "annule", "oui"], "--players", "Ana,Ben",
                  "--tokens", "hidden", "--seed", str(seed))
    out = result.stdout
    assert out.count("Ben, on demande d'annuler le coup du diplo") == 2
    assert "D'accord, rien ne change : le jeu reste tel qu'il est." in out
    assert re.search(r"Le jeton [\w ]+ reste connu des deux joueurs\.", out)
    assert SnackGame.from_json(saved_state(tmp_path / "g.json")["state"]).actions == []


UNDO_WORDS = {"fr": ("annule", "rétablis", "aide", "répète"), "en": ("undo", "redo", "help", "repeat"),
              "es": ("deshacer", "rehacer", "ayuda", "repite")}


@pytest.mark.parametrize("lang", ["fr", "en", "es"])
def test_the_undo_consent_takes_undo_and_redo_help_repeat_and_a_new_move(tmp_path, lang):
    """At "Ben, do you agree to undo...?": undo and redo said instead are answered with what may be said and
    the question stays open; help and repeat answer it; Ben's own move said instead is played, the undo not."""
    from companion.language.messages import catalog
    from tests.conftest import snack_script

    seed, (move,) = _hidden_token_game()
    game = SnackGame.new(["Ana", "Ben"], mode=HIDDEN, seed=seed)
    game.apply(move)
    reply = next(action for action in game.legal_actions() if type(action).__name__ == "Move")
    game.apply(reply)
    first, second = snack_script(game, lang)
    undo, redo, help_, repeat = UNDO_WORDS[lang]
    result = play(tmp_path, "jurassic-snack", [first, undo, redo, undo, help_, repeat, second], "--players",
                  "Ana,Ben", "--tokens", "hidden", "--seed", str(seed), lang=lang)
    out, words = result.stdout, catalog(lang)
    consent = next(line for line in out.splitlines() if line.startswith("Ben, "))
    consent = next(line for line in out.splitlines() if line.startswith("Ben, ") and line != consent)
    answered = out[out.index(consent):].splitlines()
    open_question = words.say("table.undo_question_open")
    assert answered[1:5] == [open_question, consent, open_question, consent]  # redo, then undo again
    assert answered[5:8] == [words.say("help.confirm"), consent,
                             words.say("session.repeating", text=consent)]
    assert answered[8] == words.say("session.nothing_changes")  # the undo is not done; Ben's move is
    assert SnackGame.from_json(saved_state(tmp_path / "g.json")["state"]).actions == game.actions


def test_my_secret_is_the_secret_of_whoever_asks(tmp_path):
    for seed in range(300):
        game = SnackGame.new(["Ana", "Ben"], mode=HIDDEN, seed=seed)
        chooser = __import__("random").Random(seed)
        while game.phase != OVER and game.pending != "scouting":
            game.apply(chooser.choice(game.legal_actions()))
        if game.pending == "scouting" and game.player == 0:
            break
    else:
        raise AssertionError("no scouting by Ana")
    state = game.to_json()
    board = next(a.board for a in game.legal_actions())
    path = tmp_path / "g.json"
    write_save(path, "jurassic-snack", {"finished": False, "state": state})
    result = run_play(["resume", str(path), "--engine", "text"],
                      [f"plateau {board}", "Ben : mon secret", "Ana : mon secret", "oui"], tmp_path)
    out = result.stdout
    assert "Ben n'a aucune information secrète." in out
    assert "Secret d'Ana. Ben, bouche-toi les oreilles. Ana, dis oui pour écouter." in out
    assert "Plateau regardé :" in out


# ---------------------------------------------------------------- 8. two pawns of one colour told apart

def test_two_pawns_of_one_colour_are_told_apart_when_both_are_by_one_machine(tmp_path):
    from companion.games.dino.actions import Meteor, Move

    assert play(tmp_path, "dino", DINO_SETUP, "--players", "Ana,Bruno").returncode == 0
    game = DinoGame.from_json(saved_state(tmp_path / "g.json")["state"])
    start = game.pawn(0, 0).square  # Ana's first pawn waits at its time machine by this square
    distances = game.board.distances(game.setup.barriers)
    while not (game.pawn(0, 1).place == "board" and game.pawn(0, 1).square == start):
        moves = [a for a in game.legal_actions() if isinstance(a, Move) and a.pawn == 1 and not a.exit
                 and a.egg is None]
        game.apply(min(moves, key=lambda move: (distances[move.square][start], -move.steps)))
        game.apply(Meteor(1))
    write_save(tmp_path / "g.json", "dino", {"finished": False, "state": game.to_json()})
    out = run_play(["resume", str(tmp_path / "g.json"), "--engine", "text"], ["avance de un", "le premier"],
                   tmp_path).stdout
    assert f"Quel pion rouge : le premier, qui attend à la machine de {start}, ou le second, en {start} ?" in out
    english = run_play(["resume", str(tmp_path / "g.json"), "--engine", "text", "--lang", "en"],
                       ["move one", "the one waiting at the machine"], tmp_path).stdout
    assert (f"Which red pawn: the first, waiting at the time machine of {start}, or the second, on {start}?"
            in english)
    assert "Which square does the red pawn stop in?" in english


# ---------------------------------------------------------------- 9. French and Spanish as natives write them

_BAD = {
    "fr": [r"\bde [AEIOUYÉÈÊ][a-zé]", r"\bà le\b", r"\bde le\b", r": -", r"\b0 couples?\b",
           r"Enclos vides :[^.]*rivière"],
    "es": [r"parasaurolofus", r"parasaurolophus", r"\bde el\b", r"\ba el\b", r": -"],
}


@pytest.mark.parametrize("lang, players", [("fr", "Alice,Ève,Bruno"), ("es", "Ana,Ester,Beto")])
def test_a_whole_game_reads_as_a_native_speaker_writes(tmp_path, lang, players):
    from tests.conftest import random_game, script_lines

    names = players.split(",")
    expected = random_game(names, 5)
    queries = {"fr": ["le zoo d'Alice", "la rivière d'Ève", "les scores", "mon zoo"],
               "es": ["el zoo de Ana", "el río de Ester", "los puntos", "mi zoo"]}[lang]
    lines = script_lines(expected, lang)
    lines = lines[:6] + queries + lines[6:] + queries
    result = draft(tmp_path, lines, players, lang)
    assert result.returncode == 0, result.stderr
    for line in result.stdout.splitlines():
        for pattern in _BAD[lang]:
            assert not re.search(pattern, line), (pattern, line)
        assert line[:1].isupper() or line[:1] in "¿¡«\"" or line[:1].isdigit(), line


def test_the_way_of_addressing_people_is_written_down():
    readme = (Path(__file__).parent.parent / "voices" / "README.md").read_text(encoding="utf-8")
    assert "tu" in readme and "vous" in readme and "vosotros" in readme


# ---------------------------------------------------------------- 10. shorter turns

def test_the_die_in_short_mode_is_at_most_eight_words_and_the_prompt_is_said_once(tmp_path):
    out = draft(tmp_path, ["dé croix", "Alice : tricératops dans la rivière", "Bruno : tricératops dans la rivière",
                           "David : tricératops dans la rivière", "dé fleur"], "Alice,Bruno,David", "fr",
                "--verbosity", "short").stdout
    faces = [line for line in out.splitlines() if line.startswith("Dé :")]
    assert faces and all(len(line.split()) <= 8 for line in faces)
    before_first_face = out.split("Dé :", 1)[0]
    assert before_first_face.count("lance le dé") + before_first_face.count("quelle face") == 1
    assert "Tour 2 : le dé passe à Bruno." in out


def test_repeat_after_the_scores_repeats_every_line(tmp_path):
    out = draft(tmp_path, ["dé croix", "les scores", "répète"]).stdout
    for name in ("Alice", "Bruno", "David"):
        assert out.count(f"{name} : 0 point pour l'instant.") == 2


def test_help_cites_the_players_of_this_game(tmp_path):
    out = draft(tmp_path, ["dé croix", "aide"], "Zoé,Yann").stdout
    assert "Yann, stégosaure dans la rivière" in out and "le zoo de Yann" in out and "Bruno" not in out


@pytest.mark.parametrize("lang, lines", [
    ("fr", ["dé croix", "T-Rex dans le roi de la jungle", "aide"]),
    ("en", ["die forest", "t-rex in the king of the jungle", "help"]),
    ("es", ["dado bosque", "t-rex en el rey de la selva", "ayuda"]),
])
def test_the_help_of_a_turn_gives_another_player_than_the_one_asked(tmp_path, lang, lines):
    """At Yann's turn, the example of a line said by another player, and of another player's zoo, names Zoé:
    never Yann himself."""
    from companion.language.messages import catalog

    out = draft(tmp_path, lines, "Zoé,Yann", lang=lang).stdout.splitlines()
    helped = catalog(lang).say("draft.help.turn", other="Zoé")
    assert helped in out, out[-5:]


@pytest.mark.parametrize("lang, options, rules", [
    ("fr", [], ("Règles en vigueur : le trio des bois vaut 7 points ; la rivière ne compte ni pour l'île du solitaire "
               "ni pour le roi de la jungle.")),
    ("fr", ["--river-counts-for-island"], ("la rivière compte pour l'île du solitaire, mais pas pour le roi de la "
                                          "jungle.")),
    ("en", ["--river-counts-for-king", "--river-counts-for-island", "--trio-points", "6"],
     ("Rules in force: the woody trio is worth 6 points; the river counts for both the solitary island and the king "
     "of the jungle.")),
    ("es", ["--river-counts-for-king"], ("Reglas en vigor: el trío del bosque vale 7 puntos; el río cuenta para el rey "
                                        "de la selva, pero no para la isla solitaria.")),
])
def test_the_rules_in_force_are_said_in_sentences_at_the_start_as_in_the_scores(tmp_path, lang, options, rules):
    """The start of a game says its rules as the score report does, in a sentence: not "River counted for the
    solitary island: no"."""
    out = draft(tmp_path, [], "Zoé,Yann", lang, *options).stdout
    assert out.count(rules) == 1, out


def test_the_final_result_ranks_every_player(tmp_path):
    from tests.conftest import random_game, script_lines

    expected = random_game(["Alice", "Bruno", "Chloé"], 12)
    out = draft(tmp_path, script_lines(expected, "fr"), "Alice,Bruno,Chloé").stdout
    ranking = next(line for line in out.splitlines() if line.startswith("Classement : "))
    totals = {entry.name: entry.total for entry in expected.score().players}
    for name, total in totals.items():
        assert f"{name}, {total} point" in ranking
    order = [name for name in sorted(totals, key=lambda n: -totals[n])]
    assert ranking.index(order[0]) < ranking.index(order[-1])


# ---------------------------------------------------------------- the games are one list, with their own options

def test_an_option_of_another_game_is_refused(tmp_path):
    result = run_play(["play", "dino", "--trio-points", "6", "--engine", "text"], [], tmp_path)
    assert result.returncode == 2 and result.stderr.startswith("companion: option inconnue ici : --trio-points 6.")
    result = run_play(["play", "draftosaurus", "--tokens", "hidden", "--engine", "text"], [], tmp_path)
    assert result.returncode == 2 and "--tokens" in result.stderr


def test_every_part_that_lists_the_games_reads_the_registry():
    from companion import registry
    from companion.commands import score
    from companion.language import grammar

    assert grammar.games() == registry.ids()
    assert score.GAMES == ("draftosaurus",)
    for spec in registry.GAMES:
        table = spec.table_class()
        assert table.SPEC is spec is spec.engine_class().SPEC and table.QUERIES.get("rules") is not None
        assert grammar.states(spec.id)


def test_a_save_records_the_roll_prompt_player_after_a_redo(tmp_path):
    draft(tmp_path, ["dé croix", "Alice : tricératops dans la rivière", "annule", "rétablis"])
    game = Game.from_json(saved_state(tmp_path / "g.json")["state"])
    assert isinstance(game.actions[0], Roll) and len(game.actions) == 2
    assert json.loads((tmp_path / "g.json").read_text())["content"]["dialogue"]["asked"] == 0


def test_names_given_one_by_one_are_read_back_and_may_be_taken_back(tmp_path):
    out = play(tmp_path, "draftosaurus", ["trois", "Alice", "oui", "Bruneau", "annule", "Bruno", "Jean et", "Chloé",
                                          "non", "Alice, Bruno et Chloé", "oui", "Bruno", "oui", "oui", "non"]).stdout
    assert "J'attends un nom. Nom du joueur 2, dans l'ordre de la table ?" in out  # "oui" is no name
    assert "D'accord, j'enlève Bruneau." in out
    assert "Un nom ne peut pas contenir « et », donc « Jean et » ne convient pas." in out
    assert "Je note 3 noms : Alice, Bruno et Chloé. C'est bien ça ?" in out
    assert "D'accord, reprenons les noms depuis le début." in out
    assert saved_state(tmp_path / "g.json")["state"]["setup"]["players"] == ["Alice", "Bruno", "Chloé"]


def test_help_at_a_set_up_question_says_what_that_question_wants(tmp_path):
    out = play(tmp_path, "draftosaurus", ["aide", "deux", "aide", "Ana, Bo", "aide", "oui", "aide", "Bo"]).stdout
    assert "Réponds par un nombre, par exemple trois." in out
    assert "Dis le nom du joueur, ou tous les noms d'un coup" in out
    assert "Réponds oui ou non." in out
    assert "Dis le nom d'un joueur, ou son numéro dans l'ordre de la table : Ana, ou 1." in out


@pytest.mark.parametrize("game_id, lang, lines, refusal, question", [
    ("draftosaurus", "es", ["sí", "ayuda", "pausa", "seguimos", "xyzzy"], "No esperaba eso aquí.",
     "¿Cuántos jugadores hay en la mesa, de dos a cinco?"),
    ("dino", "es", ["sí", "ayuda", "pausa", "seguimos", "xyzzy"], "No esperaba eso aquí.",
     "¿Cuántos jugadores hay en la mesa, de dos a seis?"),
    ("draftosaurus", "fr", ["oui", "aide", "pause", "reprends", "xyzzy"], "Je n'attendais pas cela ici.",
     "Combien de joueurs autour de la table, de deux à cinq ?"),
    ("dino", "es", ["2", "Ana y Bruno", "sí", "Ana", "no", "sí", "ayuda", "pausa", "seguimos", "xyzzy"],
     "No esperaba eso aquí.", "Ana, ¿de qué color quieres tus peones?"),
])
def test_the_answer_that_does_not_fit_is_said_once_and_the_question_alone_after(tmp_path, game_id, lang, lines,
                                                                               refusal, question):
    out = play(tmp_path, game_id, lines, lang=lang).stdout
    assert out.count(refusal) == 1, out
    after = out.split(refusal, 1)[1].splitlines()[1:]  # help, the pause, a line not understood: the question alone
    assert after.count(question) == 3, out


@pytest.mark.parametrize("game_id, lang, lines, topics, topic, question", [
    ("draftosaurus", "es", ["2", "Ana y Bruno", "sí", "Ana", "reglas", "explica el río", "las reglas", "sí"],
     "Puedo explicar: objetivo,", "El río.",
     "Reglas habituales: el trío del bosque vale 7 puntos, y el río no cuenta ni para la isla ni para el rey. "
     "¿Las mantenemos?"),
    ("draftosaurus", "fr", ["2", "Alice et Bruno", "oui", "Alice", "règles", "explique la rivière", "les règles",
                            "oui"],
     "Je peux expliquer : but,", "La rivière.",
     "Règles habituelles : le trio des bois vaut 7 points, et la rivière ne compte ni pour l'île ni pour le roi. "
     "On les garde ?"),
    ("draftosaurus", "en", ["2", "Ann and Ben", "yes", "Ann", "rules", "explain the river", "the rules", "yes"],
     "I can explain: goal,", "The river.",
     "Usual rules: the woody trio is worth 7 points, and the river counts neither for the island nor for the king. "
     "Keep them?"),
    ("dino", "es", ["2", "Ana y Bruno", "sí", "Ana", "sí", "sí", "reglas", "explica el meteorito", "las reglas", "sí"],
     "Puedo explicar: objetivo,", "El meteorito.",
     "Reglas habituales: 3 huevos por nido, el meteorito recorre 28 piedras, y se vuelve por cualquier máquina. "
     "¿Las mantenemos?"),
])
def test_the_rules_asked_at_the_question_of_the_usual_rules_are_told_and_it_is_asked_again(
        tmp_path, game_id, lang, lines, topics, topic, question):
    out = play(tmp_path, game_id, lines, lang=lang).stdout
    said = out.splitlines()
    asked = said.index(question)
    told = said[asked + 1:asked + 6:2]
    assert all(line.startswith(start) for line, start in zip(told, (topics, topic, topics), strict=True)), out
    assert said[asked:asked + 7:2] == [question] * 4, out
    assert said[asked + 7] != question, out  # the yes is taken


def test_a_damaged_save_is_explained_in_the_players_language(tmp_path):
    game = Game.new(["Alice", "Bruno"], seed=1)
    game.apply(Roll("forest"))
    state = game.to_json()
    state["actions"].append({"type": "place", "player": 1, "species": "trex", "pen": "prairie_of_love"})
    state.pop("snapshot")
    write_save(tmp_path / "g.json", "draftosaurus", {"finished": False, "state": state})
    result = run_play(["resume", str(tmp_path / "g.json"), "--engine", "text"], [], tmp_path)
    assert result.returncode == 2
    assert ("est abîmé : le coup numéro 2 est impossible : Pas dans la prairie des amoureux : le dé impose un enclos "
            "de la forêt. Je n'y touche pas.") in result.stderr
    assert "Replay" not in result.stderr


def test_a_line_too_long_for_any_command_says_so(tmp_path):
    from companion.language.grammar import MAX_LINE

    out = draft(tmp_path, ["dé croix " * (MAX_LINE // len("dé croix ") + 1)]).stdout
    assert "C'est trop long pour une commande" in out


@pytest.mark.parametrize("players, lang, said", [
    ("A", "fr", "--players: il faut au moins deux noms, séparés par des virgules."),
    ("A,a", "es", "--players: a aparece dos veces."),
    ("A,B,C,D,E,F", "fr", "Draftosaurus se joue de 2 à 5 joueurs, pas 6."),
])
def test_a_bad_player_list_is_said_in_the_players_language(tmp_path, players, lang, said):
    result = run_play(["play", "draftosaurus", "--engine", "text", "--lang", lang, "--players", players,
                       "--save", str(tmp_path / "g.json")], [], tmp_path)
    assert result.returncode == 2 and said in result.stderr


def test_a_fifo_as_the_list_of_recent_saves_does_not_hang_the_game(tmp_path):
    os.mkfifo(tmp_path / "recent.json")
    result = run_play(["play", "draftosaurus", "--engine", "text", "--players", "A,B", "--save",
                       str(tmp_path / "g.json")], ["dé croix"], tmp_path, timeout=30)
    assert result.returncode == 0 and (tmp_path / "g.json").exists()
    assert run_play(["resume"], [], tmp_path, timeout=30).returncode == 0


def test_a_no_followed_by_the_names_takes_those_names(tmp_path):
    lines = ["trois", "Alice, Bruno et Chloé", "non, Alice, Bruno et Zoé", "oui", "Zoé", "oui", "oui", "non"]
    out = play(tmp_path, "draftosaurus", lines).stdout
    assert "Je note 3 noms : Alice, Bruno et Zoé. C'est bien ça ?" in out
    assert list(Game.from_json(saved_state(tmp_path / "g.json")["state"]).players) == ["Alice", "Bruno", "Zoé"]


@pytest.mark.parametrize("game_id, lang, lines, command, question, names", [
    ("jurassic-snack", "fr", ["décris la prairie et la ligne 1", "Ana et Ben", "oui"], "décris la prairie",
     "js.setup.ask_blue", "Je note 2 noms : Ana et Ben. C'est bien ça ?"),
    ("draftosaurus", "en", ["two", "triceratops in the river", "the scores", "Ann and Ben", "yes"],
     "triceratops in the river", "setup.ask_first_name", "I have 2 names: Ann and Ben. Is that right?"),
    ("dino", "es", ["dos", "dónde está el meteorito", "Ana y Beto", "sí"], "dónde está el meteorito",
     "setup.ask_first_name", "Apunto 2 nombres: Ana y Beto. ¿Es correcto?"),
])
def test_a_command_of_the_game_said_where_names_are_asked_is_no_name(tmp_path, game_id, lang, lines, command,
                                                                      question, names):
    """A line the game's grammar reads as one of its commands (a query, a move) is not taken as names: the
    program says that names are expected, and asks again."""
    from companion.dialogue.setup_questions import example_names
    from companion.language.messages import catalog
    from companion.terminal_text import sentences

    words = catalog(lang)
    out = play(tmp_path, game_id, lines, lang=lang).stdout
    asked = words.say(question, number=1, examples=example_names(words, 2))
    refusal = words.say("setup.command_not_name", said=command, question=asked)
    assert sentences(refusal) in out
    assert names in out and out.count(names.split(":")[0]) == 1  # the names are read back once: the right ones


@pytest.mark.parametrize("game_id, lang, lines, names", [
    ("draftosaurus", "fr", ["trois", "Rose, Rex et Marie", "oui"], "Je note 3 noms : Rose, Rex et Marie."),
    ("jurassic-snack", "en", ["Ben", "River", "yes"], "I have 2 names: Ben and River."),
    ("dino", "es", ["dos", "Río", "añade De la Cruz", "sí"], "Apunto 2 nombres: Río y De la Cruz."),
    ("dino", "fr", ["deux", "Ana et Bruno", "non, Jean-Pierre et Rose", "oui"],
     "Je note 2 noms : Jean-Pierre et Rose."),
])
def test_names_that_are_also_words_of_the_game_stay_names(tmp_path, game_id, lang, lines, names):
    """A single word is a name even when the game knows it ("Rex", "Río", "River"); a name that reads as a
    command is given with "add" before it; "no, Jean-Pierre" still corrects the names read back."""
    from companion.language.messages import catalog

    out = play(tmp_path, game_id, lines, lang=lang).stdout
    assert names in out
    assert catalog(lang).say("setup.command_not_name", said="", question="")[3:12] not in out


@pytest.mark.parametrize("game_id, lang, lines, examples", [
    ("jurassic-snack", "fr", ["aide"], "Alice et Bruno"),  # always two players
    ("draftosaurus", "fr", ["deux", "aide"], "Alice et Bruno"),
    ("draftosaurus", "en", ["four", "help"], "Ann, Ben, Cid and Dee"),
    ("dino", "es", ["seis", "ayuda"], "Ana, Beto, Carla, Diego, Elena y Félix"),
])
def test_the_names_example_fits_the_number_of_players(tmp_path, game_id, lang, lines, examples):
    """The names given as an example, in the help and in the first question, are as many as the players: not
    three names for a game of two. After the help the question is said again."""
    from companion.language.messages import catalog

    words = catalog(lang)
    out = play(tmp_path, game_id, lines, lang=lang).stdout.splitlines()
    help_line = words.say("help.names", examples=examples)
    assert help_line in out
    asked = out[out.index(help_line) - 1]
    assert out[out.index(help_line) + 1] == asked  # the question again
    if game_id != "jurassic-snack":
        assert asked == words.say("setup.ask_first_name", number=1, examples=examples)
    third = {"fr": "Chloé", "en": "Cid", "es": "Carla"}[lang]
    assert (third in "\n".join(out)) == (third in examples)


def test_an_undo_at_the_counts_asked_at_the_end_takes_back_the_last_move(tmp_path):
    """With one zoo followed, the end asks the others how many of its King's species they hold; an undo said
    then takes back the last move, and the game goes on to its end again."""
    others = ["tricératops", "stégosaure", "diplodocus", "parasaurolophe", "spinosaure"] * 2 + ["tricératops"]
    lines = ["forêt", "T-Rex dans le roi de la jungle"]
    lines += [line for species in others for line in ("forêt", f"{species} dans la rivière")]
    lines += ["annule", "tricératops dans la rivière", "2", "1", "tous", "quitter"]
    out = draft(tmp_path, lines, "Alice,Bruno,Chloé", "fr", "--only-mine", "Bruno").stdout
    asked = "Alice, combien de dinosaures de l'espèce T-Rex as-tu dans ton zoo, sans compter la rivière ?"
    assert out.count(asked) == 2 and "Annulé : le tricératops de Bruno dans la rivière." in out
    assert "Voici les scores." not in out  # a question comes first, not the scores
    assert out.count("Bruno met le tricératops dans la rivière.\nLa partie est finie.\n" + asked) == 2
    assert "Roi de la jungle : T-Rex, 1 dans ce zoo mais 2 chez Alice, 0 point." in out
    game = Game.from_json(saved_state(tmp_path / "g.json")["state"])
    assert game.phase == "over" and len(game.zoos[1]["river"]) == 11


# ---------------------------------------------------------------- after the end

@pytest.mark.parametrize("game_id, lang, lines", [
    ("jurassic-snack", "fr", ["aide", "les scores", "quitter"]),
    ("jurassic-snack", "en", ["help", "the scores", "quit"]),
    ("draftosaurus", "es", ["no", "ayuda", "los puntos", "salir"]),  # "the points in detail?" first
    ("draftosaurus", "fr", ["non", "aide", "les scores", "quitter"]),
])
def test_the_last_question_takes_help_scores_and_quit_in_every_game(tmp_path, game_id, lang, lines):
    """Once a game is over, "help" says what may be said then, the scores are the final ones, and quitting
    says that the game is over and saved (a finished Jurassic Snack used to stop on an unknown state)."""
    from companion.language.messages import catalog

    game = finished_game(game_id)
    path = finished_save(tmp_path, game_id, game)
    result = run_play(["resume", str(path), "--engine", "text", "--lang", lang], lines, tmp_path)
    words = catalog(lang)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    # Draftosaurus's own help there also names the detail that may still be asked ("all", a name)
    assert words.say("draft.help.after_end" if game_id == "draftosaurus" else "session.help_after_end") in out
    assert words.say("session.finished_saved", path=str(path)) in out.splitlines()[-1]
    if game_id == "draftosaurus":  # the final scores, not the scores "so far"
        entry = game.score().players[0]
        assert out.count(f"{entry.name}: {entry.total} ") + out.count(f"{entry.name} : {entry.total} ") >= 1, out
        so_far = words.say("draft.score_so_far", player=entry.name, total=entry.total, details="")
        assert so_far.split(".")[0] not in out


def finished_game(game_id: str) -> Any:
    """A game of Ana and Ben played to its end (random legal moves, the same on every run)."""
    import random

    from companion.games.common import OVER as GAME_OVER
    from tests.test_dino_play import random_game as dino_game

    if game_id == "dino":
        return dino_game(2, 7)
    game = SnackGame.new(["Ana", "Ben"], seed=4) if game_id == "jurassic-snack" else Game.new(
        ["Ana", "Ben"], mode="full", seed=4)
    chooser = random.Random(4)
    while game.phase != GAME_OVER:
        game.apply(chooser.choice(game.legal_actions()))
    return game


def finished_save(tmp_path: Path, game_id: str, game: Any = None) -> Path:
    """A save of a finished game (`game`, or finished_game's), as the program writes it."""
    path = tmp_path / "g.json"
    write_save(path, game_id, {"finished": True, "state": (game or finished_game(game_id)).to_json()})
    return path


@pytest.mark.parametrize("game_id, lang, lines", [
    ("draftosaurus", "fr", ["non", "non"]),  # "the points in detail?" first
    ("draftosaurus", "en", ["no", "no"]),
    ("jurassic-snack", "es", ["no"]),
    ("jurassic-snack", "fr", ["non"]),
    ("dino", "en", ["no"]),
    ("dino", "es", ["no"]),
])
def test_no_at_the_last_question_ends_the_session_in_every_game(tmp_path, game_id, lang, lines):
    """"No" to the question after the end (undo or quit?) is a natural way out: it ends as quit does, saying
    where the game is saved, and nothing said after it is read."""
    from companion.language.messages import catalog

    path = finished_save(tmp_path, game_id)
    scores = {"fr": "les scores", "en": "the scores", "es": "los puntos"}[lang]
    result = run_play(["resume", str(path), "--engine", "text", "--lang", lang], [*lines, scores], tmp_path)
    words = catalog(lang)
    assert result.returncode == 0, result.stderr
    out = result.stdout.splitlines()
    assert out[-2:] == [words.say("session.after_end"), words.say("session.finished_saved", path=str(path))], out[-4:]
    assert result.stdout.count(words.say("session.after_end")) == 1  # asked once: "no" was its answer


def test_a_line_not_expected_after_the_end_says_what_may_be_said_without_the_end_again(tmp_path):
    """After the end an answer of no use there (a yes) is answered with what may be said, once: the game being
    over is not said twice in a row."""
    from companion.language.messages import catalog

    path = finished_save(tmp_path, "jurassic-snack")
    result = run_play(["resume", str(path), "--engine", "text", "--lang", "fr"], ["oui", "quitter"], tmp_path)
    words = catalog("fr")
    out = result.stdout.splitlines()
    at = out.index(words.say("session.after_end"))
    assert out[at + 1:] == [words.say("session.after_end_expected"),
                            words.say("session.finished_saved", path=str(path))]


# ---------------------------------------------------------------- a command of the game said at another moment

@pytest.mark.parametrize("lang, yes, die, move, nonsense, not_now, unheard", [
    ("fr", "oui", "le dé dit croix", "Alice met le tricératops dans la rivière", "zut flûte",
     "J'ai compris « {} », mais ce n'est pas le moment.", "Je n'ai pas compris « zut flûte »."),
    ("en", "yes", "the die says forest", "Alice puts the triceratops in the river", "blah blah",
     'I understood "{}", but this is not the moment for it.', 'I did not understand "blah blah".'),
    ("es", "sí", "el dado dice bosque", "Alice pone el triceratops en el río", "bla bla",
     "He entendido «{}», pero no es el momento.", "No he entendido «bla bla»."),
])
def test_a_command_of_the_game_said_when_another_question_is_open_is_said_to_be_understood_not_now(
        tmp_path, lang, yes, die, move, nonsense, not_now, unheard):
    # the die when who starts is asked (and "Rex", a name as much as a species), then at a yes-or-no set-up
    # question; a move before the die is rolled
    lines = ["2", "Alice", "Bruno", yes, "Rex", die, "Alice", die, nonsense, yes, yes, yes, move, die, move]
    result = play(tmp_path, "draftosaurus", lines, lang=lang)
    assert result.returncode == 0, result.stderr
    out = result.stdout.splitlines()
    said = [at for at, line in enumerate(out) if line in (not_now.format(die), not_now.format(move))]
    assert not_now.format("Rex") not in out and "Bruno" in out[out.index(not_now.format(die)) - 2], out
    assert [out[at] for at in said] == [not_now.format(die), not_now.format(die), not_now.format(move)], out
    for at in said:
        assert out[at - 1] == out[at + 1] and "?" in out[at + 1], out  # the open question, asked again
    assert unheard in result.stdout  # what no state of the game understands is still not understood
    assert zoos(tmp_path)[0]["river"] == ["triceratops"]  # said again once the die was rolled: played


@pytest.mark.parametrize("lang, lines, not_now", [
    ("fr", ["2", "Alice et Bruno", "oui", "Alice met le tricératops dans la rivière", "Alice"],
     "J'ai compris « Alice met le tricératops dans la rivière », mais ce n'est pas le moment."),
    ("en", ["2", "Alice and Bruno", "yes", "Alice puts the triceratops in the river", "Alice"],
     'I understood "Alice puts the triceratops in the river", but this is not the moment for it.'),
    ("es", ["2", "Alice y Bruno", "sí", "Alice pone el triceratops en el río", "Alice"],
     "He entendido «Alice pone el triceratops en el río», pero no es el momento."),
])
def test_a_move_naming_a_player_said_when_who_starts_is_asked_is_said_to_be_understood_not_now(
        tmp_path, lang, lines, not_now):
    """The players are known when who starts is asked: a move that names one of them is a command of the game,
    not a name nobody has."""
    out = play(tmp_path, "draftosaurus", lines, lang=lang).stdout
    assert not_now in out


def finished_tracked_game() -> Game:
    """A game where only Alice's zoo is followed, played to its end, Alice with a dinosaur in the King's pen."""
    import random

    from companion.games.draftosaurus.engine import DISCARD, OVER, ROLL, Discard, Place
    from companion.games.draftosaurus.ids import SPECIES

    for seed in range(1, 40):
        game, choices = Game.new(["Alice", "Bruno"], seed=seed, tracked=[0]), random.Random(seed)
        while game.phase != OVER:
            if game.phase == ROLL:
                game.apply(game.roll_die())
                continue
            for player in game.waiting_for():
                if game.phase == DISCARD:
                    game.apply(Discard(player, choices.choice(SPECIES)))
                    continue
                species = choices.choice([s for s in SPECIES if set(game.legal_pens(player, s)) - {"pyramid"}])
                game.apply(Place(player, species, choices.choice(
                    [p for p in game.legal_pens(player, species) if p != "pyramid"])))
        if game.zoos[0]["king_of_the_jungle"]:
            return game
    raise AssertionError("no seed gave the King's pen a dinosaur")


@pytest.mark.parametrize("lang, lines, question, again", [
    ("fr", ["oui", "aide", "deux"], "Bruno, combien de dinosaures de l'espèce T-Rex as-tu dans ton zoo, sans",
     "Je n'attendais pas cela ici. "),
    ("en", ["yes", "help", "two"], "Bruno, how many T-Rex dinosaurs are in your zoo, not counting",
     "I was not expecting that here. "),
    ("es", ["sí", "ayuda", "dos"], "Bruno, ¿cuántos dinosaurios de la especie T-Rex tienes en tu zoo, sin",
     "No esperaba eso aquí. "),
])
def test_a_count_asked_at_the_end_is_asked_again_once_after_an_answer_of_another_kind(
        tmp_path, lang, lines, question, again):
    game = finished_tracked_game()
    assert game.zoos[0]["king_of_the_jungle"][0] == "trex"
    write_save(tmp_path / "g.json", "draftosaurus", {"finished": False, "state": game.to_json()})
    result = run_play(["resume", str(tmp_path / "g.json"), "--engine", "text", "--lang", lang], lines, tmp_path)
    assert result.returncode == 0, result.stderr
    said = result.stdout.splitlines()
    asked = next(k for k, line in enumerate(said) if line.startswith(question))
    assert said[asked + 1] == again + said[asked], result.stdout  # why, with the question, once
    assert said[asked + 3] == said[asked], result.stdout  # after help, the question alone
    assert said[asked] not in said[asked + 4:], result.stdout  # "two" taken


@pytest.mark.parametrize("lang, lines, question", [
    ("fr", ["oui", "rétablis", "deux"], "Bruno, combien de dinosaures"),
    ("en", ["yes", "redo", "two"], "Bruno, how many T-Rex"),
])
def test_after_a_redo_with_nothing_to_redo_a_count_is_asked_again_without_the_reason_said_before(
        tmp_path, lang, lines, question):
    write_save(tmp_path / "g.json", "draftosaurus", {"finished": False, "state": finished_tracked_game().to_json()})
    result = run_play(["resume", str(tmp_path / "g.json"), "--engine", "text", "--lang", lang], lines, tmp_path)
    said = result.stdout.splitlines()
    asked = next(k for k, line in enumerate(said) if line.startswith(question))
    assert said[asked + 1].endswith(said[asked]) and said[asked + 1] != said[asked], result.stdout  # "oui": why
    assert said[asked + 3] == said[asked], result.stdout  # after "nothing to redo", the question alone
