"""The winter board in the engine's setup, log and saves: the board field, pyramid places and Quarantine moves
as JSON actions, save and load at any point (the Quarantine phase included), undo by replay, and summer
saves written before the winter board existed still loading as they were."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from companion.cli import main
from companion.errors import BadInput, RuleViolation
from companion.games.draftosaurus.engine import Discard, Game, Place, QuarantineMove, Roll, action_from_json
from companion.games.draftosaurus.simulate import play_random_game, play_random_step
from companion.games.draftosaurus.winter_board import load_winter_board

SAVES = Path(__file__).parent / "data" / "saves"


def test_board_is_a_setup_field_summer_by_default():
    assert Game.new(["Ana", "Ben"]).board == "summer"
    winter = Game.new(["Ana", "Ben"], board="winter", seed=4)
    assert winter.board == "winter" and winter.pens[:2] == ("well_ordered_wood", "lovers_bridge_left")
    setup = winter.setup_json()
    assert setup["board"] == "winter" and setup["winter_board"] == load_winter_board().to_json()
    assert winter.to_json()["board"] == "winter"
    assert "board" not in Game.new(["Ana", "Ben"], seed=4).setup_json()  # summer saves keep their old shape


def test_unknown_board_and_winter_values_on_summer_are_refused():
    with pytest.raises(RuleViolation) as refused:
        Game.new(["Ana", "Ben"], board="spring")
    assert refused.value.reason.code == "draft_unknown_board"
    assert refused.value.reason.params["board_sides"] == ["summer", "winter"]
    with pytest.raises(BadInput):
        Game.new(["Ana", "Ben"], winter_board=load_winter_board())
    with pytest.raises(RuleViolation):
        Game.from_setup({"players": ["Ana", "Ben"], "board": "winter", "winter_board": {"values": {}}})


@pytest.mark.parametrize("action", [Place(1, "trex", "pyramid", "middle_left"), QuarantineMove(0, "river"),
                                    QuarantineMove(2, "pyramid", "top"), Place(0, "trex", "lookout")])
def test_winter_actions_round_trip_as_json(action):
    assert action_from_json(json.loads(json.dumps(action.to_json()))) == action


def test_summer_actions_keep_their_json():
    assert Place(0, "trex", "river").to_json() == {"type": "place", "player": 0, "species": "trex", "pen": "river"}
    with pytest.raises(BadInput):
        action_from_json({"type": "place", "player": 0, "species": "trex", "pen": "pyramid", "position": 3})
    with pytest.raises(BadInput):
        action_from_json({"type": "quarantine_move", "player": "0", "pen": "river"})


@pytest.mark.parametrize("name", ["summer_full_3_players_round_2.json", "summer_full_2_players_over.json"])
def test_summer_saves_from_before_the_winter_board_load_unchanged(name):
    saved = json.loads((SAVES / name).read_text(encoding="utf-8"))
    game = Game.from_json(saved)
    assert game.board == "summer" and game.to_json() == saved


def test_a_summer_save_file_from_before_is_still_scored(capsys):
    assert main(["score", "draftosaurus", str(SAVES / "summer_table_save_file.json"), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert [player["name"] for player in result["players"]] == ["Léa", "Ivy"]


def test_winter_games_save_and_load_at_every_step_the_quarantine_phase_included():
    game = Game.new(["Ana", "Ben", "Cid"], board="winter", mode="full", seed=11)
    choices = random.Random(11)
    seen_quarantine = False
    while game.phase != "over":
        saved = json.loads(json.dumps(game.to_json()))
        assert Game.from_json(saved).to_json() == saved
        seen_quarantine |= game.phase == "quarantine"
        _step_towards_quarantine(game, choices)
    assert seen_quarantine
    assert Game.from_json(game.to_json()).score() == game.score()


def test_a_tampered_winter_save_is_refused():
    game = play_random_game(3, 8, board="winter")
    saved = game.to_json()
    saved["snapshot"]["zoos"][0]["pyramid"] = ["trex"] * 6
    with pytest.raises(RuleViolation):
        Game.from_json(saved)
    saved = game.to_json()
    saved["actions"][1] = {**saved["actions"][1], "pen": "pyramid", "position": "top"}
    with pytest.raises(RuleViolation):
        Game.from_json(saved)


def test_undo_is_a_replay_without_the_last_actions():
    game = Game.new(["Ana", "Ben", "Cid"], board="winter", seed=2, tracked=[0])
    game.apply(Roll("forest"))
    game.apply(Place(0, "trex", "pyramid", "bottom_centre"))
    game.apply(Roll("forest"))
    game.apply(Place(0, "stegosaurus", "pyramid", "bottom_left"))
    undone = Game.replay(game.setup_json(), game.actions[:-1])
    assert undone.zoos[0]["pyramid"] == [None, "trex"]
    assert undone.phase == "place" and undone.check(Place(0, "stegosaurus", "pyramid", "bottom_right")) is None


def test_two_player_winter_game_discards_then_moves_the_quarantine():
    game = Game.new(["Ana", "Ben"], board="winter", mode="full", seed=3)
    choices = random.Random(3)
    while game.phase != "quarantine" and game.phase != "over":
        _step_towards_quarantine(game, choices)
    assert any(isinstance(action, Discard) for action in game.actions)
    assert game.phase == "quarantine"
    pending = {"players": [game.players[p] for p in game.waiting_for()]}
    assert game.check(Discard(0, "trex")).params == pending and game.check(Discard(0, "trex")).code == \
        "draft_quarantine_pending"
    assert game.check(Place(0, "trex", "river")).code == "draft_quarantine_pending"
    for player in list(game.waiting_for()):
        pen, position = game.quarantine_destinations(player)[-1]
        assert pen == "river"
        game.apply(QuarantineMove(player, pen, position))
    assert game.phase == "over" and all(not zoo["quarantine"] for zoo in game.zoos)


def test_only_tracked_players_are_asked_to_move_their_quarantine():
    game = Game.new(["Ana", "Ben", "Cid"], board="winter", seed=6, tracked=[0, 2])
    species = ["diplodocus", "spinosaurus", "stegosaurus", "triceratops", "parasaurolophus", "trex"]
    for turn in range(12):
        game.apply(Roll("forest"))
        for player in (0, 2):
            pen = "quarantine" if turn == 0 and player == 0 else "river"
            game.apply(Place(player, species[turn % 6], pen))
    assert game.phase == "quarantine" and game.waiting_for() == [0]
    with pytest.raises(RuleViolation):
        game.quarantine_choices(1)  # Ben is not followed
    assert game.check(QuarantineMove(2, "river")).code == "draft_quarantine_nothing"
    assert game.check(QuarantineMove(0, "pyramid")).code == "draft_pyramid_which_position"
    game.apply(QuarantineMove(0, "pyramid", "bottom_right"))
    assert game.phase == "over" and game.zoos[0]["pyramid"] == [None, None, "diplodocus"]
    assert game.check(QuarantineMove(0, "river")).code == "draft_game_over"


def _step_towards_quarantine(game: Game, choices: random.Random) -> None:
    """A random step that puts the first dinosaur it can into each player's Quarantine."""
    if game.phase == "place":
        for player in game.waiting_for():
            if not game.zoos[player]["quarantine"]:
                for species in game.hand(player):
                    if "quarantine" in game.legal_pens(player, species):
                        game.apply(Place(player, species, "quarantine"))
                        break
    if game.phase != "over" and game.waiting_for():
        play_random_step(game, choices)


def test_bench_engine_measures_winter_beside_summer(capsys):
    assert main(["bench", "engine", "--seconds", "0.05", "--repeats", "1", "--players", "3", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [(r["board"], r["players"]) for r in report["results"]] == [("summer", 3), ("winter", 3)]
    assert all(r["games"] >= 1 and r["games_per_second"] > 0 for r in report["results"])
    assert main(["bench", "engine", "--boards", "autumn"]) == 2
