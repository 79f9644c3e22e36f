"""`companion play draftosaurus --board winter` and `--match summer-winter` through the text engine: whole
winter games in each language, the board's printed values asked once and remembered, pyramid places and bridge
banks asked when missing, refusals with what is allowed, the winter zoo read aloud, the Quarantine's question,
and the match's sum with resume across its two games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.games.draftosaurus.engine import Game, QuarantineMove
from companion.games.draftosaurus.winter_board import VALUE_KEYS, load_winter_board
from tests.conftest import final_lines, random_game, run_play, saved_state, script_lines

SHIPPED = load_winter_board()
SETTINGS_SECTION = "draftosaurus_winter_board"


def confirm_shipped_values(home: Path) -> Path:
    """A settings file where a table has confirmed the shipped winter values (so nothing is asked)."""
    home.mkdir(parents=True, exist_ok=True)
    values = {key: entry["value"] for key, entry in SHIPPED.to_json()["values"].items()}
    path = home / "config.json"
    path.write_text(json.dumps({SETTINGS_SECTION: values}), encoding="utf-8")
    return path


def play(home: Path, lines: list[str], *options: str, players: str = "Alice,Bruno", lang: str = "fr",
         save: str = "g.json"):
    return run_play(["play", "draftosaurus", "--engine", "text", "--lang", lang, "--players", players,
                     "--save", str(home / save), *options], lines, home)


def final_totals(output: str, names: list[str], lang: str) -> dict[str, int]:
    """The total said at the start of each player's final score line."""
    return {name: int(line[len(name):].lstrip(" :").split()[0])
            for name, line in final_lines(output, names, lang).items()}


# ---------------------------------------------------------------- a whole winter game in each language

@pytest.mark.parametrize("players, lang, seed", [
    (["Alice", "Bruno", "Chloé"], "fr", 5),
    (["Ann", "Ben"], "en", 12),
    (["Ana", "Beto", "Carla", "Dani"], "es", 22),
], ids=lambda value: str(value))
def test_a_scripted_winter_game_ends_with_the_engines_scores(tmp_path, players, lang, seed):
    expected = random_game(players, seed, board="winter")
    assert any(isinstance(action, QuarantineMove) for action in expected.actions)
    confirm_shipped_values(tmp_path)
    everyone = {"fr": "tous", "en": "all", "es": "todos"}[lang]  # the answer to "the points in detail?"
    result = play(tmp_path, [*script_lines(expected, lang), everyone], "--board", "winter", players=",".join(players),
                  lang=lang)
    assert result.returncode == 0, result.stderr
    content = saved_state(tmp_path / "g.json")
    assert content["finished"] is True
    game = Game.from_json(content["state"])
    assert game.board == "winter" and game.zoos == expected.zoos and game.unconfirmed_values() == ()
    assert final_totals(result.stdout, players, lang) == {entry.name: entry.total for entry in expected.score().players}
    assert {"fr": "Dernier tour joué.", "en": "Last turn played.", "es": "Último turno jugado."}[lang] in result.stdout
    for winner in expected.score().winner_names:
        ranking = {"fr": "Classement : ", "en": "Ranking: ", "es": "Clasificación: "}[lang]
        assert winner in next(line for line in result.stdout.splitlines() if line.startswith(ranking))


# ---------------------------------------------------------------- the values printed on the board

def test_unconfirmed_values_are_said_asked_once_each_and_remembered(tmp_path):
    answers = ["garde",                                   # the wood's table: keep the provisional one
               "aide", "1 2 3", "un, un, un, trois, trois, sept",  # the pyramid: help, too few numbers, then six
               "trois", "répète", "4",                    # the banks
               "le bois bien ordonné, la pyramide et le point de vue",
               "le bois, la rive gauche et le pont", "le bois, la rive gauche et le point de vue",
               "dé croix"]
    first = play(tmp_path, answers, "--board", "winter")
    out = first.stdout
    assert first.returncode == 0, first.stderr
    assert out.startswith("Plateau d'hiver : ces valeurs ne sont imprimées que sur le plateau, et je ne les "
                          "connais pas encore : la table de points du bois bien ordonné, les points de chaque place")
    assert "Dis les six nombres dans l'ordre" in out and "Valeur provisoire : 2, 4, 8, 12, 18 et 24." in out
    assert "Je garde la valeur provisoire pour la table de points du bois bien ordonné" in out
    assert "Réponds à la question sur le plateau d'hiver" in out  # help
    assert "J'attends 6 nombres entiers de 0 à 100, dans l'ordre." in out
    assert out.count("Rive droite du pont des amoureux : combien de dinosaures") == 2  # repeated
    assert "Dis laquelle des deux rives du pont" in out
    assert "Je retiens ces réponses pour les prochaines parties d'hiver." in out
    assert "Valeurs du plateau pas encore confirmées, prises telles quelles : la table de points du bois" in out
    remembered = json.loads((tmp_path / "config.json").read_text(encoding="utf-8"))[SETTINGS_SECTION]
    assert remembered["pyramid_points"] == [1, 1, 1, 3, 3, 7]
    assert remembered["lovers_bridge_left_capacity"] == 3 and remembered["lovers_bridge_right_capacity"] == 4
    assert remembered["sides"]["lovers_bridge_left"] == "cafeteria" and "well_ordered_wood_points" not in remembered
    game = Game.from_json(saved_state(tmp_path / "g.json")["state"])
    assert game.unconfirmed_values() == ("well_ordered_wood_points",)
    assert game.winter_board.capacity("lovers_bridge_right") == 4

    # The next winter game asks only for the value kept provisional; the others are not asked again.
    second = play(tmp_path, ["2, 4, 8, 12, 18, 24", "dé croix"], "--board", "winter", save="g2.json")
    assert "la table de points du bois bien ordonné. Je demande" in second.stdout
    assert "Pyramide : combien de points" not in second.stdout and "Rive gauche du pont" not in second.stdout
    assert Game.from_json(saved_state(tmp_path / "g2.json")["state"]).unconfirmed_values() == ()
    third = play(tmp_path, ["dé croix"], "--board", "winter", save="g3.json")
    assert "Plateau d'hiver : ces valeurs" not in third.stdout and "pas encore confirmées" not in third.stdout


@pytest.mark.parametrize("lang, answers, said, areas", [
    ("en", ["keep", "one, one, one, three, three, seven", "three", "I don't know",
            "the wood, the pyramid and the lookout", "keep", "the die says cross"],
     ["Winter board: these values are printed only on the board, and I do not know them yet:",
      ("Noted, the points of each place of the pyramid: bottom left: 1, bottom centre: 1, bottom right: 1, middle "
       "left: 3, middle right: 3 and top: 7."),
      ("I keep the provisional value for the number of places on the right "
       "bank of the bridge; it is still to be confirmed.")], ["well_ordered_wood", "pyramid", "lookout"]),
    ("es", ["mantén", "uno, uno, uno, tres, tres, siete", "tres", "no lo sé", "el bosque, la pirámide y el mirador",
            "ninguno", "mantén", "dado cruz"],
     ["Tablero de invierno: estos valores solo vienen impresos en el tablero y todavía no los conozco:",
      "Anotado, el número de plazas de la orilla izquierda del puente: 3.",
      "las dos orillas del puente de los enamorados no pueden estar del mismo lado del río"],
     ["well_ordered_wood", "pyramid", "lookout"]),
])
def test_the_board_values_are_asked_in_english_and_spanish(tmp_path, lang, answers, said, areas):
    result = play(tmp_path, answers, "--board", "winter", lang=lang)
    assert result.returncode == 0, result.stderr
    for sentence in said:
        assert sentence.lower() in result.stdout.lower()
    board = Game.from_json(saved_state(tmp_path / "g.json")["state"]).winter_board
    assert [pen for pen in ("well_ordered_wood", "pyramid", "lookout", "quarantine") if board.area(pen) == "forest"
            ] == areas and board.pyramid_points == (1, 1, 1, 3, 3, 7)


def test_a_settings_file_that_cannot_be_read_is_never_written_over(tmp_path):
    config = tmp_path / "config.json"
    config.write_text("{broken", encoding="utf-8")
    answers = ["garde", "garde", "3", "garde", "garde", "garde", "dé croix"]
    result = play(tmp_path, answers, "--board", "winter")
    assert result.returncode == 0, result.stderr
    assert f"Le fichier de réglages {config} est illisible : je ne l'écrase pas" in result.stdout
    assert config.read_text(encoding="utf-8") == "{broken"
    assert Game.from_json(saved_state(tmp_path / "g.json")["state"]).winter_board.capacity("lovers_bridge_left") == 3


def test_a_tables_own_board_file_is_used_as_it_is(tmp_path):
    data = SHIPPED.to_json()
    for key in VALUE_KEYS:
        data["values"][key]["confirmed"] = key != "areas"
    data["values"]["pyramid_points"]["value"] = [2, 2, 2, 5, 5, 9]
    board = tmp_path / "my_winter.yaml"
    board.write_text(json.dumps(data), encoding="utf-8")
    result = play(tmp_path, ["dé croix", "Alice : T-Rex dans la pyramide", "en bas au centre", "les scores"],
                  "--board", str(board))
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert "Plateau d'hiver : ces valeurs" not in out  # nothing asked
    assert "Valeurs du plateau pas encore confirmées, prises telles quelles : la forêt ou la plaine" in out
    assert "Alice : 3 points pour l'instant. Pyramide : 2 points. Bonus T-Rex : 1 point." in out
    assert not (tmp_path / "config.json").exists()  # nothing remembered
    bad = tmp_path / "bad.yaml"
    bad.write_text("values: {}\n", encoding="utf-8")
    refused = play(tmp_path, [], "--board", str(bad), save="other.json")
    assert refused.returncode == 2 and len(refused.stderr.strip().splitlines()) == 1
    assert "Fichier du plateau d'hiver refusé" in refused.stderr and not (tmp_path / "other.json").exists()
    assert "Fichier du plateau d'hiver refusé" in refused.stdout  # said too, not only printed


# ---------------------------------------------------------------- placements, refusals and queries

PYRAMID_AND_BRIDGE = {
    "fr": ["dé carré", "Alice : T-Rex dans la pyramide", "en bas à gauche", "Bruno : stégosaure sur le pont",
           "rive droite"],
    "en": ["the die says square", "Alice: T-Rex in the pyramid", "bottom left", "Bruno: stegosaurus on the bridge",
           "the right bank"],
    "es": ["dado cuadrado", "Alice: T-Rex en la pirámide", "abajo a la izquierda", "Bruno: estegosaurio en el puente",
           "orilla derecha"],
}
ASKED = {
    "fr": ["Alice, à quelle place de la pyramide ? Possible : en bas à gauche, en bas au centre ou en bas à droite.",
           "Alice met le T-Rex en bas à gauche de la pyramide.",
           ("Bruno, sur quelle rive du pont des amoureux ? Possible : rive gauche du pont des amoureux ou rive "
            "droite du pont des amoureux."), "Bruno met le stégosaure sur la rive droite du pont des amoureux."],
    "en": ["Alice, which place in the pyramid? You can choose: bottom left, bottom centre or bottom right.",
           "Alice puts the T-Rex at the bottom left of the pyramid.",
           "Bruno, which bank of the lovers' bridge? You can choose: left bank of the lovers' bridge or right bank",
           "Bruno puts the stegosaurus on the right bank of the lovers' bridge."],
    "es": [("Alice, ¿en qué plaza de la pirámide? Puedes elegir: abajo a la izquierda, abajo en el centro o abajo a "
            "la derecha."), "Alice pone el T-Rex abajo a la izquierda de la pirámide.",
           ("Bruno, ¿en qué orilla del puente de los enamorados? Puedes elegir: orilla izquierda del puente de los "
            "enamorados u orilla derecha"),
           "Bruno pone el estegosaurio en la orilla derecha del puente de los enamorados."],
}


@pytest.mark.parametrize("lang", ["fr", "en", "es"])
def test_a_pyramid_place_or_a_bank_left_out_is_asked(tmp_path, lang):
    confirm_shipped_values(tmp_path)
    result = play(tmp_path, PYRAMID_AND_BRIDGE[lang], "--board", "winter", lang=lang)
    for sentence in ASKED[lang]:
        assert sentence in result.stdout
    alice, bruno = Game.from_json(saved_state(tmp_path / "g.json")["state"]).zoos
    assert alice["pyramid"] == ["trex"] and bruno["lovers_bridge_right"] == ["stegosaurus"]


WINTER_TURNS = [
    "dé carré",
    "Alice : T-Rex dans la pyramide", "au milieu à gauche",  # refused: the bottom row first
    "Alice : T-Rex en bas à gauche de la pyramide",
    "Bruno : stégosaure sur la rive droite du pont",
    "dé croix",
    "Alice : stégosaure dans la pyramide", "en bas au centre",
    "Bruno : tricératops en bas à droite de la pyramide",
    "dé carré",
    "Alice : T-Rex dans la pyramide",  # one place only: taken without a question
    "Bruno : diplodocus dans la pyramide",  # refused: the die wants an empty pen
    "Bruno : diplodocus dans le bois bien ordonné",
    "dé croix",
    "Alice : T-Rex dans la pyramide",  # refused: each middle place would touch a T-Rex
    "Alice : T-Rex au point de vue",
]


def test_winter_refusals_say_why_and_what_is_allowed_and_the_zoo_reads_row_by_row(tmp_path):
    confirm_shipped_values(tmp_path)
    queries = ["mon zoo", "le pont de Bruno", "la pyramide de Bruno", "où va le tricératops", "explique la pyramide",
               "aide", "annule"]
    result = play(tmp_path, WINTER_TURNS + queries, "--board", "winter")
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert ("Refusé. Pyramide, au milieu à gauche : pas encore, la rangée du dessous doit d'abord être pleine. "
            "Places possibles : en bas à gauche, en bas au centre et en bas à droite.") in out
    assert "Alice met le T-Rex en bas à droite de la pyramide." in out
    assert "Refusé. Pas dans la pyramide : le dé impose un enclos encore vide." in out
    assert ("Pour le diplodocus, Bruno peut choisir : bois bien ordonné, rive gauche du pont des amoureux, "
            "point de vue, zone de quarantaine ou rivière.") in out
    assert ("Refusé. Pyramide : aucune place libre de la rangée en cours ne convient, chacune toucherait un autre "
            "T-Rex. Reste un autre enclos, ou la rivière.") in out
    assert "Pour le T-Rex, Alice peut choisir : bois bien ordonné, point de vue ou rivière." in out
    assert ("Zoo de Bruno, 3 dinosaures. Bois bien ordonné : diplodocus. Pont des amoureux : rive gauche, rien ; "
            "rive droite, un stégosaure. Pyramide : en bas, libre à gauche, libre au centre et tricératops à droite ; "
            "au milieu, rien ; en haut, rien. Sans dinosaure : point de vue et zone de quarantaine.") in out
    assert "Le pont des amoureux de Bruno : rive gauche, rien ; rive droite, un stégosaure." in out
    assert "La pyramide de Bruno : en bas, libre à gauche, libre au centre et tricératops à droite ;" in out
    assert "Dans la pyramide, une seule place possible : en bas à gauche." in out
    assert "Elle reçoit jusqu'à six dinosaures et se bâtit par le bas" in out  # the rules topic
    assert "Dis le dinosaure et l'enclos d'hiver" in out  # the help of the winter turn
    assert "Annulé : le T-Rex d'Alice sur le point de vue." in out
    alice, bruno = Game.from_json(saved_state(tmp_path / "g.json")["state"]).zoos
    assert alice["pyramid"] == ["trex", "stegosaurus", "trex"] and alice["lookout"] == []
    assert bruno["pyramid"] == [None, None, "triceratops"] and bruno["well_ordered_wood"] == ["diplodocus"]


def test_mon_zoo_reads_the_pyramid_row_by_row_in_english_and_spanish(tmp_path):
    confirm_shipped_values(tmp_path)
    english = play(tmp_path, ["the die says square", "Alice: T-Rex bottom left of the pyramid", "Alice's zoo"],
                   "--board", "winter", lang="en").stdout
    assert ("Alice's zoo, 1 dinosaur. Pyramid: bottom row, T-Rex on the left, free in the centre and free on the "
            "right; middle row, empty; top, empty. Still empty: well-ordered wood, lovers' bridge, lookout and "
            "quarantine zone.") in english
    spanish = play(tmp_path, ["dado cuadrado", "Alice: T-Rex abajo a la izquierda de la pirámide", "el zoo de Alice"],
                   "--board", "winter", lang="es", save="es.json").stdout
    assert ("Zoo de Alice, 1 dinosaurio. Pirámide: abajo, T-Rex a la izquierda, libre en el centro y libre a la "
            "derecha; en medio, nada; arriba, nada.") in spanish


# ---------------------------------------------------------------- the Quarantine's move

def quarantine_game(tmp_path: Path) -> tuple[Game, list[int]]:
    """A winter game played by the text engine up to the Quarantine's moves (the input ends there), and the
    players whose Quarantine holds a dinosaur, the one the question goes to first."""
    expected = random_game(["Alice", "Bruno", "Chloé"], 5, board="winter")
    lines = script_lines(expected, "fr")
    moves = sum(isinstance(action, QuarantineMove) for action in expected.actions)
    confirm_shipped_values(tmp_path)
    first = play(tmp_path, lines[:-moves], "--board", "winter", players="Alice,Bruno,Chloé")
    assert first.returncode == 0, first.stderr
    game = Game.from_json(saved_state(tmp_path / "g.json")["state"])
    waiting = game.waiting_for()
    assert game.phase == "quarantine" and len(waiting) == 3
    asked = saved_state(tmp_path / "g.json")["dialogue"]["asked"]  # asked first, then the others in order
    first = asked if asked in waiting else waiting[0]
    return game, [first] + [player for player in waiting if player != first]


def destination_line(game: Game, player: int, pen: str, position: str | None) -> str:
    from companion.language.messages import catalog

    names = catalog("fr")
    where = (f"dans {names.name('pens', pen)}" if position is None
             else f"{names.name('positions', position)} de la pyramide")
    return f"{game.players[player]} : {where}"


def test_the_quarantine_move_is_asked_with_the_choices_and_the_best_suggested(tmp_path):
    game, waiting = quarantine_game(tmp_path)
    first, second, third = waiting
    best = game.best_quarantine(first)
    others = [choice for choice in game.quarantine_choices(second) if choice != game.best_quarantine(second)]
    other = others[0]
    lines = ["répète", "aide",
             "oui",  # the first player takes the suggestion
             f"{game.players[second]} : dans la zone de quarantaine",  # refused: it must leave the Quarantine
             destination_line(game, second, other.pen, other.position),  # another legal destination
             f"{game.players[third]} : le tricératops dans la rivière" if game.zoos[third]["quarantine"] != [
                 "triceratops"] else f"{game.players[third]} : le stégosaure dans la rivière",  # not its species
             f"{game.players[third]} : dans la rivière", "tous"]
    result = run_play(["resume", str(tmp_path / "g.json"), "--engine", "text"], lines, tmp_path)
    out = result.stdout
    assert result.returncode == 0, result.stderr
    name = game.players[first]
    species = {"trex": "le T-Rex", "triceratops": "le tricératops", "stegosaurus": "le stégosaure",
               "diplodocus": "le diplodocus", "parasaurolophus": "le parasaurolophe", "spinosaurus": "le spinosaure"}
    assert f"{name}, avant le décompte, {species[game.zoos[first]['quarantine'][0]]} quitte la quarantaine." in out
    assert "Possible, avec ton total après le déplacement :" in out and "Je te propose le meilleur :" in out
    assert f"pour {best.total} points" in out
    assert "Dis où va le dinosaure de la quarantaine" in out  # help
    assert out.count(f"{name}, avant le décompte,") >= 2  # repeat
    assert f"Refusé. {game.players[second]} : ce dinosaure doit quitter la quarantaine" in out
    refused = out.index(f"Refusé. {game.players[second]} : ce dinosaure doit quitter la quarantaine")
    asked_again = f"{game.players[second]}, avant le décompte,"  # the question again, with the choices: said once
    assert out.index(asked_again, refused) > refused and "le dinosaure de la quarantaine peut aller" not in out
    assert f"La quarantaine de {game.players[third]} contient" in out or \
        f"La quarantaine d'{game.players[third]} contient" in out
    final = Game.from_json(saved_state(tmp_path / "g.json")["state"])
    assert final.phase == "over"
    moved = {action.player: (action.pen, action.position) for action in final.actions
             if isinstance(action, QuarantineMove)}
    assert moved == {first: (best.pen, best.position), second: (other.pen, other.position), third: ("river", None)}
    totals = final_totals(out, list(final.players), "fr")
    assert totals == {entry.name: entry.total for entry in final.score().players}


def test_undo_takes_a_quarantine_move_back(tmp_path):
    game, waiting = quarantine_game(tmp_path)
    result = run_play(["resume", str(tmp_path / "g.json"), "--engine", "text"],
                      [f"{game.players[waiting[0]]} : dans la rivière", "annule"], tmp_path)
    assert f"Annulé : {game.players[waiting[0]]}, le dinosaure de la quarantaine dans la rivière." in result.stdout
    again = Game.from_json(saved_state(tmp_path / "g.json")["state"])
    assert again.phase == "quarantine" and waiting[0] in again.waiting_for()


# ---------------------------------------------------------------- the summer/winter match

def test_the_match_adds_the_scores_of_both_games_and_resumes_across_them(tmp_path):
    summer = random_game(["Ann", "Ben"], 3)
    winter = random_game(["Ann", "Ben"], 4, board="winter")
    confirm_shipped_values(tmp_path)
    summer_lines, winter_lines = script_lines(summer, "en"), script_lines(winter, "en")
    start = ["play", "draftosaurus", "--engine", "text", "--lang", "en", "--players", "Ann,Ben", "--match",
             "summer-winter", "--save", str(tmp_path / "g.json")]
    first = run_play(start, summer_lines[:20], tmp_path)
    assert first.returncode == 0, first.stderr
    assert first.stdout.startswith("Summer and winter match: two games in a row")
    refused = run_play(start, [], tmp_path)  # an unfinished match is not replaced
    assert refused.returncode == 2 and "companion resume" in refused.stderr
    # The summer game ends and the winter one starts; the input ends in the middle of the winter game.
    second = run_play(["resume", str(tmp_path / "g.json")], [*summer_lines[20:], "no", "yes", *winter_lines[:15]],
                      tmp_path)
    assert second.returncode == 0, second.stderr
    assert "Summer and winter match: this is the summer game." in second.stdout
    assert "The summer game is over. On to the winter game? Say yes to start it" in second.stdout
    assert "The summer game is over. Now the winter game: turn your boards to the winter side." in second.stdout
    content = saved_state(tmp_path / "g.json")
    assert content["finished"] is False and content["match"]["kind"] == "summer-winter"
    assert [played["totals"] for played in content["match"]["played"]] == [
        {entry.name: entry.total for entry in summer.score().players}]
    assert Game.from_json(content["state"]).board == "winter"
    third = run_play(["resume", str(tmp_path / "g.json")], [*winter_lines[15:], "all"], tmp_path)
    assert third.returncode == 0, third.stderr
    assert "Summer and winter match: this is the winter game." in third.stdout
    sums = {}
    for name in ("Ann", "Ben"):
        in_summer = next(e.total for e in summer.score().players if e.name == name)
        in_winter = next(e.total for e in winter.score().players if e.name == name)
        sums[name] = in_summer + in_winter
        assert (f"{name}: {in_summer} points in summer and {in_winter} points in winter, {sums[name]} points in all."
                in third.stdout)
    ranking = next(line for line in third.stdout.splitlines() if line.startswith("Match ranking: "))
    assert ranking.startswith("Match ranking: 1. ")
    leader = max(sums, key=sums.get)
    assert ranking.index(leader) < ranking.index(min(sums, key=sums.get)) or sums["Ann"] == sums["Ben"]
    finished = saved_state(tmp_path / "g.json")
    assert finished["finished"] is True and len(finished["match"]["played"]) == 1
    assert Game.from_json(finished["state"]).zoos == winter.zoos


def test_the_match_plays_summer_first_so_board_summer_is_refused(tmp_path):
    result = play(tmp_path, [], "--match", "summer-winter", "--board", "summer")
    assert result.returncode == 2 and "--match summer-winter plays summer then winter" in result.stderr


# ---------------------------------------------------------------- read-backs by meaning

class Recognised:
    """A listener that hears a fixed list of (text, confidence) utterances, as a recogniser would."""

    name = "script"

    def __init__(self, utterances):
        self.utterances = list(utterances)

    def listen(self, state=None):
        from companion.speech.base import Heard

        return Heard(*self.utterances.pop(0), "sphinx") if self.utterances else None

    def expect_speaker(self, speaker):
        pass


@pytest.mark.parametrize("lang, utterances, read_back", [
    ("fr", [("dé croix", None), ("tricératops en bas à gauche de la pyramide", 0.3), ("oui", 0.95)],
     "J'ai compris : Alice, tricératops en bas à gauche de la pyramide. C'est bien ça ? Oui ou non."),
    ("en", [("the die says cross", None), ("triceratops bottom left of the pyramid", 0.3), ("yes", 0.95)],
     "I understood: Alice, triceratops at the bottom left of the pyramid. Is that right? Yes or no."),
    ("es", [("dado cruz", None), ("tricerátops abajo a la izquierda de la pirámide", 0.3), ("sí", 0.95)],
     "He entendido: Alice, tricerátops abajo a la izquierda de la pirámide. ¿Es correcto? Sí o no."),
])
def test_a_doubtful_winter_move_is_read_back_by_its_meaning(lang, utterances, read_back):
    import io

    from companion.dialogue.draftosaurus import DraftosaurusTable, TableSettings
    from companion.dialogue.session import EndOfInput, Session
    from companion.speech.base import TextSpeaker

    out = io.StringIO()
    session = Session(game="draftosaurus", lang=lang, speaker=TextSpeaker(out), listener=Recognised(utterances),
                      verbosity="short")
    table = DraftosaurusTable(session, Game.new(["Alice", "Bruno"], seed=1, board="winter"), None, TableSettings())
    table.save = lambda: None
    with pytest.raises(EndOfInput):
        table.run()
    assert read_back in out.getvalue()
    assert table.game.zoos[0]["pyramid"] == ["triceratops"]


@pytest.mark.parametrize("lang, players", [("fr", "Alice,Ève,Bruno"), ("es", "Ana,Ester,Beto")])
def test_a_whole_winter_game_reads_as_a_native_speaker_writes(tmp_path, lang, players):
    import re

    from tests.test_table_talk import _BAD

    names = players.split(",")
    expected = random_game(names, 9, board="winter")
    queries = {"fr": ["le zoo d'Alice", "la pyramide d'Ève", "le pont d'Alice", "les scores", "mon zoo"],
               "es": ["el zoo de Ana", "la pirámide de Ester", "el puente de Ana", "los puntos", "mi zoo"]}[lang]
    lines = script_lines(expected, lang)
    lines = lines[:8] + queries + lines[8:-2] + queries + lines[-2:]
    confirm_shipped_values(tmp_path)
    result = play(tmp_path, lines, "--board", "winter", players=players, lang=lang)
    assert result.returncode == 0, result.stderr
    for line in result.stdout.splitlines():
        for pattern in _BAD[lang]:
            assert not re.search(pattern, line), (pattern, line)
        assert line[:1].isupper() or line[:1] in "¿¡«\"" or line[:1].isdigit(), line


def test_undo_at_a_board_value_asks_the_value_before_again_and_help_is_the_boards(tmp_path):
    """After the set-up's last yes/no question, help at a board value is the board values' help (it was the yes/no
    question's); "annule" asks the value told before again, which is forgotten, and at the first value says there
    is none before."""
    answers = ["deux", "Alice et Bruno", "oui", "Alice", "oui", "non",  # the set-up, the advice question last
               "aide", "annule", "1, 2, 3, 4, 5, 6", "annule", "garde",  # the wood: told, taken back, kept
               "un, un, un, trois, trois, sept", "trois", "4", "le bois bien ordonné, la pyramide et le point de vue",
               "le bois, la rive gauche et le pont", "le bois, la rive gauche et le point de vue", "dé croix"]
    result = run_play(["play", "draftosaurus", "--engine", "text", "--lang", "fr", "--board", "winter",
                       "--save", str(tmp_path / "g.json")], answers, tmp_path)
    assert result.returncode == 0, result.stderr
    said = result.stdout.splitlines()
    wood = next(k for k, line in enumerate(said) if line.startswith("Bois bien ordonné : combien de points"))
    assert said[wood + 1].startswith("Réponds à la question sur le plateau d'hiver"), result.stdout
    assert said[wood + 1].endswith("Pour corriger une valeur donnée juste avant, dis annule.")
    assert said[wood + 3] == "Il n'y a pas de question avant celle-ci.", result.stdout
    assert said[wood + 5].startswith("Noté, la table de points du bois bien ordonné : 1, 2, 3, 4, 5 et 6.")
    assert said[wood + 7] == "D'accord, revenons à la question d'avant." and said[wood + 8] == said[wood], result.stdout
    assert said[wood + 9].startswith("Je garde la valeur provisoire pour la table de points du bois bien ordonné")
    remembered = json.loads((tmp_path / "config.json").read_text(encoding="utf-8"))[SETTINGS_SECTION]
    assert "well_ordered_wood_points" not in remembered and remembered["pyramid_points"] == [1, 1, 1, 3, 3, 7]
