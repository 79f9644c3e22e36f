"""Dino engine: the board data, the four points and the meteor, one pawn per square, eggs, exits, the end, scoring."""

import json

import pytest

from companion.errors import BadInput, RuleViolation
from companion.games.common import Reason
from companion.games.dino.actions import Meteor, Move, Penalty, action_from_json
from companion.games.dino.board import Board, load_board
from companion.games.dino.engine import HOME, OVER, PENALTIES, Game, ReplayRefused, TableQuestion
from companion.games.dino.ids import eggs_per_nest
from companion.games.dino.scoring import score_player
from companion.games.dino.starting_position import Setup, random_layout
from companion.language.messages import LANGUAGES, catalog

NESTS = {"red": "B2", "yellow": "C5", "green": "D3", "blue": "E2", "orange": "B5", "purple": "D5"}
BARRIERS = (("C3", "C4"), ("D4", "D5"), ("B2", "C2"))


def setup(players=("Ana", "Bruno"), **changes) -> Setup:
    values = {"players": tuple(players),
              "colours": ("red", "yellow", "green", "blue", "orange", "purple")[:len(players)],
              "nests": dict(NESTS), "barriers": BARRIERS}
    values.update(changes)
    return Setup(**values)


def new(players=("Ana", "Bruno"), **changes) -> Game:
    return Game.new(setup(players, **changes))


def refusal(game: Game, action) -> str:
    reason = game.check(action)
    assert reason is not None, action
    before = game.snapshot()
    with pytest.raises(RuleViolation):
        game.apply(action)
    assert game.snapshot() == before  # a refused action changes nothing
    return reason.code


def play(game: Game, *actions) -> Game:
    for action in actions:
        game.apply(action)
    return game


# ---- the board as data

def test_default_board_has_36_squares_and_12_start_positions_two_per_colour():
    board = load_board()
    assert len(board.squares) == 36 and board.squares[0] == "A1" and board.squares[-1] == "F6"
    assert len(board.start_positions) == 12 and board.start_squares == {f"{c}{r}" for c in "AF" for r in range(1, 7)}
    assert all(len(board.starts_of(colour)) == 2 for colour in board.pawn_colours)
    assert len(board.borders) == 60
    assert board.border("B2", "B3") == ("B2", "B3") and board.border("B3", "B2") == ("B2", "B3")
    assert board.border("B2", "C3") is None
    assert board.meteor_for(6) == 68 and board.meteor_for(2) == 28


def test_distances_cross_open_sides_only():
    board = load_board()
    open_board = board.distances(())
    assert open_board["A1"]["F6"] == 10 and open_board["C3"]["C3"] == 0
    walled = board.distances([("C3", "C4"), ("C3", "D3"), ("C2", "C3"), ("B3", "C3")])
    assert walled["C3"]["C4"] == -1 and walled["B3"]["D3"] == 4


def test_board_file_errors_say_which_field():
    data = load_board().to_json()
    with pytest.raises(BadInput, match="pawn colour red needs exactly 2"):
        Board.from_json({**data, "start_positions": data["start_positions"][1:]})
    with pytest.raises(BadInput, match="unknown colour 'pink'"):
        Board.from_json({**data, "egg_colours": ["pink"]})
    with pytest.raises(BadInput, match="meteor_stones gives no count for 6 players"):
        Board.from_json({**data, "meteor_stones": {2: 28, 3: 38, 4: 48, 5: 58}})
    with pytest.raises(BadInput, match="spaces"):
        Board.from_json({**data, "spaces": {"A1": [1, 2]}})
    assert Board.from_json(data) == load_board()


def test_a_table_can_edit_the_board(tmp_path):
    data = load_board().to_json()
    data["meteor_stones"] = {"2": 20, "3": 30, "4": 40, "5": 50, "6": 60}
    data["start_position_steps"] = 0
    path = tmp_path / "our_board.yaml"
    path.write_text(json.dumps(data), encoding="utf-8")
    board = load_board(path)
    game = Game.new(setup(board=board))
    assert game.meteor_left == 20
    assert game.least_steps(0, 0, "A1") == 1 and game.least_steps(0, 0, "B1") == 1


# ---- setup

@pytest.mark.parametrize("change, code", [
    ({"players": ("Ana",), "colours": ("red",)}, "dino_player_count"),
    ({"players": tuple("ABCDEFG"), "colours": ("red",) * 7}, "dino_player_count"),
    ({"players": ("Ana", "ana")}, "dino_duplicate_player"),
    ({"colours": ("red", "red")}, "dino_colour_taken"),
    ({"colours": ("red", "black")}, "dino_unknown_pawn_colour"),
    ({"nests": {**NESTS, "red": "A3"}}, "dino_nest_on_start"),
    ({"nests": {**NESTS, "red": "G3"}}, "dino_unknown_square"),
    ({"nests": {k: v for k, v in NESTS.items() if k != "blue"}}, "dino_nest_missing"),
    ({"nests": {**NESTS, "white": "C3"}}, "dino_unknown_egg_colour"),
    ({"barriers": (("C3", "C4"), ("D4", "D5"))}, "dino_barrier_count"),
    ({"barriers": (*BARRIERS, ("C2", "D2"), ("E3", "E4"), ("D2", "D3"))}, "dino_barrier_count"),
    ({"barriers": (("C3", "C4"), ("C4", "C3"), ("B2", "C2"))}, "dino_barrier_twice"),
    ({"barriers": (("C3", "D4"), ("D4", "D5"), ("B2", "C2"))}, "dino_not_a_border"),
    ({"barriers": (("A3", "B3"), ("D4", "D5"), ("B2", "C2"))}, "dino_barrier_at_start"),
    ({"eggs_rule": "lots"}, "dino_unknown_eggs_rule"),
    ({"meteor_stones": 29}, "dino_meteor_stones"),
    ({"meteor_stones": 0}, "dino_meteor_stones"),
])
def test_setup_the_rules_forbid_is_refused_with_a_reason(change, code):
    with pytest.raises(RuleViolation) as caught:
        Game.new(setup(**change))
    assert caught.value.reason.code == code


def test_own_colour_exits_only_with_two_or_three_players():
    assert Game.new(setup(("A", "B", "C"), own_colour_exits=True))
    with pytest.raises(RuleViolation) as caught:
        Game.new(setup(("A", "B", "C", "D"), own_colour_exits=True))
    assert caught.value.reason == Reason("dino_own_exits_players", {"count": 4, "most": 3})


@pytest.mark.parametrize("players, rule, eggs", [
    (2, "players_plus_one", 3), (4, "players_plus_one", 5), (5, "players_plus_one", 6), (6, "players_plus_one", 6),
    (4, "players", 4), (6, "players", 6), (4, "players_minus_one", 3), (2, "players_minus_one", 1),
    (6, "players_minus_one", 5)])
def test_eggs_per_nest_by_players_and_variant(players, rule, eggs):
    assert eggs_per_nest(players, rule) == eggs
    names = tuple("ABCDEF"[:players])
    game = new(names, eggs_rule=rule)
    assert {left for _square, left in game.nests().values()} == {eggs}


@pytest.mark.parametrize("players, stones", [(2, 28), (3, 38), (4, 48), (5, 58), (6, 68)])
def test_meteor_track_by_player_count_and_shortened_variant(players, stones):
    names = tuple("ABCDEF"[:players])
    assert new(names).meteor_left == stones
    assert new(names, meteor_stones=stones - 10).meteor_left == stones - 10


def test_random_layouts_are_legal():
    import random
    board = load_board()
    for seed in range(30):
        nests, barriers = random_layout(board, 2 + seed % 5, random.Random(seed))
        Game.new(setup(nests=nests, barriers=barriers))


# ---- the four points, the meteor and the movement table

def test_pawns_start_beside_their_colour_time_machines():
    game = new()
    assert [(v.place, v.square) for v in game.pawns(0)] == [("start", "A1"), ("start", "F6")]
    assert [(v.place, v.square) for v in game.pawns(1)] == [("start", "A2"), ("start", "F5")]


@pytest.mark.parametrize("square, least", [("A1", 1), ("B1", 2), ("A2", 2), ("C1", 3), ("B2", 3), ("D1", 4),
                                           ("A4", 4), ("E1", 5), ("F6", 11)])
def test_fewest_steps_from_a_time_machine(square, least):
    assert new().least_steps(0, 0, square) == least


def test_barrier_lengthens_the_shortest_way():
    game = play(new(), Move(0, 0, 4, "D1"), Meteor(1))
    assert game.least_steps(0, 0, "D2") == 1
    game = play(new(), Move(0, 0, 3, "B2"), Meteor(1))
    assert game.least_steps(0, 0, "C2") == 3  # B2|C2 is closed: round by B1 (or B3)


def test_points_not_walked_move_the_meteor():
    game = new()
    play(game, Move(0, 0, 3, "C1"))
    assert game.meteor_left == 27 and game.current_player == 1 and game.turn == 2
    play(game, Meteor(1))
    assert game.meteor_left == 23 and game.current_player == 0
    play(game, Move(0, 0, 4, "C1"))  # four spaces, all inside or around C1: the meteor does not move
    assert game.meteor_left == 23


def test_move_refusals():
    game = new()
    assert refusal(game, Move(1, 0, 2, "A3")) == "dino_not_your_turn"
    assert refusal(game, Move(0, 2, 2, "A3")) == "dino_unknown_pawn"
    assert refusal(game, Move(0, 0, 5, "B3")) == "dino_steps_range"
    assert refusal(game, Move(0, 0, 0, "A1")) == "dino_steps_range"
    assert refusal(game, Move(0, 0, 2, "B1", meteor=1)) == "dino_points_total"
    assert refusal(game, Move(0, 0, 2, "C1")) == "dino_too_far"
    assert game.check(Move(0, 0, 2, "C1")) == Reason("dino_too_far", {"square": "C1", "least": 3, "steps": 2})
    assert refusal(game, Move(0, 0, 2, "G1")) == "dino_unknown_square"
    assert refusal(game, Meteor(1)) == "dino_not_your_turn"
    assert game.check(Move(0, 0, 2, "B1", meteor=2)) is None


def test_one_pawn_per_square_at_the_end_of_a_move():
    game = play(new(), Move(0, 0, 2, "B1"))
    assert refusal(game, Move(1, 0, 3, "B1")) == "dino_square_taken"
    assert game.check(Move(1, 0, 3, "B1")).params == {"square": "B1", "colour": "red", "player": "Ana"}
    play(game, Move(1, 0, 4, "C1"))  # crossing B1 on the way is allowed: only the stop is checked
    assert game.check(Move(0, 0, 1, "B1")) is None  # staying in its own square, on another space
    assert game.occupant("C1").colour == "yellow"


def test_interpret_asks_the_table_what_the_data_cannot_say():
    game = new()
    assert game.interpret(0, steps=2, square="B1") == TableQuestion("which_pawn", {"colour": "red", "first": "A1",
                                                                                   "second": "F6"})
    assert game.interpret(0, pawn=0, steps=2) == TableQuestion("where", {"colour": "red"})
    assert game.interpret(0, pawn=0, square="C1") == TableQuestion("how_many", {"square": "C1", "least": 3})
    assert game.interpret(0, pawn=0, square="B1", meteor=2) == Move(0, 0, 2, "B1", meteor=2)
    assert game.interpret(0, meteor=4) == Meteor(0)
    assert game.interpret(1, pawn=0, square="B1", steps=2) == Reason("dino_not_your_turn",
                                                                      {"player": "Bruno", "current": "Ana"})


# ---- eggs

def reach_red_nest() -> Game:
    """Ana's first pawn walks to B2, where the red nest is."""
    return play(new(), Move(0, 0, 3, "B2", egg="red"))


def test_taking_an_egg_at_the_end_of_a_move():
    game = reach_red_nest()
    assert game.eggs(0) == ["red"] and game.nests()["red"] == ("B2", 2)
    assert game.meteor_left == 27


def test_egg_refusals():
    game = new()
    assert refusal(game, Move(0, 0, 2, "B1", egg="red")) == "dino_nest_not_here"
    assert refusal(game, Move(0, 0, 3, "B2", egg="white")) == "dino_unknown_egg_colour"
    game = reach_red_nest()
    play(game, Meteor(1))
    assert game.egg_choices(0, 0, "B2") == []
    assert refusal(game, Move(0, 0, 1, "B2", egg="red")) == "dino_egg_same_visit"


def test_one_egg_per_visit_leaving_the_square_allows_another():
    game = reach_red_nest()
    play(game, Meteor(1), Move(0, 0, 1, "B3"), Meteor(1))
    assert game.egg_choices(0, 0, "B2") == ["red"]
    play(game, Move(0, 0, 1, "B2", egg="red"))
    assert game.eggs(0) == ["red", "red"] and game.nests()["red"] == ("B2", 1)


def test_an_empty_nest_gives_nothing_and_the_last_egg_is_on_show():
    game = new(eggs_rule="players_minus_one")  # one egg per nest with two players
    play(game, Move(0, 0, 3, "B2", egg="red"), Move(1, 0, 3, "B3"), Move(0, 0, 1, "B1"))
    assert refusal(game, Move(1, 0, 1, "B2", egg="red")) == "dino_nest_empty"
    assert game.egg_choices(1, 0, "B2") == []


def test_two_nests_in_one_square_each_give_an_egg():
    game = new(nests={**NESTS, "yellow": "B2"})
    play(game, Move(0, 0, 3, "B2", egg="red"), Meteor(1))
    assert game.egg_choices(0, 0, "B2") == ["yellow"]
    play(game, Move(0, 0, 1, "B2", egg="yellow"))
    assert game.eggs(0)[-1] == "yellow"


# ---- exits

def test_a_pawn_reaching_a_time_machine_leaves_for_good():
    game = play(new(), Move(0, 0, 2, "B1"), Meteor(1))
    assert refusal(game, Move(0, 0, 1, "B1", exit=True)) == "dino_exit_not_start"
    assert refusal(game, Move(0, 0, 1, "A1", exit=True)) == "dino_too_far"
    play(game, Move(0, 0, 2, "A1", exit=True))
    assert game.pawn(0, 0).place == HOME
    play(game, Meteor(1))
    assert refusal(game, Move(0, 0, 2, "B1")) == "dino_pawn_home"
    assert game.in_play(0) == [1]


def test_exit_refusals():
    game = new()
    assert refusal(game, Move(0, 0, 1, "A1", exit=True)) == "dino_exit_not_entered"
    game = reach_red_nest()
    play(game, Meteor(1))
    assert refusal(game, Move(0, 0, 4, "A2", exit=True, egg="red")) == "dino_egg_with_exit"


def test_own_colour_exits_variant():
    game = play(new(own_colour_exits=True), Move(0, 0, 2, "B1"), Meteor(1))
    assert game.exits_allowed(0) == ["A1", "F6"]
    assert refusal(game, Move(0, 0, 3, "A2", exit=True)) == "dino_exit_other_colour"
    play(game, Move(0, 0, 2, "A1", exit=True))
    plain = play(new(), Move(0, 0, 2, "B1"), Meteor(1))
    assert plain.check(Move(0, 0, 3, "A2", exit=True)) is None


def test_a_player_without_pawns_feeds_the_meteor():
    game = play(new(), Move(0, 0, 2, "B1"), Meteor(1), Move(0, 0, 2, "A1", exit=True), Meteor(1),
                Move(0, 1, 2, "E6"), Meteor(1), Move(0, 1, 2, "F6", exit=True), Meteor(1))
    assert game.must_feed_meteor(0) and not game.must_feed_meteor(1)
    assert game.interpret(0, steps=2, square="B1") == Reason("dino_no_pawn_left", {"player": "Ana", "colour": "red"})
    assert [type(a) for a in game.legal_actions()] == [Meteor]


# ---- the end and scoring

def test_meteor_on_its_last_stone_ends_the_game_and_asks_for_penalties():
    game = new(meteor_stones=5)
    play(game, Move(0, 0, 3, "B2", egg="red"))  # one point to the meteor: 4 left
    play(game, Meteor(1))  # the meteor falls (it stops on the last stone)
    assert game.meteor_left == 0 and game.phase == PENALTIES and game.current_player == 1
    assert refusal(game, Meteor(0)) == "dino_meteor_fell"
    assert [(v.player, v.pawn, v.square) for v in game.penalties_due()] == [(0, 0, "B2")]
    assert game.penalty_least(0, 0) == 2  # B2 -> A2, then its time machine
    assert refusal(game, Penalty(0, 0, 1)) == "dino_penalty_too_low"
    assert refusal(game, Penalty(1, 0, 2)) == "dino_no_penalty_due"
    play(game, Penalty(0, 0, 4))
    assert game.phase == OVER and game.penalties() == {(0, 0): 4}
    sheet = game.score()
    assert [(p.eggs, p.colours, p.penalty, p.total) for p in sheet.players] == [(1, ["red"], 4, 2), (0, [], 0, 0)]
    assert sheet.final and sheet.reason == Reason("dino_win", {"player": "Ana", "points": 2})
    assert refusal(game, Penalty(0, 0, 4)) == "dino_game_over"


def test_game_ends_at_once_when_no_pawn_is_left_on_the_board():
    game = play(new(meteor_stones=4), Meteor(0))
    assert game.phase == OVER and game.penalties_due() == []
    assert refusal(game, Meteor(1)) == "dino_game_over"


def test_penalty_only_after_the_fall():
    game = play(new(), Move(0, 0, 2, "B1"))
    assert refusal(game, Penalty(0, 0, 3)) == "dino_meteor_flying"


def test_scoring_example_of_the_rules():
    assert score_player("Ana", "red", ["red", "green", "blue", "blue"], 0).total == 19


def test_scoring_ties_are_shared_and_penalties_subtract():
    from companion.games.dino.scoring import score_players
    sheet = score_players(["A", "B", "C"], ["red", "blue", "green"],
                          [["red", "red"], ["green", "blue"], ["green", "blue", "blue"]], [0, 5, 1], final=True)
    assert [p.total for p in sheet.players] == [7, 7, 12]
    assert sheet.reason == Reason("dino_win", {"player": "C", "points": 12})
    tied = score_players(["A", "B"], ["red", "blue"], [["red"], ["blue"]], [0, 0], final=True)
    assert tied.winners == [0, 1] and tied.reason.code == "dino_win_shared"
    assert score_players(["A", "B"], ["red", "blue"], [[], []], [0, 0], final=False).reason.code == "dino_lead_shared"


# ---- saves and replay

def test_json_round_trip_and_replay():
    game = play(reach_red_nest(), Meteor(1), Move(0, 0, 1, "B3"))
    data = json.loads(json.dumps(game.to_json()))
    again = Game.from_json(data)
    assert again.snapshot() == game.snapshot() and again.actions == game.actions
    assert again.setup.to_json() == game.setup.to_json()


def test_tampered_save_is_refused():
    data = reach_red_nest().to_json()
    data["snapshot"]["eggs"] = [["red", "red"], []]
    with pytest.raises(RuleViolation) as caught:
        Game.from_json(data)
    assert caught.value.reason.code == "dino_save_inconsistent"
    data = reach_red_nest().to_json()
    data["actions"].append({"type": "move", "player": 0, "pawn": 0, "steps": 1, "square": "B2"})
    with pytest.raises(ReplayRefused) as refused:
        Game.from_json({k: v for k, v in data.items() if k != "snapshot"})
    assert refused.value.number == 2 and refused.value.reason.code == "dino_not_your_turn"


def test_bad_action_json_is_bad_input():
    for bad in ({"type": "fly"}, {"type": "move", "player": 0}, {"type": "move", "player": 0, "pawn": 0, "steps": 1,
                                                                  "square": "B1", "exit": "yes"}, [1]):
        with pytest.raises(BadInput):
            action_from_json(bad)
    assert action_from_json(Move(0, 1, 2, "B1", egg="red").to_json()) == Move(0, 1, 2, "B1", egg="red")


# ---- every reason has words

def test_every_reason_and_question_has_a_message_in_every_language():
    import re
    from pathlib import Path
    source = "\n".join(p.read_text(encoding="utf-8") for p in Path("companion/games/dino").glob("*.py"))
    codes = set(re.findall(r'Reason\(\s*"(dino_\w+)"', source)) | {"dino_win", "dino_win_shared", "dino_lead",
                                                                    "dino_lead_shared"}
    assert len(codes) > 35
    for lang in LANGUAGES:
        for code in codes:
            assert f"reasons.{code}" in catalog(lang).messages, (lang, code)
