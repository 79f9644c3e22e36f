"""`companion parse`: intent and slots of a sentence, JSON with canonical ids, exit codes, grammar export."""

import json
import subprocess
import sys

import pytest

from companion.cli import _Parser
from companion.commands import parse as command
from companion.errors import BadInput


def run(*argv: str) -> int:
    parser = _Parser(prog="companion parse")
    command.configure(parser)
    return command.run(parser.parse_args(list(argv)))


def test_json_gives_canonical_ids(capsys):
    assert run("--game", "draftosaurus", "--lang", "fr", "--json",
               "place le tricératops dans la prairie des amoureux") == 0
    out = json.loads(capsys.readouterr().out)
    assert out["intent"] == "place"
    assert out["slots"] == {"species": "triceratops", "pen": "prairie_of_love"}


def test_players_and_state_options(capsys):
    assert run("--lang", "fr", "--state", "turn", "--players", "Alice, Bruno", "--json",
               "Bruno : stégosaure dans la rivière") == 0
    assert json.loads(capsys.readouterr().out)["slots"] == {"player": "Bruno", "species": "stegosaurus", "pen": "river"}
    assert run("--lang", "fr", "--state", "die", "--json", "Bruno : stégosaure dans la rivière") == 0
    assert json.loads(capsys.readouterr().out)["intent"] is None  # not a die face: understood as nothing


def test_human_output_is_in_the_chosen_language(capsys):
    assert run("--lang", "es", "pon", "el", "triceratops", "en", "la", "pradera", "del", "amor") == 0
    assert capsys.readouterr().out.strip() == (
        "Entendido: colocar un dinosaurio (especie: tricerátops, corral: pradera del amor).")
    assert run("--lang", "fr", "explique l'étoile") == 0
    assert capsys.readouterr().out.strip() == "Compris : lire les règles (sujet : roi de la jungle)."
    assert run("--lang", "en", "yes") == 0
    assert capsys.readouterr().out.strip() == "Understood: yes."


def test_nothing_understood_exits_0_with_a_null_intent_and_the_closest_suggestion(capsys):
    assert run("--lang", "en", "--json", "place the tricerotops in the hart pen") == 0
    out = json.loads(capsys.readouterr().out)
    assert out["intent"] is None and out["slots"] == {}
    assert out["suggestion"] == "place the triceratops in the heart pen"
    assert run("--lang", "en", "place the tricerotops in the hart pen") == 0
    assert capsys.readouterr().out.splitlines() == [
        'I did not understand "place the tricerotops in the hart pen".',
        'Did you mean "place the triceratops in the heart pen"?']
    assert run("--lang", "fr", "--json", "le chat dort") == 0
    assert json.loads(capsys.readouterr().out) == {"intent": None, "slots": {}, "text": "le chat dort",
                                                   "suggestion": None}


@pytest.mark.parametrize("argv, where", [
    (["--lang", "xx", "oui"], "xx"),
    (["--state", "nowhere", "oui"], "nowhere"),
    (["--game", "chess", "oui"], "chess"),
    ([], "sentence"),
    (["--export", "mp3"], "mp3"),
])
def test_bad_input_is_one_clear_line(argv, where):
    with pytest.raises(BadInput, match=where):
        run(*argv)


def test_export_vosk_jsgf_and_sizes(capsys):
    assert run("--lang", "fr", "--state", "confirm", "--export", "vosk") == 0
    phrases = json.loads(capsys.readouterr().out)
    assert "oui" in phrases and phrases[-1] == "[unk]"
    assert run("--lang", "en", "--state", "die", "--players", "Bruno", "--export", "jsgf") == 0
    assert capsys.readouterr().out.startswith("#JSGF V1.0;")
    assert run("--export", "sizes", "--json") == 0
    sizes = json.loads(capsys.readouterr().out)
    assert {(s["lang"], s["state"]) for s in sizes} >= {("fr", "turn"), ("en", "die"), ("es", "any")}


def test_through_the_command_line():
    done = subprocess.run([sys.executable, "-m", "companion", "parse", "--json", "--lang", "fr", "tricératops, cœur"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["slots"] == {"species": "triceratops", "pen": "prairie_of_love"}


@pytest.mark.parametrize("argv, said", [
    (["--game", "jurassic-snack", "--lang", "fr", "le T-Rex de B5 vers l'est"],
     "Compris : déplacer une pièce vers une direction (pièce : T-Rex, case : B5, direction : est)."),
    (["--game", "jurassic-snack", "--lang", "es", "el T-Rex de B5 hacia el este"],
     "Entendido: mover una pieza en una dirección (pieza: T-Rex, casilla: B5, dirección: este)."),
    (["--game", "dino", "--lang", "fr", "mon pion rouge numéro 1 avance de 3 jusqu'en B2"],
     "Compris : déplacer un pion (couleur : rouge, pion : 1, emplacements : 3, case : B2)."),
])
def test_slot_values_are_said_as_players_say_them(argv, said, capsys):
    assert run(*argv) == 0
    assert capsys.readouterr().out.strip() == said
