"""`companion score draftosaurus`: hand-scored zoos, the readable report, and bad zoos refused cleanly.

Every expected score below was worked out by hand from the rules (docs/rules-decisions.md, "The summer pens"),
never by the code under test.
Pen order in each tuple: forest_of_sameness, woody_trio, prairie_of_love, king_of_the_jungle,
meadow_of_differences, solitary_island, river. Forest 2/4/8/12/18/24, meadow 1/3/6/10/15/21, prairie 5 a pair,
trio 7 (option 6) when exactly 3, king 7, island 7, river 1 each, +1 per pen (not the river) with a T-Rex.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.dialogue.savefile import write_save
from companion.games.draftosaurus.engine import Game, Place, Roll
from companion.games.draftosaurus.ids import PENS
from companion.games.draftosaurus.options import Options
from companion.games.draftosaurus.scoring import score_zoos

ZOOS = Path(__file__).parent / "data" / "zoos"

# name -> ({player: (pens tuple, trex_bonus, trex_count, total)}, winners, reason code)
EXPECTED = {
    "01_single_full_zoo": ({
        # forest 4 stegosaurus = 12; trio T,D,P = 7; prairie 1 pair = 5; king alone = 7; meadow 1 = 1;
        # island parasaurolophus, but another in the trio = 0; bonus (trio) 1 -> 12+7+5+7+1+1 = 33
        "Alice": ((12, 7, 5, 7, 1, 0, 0), 1, 1, 33)}, ["Alice"], "draft_win_single_zoo"),
    "02_shared_victory_kings_tie": ({
        # both kings hold a triceratops, 3 each in pens: both keep 7.
        # Alice: prairie 1 pair 5 + king 7 + river 1 = 13 (T-Rex in the river: no bonus)
        "Alice": ((0, 0, 5, 7, 0, 0, 1), 0, 1, 13),
        # Bruno: forest 2 = 4 + king 7 + meadow 1 + bonus (meadow) 1 = 13; one T-Rex each -> shared
        "Bruno": ((4, 0, 0, 7, 1, 0, 0), 1, 1, 13)}, ["Alice", "Bruno"], "draft_win_shared"),
    "03_tiebreak_fewer_trex": ({
        # forest 2 T-Rex = 4, trio 3 = 7, bonus 1 -> 12, two T-Rex
        "Alice": ((4, 7, 0, 0, 0, 0, 0), 1, 2, 12),
        # forest 3 = 8, river 4 -> 12, no T-Rex: wins the tie
        "Bruno": ((8, 0, 0, 0, 0, 0, 4), 0, 0, 12)}, ["Bruno"], "draft_win_tiebreak_fewer_trex"),
    "04_king_beaten_three_players": ({
        # king stegosaurus: 1 in pens (river ignored) < Carla's 2 -> 0; forest 2 = 4; river 1 -> 5
        "Alice": ((4, 0, 0, 0, 0, 0, 1), 0, 0, 5),
        # meadow 2 = 3, bonus 1 -> 4
        "Bruno": ((0, 0, 0, 0, 3, 0, 0), 1, 1, 4),
        # prairie 2 pairs = 10
        "Carla": ((0, 0, 10, 0, 0, 0, 0), 0, 0, 10)}, ["Carla"], "draft_win_most_points"),
    "05_king_river_option": ({
        # river counts for the king: Alice has 2 stegosaurus, Carla 2 -> 7; 4 + 7 + 1 = 12
        "Alice": ((4, 0, 0, 7, 0, 0, 1), 0, 0, 12),
        "Bruno": ((0, 0, 0, 0, 3, 0, 0), 1, 1, 4),
        "Carla": ((0, 0, 10, 0, 0, 0, 0), 0, 0, 10)}, ["Alice"], "draft_win_most_points"),
    "06_island_river_ignored": ({
        # island parasaurolophus alone in the pens = 7; river 1; prairie 1 T-Rex = 0 + bonus 1 -> 9
        "Alice": ((0, 0, 0, 0, 0, 7, 1), 1, 1, 9),
        "Bruno": ((2, 0, 0, 0, 0, 0, 0), 0, 0, 2)}, ["Alice"], "draft_win_most_points"),
    "07_island_river_option": ({
        # river counts for the island: 2 parasaurolophus -> 0; river 1 + bonus 1 = 2
        "Alice": ((0, 0, 0, 0, 0, 0, 1), 1, 1, 2),
        # forest 1 = 2; tie at 2, Bruno has no T-Rex
        "Bruno": ((2, 0, 0, 0, 0, 0, 0), 0, 0, 2)}, ["Bruno"], "draft_win_tiebreak_fewer_trex"),
    "08_trio_six_points": ({
        # trio complete at 6 (option) + bonus 1 = 7
        "Alice": ((0, 6, 0, 0, 0, 0, 0), 1, 1, 7),
        # trio of 2 = 0, river 1
        "Bruno": ((0, 0, 0, 0, 0, 0, 1), 0, 0, 1)}, ["Alice"], "draft_win_most_points"),
    "09_full_forest_and_meadow": ({
        # forest 6 = 24, meadow 6 = 21, bonus (meadow) 1 -> 46
        "Solo": ((24, 0, 0, 0, 21, 0, 0), 1, 1, 46)}, ["Solo"], "draft_win_single_zoo"),
    "10_prairie_two_pairs_one_species": ({
        # 5 diplodocus = 2 pairs, 1 stegosaurus = 0 -> 10; river 1 (T-Rex in the river: no bonus) -> 11
        "Solo": ((0, 0, 10, 0, 0, 0, 1), 0, 1, 11)}, ["Solo"], "draft_win_single_zoo"),
    "11_prairie_trex_pair": ({
        # T-Rex pair 5 + 3 spinosaurus = 1 pair 5 -> 10; one bonus for the pen, not per T-Rex -> 11
        "Solo": ((0, 0, 10, 0, 0, 0, 0), 1, 2, 11)}, ["Solo"], "draft_win_single_zoo"),
    "12_trex_everywhere": ({
        # forest 1 = 2, trio 1 = 0, prairie 0 pairs = 0, king alone 7, meadow 1 = 1,
        # island T-Rex with 5 others in pens = 0, river 1; bonus 6 pens -> 2+7+1+1+6 = 17
        "Solo": ((2, 0, 0, 7, 1, 0, 1), 6, 7, 17)}, ["Solo"], "draft_win_single_zoo"),
    "13_five_players_kings": ({
        # spinosaurus in pens: Ana 1, Ben 3, Cid 1 (its river one does not count), Dee 3, Eva 1
        "Ana": ((0, 0, 0, 0, 0, 0, 0), 0, 0, 0),
        "Ben": ((0, 0, 5, 7, 0, 0, 0), 0, 0, 12),  # 3 >= 3: king 7, prairie 1 pair 5
        "Cid": ((0, 0, 0, 0, 0, 0, 1), 0, 0, 1),
        "Dee": ((4, 0, 0, 7, 0, 0, 0), 0, 0, 11),  # 3 >= 3: king 7, forest 2 = 4
        "Eva": ((0, 0, 0, 0, 0, 0, 0), 0, 0, 0)}, ["Ben"], "draft_win_most_points"),
    "14_four_players_shared_after_tiebreak": ({
        "Ana": ((8, 0, 0, 0, 0, 0, 0), 0, 0, 8),  # forest 3 = 8
        "Ben": ((8, 0, 0, 0, 0, 0, 0), 0, 0, 8),
        "Cid": ((0, 0, 0, 0, 6, 0, 1), 1, 1, 8),  # meadow 3 = 6, river 1, bonus 1; one T-Rex: out of the tie
        "Dee": ((0, 0, 0, 0, 0, 0, 1), 0, 0, 1)}, ["Ana", "Ben"], "draft_win_shared"),
    "15_three_way_tie_broken": ({
        "Ana": ((4, 0, 0, 0, 0, 0, 4), 1, 2, 9),  # forest 2 = 4, river 4, bonus 1
        "Ben": ((0, 0, 0, 0, 6, 0, 2), 1, 1, 9),  # meadow 3 = 6, river 2, bonus 1
        "Cid": ((8, 0, 0, 0, 0, 0, 1), 0, 0, 9)}, ["Cid"], "draft_win_tiebreak_fewer_trex"),  # forest 3 = 8, river 1
    "16_two_players_full_game": ({
        # forest 3 = 8, trio 7, prairie 1 pair 5, king diplodocus 3 vs 2 = 7, meadow 1, island spinosaurus
        # (another in the trio) 0, river 1, bonus (trio) 1 -> 30
        "Alice": ((8, 7, 5, 7, 1, 0, 1), 1, 1, 30),
        # forest 2 = 4, trio of 2 = 0, prairie 2 pairs 10, king stegosaurus 1 vs 3 = 0, meadow 2 = 3,
        # island triceratops (2 more in the trio) 0, bonus prairie + meadow 2 -> 19
        "Bruno": ((4, 0, 10, 0, 3, 0, 0), 2, 3, 19)}, ["Alice"], "draft_win_most_points"),
    "17_king_and_island_alone": ({
        # king alone 7, island T-Rex alone in pens 7, river 2, bonus (island) 1 -> 17
        "Solo": ((0, 0, 0, 7, 0, 7, 2), 1, 3, 17)}, ["Solo"], "draft_win_single_zoo"),
    "18_island_river_option_trio_six": ({
        # the 2 river T-Rex now count for the island: 0; 7 + 2 + 1 = 10
        "Solo": ((0, 0, 0, 7, 0, 0, 2), 1, 3, 10)}, ["Solo"], "draft_win_single_zoo"),
    "19_four_players_meadow_wins": ({
        "Ana": ((0, 0, 0, 7, 0, 0, 0), 0, 0, 7),  # nobody else has a parasaurolophus: 7
        "Ben": ((0, 0, 0, 0, 0, 0, 1), 0, 1, 1),
        "Cid": ((0, 7, 0, 0, 0, 0, 0), 0, 0, 7),
        "Dee": ((0, 0, 0, 0, 10, 0, 0), 0, 0, 10)}, ["Dee"], "draft_win_most_points"),  # meadow 4 = 10
    "20_king_river_ignored": ({
        "Alice": ((0, 0, 0, 0, 0, 0, 3), 0, 0, 3),  # king: 1 in pens vs Bruno's 2 -> 0; river 3
        "Bruno": ((4, 0, 0, 0, 0, 0, 0), 0, 0, 4)}, ["Bruno"], "draft_win_most_points"),
    "21_king_river_counted": ({
        "Alice": ((0, 0, 0, 7, 0, 0, 3), 0, 0, 10),  # king: 4 with the river vs 2 -> 7; river 3
        "Bruno": ((4, 0, 0, 0, 0, 0, 0), 0, 0, 4)}, ["Alice"], "draft_win_most_points"),
    "22_partial_game_three_players": ({
        "Ana": ((2, 0, 0, 0, 0, 0, 0), 0, 0, 2),  # forest 1 = 2, prairie without a pair 0
        "Ben": ((0, 0, 0, 0, 0, 0, 0), 1, 1, 1),  # trio of 1 = 0, bonus 1
        "Cid": ((0, 0, 0, 0, 0, 0, 0), 0, 0, 0)}, ["Ana"], "draft_win_most_points"),
    "23_river_trex_counts_for_tiebreak": ({
        "Alice": ((4, 0, 0, 0, 0, 0, 1), 0, 1, 5),  # the river T-Rex earns no bonus but counts in the tie
        "Bruno": ((4, 0, 0, 0, 0, 0, 1), 0, 0, 5)}, ["Bruno"], "draft_win_tiebreak_fewer_trex"),
}


def score_json(path: Path, capsys) -> dict:
    assert main(["score", "draftosaurus", str(path), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_every_hand_scored_file_is_checked():
    assert sorted(path.stem for path in ZOOS.glob("*.json")) == sorted(EXPECTED)
    assert len(EXPECTED) >= 20


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_score_matches_the_hand_count(name, capsys):
    players, winners, _reason = EXPECTED[name]
    result = score_json(ZOOS / f"{name}.json", capsys)
    assert result["winners"] == winners
    assert [player["name"] for player in result["players"]] == list(players)
    for player in result["players"]:
        pens, trex_bonus, trex_count, total = players[player["name"]]
        assert player["pens"] == dict(zip(PENS, pens, strict=True)), player["name"]
        assert (player["trex_bonus"], player["trex_count"], player["total"]) == (trex_bonus, trex_count, total)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_winner_reason_matches_the_hand_count(name):
    document = json.loads((ZOOS / f"{name}.json").read_text(encoding="utf-8"))
    players = document["players"]
    sheet = score_zoos([p["zoo"] for p in players], Options.from_json(document.get("options")),
                       names=[p["name"] for p in players])
    assert sheet.reason.code == EXPECTED[name][2]
    assert sheet.winner_names == EXPECTED[name][1]


def test_readable_report_in_french_names_each_pen_the_total_and_why(capsys):
    assert main(["score", "draftosaurus", str(ZOOS / "03_tiebreak_fewer_trex.json")]) == 0
    out = capsys.readouterr().out
    assert "Forêt des similaires : 2 dinosaures, espèce T-Rex, 4 points." in out
    assert "Trio des bois : trois dinosaures, 7 points." in out
    assert "Total d'Alice : 12 points, 2 T-Rex dans le zoo." in out
    assert "Égalité à 12 points avec Alice ; Bruno gagne avec moins de T-Rex, 0 contre 2." in out
    assert "le trio des bois vaut 7 points" in out


@pytest.mark.parametrize("lang, words", [
    ("en", ["King of the jungle: stegosaurus, 1 in this zoo but 2 in Carla's, 0 points.", "Carla wins with 10 points"]),
    ("es", ["Rey de la selva: estegosaurio, 1 en este zoo pero 2 en el de Carla, 0 puntos.",
            "Carla gana con 10 puntos"]),
])
def test_readable_report_in_english_and_spanish(lang, words, capsys):
    assert main(["score", "draftosaurus", str(ZOOS / "04_king_beaten_three_players.json"), "--lang", lang]) == 0
    out = capsys.readouterr().out
    for expected in words:
        assert expected in out


def test_score_runs_as_a_program_and_reads_standard_input():
    text = (ZOOS / "09_full_forest_and_meadow.json").read_text(encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "companion", "score", "draftosaurus", "-", "--json"],
                            input=text, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["players"][0]["total"] == 46


def game(players: list[tuple[str, dict]], **extra) -> dict:
    return {"board": "summer", **extra, "players": [{"name": name, "zoo": zoo} for name, zoo in players]}


BAD_ZOOS = {
    "forest_two_species": (game([("Alice", {}), ("Bruno", {"forest_of_sameness": ["trex", "triceratops"]})]),
                           ["Bruno", "forêt des similaires", "Une seule espèce", "T-Rex"]),
    "fourth_in_trio": (game([("Alice", {"woody_trio": ["trex", "trex", "diplodocus", "diplodocus"]})]),
                       ["Alice", "trio des bois", "Plus de place", "3 dinosaures au plus"]),
    "two_kings": (game([("Alice", {"king_of_the_jungle": ["trex", "diplodocus"]})]),
                  ["Alice", "roi de la jungle", "1 dinosaure au plus"]),
    "meadow_twice": (game([("Zoé", {"meadow_of_differences": ["trex", "diplodocus", "trex"]})]),
                     ["Zoé", "plaine des différences", "déjà un T-Rex"]),
    "draft_unknown_pen": (game([("Alice", {"lake": ["trex"]})]), ["Alice", "« lake »", "forest_of_sameness"]),
    "draft_unknown_species": (game([("Alice", {"river": ["velociraptor"]})]), ["Alice", "« velociraptor »"]),
    "too_many_for_three": (game([("Ana", {"river": ["trex"] * 4}), ("Ben", {"river": ["trex"] * 2}),
                                 ("Cid", {"forest_of_sameness": ["trex"]})]),
                           ["Cid", "T-Rex : 7 en jeu", "n'en contient que 6"]),
    "too_many_in_box": (game([("Solo", {"river": ["diplodocus"] * 11})]), ["Solo", "diplodocus : 11 en jeu", "que 10"]),
    "thirteen_dinosaurs": (game([("Alice", {"river": ["trex"] * 7 + ["diplodocus"] * 6})]),
                           ["Alice", "13 dinosaures", "12 au plus"]),
    "draft_pen_not_a_list": (game([("Alice", {"river": "trex"})]), ["Alice", "une liste d'espèces pour la rivière"]),
    "draft_zoo_not_an_object": (game([("Alice", ["trex"])]), ["Alice", "objet JSON"]),
    "six_players": (game([(name, {}) for name in "ABCDEF"]), ["de 2 à 5 joueurs, pas 6"]),
    "duplicate_names": (game([("Alice", {}), ("Alice", {})]), ["Deux joueurs s'appellent Alice"]),
    "unknown_board": ({**game([("Alice", {})]), "board": "autumn"}, ["« autumn »", "winter"]),
    "draft_bad_trio_points": (game([("Alice", {})], options={"trio_points": 5}), ["Options refusées", "pas 5"]),
    "draft_unknown_option": (game([("Alice", {})], options={"trio": 6}), ["option inconnue « trio »"]),
    "option_not_a_flag": (game([("Alice", {})], options={"river_counts_for_king": "yes"}),
                          ["river_counts_for_king", "true ou false"]),
    "draft_no_players": ({"board": "summer", "players": []}, ["players"]),
    "player_without_name": ({"board": "summer", "players": [{"zoo": {}}]}, ["joueur numéro 1", "pas de nom"]),
    "unknown_field": ({**game([("Alice", {})]), "playrs": []}, ["« playrs »"]),
    "not_an_object": ([1, 2], ["objet JSON"]),
}


@pytest.mark.parametrize("name", sorted(BAD_ZOOS))
def test_bad_zoos_are_refused_with_one_clear_line(name, tmp_path, capsys):
    document, words = BAD_ZOOS[name]
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    assert main(["score", "draftosaurus", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, lines
    for word in words:
        assert word in lines[0], (word, lines[0])
    assert "Traceback" not in captured.err


def test_bad_zoo_message_in_english(tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(game([("Bruno", {"forest_of_sameness": ["trex", "triceratops"]})])))
    assert main(["score", "draftosaurus", str(path), "--lang", "en"]) == 2
    assert ("Bruno's zoo is refused. The forest of sameness takes a single species, and here it is T-Rex."
            in capsys.readouterr().err)


@pytest.mark.parametrize("content, words", [
    (None, ["introuvable"]),
    ("{ not json", ["n'est pas du JSON valide", "ligne 1"]),
])
def test_missing_or_broken_file(content, words, tmp_path, capsys):
    path = tmp_path / "zoos.json"
    if content is not None:
        path.write_text(content)
    assert main(["score", "draftosaurus", str(path)]) == 2
    err = capsys.readouterr().err
    assert all(word in err for word in words) and len(err.strip().splitlines()) == 1


# ---- save files of the game loop ----------------------------------------------------------------------------

def saved_game(tmp_path: Path, state: dict) -> Path:
    path = tmp_path / "draftosaurus.json"
    write_save(path, "draftosaurus", {"settings": {}, "state": state})
    return path


def half_played_game() -> Game:
    game = Game.new(["Ana", "Ben", "Cid"], seed=4, options=Options(trio_points=6))
    for face, placements in (("forest", [("trex", "woody_trio"), ("trex", "woody_trio"), ("diplodocus", "river")]),
                             ("grassland", [("trex", "solitary_island"), ("diplodocus", "river"),
                                            ("stegosaurus", "river")])):
        game.apply(Roll(face))
        for player, (species, pen) in enumerate(placements):
            game.apply(Place(player, species, pen))
    return game


def test_a_save_file_is_scored_as_its_game_stands(tmp_path, capsys):
    game = half_played_game()
    result = score_json(saved_game(tmp_path, game.to_json()), capsys)
    assert result.pop("finished") is False  # the game is not over
    assert result == game.score().to_json()
    # by hand: Ana trio of 1 = 0, island T-Rex with another in the trio = 0, bonus trio + island = 2;
    # Ben trio of 1 = 0 + bonus 1, river 1 = 2; Cid river 2 = 2; all tie at 2, Cid has no T-Rex
    assert [player["total"] for player in result["players"]] == [2, 2, 2]
    assert result["winners"] == ["Cid"]


@pytest.mark.parametrize("lang, first_line", [
    ("fr", "Cette partie n'est pas finie : voici les scores à ce stade."),
    ("en", "This game is not over: here are the scores as they stand."),
    ("es", "Esta partida no ha terminado: estas son las puntuaciones por ahora.")])
def test_an_unfinished_save_is_scored_as_it_stands_and_says_so(tmp_path, capsys, lang, first_line):
    path = saved_game(tmp_path, half_played_game().to_json())
    assert main(["score", "draftosaurus", str(path), "--lang", lang]) == 0
    assert capsys.readouterr().out.splitlines()[0] == first_line


def test_a_save_with_an_illegal_move_is_refused_naming_the_move(tmp_path, capsys):
    state = half_played_game().to_json()
    state["actions"][5]["pen"] = "woody_trio"  # Ana, bound by the grassland face (roller: Ben)
    state.pop("snapshot")
    assert main(["score", "draftosaurus", str(saved_game(tmp_path, state))]) == 2
    err = capsys.readouterr().err
    assert "coup numéro 6" in err and "Pas dans le trio des bois : le dé impose un enclos de la plaine" in err


def test_a_damaged_save_is_refused(tmp_path, capsys):
    path = saved_game(tmp_path, half_played_game().to_json())
    document = json.loads(path.read_text())
    document["content"]["state"]["actions"].pop()
    path.write_text(json.dumps(document))
    assert main(["score", "draftosaurus", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "abîmé" in err[0]
