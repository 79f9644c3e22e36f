"""An answer given at a set-up question can be corrected: "annule" goes back to the question before, says so and
asks it again, then the questions after it; the answers before it stay. At the first question there is none
before: that is said and the question asked again. Played through the text engine in French, English and
Spanish."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path
from types import SimpleNamespace

import pytest

from companion.dialogue.draftosaurus.new_game import ask_setup
from companion.dialogue.session import EndOfInput, Session
from companion.language.messages import catalog
from companion.speech.base import Heard, Listener, TextSpeaker
from tests.conftest import run_play, saved_state


def play(tmp_path: Path, game: str, lines: list[str], lang: str, *options: str) -> tuple[list[str], dict]:
    """What was printed, line by line, and the save's content."""
    result = run_play(["play", game, "--engine", "text", "--lang", lang, "--save", str(tmp_path / "g.json"),
                       *options], lines, tmp_path)
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines(), saved_state(tmp_path / "g.json")


def asked_after_going_back(out: list[str], lang: str) -> list[str]:
    """The line said after each "back to the question before"."""
    back = catalog(lang).say("setup.going_back")
    return [out[index + 1] for index, line in enumerate(out) if line == back]


# A table of three said by mistake, then four: back from the names' read-back (the names are asked again), from
# the first name (to the count), from the usual rules (to who rolls: the four names stay) and from the advice
# question (to "which player are you?").
DRAFT = {
    "fr": (["trois", "Alice, Bruno et Chloé", "annule", "annule", "quatre", "Alice, Bruno, Chloé et David", "oui",
            "Bruno", "annule", "Chloé", "oui", "non", "Alice", "annule", "David", "non"],
           ["Alice", "Bruno", "Chloé", "David"]),
    "en": (["three", "Ann, Ben and Cid", "undo", "undo", "four", "Ann, Ben, Cid and Dee", "yes",
            "Ben", "undo", "Cid", "yes", "no", "Ann", "undo", "Dee", "no"],
           ["Ann", "Ben", "Cid", "Dee"]),
    "es": (["tres", "Ana, Beto y Carla", "deshacer", "deshacer", "cuatro", "Ana, Beto, Carla y Diego", "sí",
            "Beto", "deshacer", "Carla", "sí", "no", "Ana", "deshacer", "Diego", "no"],
           ["Ana", "Beto", "Carla", "Diego"]),
}


@pytest.mark.parametrize("lang", ["fr", "en", "es"])
def test_draftosaurus_set_up_goes_back_one_question_at_a_time(tmp_path, lang):
    words = catalog(lang)
    lines, names = DRAFT[lang]
    out, content = play(tmp_path, "draftosaurus", lines, lang)
    assert words.say("setup.names_again") in out  # "annule" at the read-back: the names again
    assert asked_after_going_back(out, lang) == [
        words.say("draft.setup.ask_count"), words.say("draft.setup.ask_roller"), words.say("draft.setup.ask_me")]
    assert out.count(words.say("draft.setup.ask_count")) == 2 and out.count(words.say("draft.setup.ask_tracking")) == 1
    setup = content["state"]["setup"]
    assert setup["players"] == names and setup["first_roller"] == 2 and setup["tracked"] == [3]


# Dino: Bruno's colour corrected from Chloé's question, the red nest from the yellow nest's question.
DINO = {
    "fr": ["3", "Ana, Bruno et Chloé", "oui", "Ana", "non", "rouge", "jaune", "annule", "bleu", "vert", "non",
           "B2", "annule", "B3", "C5", "D3", "E2", "B5", "D5", "entre C3 et C4", "entre D4 et D5", "entre B2 et C2",
           "non", "oui"],
    "en": ["3", "Ana, Bruno and Chloe", "yes", "Ana", "no", "red", "yellow", "undo", "blue", "green", "no",
           "B2", "undo", "B3", "C5", "D3", "E2", "B5", "D5", "between C3 and C4", "between D4 and D5",
           "between B2 and C2", "no", "yes"],
    "es": ["3", "Ana, Bruno y Chloe", "sí", "Ana", "no", "rojo", "amarillo", "deshacer", "azul", "verde", "no",
           "B2", "deshacer", "B3", "C5", "D3", "E2", "B5", "D5", "entre C3 y C4", "entre D4 y D5", "entre B2 y C2",
           "no", "sí"],
}


@pytest.mark.parametrize("lang", ["fr", "en", "es"])
def test_dino_set_up_goes_back_to_the_colour_and_the_nest_before(tmp_path, lang):
    words = catalog(lang)
    out, content = play(tmp_path, "dino", DINO[lang], lang, "--seed", "1")
    assert asked_after_going_back(out, lang) == [words.say("dino.setup.ask_colour", player="Bruno"),
                                                 words.say("dino.setup.ask_nest", colour="red")]
    setup = content["state"]["setup"]
    assert setup["colours"] == ["red", "blue", "green"] and setup["nests"]["red"] == "B3"
    assert len(setup["barriers"]) == 3


# Jurassic Snack: real tokens said by mistake, corrected from the advice question (another way to say undo).
SNACK = {"fr": ["Ana", "Ben", "oui", "jetons réels", "je me suis trompé", "jetons cachés", "oui"],
         "en": ["Ana", "Ben", "yes", "real tokens", "go back", "hidden tokens", "yes"],
         "es": ["Ana", "Ben", "sí", "fichas reales", "me equivoqué", "fichas ocultas", "sí"]}


@pytest.mark.parametrize("lang", ["fr", "en", "es"])
def test_jurassic_snack_set_up_goes_back_to_the_tokens(tmp_path, lang):
    out, content = play(tmp_path, "jurassic-snack", SNACK[lang], lang)
    assert asked_after_going_back(out, lang) == [catalog(lang).say("js.setup.ask_mode")]
    assert content["state"]["setup"]["mode"] == "hidden" and content["seats"]["advice"] is True
    assert content["state"]["setup"]["players"] == ["Ana", "Ben"]


@pytest.mark.parametrize("game, lang, lines", [
    ("draftosaurus", "fr", ["annule"]), ("dino", "en", ["undo"]), ("jurassic-snack", "es", ["deshacer"]),
    ("jurassic-snack", "fr", ["Ana", "annule", "annule"]),  # the blue name taken back, then nothing before
])
def test_an_undo_at_the_first_question_says_there_is_none_before_and_asks_it_again(tmp_path, game, lang, lines):
    result = run_play(["play", game, "--engine", "text", "--lang", lang, "--save", str(tmp_path / "g.json")],
                      lines, tmp_path)
    out = result.stdout.splitlines()
    none_before = catalog(lang).say("setup.nothing_before")
    assert result.returncode == 0 and out.count(none_before) == 1
    assert out[out.index(none_before) - 1] == out[out.index(none_before) + 1] == out[0]


@pytest.mark.parametrize("game, lang, lines, count_key", [
    ("dino", "en", ["two", "undo"], "dino.setup.ask_count"),
    ("draftosaurus", "es", ["dos", "deshacer"], "draft.setup.ask_count"),
    ("dino", "fr", ["deux", "Ana", "annule", "annule"], "dino.setup.ask_count"),  # the name Ana taken back first
])
def test_an_undo_before_any_name_goes_back_to_the_number_of_players(tmp_path, game, lang, lines, count_key):
    result = run_play(["play", game, "--engine", "text", "--lang", lang, "--save", str(tmp_path / "g.json")],
                      lines, tmp_path)
    out = result.stdout.splitlines()
    assert asked_after_going_back(out, lang) == [catalog(lang).say(count_key)]
    assert out[-2:] == [catalog(lang).say(count_key), catalog(lang).say("session.stopped_before_save")]


@pytest.mark.parametrize("lang, said", [("fr", ["trois", "annule"]), ("en", ["three", "undo"]),
                                        ("es", ["tres", "deshacer"])])
def test_where_names_cannot_be_heard_going_back_passes_over_the_players_labels(lang, said):
    """A recogniser hears no name: the players are labelled ("Player 1"...), said and not asked; "annule" at the
    next question goes back to the number of players."""
    out = io.StringIO()
    session = Session(game="draftosaurus", lang=lang, speaker=TextSpeaker(out), listener=Spoken(said))
    with contextlib.suppress(EndOfInput):
        ask_setup(session, SimpleNamespace(advice=False))
    words = catalog(lang)
    labels = [words.say("setup.player_label", number=number) for number in (1, 2, 3)]
    assert out.getvalue().splitlines() == [
        words.say("draft.setup.ask_count"), words.say("setup.default_names", names=labels),
        words.say("draft.setup.ask_roller"), words.say("setup.going_back"), words.say("draft.setup.ask_count")]


class Spoken(Listener):
    """A recogniser that hears each of `said` surely, then nothing more."""

    name = "script"

    def __init__(self, said: list[str]):
        self.said = list(said)

    def listen(self, state: str | None = None) -> Heard | None:
        return Heard(self.said.pop(0), 0.99, "sphinx") if self.said else None


@pytest.mark.parametrize("lang, lines, said", [
    ("fr", ["aide", "quatre"],
     "Réponds par un nombre, par exemple trois. Pour corriger une réponse précédente, dis annule."),
    ("en", ["help", "four"], "Answer with a number, for example three. To correct an earlier answer, say undo."),
    ("es", ["ayuda", "cuatro"],
     "Responde con un número, por ejemplo tres. Para corregir una respuesta anterior, di deshacer."),
])
def test_help_at_a_set_up_question_says_how_to_correct_an_answer(tmp_path, lang, lines, said):
    result = run_play(["play", "draftosaurus", "--engine", "text", "--lang", lang, "--save",
                       str(tmp_path / "g.json")], lines, tmp_path)
    assert said in result.stdout.splitlines(), result.stdout


DINO_START = {"fr": ["deux", "Alice et Bruno", "oui", "Alice", "oui", "non"],
              "en": ["two", "Ann and Ben", "yes", "Ann", "yes", "no"],
              "es": ["dos", "Ana y Beto", "sí", "Ana", "sí", "no"]}
NESTS = ["C3", "D4", "E5", "B2", "E3", "B4"]  # none on a start square


@pytest.mark.parametrize("lang", ["fr", "en", "es"])
def test_help_at_dino_s_nest_and_barrier_questions_says_what_to_say_there(tmp_path, lang):
    """Said by hand, a nest is a square and a barrier two neighbouring squares: help says so (with how to correct
    an answer, or, once there are enough barriers, how to put down no more), not the set-up's general help."""
    help_word = {"fr": "aide", "en": "help", "es": "ayuda"}[lang]
    between = {"fr": "entre {} et {}", "en": "between {} and {}", "es": "entre {} y {}"}[lang]
    barriers = [between.format(*pair) for pair in (("B3", "C3"), ("C5", "C6"), ("D1", "D2"))]
    more = {"fr": "oui", "en": "yes", "es": "sí"}[lang]
    lines = [*DINO_START[lang], help_word, *NESTS, help_word, *barriers, more, help_word]
    result = run_play(["play", "dino", "--engine", "text", "--lang", lang, "--save", str(tmp_path / "g.json")],
                      lines, tmp_path)
    said = result.stdout.splitlines()
    say = catalog(lang).say
    expected = [say("dino.setup.help_nest"), say("dino.setup.help_barrier", first="B3", second="C3"),
                say("dino.setup.help_more_barrier", first="B1", second="C1")]  # the example: a place still free
    assert [line for line in said if line in expected] == expected, result.stdout


@pytest.mark.parametrize("lang, said", [
    ("fr", "Refusé. Pas de nid en F2 : ce carré porte une position de départ. Un nid va sur tout carré sauf A1, A2, "
           "A3, A4, A5, A6, F1, F2, F3, F4, F5 et F6."),
    ("en", "No nest in F2: that square holds a start position. A nest goes on any square but A1, A2, A3, A4, A5, A6, "
           "F1, F2, F3, F4, F5 and F6."),
])
def test_a_nest_refused_on_a_start_square_says_where_nests_may_go(tmp_path, lang, said):
    result = run_play(["play", "dino", "--engine", "text", "--lang", lang, "--save", str(tmp_path / "g.json")],
                      [*DINO_START[lang], "F2", "C3"], tmp_path)
    assert any(line.endswith(said) for line in result.stdout.splitlines()), result.stdout


@pytest.mark.parametrize("lang, lines", [("fr", ["Alice", "Bruno", "oui", "aide"]),
                                         ("en", ["Ann", "Ben", "yes", "help"]),
                                         ("es", ["Ana", "Beto", "sí", "ayuda"])])
def test_help_at_jurassic_snack_s_token_question_says_how_to_correct_an_answer(tmp_path, lang, lines):
    result = run_play(["play", "jurassic-snack", "--engine", "text", "--lang", lang, "--save",
                       str(tmp_path / "g.json")], lines, tmp_path)
    assert catalog(lang).say("js.setup.help_mode") in result.stdout.splitlines(), result.stdout
    assert catalog(lang).say("js.setup.help_mode").endswith(catalog(lang).say("help.setup_number").split(". ")[-1])


@pytest.mark.parametrize("lang, barrier, said", [
    ("fr", "entre A3 et B3", "doit rester libre. Un barrage se pose entre deux carrés qui n'en portent pas."),
    ("es", "entre A3 y B3", "debe quedar libre. Una barrera va entre dos cuadrados que no tienen ninguna."),
])
def test_a_barrier_refused_against_a_start_square_says_where_barriers_may_go(tmp_path, lang, barrier, said):
    result = run_play(["play", "dino", "--engine", "text", "--lang", lang, "--save", str(tmp_path / "g.json")],
                      [*DINO_START[lang], *NESTS, barrier], tmp_path)
    assert any(line.endswith(said) for line in result.stdout.splitlines()), result.stdout
