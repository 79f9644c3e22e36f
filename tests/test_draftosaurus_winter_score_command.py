"""`companion score draftosaurus FILE` on winter zoos: hand-scored files, the Quarantine move it chooses and
says, the values not confirmed yet, a table's own board file, and illegal winter zoos refused with exit
code 2 and one line naming the player, the pen and the rule.

The expected scores below were worked out by hand with the test board (tests/data/winter/board.yaml): wood
1/3/6/10/15/21 by count; pyramid 2 per bottom place, 5 per middle place, 9 for the top; banks of 4 places;
6 a couple across the bridge; lookout 2 per dinosaur of its species in the pens (not the river) of the
player named before; river 1 each; +1 per pen with a T-Rex (each bank its own, not the river).
Pen order in each tuple: well_ordered_wood, lovers_bridge, pyramid, lookout, quarantine, river.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main

DATA = Path(__file__).parent / "data" / "winter"
BOARD = DATA / "board.yaml"
SCORED = ("well_ordered_wood", "lovers_bridge", "pyramid", "lookout", "quarantine", "river")

# name -> ({player: (pens, trex_bonus, trex_count, total)}, {player: (species, pen, position, total)}, winners)
EXPECTED = {
    "01_three_players_quarantine": ({
        # Ana: wood 2 = 3; bridge: diplodocus couple, and the quarantine spinosaurus goes to the right bank for a
        # second couple = 12; pyramid 2+2+2+5 = 11; lookout triceratops, Cid (named before her) has 1 in pens
        # = 2; bonus (wood) 1 -> 29. Her other choices: left bank 23, pyramid middle right 28, river 24.
        "Ana": ((3, 12, 11, 2, 0, 0), 1, 1, 29),
        # Ben: pyramid 6, and the quarantine T-Rex takes the middle left place, the first of the two best
        # = 11; lookout stegosaurus, Ana has 1 = 2; river 1; bonus (pyramid) 1 -> 15.
        "Ben": ((0, 0, 11, 2, 0, 1), 1, 1, 15),
        # Cid: wood 1 = 1; parasaurolophus couple 6; lookout diplodocus, Ben has none = 0; river 2 -> 9.
        "Cid": ((1, 6, 0, 0, 0, 2), 0, 0, 9)},
        {"Ana": ("spinosaurus", "lovers_bridge_right", None, 29), "Ben": ("trex", "pyramid", "middle_left", 15)},
        ["Ana"]),
    "02_two_players_tiebreak": ({
        # Ana: wood 3 = 6; lookout stegosaurus, Ben has 2 in pens = 4; river 1; bonus (wood) 1 -> 12
        "Ana": ((6, 0, 0, 4, 0, 1), 1, 1, 12),
        # Ben: pyramid 6; lookout diplodocus, Ana has 2 = 4; river 2 -> 12; no T-Rex: wins the tie
        "Ben": ((0, 0, 6, 4, 0, 2), 0, 0, 12)}, {}, ["Ben"]),
    "03_single_zoo_full_pyramid": ({
        # pyramid full 25; the quarantine T-Rex goes to the wood (1 point and a bonus) rather than a bank or the
        # river (a point each); lookout alone 0; bonus wood + pyramid 2 -> 28
        "Solo": ((1, 0, 25, 0, 0, 0), 2, 4, 28)}, {"Solo": ("trex", "well_ordered_wood", None, 28)}, ["Solo"]),
}


def score(args: list[str], capsys) -> tuple[int, str, str]:
    code = main(["score", "draftosaurus", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_winter_files_score_as_counted_by_hand(name, capsys):
    players, moves, winners = EXPECTED[name]
    code, out, _ = score([str(DATA / f"{name}.json"), "--board", str(BOARD), "--json"], capsys)
    assert code == 0
    result = json.loads(out)
    assert result["board"] == "winter" and result["winners"] == winners and result["unconfirmed"] == []
    for player in result["players"]:
        pens, trex_bonus, trex_count, total = players[player["name"]]
        assert player["pens"] == dict(zip(SCORED, pens, strict=True)), player["name"]
        assert (player["trex_bonus"], player["trex_count"], player["total"]) == (trex_bonus, trex_count, total)
    assert {name: (m["species"], m["pen"], m["position"], m["total"]) for name, m in result["quarantine"].items()} \
        == moves


def test_report_says_the_quarantine_move_and_each_pen_in_french(capsys):
    code, out, _ = score([str(DATA / "01_three_players_quarantine.json"), "--board", str(BOARD)], capsys)
    assert code == 0
    assert "Plateau hiver : le point de vue ne compte pas la rivière du voisin de droite." in out
    assert "pas encore confirmées" not in out  # the test board is confirmed
    assert ("Quarantaine pour Ana : meilleure destination du spinosaure, rive droite du pont des amoureux, "
            "soit 29 points au total.") in out
    assert "Quarantaine pour Ben : meilleure destination du T-Rex, pyramide, au milieu à gauche, soit 15 points" in out
    assert "Pont des amoureux : 2 sur la rive gauche, 2 sur la rive droite, 2 couples, 12 points." in out
    assert "Point de vue : tricératops ; Cid, à droite, en a 1, 2 points." in out
    assert "Ana gagne avec 29 points, 14 points d'avance." in out


@pytest.mark.parametrize("lang, words", [
    ("en", ["Ben's quarantine: the best place for the T-Rex is the pyramid, middle left, for 15 points in all.",
            "Pyramid: 4 dinosaurs, 11 points.", "Lookout: stegosaurus; Ana, on the right, has 1, 2 points."]),
    ("es", ["Cuarentena de Ben: mejor destino para el T-Rex, pirámide, en medio a la izquierda, con 15 puntos",
            "Mirador: estegosaurio; Ana, a la derecha, tiene 1, 2 puntos."]),
])
def test_report_in_english_and_spanish(lang, words, capsys):
    code, out, _ = score([str(DATA / "01_three_players_quarantine.json"), "--board", str(BOARD), "--lang", lang],
                         capsys)
    assert code == 0
    for expected in words:
        assert expected in out


def test_the_shipped_board_is_used_by_default_and_its_unconfirmed_values_are_said(capsys):
    code, out, _ = score([str(DATA / "02_two_players_tiebreak.json")], capsys)
    assert code == 0
    assert ("Valeurs du plateau d'hiver pas encore confirmées, prises telles quelles : la table de points du bois "
            "bien ordonné, ") in out
    code, out, _ = score([str(DATA / "02_two_players_tiebreak.json"), "--json"], capsys)
    assert json.loads(out)["unconfirmed"] == ["well_ordered_wood_points", "pyramid_points",
                                              "lovers_bridge_left_capacity", "lovers_bridge_right_capacity",
                                              "areas", "sides"]


def winter(*zoos: dict) -> dict:
    return {"board": "winter",
            "players": [{"name": name, "zoo": zoo} for name, zoo in zip(("Ana", "Ben"), zoos, strict=False)]}


BAD = {
    "wood_twice_one_species": (winter({"well_ordered_wood": ["trex", "trex"]}),
                               ["Zoo d'Ana refusé. Bois bien ordonné :", "autre espèce que le T-Rex"]),
    "wood_breaks_the_alternation": (winter({}, {"well_ordered_wood": ["trex", "diplodocus", "diplodocus"]}),
                                    ["Zoo de Ben refusé. Bois bien ordonné :", "le prochain doit être un T-Rex"]),
    "pyramid_side_by_side": (winter({"pyramid": ["trex", "trex"]}),
                             ["Pyramide, en bas au centre :", "toucherait le T-Rex placé en bas à gauche",
                              "Places possibles : en bas à droite"]),
    "pyramid_middle_before_the_bottom_is_full": (winter({"pyramid": ["trex", None, "stegosaurus", "diplodocus"]}),
                                                 ["Pyramide, au milieu à gauche :", "rangée du dessous",
                                                  "en bas au centre"]),
    "pyramid_seven_places": (winter({"pyramid": ["trex", "diplodocus", "trex", "stegosaurus", "spinosaurus", "trex",
                                                 "diplodocus"]}),
                             ["Plus de place dans la pyramide : 6 dinosaures au plus."]),
    "bank_over_its_places": (winter({"lovers_bridge_left": ["trex"] * 5}),
                             ["Plus de place sur la rive gauche du pont des amoureux : 4 dinosaures au plus."]),
    "lookout_of_two": (winter({"lookout": ["trex", "diplodocus"]}),
                       ["Plus de place sur le point de vue : 1 dinosaure au plus."]),
    "quarantine_of_two": (winter({"quarantine": ["trex", "diplodocus"]}),
                          ["Plus de place dans la zone de quarantaine : 1 dinosaure au plus."]),
    "summer_pen_in_a_winter_zoo": (winter({"prairie_of_love": ["trex"]}), ["Enclos inconnu : « prairie_of_love »"]),
    "empty_place_outside_the_pyramid": (winter({"lookout": [None]}), ["Espèce inconnue"]),
    "thirteen_dinosaurs": (winter({"river": ["trex"] * 5 + ["diplodocus"] * 5 + ["stegosaurus"] * 3}),
                           ["13 dinosaures", "12 au plus"]),
    "more_than_the_bag": (winter({"river": ["trex"] * 5}, {"river": ["trex"] * 4}), ["Zoo de Ben refusé.", "8"]),
    "unknown_board": ({"board": "spring", "players": [{"name": "Ana", "zoo": {}}]}, ["« spring »"]),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_an_illegal_winter_zoo_is_refused_with_exit_code_2_and_one_line(name, tmp_path, capsys):
    document, words = BAD[name]
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    before = path.read_bytes()
    code, out, err = score([str(path), "--board", str(BOARD)] if name != "unknown_board" else [str(path)], capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1, err
    for expected in words:
        assert expected in err, (expected, err)
    assert path.read_bytes() == before


def test_a_bad_board_file_and_a_board_file_for_summer_are_refused(tmp_path, capsys):
    bad = tmp_path / "board.yaml"
    bad.write_text(BOARD.read_text(encoding="utf-8").replace("value: 4", "value: 0", 1), encoding="utf-8")
    code, _, err = score([str(DATA / "02_two_players_tiebreak.json"), "--board", str(bad)], capsys)
    assert code == 2 and "Fichier du plateau d'hiver refusé" in err and "de 1 à 12" in err
    code, _, err = score([str(DATA / "02_two_players_tiebreak.json"), "--board", str(tmp_path / "none.yaml")],
                         capsys)
    assert code == 2 and "introuvable" in err
    summer = tmp_path / "summer.json"
    summer.write_text(json.dumps({"board": "summer", "players": [{"name": "Ana", "zoo": {}}]}), encoding="utf-8")
    code, _, err = score([str(summer), "--board", str(BOARD)], capsys)
    assert code == 2 and "plateau d'hiver" in err


def test_summer_output_keeps_its_shape():
    text = json.dumps({"board": "summer", "players": [{"name": "Ana", "zoo": {"river": ["trex"]}}]})
    result = subprocess.run([sys.executable, "-m", "companion", "score", "draftosaurus", "-", "--json"],
                            input=text, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert set(json.loads(result.stdout)) == {"players", "winners"}


def test_a_winter_save_file_is_scored_on_its_own_board_values(tmp_path, capsys):
    from companion.dialogue.savefile import write_save
    from companion.games.draftosaurus.simulate import play_random_game
    from companion.games.draftosaurus.winter_board import load_winter_board

    board = load_winter_board(BOARD)
    game = play_random_game(3, 12, board="winter", winter_board=board)
    path = tmp_path / "winter_save.json"
    write_save(path, "draftosaurus", {"state": game.to_json()})
    code, out, _ = score([str(path), "--json"], capsys)
    assert code == 0
    result = json.loads(out)
    assert result["board"] == "winter" and result["unconfirmed"] == [] and result["quarantine"] == {}
    assert [player["total"] for player in result["players"]] == [player.total for player in game.score().players]
    code, out, _ = score([str(path), "--lang", "en"], capsys)
    assert out.startswith("Winter board: the lookout does not count the right-hand neighbour's river.")
