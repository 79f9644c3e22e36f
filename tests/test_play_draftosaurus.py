"""`companion play draftosaurus --engine text`: whole games typed on standard input, queries, undo and
redo, refusals, save files, and resuming after the process is killed."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time

import pytest

from companion.dialogue.savefile import write_save
from companion.games.draftosaurus.engine import Discard, Game, Roll
from companion.language.messages import catalog
from tests.conftest import final_lines, random_game, run_play, saved_state, script_lines

TABLES = [
    (["Alice", "Bruno"], "fr", 11),
    (["Alice", "Bruno", "Chloé"], "fr", 12),
    (["Ann", "Ben", "Cat", "Dan"], "en", 13),
    (["Ana", "Beto", "Carla", "Dani", "Eva"], "es", 14),
    (["Zoé", "Yann", "Xavier", "Wendy", "Victor"], "fr", 15),
]


EVERYONE = {"fr": "tous", "en": "all", "es": "todos"}  # the answer to "the points in detail?"
RANKING = {"fr": "Classement : ", "en": "Ranking: ", "es": "Clasificación: "}


@pytest.mark.parametrize("players, lang, seed", TABLES, ids=lambda v: str(v))
def test_scripted_complete_game_ends_with_the_right_scores(tmp_path, players, lang, seed):
    expected = random_game(players, seed)
    save = tmp_path / "game.json"
    result = run_play(["play", "draftosaurus", "--engine", "text", "--lang", lang, "--players", ",".join(players),
                       "--save", str(save)], [*script_lines(expected, lang), EVERYONE[lang]], tmp_path)
    assert result.returncode == 0, result.stderr
    content = saved_state(save)
    assert content["finished"] is True
    game = Game.from_json(content["state"])
    assert game.zoos == expected.zoos
    scores = expected.score()
    spoken = final_lines(result.stdout, players, lang)
    for entry in scores.players:
        # The total is said right after the name, and again in the tactile code.
        assert spoken[entry.name].startswith(f"{entry.name} : {entry.total} " if lang == "fr"
                                             else f"{entry.name}: {entry.total} "), spoken[entry.name]
    lines = result.stdout.splitlines()
    ranking = next(index for index, line in enumerate(lines) if line.startswith(RANKING[lang]))
    for winner in scores.winner_names:  # the ranking first, then why the winner wins, then "the points in detail?"
        assert winner in lines[ranking] and winner in lines[ranking + 1]
    assert lines[ranking + 2] == catalog(lang).say("draft.ask_detail_full")


def test_final_scores_by_hand(tmp_path):
    """A short 2-player game whose zoos are checked by hand, then left unfinished and scored so far."""
    lines = ["dé croix", "Alice : T-Rex dans le roi", "Bruno : T-Rex dans la forêt",
             "dé fleur", "Alice : tricératops dans la prairie", "Bruno : T-Rex dans la forêt",
             "les scores"]
    result = run_play(["play", "draftosaurus", "--engine", "text", "--players", "Alice,Bruno",
                       "--save", str(tmp_path / "g.json")], lines, tmp_path)
    assert result.returncode == 0, result.stderr
    # Alice: King with 1 T-Rex against Bruno's 2 -> 0; prairie 1 dinosaur -> 0; T-Rex bonus 1 -> 1 point.
    # Bruno: forest of sameness with 2 -> 4; T-Rex bonus 1 -> 5 points.
    assert "Alice : 1 point pour l'instant." in result.stdout
    assert "Bruno : 5 points pour l'instant. Forêt des similaires : 4 points. Bonus T-Rex : 1 point." in result.stdout


def test_refusals_say_why_and_the_choices_left(tmp_path):
    lines = ["dé croix", "Bruno : tricératops dans la prairie des amoureux", "Bruno : tricératops dans le trio"]
    result = run_play(["play", "draftosaurus", "--engine", "text", "--players", "Alice,Bruno",
                       "--save", str(tmp_path / "g.json")], lines, tmp_path)
    out = result.stdout
    assert "Refusé. Pas dans la prairie des amoureux : le dé impose un enclos de la forêt." in out
    assert ("Pour le tricératops, Bruno peut choisir : forêt des similaires, trio des bois, roi de la jungle "
            "ou rivière.") in out
    assert "Bruno met le tricératops dans le trio des bois." in out


def test_bag_limit_is_refused_as_probably_misheard(tmp_path):
    # 3 players: the bag holds 6 of each species; the seventh T-Rex cannot exist.
    lines = []
    for _turn in range(3):
        lines += ["dé carré", "Alice : T-Rex dans la rivière", "Bruno : T-Rex dans la rivière",
                  "Chloé : stégosaure dans la rivière"]
    lines[-1] = "Chloé : T-Rex dans la rivière"
    result = run_play(["play", "draftosaurus", "--engine", "text", "--players", "Alice,Bruno,Chloé",
                       "--save", str(tmp_path / "g.json")], lines, tmp_path)
    assert "le sac n'en contient que 6, et tous sont déjà en jeu.\n" in result.stdout  # no yes/no question
    assert "Si un coup précédent a été mal compris, dis annule pour le reprendre." in result.stdout


def test_undo_and_redo(tmp_path):
    save = tmp_path / "g.json"
    lines = ["dé croix", "Alice : T-Rex dans le roi", "annule", "rétablis", "annule",
             "Alice : stégosaure dans la rivière"]
    result = run_play(["play", "draftosaurus", "--engine", "text", "--players", "Alice,Bruno",
                       "--save", str(save)], lines, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Annulé : le T-Rex d'Alice dans le roi de la jungle." in result.stdout
    assert "Rétabli : le T-Rex d'Alice dans le roi de la jungle." in result.stdout
    zoo = Game.from_json(saved_state(save)["state"]).zoos[0]
    assert zoo["king_of_the_jungle"] == [] and zoo["river"] == ["stegosaurus"]


def test_queries_answer_without_changing_the_game(tmp_path):
    save = tmp_path / "g.json"
    lines = ["dé croix", "Bruno : stégosaure dans la forêt", "le zoo de Bruno", "où va le tricératops",
             "que veut dire la fenêtre", "explique l'île", "répète", "message précédent", "aide"]
    result = run_play(["play", "draftosaurus", "--engine", "text", "--players", "Alice,Bruno",
                       "--save", str(save)], lines, tmp_path)
    out = result.stdout
    assert "Zoo de Bruno, 1 dinosaure. Forêt des similaires : un stégosaure." in out
    assert "Pour le tricératops, Alice peut choisir" in out  # Alice rolled: every pen is open to her
    assert "Côté toilettes, autocollant fenêtre." in out
    assert "Dis le dinosaure et l'enclos" in out
    game = Game.from_json(saved_state(save)["state"])
    assert len(game.actions) == 2


def test_only_my_zoo_asks_the_others_for_the_king_species(tmp_path):
    others = ["tricératops", "stégosaure", "diplodocus", "parasaurolophe", "spinosaure"]
    lines = ["dé carré", "T-Rex dans le roi"]
    for turn in range(1, 12):
        lines += ["dé carré", f"{others[turn % 5]} dans la rivière"]
    lines += ["deux", "1", "tous"]
    result = run_play(["play", "draftosaurus", "--engine", "text", "--players", "Alice,Bruno,Chloé",
                       "--only-mine", "Chloé", "--save", str(tmp_path / "g.json")], lines, tmp_path)
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert "Alice, combien de dinosaures de l'espèce T-Rex as-tu dans ton zoo, sans compter la rivière ?" in out
    assert "Bruno, combien de dinosaures de l'espèce T-Rex as-tu dans ton zoo, sans compter la rivière ?" in out
    # Chloé: 1 T-Rex in the King, Alice says 2: the King scores 0; 11 river dinosaurs; T-Rex bonus 1.
    assert "Chloé : 12 points." in out
    assert "Roi de la jungle : T-Rex, 1 dans ce zoo mais 2 chez Alice, 0 point." in out
    # the counts told are saved: the finished game, resumed, does not ask them again
    again = run_play(["resume", str(tmp_path / "g.json"), "--engine", "text"], ["tous"], tmp_path).stdout
    assert "combien de dinosaures" not in again and "Roi de la jungle : T-Rex, 1 dans ce zoo mais 2 chez Alice" in again


def test_end_of_input_saves_and_exits_0_and_resume_goes_on(tmp_path):
    """The program itself, started twice: stopped by the end of its input, then resumed to the end."""
    expected = random_game(["Alice", "Bruno", "Chloé"], 21)
    lines = script_lines(expected, "fr")
    save = tmp_path / "g.json"
    first = run_play(["play", "draftosaurus", "--engine", "text", "--players", "Alice,Bruno,Chloé",
                      "--save", str(save)], lines[:17], tmp_path, process=True)
    assert first.returncode == 0 and "Partie enregistrée" in first.stdout
    second = run_play(["resume", str(save), "--engine", "text"], lines[17:], tmp_path, process=True)
    assert second.returncode == 0, second.stderr
    assert second.stdout.startswith("Reprise de la partie : manche 1 sur 2, tour 5.")
    assert Game.from_json(saved_state(save)["state"]).zoos == expected.zoos


KILLED_TABLE = ["Alice", "Bruno", "Chloé", "Dan"]
RANDOM_KILLS = 30


def _start(command: list[str], home, until: str = "") -> subprocess.Popen:
    """The program started with `command`, once it has said its first sentence (however loaded the machine is),
    or the first that holds `until`."""
    process = subprocess.Popen([sys.executable, "-m", "companion", *command], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True, env=dict(os.environ, COMPANION_HOME=str(home)))
    while until not in process.stdout.readline():
        pass
    return process


def _type(process: subprocess.Popen, lines: list[str]) -> None:
    process.stdin.write("\n".join(lines) + "\n")
    process.stdin.flush()


def _kill(process: subprocess.Popen) -> None:
    process.send_signal(signal.SIGKILL)
    process.wait()
    process.stdout.close()
    process.stdin.close()


def _saved_moves(save) -> list[dict]:
    """The moves of the save file, which is never half-written: always a valid document."""
    return [a.to_json() for a in Game.from_json(saved_state(save)["state"]).actions]


def _leftovers(folder) -> list[str]:
    return sorted(name for name in os.listdir(folder) if name.endswith(".tmp"))


def test_killed_before_during_and_after_a_save_loses_no_accepted_move(tmp_path):
    """SIGKILL at chosen moments: before the first save, while a save is being written (its temporary file is
    there), and just after a save; each time the save holds exactly a prefix of the moves typed, and resume goes
    on from it to the end of the game."""
    expected = random_game(KILLED_TABLE, 33)
    lines = script_lines(expected, "fr")
    moves = [a.to_json() for a in expected.actions if not isinstance(a, Discard)]
    save = tmp_path / "g.json"
    start = ["play", "draftosaurus", "--engine", "text", "--players", ",".join(KILLED_TABLE), "--save", str(save)]
    resume = ["resume", str(save), "--engine", "text"]

    # Before the first move's save: killed at the first question, the save holds the table and no move.
    _kill(_start(start, tmp_path, until="lance le dé"))
    assert _saved_moves(save) == [] and not _leftovers(tmp_path)

    # Just after a save: resumed, the die and the first placement typed, killed once both are on disk.
    process = _start(resume, tmp_path)
    _type(process, lines[:2])
    deadline = time.monotonic() + 60
    while len(_saved_moves(save)) < 2 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    _kill(process)
    assert _saved_moves(save) == moves[:2]

    # During a save: killed as soon as the temporary file of a save appears, before it replaces the last save.
    caught = 0
    for _attempt in range(10):
        done = len(_saved_moves(save))
        process = _start(resume, tmp_path)
        _type(process, lines[done:done + 6])
        deadline = time.monotonic() + 5  # six moves take a small part of this: past it, all were saved
        while not _leftovers(tmp_path) and process.poll() is None and time.monotonic() < deadline:
            pass
        _kill(process)
        saved = _saved_moves(save)
        assert saved == moves[:len(saved)] and done <= len(saved) <= done + 6
        caught += bool(_leftovers(tmp_path))
        if caught:
            break
    assert caught, "no kill fell while a save was written in 10 tries"

    # Resumed to the end: every move typed once more from where the save stood, the cut write's file removed.
    final = run_play(resume, lines[len(_saved_moves(save)):], tmp_path, process=True)
    assert final.returncode == 0, final.stderr
    assert final.stdout.startswith("Reprise de la partie")
    game = Game.from_json(saved_state(save)["state"])
    assert game.phase == "over" and game.zoos == expected.zoos
    assert not _leftovers(tmp_path)


@pytest.mark.slow
def test_killed_at_random_moments_loses_no_accepted_move(tmp_path):
    expected = random_game(KILLED_TABLE, 33)
    lines = script_lines(expected, "fr")
    moves = [a.to_json() for a in expected.actions if not isinstance(a, Discard)]
    save = tmp_path / "g.json"
    chooser = random.Random(5)
    start = ["play", "draftosaurus", "--engine", "text", "--players", ",".join(KILLED_TABLE), "--save", str(save)]
    kills = 0
    while kills < RANDOM_KILLS:  # a quiet machine plays the 60 moves in about 20 kills; a busy one gets less far
        done = len(_saved_moves(save)) if save.exists() else 0
        if done >= len(moves):
            break
        process = _start(["resume", str(save), "--engine", "text"] if save.exists() else start, tmp_path)
        # Type a few lines, then kill the process at a random moment while it works.
        _type(process, lines[done:done + chooser.randint(1, 6)])
        time.sleep(chooser.uniform(0.0, 0.6))
        _kill(process)
        kills += 1
        if not save.exists():  # killed before the game was first saved
            continue
        saved = _saved_moves(save)
        assert saved == moves[:len(saved)]
    assert kills >= 3
    rest = run_play(["resume", str(save), "--engine", "text"], lines[len(_saved_moves(save)):], tmp_path,
                    process=True)
    assert rest.returncode == 0, rest.stderr
    final = Game.from_json(saved_state(save)["state"])
    assert final.phase == "over" and final.zoos == expected.zoos


def test_corrupt_or_foreign_save_is_refused_and_left_untouched(tmp_path):
    damaged = tmp_path / "damaged.json"
    damaged.write_text('{"kind": "companion-save", "version": 1, "game": "draftos')
    foreign = tmp_path / "foreign.json"
    foreign.write_text(json.dumps({"players": ["x"]}))
    for path in (damaged, foreign):
        before = path.read_bytes()
        result = run_play(["resume", str(path), "--engine", "text"], [], tmp_path)
        assert result.returncode == 2
        assert len(result.stderr.strip().splitlines()) == 1 and str(path) in result.stderr
        play = run_play(["play", "draftosaurus", "--engine", "text", "--players", "A,B", "--save", str(path)],
                        [], tmp_path)
        assert play.returncode == 2
        assert path.read_bytes() == before


def test_a_save_whose_moves_break_the_rules_is_refused(tmp_path):
    game = Game.new(["Alice", "Bruno"], seed=1)
    game.apply(Roll("forest"))
    state = game.to_json()
    state["actions"].append({"type": "place", "player": 1, "species": "trex", "pen": "prairie_of_love"})
    path = tmp_path / "g.json"
    write_save(path, "draftosaurus", {"settings": {}, "finished": False, "state": state})
    result = run_play(["resume", str(path), "--engine", "text"], [], tmp_path)
    assert result.returncode == 2
    assert "abîmé" in result.stdout


def test_unfinished_game_is_not_replaced_without_new(tmp_path):
    save = tmp_path / "g.json"
    run_play(["play", "draftosaurus", "--engine", "text", "--players", "A,B", "--save", str(save)], ["dé croix"],
             tmp_path)
    again = run_play(["play", "draftosaurus", "--engine", "text", "--players", "C,D", "--save", str(save)], [],
                     tmp_path)
    assert again.returncode == 2 and "companion resume" in again.stderr
    replaced = run_play(["play", "draftosaurus", "--engine", "text", "--players", "C,D", "--save", str(save),
                         "--new"], [], tmp_path)
    assert replaced.returncode == 0
    assert Game.from_json(saved_state(save)["state"]).players == ("C", "D")


def test_set_up_by_questions(tmp_path):
    save = tmp_path / "g.json"
    lines = ["on est trois", "Zoé", "Max", "Léa", "oui", "Max", "non", "six", "oui", "non", "oui", "oui", "dé croix"]
    result = run_play(["play", "draftosaurus", "--engine", "text", "--save", str(save)], lines, tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Nouvelle partie de Draftosaurus à 3 joueurs : Zoé, Max et Léa." in out
    assert ("le trio des bois vaut 6 points ; la rivière compte pour l'île du solitaire, mais pas pour le roi de la "
            "jungle.") in out
    assert "Max, lance le dé : quelle face ?" in out
    setup = saved_state(save)["state"]["setup"]
    assert setup["players"] == ["Zoé", "Max", "Léa"] and setup["first_roller"] == 1
    assert setup["options"] == {"trio_points": 6, "river_counts_for_island": True, "river_counts_for_king": False}
    assert saved_state(save)["seats"]["advice"] is True  # the table said yes to advice


def test_set_up_refuses_a_bad_count_and_a_taken_name(tmp_path):
    lines = ["sept", "deux", "Zoé", "zoé", "Max", "oui", "Zoé", "oui", "oui", "non"]
    result = run_play(["play", "draftosaurus", "--engine", "text", "--save", str(tmp_path / "g.json")], lines,
                      tmp_path)
    assert "Il faut entre deux et cinq joueurs." in result.stdout
    assert "Le nom zoé est déjà pris. Un autre nom ?" in result.stdout
    assert "Nouvelle partie de Draftosaurus à 2 joueurs : Zoé et Max." in result.stdout


def test_virtual_die_is_seeded(tmp_path):
    runs = []
    for attempt in range(2):
        result = run_play(["play", "draftosaurus", "--engine", "text", "--die", "virtual", "--seed", "4",
                           "--players", "A,B", "--save", str(tmp_path / f"g{attempt}.json")], [], tmp_path)
        runs.append([line for line in result.stdout.splitlines() if line.startswith("Dé :")])
    assert runs[0] and runs[0] == runs[1]


def test_a_save_with_a_malformed_state_is_reported_as_damaged(tmp_path):
    path = tmp_path / "g.json"
    write_save(path, "draftosaurus", {"settings": {}, "finished": False, "state": {"game": "draftosaurus"}})
    result = run_play(["resume", str(path), "--engine", "text"], [], tmp_path)
    assert result.returncode == 2
    assert "abîmé" in result.stdout
    assert len(result.stderr.strip().splitlines()) == 1 and str(path) in result.stderr
