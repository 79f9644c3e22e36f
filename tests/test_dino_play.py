"""`companion play dino --engine text`: whole games typed on standard input, set-up by voice, the questions
the board data cannot answer, refusals with their reasons, queries, undo, and resuming a saved game."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from companion.games.dino.actions import Meteor, Move, Penalty
from companion.games.dino.engine import OVER, Game
from companion.games.dino.ids import DEFAULT_EGGS_RULE
from companion.games.dino.simulate import pick_action, random_setup
from companion.language.messages import catalog
from tests.conftest import run_play, saved_state

# How a table types each kind of line, per language.
LINES = {
    "fr": {"yes": "oui", "no": "non", "barrier": "entre {first} et {second}", "meteor": "tout pour la météorite",
           "move": "mon pion {colour} numéro {number} avance de {steps} jusqu'en {square}",
           "egg": " et je prends un œuf {egg}",
           "exit": "mon pion {colour} numéro {number} rentre en {square} en {steps}",
           "points": "{points} points", "stones": "{stones} pierres"},
    "en": {"yes": "yes", "no": "no", "barrier": "between {first} and {second}", "meteor": "all four to the meteor",
           "move": "my {colour} pawn number {number} moves {steps} to {square}", "egg": " and I take a {egg} egg",
           "exit": "my {colour} pawn number {number} goes home at {square} in {steps}",
           "points": "{points} points", "stones": "{stones} stones"},
    "es": {"yes": "sí", "no": "no", "barrier": "entre {first} y {second}", "meteor": "todo para el meteorito",
           "move": "mi peón {colour} número {number} avanza {steps} hasta {square}", "egg": " y cojo un huevo {egg}",
           "exit": "mi peón {colour} número {number} vuelve por {square} en {steps}",
           "points": "{points} puntos", "stones": "{stones} piedras"},
}


def random_game(players: int, seed: int, **options) -> Game:
    """A complete legal game where the first player listed starts (as with --players)."""
    setup = dataclasses.replace(random_setup(players, seed, **options), first_player=0)
    game = Game.new(setup)
    chooser = __import__("random").Random(seed)
    while game.phase != OVER:
        game.apply(pick_action(game, chooser))
    return game


def setup_lines(game: Game, lang: str) -> list[str]:
    """Answers to the set-up questions that lead to this game's setup (names come from --players)."""
    words, setup = LINES[lang], game.setup
    lines = [words["yes"], words["no"]]  # the proposed colours; no random layout: we dictate it
    lines += [setup.nests[colour] for colour in setup.board.egg_colours]
    for index, (first, second) in enumerate(setup.barriers):
        if index >= 3:
            lines.append(words["yes"])
        lines.append(words["barrier"].format(first=first, second=second))
    if len(setup.barriers) < 5:
        lines.append(words["no"])
    if setup.eggs_rule == DEFAULT_EGGS_RULE and setup.meteor_stones is None and not setup.own_colour_exits:
        return [*lines, words["yes"]]
    lines += [words["no"], str(setup.eggs_per_nest), words["stones"].format(stones=game.meteor_total)]
    if len(setup.players) <= 3:
        lines.append(words["yes"] if setup.own_colour_exits else words["no"])
    return lines


def play_lines(game: Game, lang: str) -> list[str]:
    """What the table types for the game's turns, and the answers to the questions the program asks."""
    words, names = LINES[lang], catalog(lang)
    replica = Game.new(game.setup)
    lines = []
    for action in game.actions:
        if isinstance(action, Penalty):
            continue
        if isinstance(action, Meteor):
            if not replica.must_feed_meteor(action.player):
                lines.append(words["meteor"])
        else:
            assert isinstance(action, Move)
            fields = {"colour": names.name("colours", game.colours[action.player]), "number": action.pawn + 1,
                      "steps": action.steps, "square": action.square}
            line = words["exit" if action.exit else "move"].format(**fields)
            if action.egg is not None:
                line += words["egg"].format(egg=names.name("colours", action.egg))
            lines.append(line)
            if (not action.exit and action.egg is None
                    and replica.egg_choices(action.player, action.pawn, action.square)):
                lines.append(words["no"])
        replica.apply(action)
    # After the fall the program asks for each pawn left on the board, player by player.
    lines += [words["points"].format(points=points) for _key, points in sorted(game.penalties().items())]
    return lines


def play(tmp_path: Path, players: list[str], lines: list[str], lang: str = "fr", save: str = "g.json", *extra: str,
         process: bool = False):
    return run_play(["play", "dino", "--engine", "text", "--lang", lang, "--players", ",".join(players),
                     "--save", str(tmp_path / save), "--seed", "1", *extra], lines, tmp_path, process=process)


TABLES = [(2, "fr", 21, {}), (3, "en", 22, {"own_colour_exits": True}), (4, "es", 23, {"eggs_rule": "players"}),
          (5, "fr", 24, {"meteor_stones": 40}), (6, "en", 25, {})]


@pytest.mark.parametrize("players, lang, seed, options", TABLES, ids=lambda v: str(v))
def test_scripted_complete_game_ends_with_the_right_scores(tmp_path, players, lang, seed, options):
    expected = random_game(players, seed, **options)
    lines = setup_lines(expected, lang) + play_lines(expected, lang)
    result = play(tmp_path, list(expected.players), lines, lang)
    assert result.returncode == 0, result.stderr
    content = saved_state(tmp_path / "g.json")
    assert content["finished"] is True
    game = Game.from_json(content["state"])
    assert game.snapshot() == expected.snapshot()
    assert game.score() == expected.score()
    separator = " : " if lang == "fr" else ": "
    for entry in expected.score().players:
        assert f"{entry.name}{separator}{entry.total} " in result.stdout, entry.name
    lines = result.stdout.strip().splitlines()
    verdict = lines[lines.index(catalog(lang).say("session.after_end")) - 2]  # then the ranking, then the last question
    assert all(expected.players[i] in verdict for i in expected.score().winners), verdict


SETUP = ["oui", "non", "B2", "C5", "D3", "E2", "B5", "D5", "entre C3 et C4", "entre D4 et D5", "entre B2 et C2", "non",
         "oui"]


def test_questions_refusals_and_eggs_by_hand(tmp_path):
    lines = [
        *SETUP,
        "mon pion rouge avance de deux jusqu'en C1",  # which pawn? then: too far
        "celui en A1",
        "mon pion rouge va en B2",  # which pawn, then how many spaces
        "le premier", "trois cases",
        "oui",  # the red nest is in B2: take an egg
        "mon pion jaune numéro 1 avance de trois jusqu'en B2",  # taken square
        "mon pion jaune numéro 1 avance de quatre jusqu'en B3",
        "mon pion rouge numéro 1 avance de 1 jusqu'en B2 et je prends un œuf rouge",  # same visit
        "mes œufs", "combien d'œufs dans le nid rouge", "qui est en B3", "où est la météorite",
        "combien de cases jusqu'en D3", "où sont les barrages",
    ]
    result = play(tmp_path, ["Ana", "Bruno"], lines)
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert ("Quel pion rouge : le premier, qui attend à la machine de A1, ou le second, qui attend à la machine de F6 ?"
            in out)
    assert "Refusé. C1 est à 3 emplacements au moins : 2 ne suffisent pas." in out
    assert "Combien d'emplacements jusqu'en B2 ? Au moins 3. Je te fais confiance pour le chemin." in out
    assert "Il y a un œuf rouge à prendre en B2. Le prends-tu ? Oui ou non." in out
    assert "Ana : pion rouge en B2, 3 emplacements." in out
    assert "Ana prend un œuf rouge, à garder en vue. 2 œufs restent dans ce nid." in out
    assert "La météorite avance : 1 pierre ; 27 pierres avant sa chute." in out
    assert "Refusé. B2 est déjà occupé par le pion rouge d'Ana" in out
    assert "Refusé. Ce pion a déjà pris un œuf au nid rouge : il doit quitter B2 avant d'en reprendre un." in out
    assert "Ana a 1 œuf : 1 rouge. Œuf visible : rouge." in out
    assert "Nid rouge en B2 : 2 œufs." in out
    assert "Bruno, pion jaune numéro 1 : en B3." in out
    assert "Course de la météorite : 1 pierre parcourue sur 28, encore 27 pierres avant sa chute." in out
    assert "Pion rouge en B2 : au moins 3 emplacements jusqu'en D3." in out  # B2|C2 is closed: by B3, C3
    assert "3 dinosaures en barrage : entre C3 et C4, entre D4 et D5 et entre B2 et C2." in out
    game = Game.from_json(saved_state(tmp_path / "g.json")["state"])
    assert game.eggs(0) == ["red"] and game.current_player == 0 and game.meteor_left == 27


def test_going_home_asked_piece_by_piece(tmp_path):
    lines = [*SETUP, "mon pion rouge numéro 1 avance de 2 jusqu'en B1", "tout pour la météorite",
             "mon pion rouge numéro 1 rentre", "A1", "2",
             "tout pour la météorite", "où est mon pion rouge"]
    out = play(tmp_path, ["Ana", "Bruno"], lines).stdout
    assert "Par la machine de quel carré rentre le pion rouge ?" in out
    assert "Combien d'emplacements jusqu'en A1 ? Au moins 2." in out
    assert "Ana : pion rouge rentré dans le présent par la machine de A1, 2 emplacements. Il quitte le plateau." in out
    assert "Ana, pion rouge numéro 1 : rentré par A1. Ana, pion rouge numéro 2 : à sa machine, au bord de F6." in out
    game = Game.from_json(saved_state(tmp_path / "g.json")["state"])
    assert game.actions[2] == Move(0, 0, 2, "A1", exit=True) and game.in_play(0) == [1]


def test_out_of_turn_and_undo_during_a_question(tmp_path):
    lines = [
        *SETUP,
        "Bruno : tout pour la météorite",  # not Bruno's turn
        "mon pion rouge va en B1",
        "annule",  # during the question: the move is dropped, nothing is undone
        "tout pour la météorite",
        "annule",  # undoes Ana's meteor turn
        "rétablis",
    ]
    out = play(tmp_path, ["Ana", "Bruno"], lines).stdout
    assert "Refusé. Bruno : ce n'est pas ton tour. C'est à Ana." in out
    assert "D'accord, j'oublie « mon pion rouge va en B1 »." in out
    assert "Annulé : les quatre points d'Ana à la météorite." in out
    assert "Rétabli : les quatre points d'Ana à la météorite." in out
    game = Game.from_json(saved_state(tmp_path / "g.json")["state"])
    assert game.actions == [Meteor(0)]


def test_fall_penalties_and_final_scores(tmp_path):
    lines = [*SETUP[:-1], "non", "3", "8 pierres", "non",  # 3 eggs per nest, 8 stones, every machine
             "mon pion rouge numéro 1 avance de 3 jusqu'en B2 et je prends un œuf rouge",
             "tout pour la météorite", "mon pion rouge numéro 1 avance de 1 jusqu'en B3",
             "1 point",  # too low: B3 is at least two points from a machine
             "2 points"]
    result = play(tmp_path, ["Ana", "Bruno"], lines)
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert "La météorite est tombée : la partie s'arrête." in out
    assert "1 pion est resté sur le plateau" in out
    assert ("Le pion rouge d'Ana est resté en B3. Combien de points lui faudrait-il pour rejoindre une machine ? "
            "Au moins 2.") in out
    assert "Refusé. Depuis B3, il faut au moins 2 points pour rejoindre une machine, pas 1." in out
    assert "Ana : 4 points. 1 œuf, 1 point ; 1 couleur, 5 points ; 2 points de pénalité." in out
    assert "Bruno : 0 point. Aucun œuf, 0 point ; aucune couleur, 0 point ; aucune pénalité." in out
    lines = out.strip().splitlines()
    end = lines.index("Ana gagne avec 4 points.")
    assert lines[end + 1] == "Classement : 1. Ana avec 4 points et 2. Bruno avec 0 point."
    assert saved_state(tmp_path / "g.json")["finished"] is True


@pytest.mark.parametrize("lang", ["fr", "en", "es"])
def test_the_example_of_a_blocking_dinosaur_is_a_place_still_free(tmp_path, lang):
    """Once a blocking dinosaur stands between B3 and C3, the question and its help give another place as their
    example, one a blocking dinosaur may take."""
    lines = SHARED_NEST_SETUP[lang]
    help_word = {"fr": "aide", "en": "help", "es": "ayuda"}[lang]
    result = play(tmp_path, ["Ana", "Bruno"], [*lines[:9], help_word, *lines[9:]], lang)
    assert result.returncode == 0, result.stderr
    words = catalog(lang)
    out = result.stdout
    assert words.say("dino.setup.ask_barrier", number=1, first="B3", second="C3") in out
    second = words.say("dino.setup.ask_barrier", number=2, first="B1", second="C1")
    assert second in out and words.say("dino.setup.help_barrier", first="B1", second="C1") in out
    assert words.say("dino.setup.ask_barrier", number=2, first="B3", second="C3") not in out


def test_once_the_meteor_has_fallen_its_state_says_so_and_a_resumed_game_too(tmp_path):
    """"0 pierre avant sa chute" after the fall: it says the meteor fell and the count is under way."""
    lines = [*SETUP[:-1], "non", "3", "8 pierres", "non",
             "mon pion rouge numéro 1 avance de 3 jusqu'en B2 et je prends un œuf rouge",
             "tout pour la météorite", "mon pion rouge numéro 1 avance de 1 jusqu'en B3", "la météorite"]
    fallen = ("La météorite est tombée, au bout de 8 pierres : plus de déplacement ; il reste à compter les pions "
              "encore sur le plateau.")
    out = play(tmp_path, ["Ana", "Bruno"], lines).stdout
    assert fallen in out and "avant sa chute" not in out.split("La météorite est tombée")[-1]
    resumed = run_play(["resume", str(tmp_path / "g.json"), "--engine", "text"], ["2 points"], tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert fallen in resumed.stdout and "Ana gagne avec 4 points." in resumed.stdout
    over = run_play(["resume", str(tmp_path / "g.json"), "--engine", "text"], ["la météorite"], tmp_path).stdout
    assert "La météorite est tombée, au bout de 8 pierres." in over and fallen not in over  # counted: the game over


def test_set_up_by_voice_refuses_what_the_rules_forbid(tmp_path):
    lines = ["sept", "trois",  # 7 players refused
             "Ana", "Bruno", "Chloé", "oui", "Bruno",  # the names read back; the oldest starts
             "non", "je prends le bleu", "rouge", "rouge", "vert",  # red is taken once
             "oui"]  # a random layout
    lines += ["non", "5", "2", "69", "30 pierres", "oui"]  # options: 2 eggs, 30 stones, own-colour exits
    lines += ["tout pour la météorite", "qui est où"]
    result = run_play(["play", "dino", "--engine", "text", "--save", str(tmp_path / "g.json"), "--seed", "5"],
                      lines, tmp_path)
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert "Dino se joue de deux à six joueurs." in out
    assert "Refusé. Le rouge est déjà pris par Bruno. Au choix : jaune, vert, orange et violet." in out
    assert "Choisis parmi 4, 3 ou 2." in out
    assert "Refusé. La course de la météorite compte de 1 à 38 pierres sur ce plateau, pas 69." in out
    assert "Bruno commence" in out
    game = Game.from_json(saved_state(tmp_path / "g.json")["state"])
    setup = game.setup
    assert setup.players == ("Ana", "Bruno", "Chloé") and setup.colours == ("blue", "red", "green")
    assert setup.first_player == 1 and setup.eggs_per_nest == 2 and setup.meteor_stones == 30
    assert setup.own_colour_exits and 3 <= len(setup.barriers) <= 5
    assert game.actions == [Meteor(1)]


def test_dictated_layout_refusals(tmp_path):
    lines = ["oui", "non", "A3", "nid rouge en B2", "nid vert en C5", "C5", "D3", "E2", "B5", "D5",
             "entre A3 et B3", "entre B3 et C4", "entre C3 et C4", "entre C4 et C3", "entre D4 et D5", "entre B2 et C2",
             "oui", "entre E4 et E5", "non", "oui", "les barrages"]
    out = play(tmp_path, ["Ana", "Bruno"], lines).stdout
    assert "Refusé. Pas de nid en A3 : ce carré porte une position de départ." in out
    assert "Refusé. J'attends l'emplacement du nid jaune." in out
    assert ("Refusé. Pas de barrage entre A3 et B3 : l'accès à A3, qui porte une position de départ, "
            "doit rester libre.") in out
    assert "Refusé. B3 et C4 ne se touchent pas par un côté" in out
    assert "Refusé. Il y a déjà un dinosaure entre C3 et C4." in out
    assert "4 dinosaures en barrage : entre C3 et C4, entre D4 et D5, entre B2 et C2 et entre E4 et E5." in out


def test_resume_goes_on_where_the_save_stood(tmp_path):
    """The program itself, started twice: a game of Dino stopped by the end of its input, then resumed."""
    expected = random_game(2, 31)
    lines = setup_lines(expected, "fr") + play_lines(expected, "fr")
    cut = len(setup_lines(expected, "fr")) + 6
    first = play(tmp_path, list(expected.players), lines[:cut], process=True)
    assert first.returncode == 0 and f"Pour continuer, tape : companion resume {tmp_path / 'g.json'}." in first.stdout
    partial = Game.from_json(saved_state(tmp_path / "g.json")["state"])
    assert 0 < len(partial.actions) < len(expected.actions)
    second = run_play(["resume", str(tmp_path / "g.json"), "--engine", "text"], lines[cut:], tmp_path, process=True)
    assert second.returncode == 0, second.stderr
    assert "Reprise de la partie de Dino" in second.stdout
    assert Game.from_json(saved_state(tmp_path / "g.json")["state"]).snapshot() == expected.snapshot()


def test_damaged_save_is_refused_without_a_traceback(tmp_path):
    play(tmp_path, ["Ana", "Bruno"], [*SETUP, "tout pour la météorite"])
    path = tmp_path / "g.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    document["content"]["state"]["actions"].append({"type": "meteor", "player": 0})  # not Ana's turn any more
    from companion.dialogue.savefile import write_save
    write_save(path, "dino", document["content"])
    result = run_play(["resume", str(path), "--engine", "text"], [], tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr + result.stdout
    assert "abîmé" in result.stdout + result.stderr


def test_the_table_plays_on_its_own_board_file(tmp_path):
    """--board takes the table's own description of its board, and a faulty one is refused in one line."""
    board = (Path(__file__).parent.parent / "companion/games/dino/boards/default.yaml").read_text(encoding="utf-8")
    edited = tmp_path / "our_board.yaml"
    edited.write_text(board.replace("red", "white"), encoding="utf-8")
    save = tmp_path / "g.json"
    result = run_play(["play", "dino", "--engine", "text", "--players", "Ana,Ben", "--board", str(edited),
                       "--save", str(save)], ["oui"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Ana en blanc" in result.stdout
    broken = tmp_path / "broken.yaml"
    broken.write_text(board.replace("pawn_colours: [red", "pawn_colours: [white"), encoding="utf-8")
    refused = run_play(["play", "dino", "--engine", "text", "--players", "Ana,Ben", "--board", str(broken),
                        "--save", str(tmp_path / "h.json")], [], tmp_path)
    assert refused.returncode == 2 and "white" in refused.stderr and len(refused.stderr.strip().splitlines()) == 1


# Two nests share B2 (red and yellow); the orange nest is in E5.
SHARED_NEST_SETUP = {
    "fr": ["oui", "non", "B2", "B2", "C3", "D4", "E5", "C5", "entre B3 et C3", "entre C4 et D4", "entre D2 et E2",
           "non", "oui"],
    "en": ["yes", "no", "B2", "B2", "C3", "D4", "E5", "C5", "between B3 and C3", "between C4 and D4",
           "between D2 and E2", "no", "yes"],
    "es": ["sí", "no", "B2", "B2", "C3", "D4", "E5", "C5", "entre B3 y C3", "entre C4 y D4", "entre D2 y E2", "no",
           "sí"],
}
SHARED_NEST_TURNS = {  # Ana's red pawn ends on B2; a yes says no colour; orange has no nest there; then yellow
    "fr": ["mon pion rouge numéro 1 avance de trois jusqu'en B2", "aide", "oui", "orange", "jaune",
           "mon pion jaune numéro 2 avance de deux jusqu'en E5", "oui"],
    "en": ["my red pawn number 1 moves three to B2", "help", "yes", "orange", "yellow",
           "my yellow pawn number 2 moves two to E5", "yes"],
    "es": ["mi peón rojo número 1 avanza tres hasta B2", "ayuda", "sí", "naranja", "amarillo",
           "mi peón amarillo número 2 avanza dos hasta E5", "sí"],
}
SHARED_NEST_SAID = {
    "fr": ["2 nids en B2 : rouge ou jaune. Quel œuf prends-tu ? Dis la couleur, ou non.",
           "Dis la couleur de l'œuf que tu prends, rouge ou jaune, par exemple : je prends un œuf rouge. Ou dis non.",
           "Quel œuf : rouge ou jaune ? Ou non.", "Ana prend un œuf jaune, à garder en vue.",
           "Il y a un œuf orange à prendre en E5. Le prends-tu ? Oui ou non.", "Bruno prend un œuf orange"],
    "en": ["2 nests on B2: red or yellow. Which egg do you take? Say the colour, or no.",
           "Say the colour of the egg you take, red or yellow, for example: I take a red egg. Or say no.",
           "Which egg: red or yellow? Or no.", "Ana takes a yellow egg, to keep on show.",
           "There is an orange egg to take on E5. Do you take it? Yes or no.", "Bruno takes an orange egg"],
    "es": ["2 nidos en B2: rojo o amarillo. ¿Qué huevo tomas? Di el color, o no.",
           "Di el color del huevo que tomas, rojo o amarillo, por ejemplo: tomo un huevo rojo. O di no.",
           "¿Qué huevo: rojo o amarillo? O no.", "Ana toma un huevo amarillo, que debe quedar a la vista.",
           "Hay un huevo naranja para tomar en E5. ¿Lo tomas? Sí o no.", "Bruno toma un huevo naranja"],
}


@pytest.mark.parametrize("lang, yes, undo, no", [("fr", "oui", "annule", "non"), ("en", "yes", "undo", "no"),
                                                ("es", "sí", "deshacer", "no")])
def test_undo_at_a_barrier_one_more_takes_back_the_yes_and_asks_again(tmp_path, lang, yes, undo, no):
    """Three blocking dinosaurs placed, a yes to one more, then "undo" at its question: the yes is taken back and
    "one more?" asked again (a no then ends the barriers), where it went on to the rules without a word."""
    lines = SHARED_NEST_SETUP[lang]
    result = play(tmp_path, ["Ana", "Bruno"], [*lines[:11], yes, undo, no, yes], lang)
    assert result.returncode == 0, result.stderr
    words = catalog(lang)
    more = words.say("dino.setup.ask_more_barriers", count=3)
    def asked(number: int) -> list[int]:  # where the question for that blocking dinosaur was asked
        head = words.say("dino.setup.ask_barrier", number=number, first="@", second="@").split("@")[0]
        return [index for index, line in enumerate(said) if line.startswith(head)]

    said = [line for line in result.stdout.splitlines() if line.strip()]
    (at,) = asked(4)
    assert said[at - 1] == more and said[at + 1:at + 3] == [words.say("setup.going_back"), more]
    assert not asked(5)
    game = Game.from_json(saved_state(tmp_path / "g.json")["state"])
    assert len(game.setup.barriers) == 3


@pytest.mark.parametrize("lang", ["fr", "en", "es"])
def test_two_nests_on_one_square_ask_which_egg_by_its_colour(tmp_path, lang):
    """Where two nests share the square a move ends on, the question names both and takes a colour or no (a
    yes alone, or a colour of no nest there, asks again); the help's example is an egg there is."""
    result = play(tmp_path, ["Ana", "Bruno"], SHARED_NEST_SETUP[lang] + SHARED_NEST_TURNS[lang], lang)
    out = result.stdout
    assert result.returncode == 0, result.stderr
    said = SHARED_NEST_SAID[lang]
    assert said[0] in out and said[1] in out and out.count(said[2]) == 2
    for sentence in said[3:]:
        assert sentence in out
    game = Game.from_json(saved_state(tmp_path / "g.json")["state"])
    assert game.eggs(0) == ["yellow"] and game.eggs(1) == ["orange"]


# A move said at the egg question instead of its answer (on the board of SHARED_NEST_SETUP): Bruno's meteor out of
# turn is refused and Ana's move still waits on its question; Bruno's move to E5 is set aside for another move; Ana's
# move said again with its egg answers the question.
EGG_QUESTION_TURNS = {
    "fr": ["mon pion rouge numéro 1 avance de trois jusqu'en B2", "Bruno : tout pour la météorite", "jaune",
           "mon pion jaune numéro 2 avance de deux jusqu'en E5", "mon pion jaune numéro 1 avance de deux jusqu'en A3",
           "mon pion rouge numéro 2 avance de trois jusqu'en E5",
           "mon pion rouge numéro 2 avance de trois jusqu'en E5 et je prends un œuf orange"],
    "en": ["my red pawn number 1 moves three to B2", "Bruno: all four to the meteor", "yellow",
           "my yellow pawn number 2 moves two to E5", "my yellow pawn number 1 moves two to A3",
           "my red pawn number 2 moves three to E5", "my red pawn number 2 moves three to E5 and I take an orange egg"],
    "es": ["mi peón rojo número 1 avanza tres hasta B2", "Bruno: todo para el meteorito", "amarillo",
           "mi peón amarillo número 2 avanza dos hasta E5", "mi peón amarillo número 1 avanza dos hasta A3",
           "mi peón rojo número 2 avanza tres hasta E5",
           "mi peón rojo número 2 avanza tres hasta E5 y cojo un huevo naranja"],
}
EGG_QUESTION_SAID = {  # the refusal, then the question again; the move set aside, then the one played instead
    "fr": ["Refusé. Bruno : ce n'est pas ton tour. C'est à Ana.\nQuel œuf : rouge ou jaune ? Ou non.",
           "Il y a un œuf orange à prendre en E5. Le prends-tu ? Oui ou non.\n"
           "D'accord, je laisse de côté ce déplacement, sans le jouer : le pion jaune de Bruno en E5.\n"
           "Bruno : pion jaune en A3, 2 emplacements.", "je laisse de côté"],
    "en": ["Refused. It is not Bruno's turn but Ana's.\nWhich egg: red or yellow? Or no.",
           "There is an orange egg to take on E5. Do you take it? Yes or no.\n"
           "All right, I set that move aside without playing it: Bruno's yellow pawn to E5.\n"
           "Bruno's yellow pawn to A3, 2 spaces.", "set that move aside"],
    "es": ["Rechazado. Bruno, no es tu turno: le toca a Ana.\n¿Qué huevo: rojo o amarillo? O no.",
           "Hay un huevo naranja para tomar en E5. ¿Lo tomas? Sí o no.\n"
           "De acuerdo, dejo de lado ese movimiento sin jugarlo: el peón amarillo de Bruno a E5.\n"
           "Peón amarillo de Bruno a A3, 2 espacios.", "dejo de lado"],
}


@pytest.mark.parametrize("lang", ["fr", "en", "es"])
def test_a_move_said_at_the_egg_question_is_refused_or_sets_the_waiting_move_aside_aloud(tmp_path, lang):
    """A move said instead of answering the egg question never drops the move waiting without a word: one the
    table refuses is refused and the question is asked again (the waiting move is then played with its egg);
    one it takes is played and the move waiting is said to be set aside; the same move said with its egg answers."""
    result = play(tmp_path, ["Ana", "Bruno"], SHARED_NEST_SETUP[lang] + EGG_QUESTION_TURNS[lang], lang)
    out = result.stdout
    assert result.returncode == 0, result.stderr
    refused, set_aside, words = EGG_QUESTION_SAID[lang]
    assert refused in out and set_aside in out
    assert out.count(words) == 1  # not when Ana says her move again with its egg
    game = Game.from_json(saved_state(tmp_path / "g.json")["state"])
    assert game.actions == [Move(0, 0, 3, "B2", egg="yellow"), Move(1, 0, 2, "A3"), Move(0, 1, 3, "E5", egg="orange")]


@pytest.mark.parametrize("lang, missing, board", [
    ("fr", ("dessin", "manque"), "Mon plateau, d'après son fichier de plateau : carrés A1 à F6"),
    ("en", ("picture", "missing"), "My board, from its board file: squares A1 to F6"),
    ("es", ("dibujo", "falta"), "Mi tablero, según su archivo de tablero: cuadrados de A1 a F6"),
])
def test_the_setup_says_what_the_board_data_assumes_not_that_a_picture_is_missing(tmp_path, lang, missing, board):
    result = play(tmp_path, ["Ana", "Bruno"], SHARED_NEST_SETUP[lang], lang)
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert not any(word in out for word in missing)
    assert board in out and "--board" in out


TURN_HELP = {"fr": ("aide", r"par exemple : (.+?)\. Ou : tout", r"Pour rentrer, par exemple : (.+?)\. Questions"),
             "en": ("help", r"for example: (.+?)\. Or: all", r"To go home, for example: (.+?)\. Questions"),
             "es": ("ayuda", r"por ejemplo: (.+?)\. O: todo", r"Para volver, por ejemplo: (.+?)\. Preguntas")}


@pytest.mark.parametrize("lang", ["fr", "en", "es"])
def test_the_moves_the_turn_help_gives_as_examples_are_the_players_and_accepted(tmp_path, lang):
    """Ana's help names her colour and a square she can reach; once Ana's pawn is on the board, Ana's help (her
    next turn) gives a way home that is accepted too."""
    import re

    ask, walk, home = TURN_HELP[lang]
    first = play(tmp_path, ["Ana", "Bruno"], SHARED_NEST_SETUP[lang] + [ask], lang).stdout
    example = re.search(walk, first)[1]
    assert catalog(lang).name("colours", "red") in example
    second = play(tmp_path, ["Ana", "Bruno"], SHARED_NEST_SETUP[lang] + [example, LINES[lang]["meteor"], ask], lang,
                  "h.json").stdout
    game = Game.from_json(saved_state(tmp_path / "h.json")["state"])
    assert [type(action) for action in game.actions] == [Move, Meteor]
    way_home = re.findall(home, second)[-1]
    play(tmp_path, ["Ana", "Bruno"], SHARED_NEST_SETUP[lang] + [example, LINES[lang]["meteor"], way_home], lang,
         "i.json")
    game = Game.from_json(saved_state(tmp_path / "i.json")["state"])
    assert game.actions[-1].exit
