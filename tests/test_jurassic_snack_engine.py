"""Jurassic Snack engine: boards and assemblies, the movement table, each token effect and its fallback,
Blue's single first action, the three end conditions and the tie-breaks."""

import pytest

from companion.errors import BadInput, RuleViolation
from companion.games.common import Reason
from companion.games.jurassic_snack.actions import (
    Erupt,
    Fly,
    Hatch,
    Look,
    Move,
    Pass,
    Reveal,
    Scout,
    action_from_json,
    action_to_json,
)
from companion.games.jurassic_snack.engine import (
    EDGE,
    EFFECT,
    EMPTY,
    GAP,
    GRASS,
    HIDDEN,
    OVER,
    PHYSICAL,
    REVEAL,
    Game,
    Options,
)
from companion.games.jurassic_snack.ids import TOKEN_COUNTS, TOKENS
from companion.games.jurassic_snack.layout import Layout, Placement, local_egg
from companion.games.jurassic_snack.scoring import player_score, points_outcome

BLUE, YELLOW = 0, 1


def arrange(game: Game, cells: dict[str, str], *, player: int = BLUE, actions_left: int = 2) -> Game:
    """Put the area in a chosen position (everything else empty): a test fixture, not a game rule."""
    for square in game.layout.squares:
        game._cells[square] = EMPTY
    game._cells.update(cells)
    for index, color in enumerate(("blue", "yellow")):
        game._reserve[index] = 5 - sum(1 for c in game._cells.values() if c == color)
    game._trex_waiting = 2 - sum(1 for c in game._cells.values() if c == "trex")
    game._player, game._actions_left = player, actions_left
    return game


def physical(cells: dict[str, str], **kwargs) -> Game:
    return arrange(Game.new(["Ana", "Ben"], mode=PHYSICAL, seed=1), cells, **kwargs)


# ---- boards and assemblies

def test_default_square_has_the_egg_squares_of_the_rules_notes():
    layout = Layout.default()
    assert (layout.width, layout.height, len(layout.squares)) == (6, 6, 36)
    assert layout.eggs == {"blue": ("B5", "D5", "C1", "E1"), "yellow": ("B4", "F5", "A3", "E2")}
    assert layout.local_name("B5") == ("A", "B2") and layout.square_at("A", "B2") == "B5"
    assert layout.square_at("D", "C3") == "F3" and layout.square_at("D", "D1") is None


def test_a_new_game_covers_every_non_egg_square_with_grass():
    game = Game.new(["Ana", "Ben"], mode=HIDDEN, seed=5)
    assert game.grass_left == 28 and game.reserve(BLUE) == game.reserve(YELLOW) == 1 and game.trex_waiting == 2
    assert sorted(game._tokens.values()) == sorted(t for t in TOKENS for _ in range(TOKEN_COUNTS[t]))
    assert game._tokens == Game.new(["Ana", "Ben"], mode=HIDDEN, seed=5)._tokens
    assert game._tokens != Game.new(["Ana", "Ben"], mode=HIDDEN, seed=6)._tokens


@pytest.mark.parametrize("board", "ABCD")
def test_four_quarter_turns_bring_the_eggs_back(board):
    for color in ("blue", "yellow"):
        assert local_egg(board, color, 4) == local_egg(board, color, 0)
        assert local_egg(board, color, 1) != local_egg(board, color, 0) or local_egg(board, color, 0) == (1, 1)


def test_a_turned_board_moves_its_eggs():
    # Board A turned a quarter clockwise: its yellow egg (1,2 from the top-left) goes to the west middle square.
    layout = Layout.build([Placement("A", 0, 3, 1), Placement("B", 3, 3), Placement("C", 0, 0), Placement("D", 3, 0)])
    assert layout.local_name(layout.eggs["yellow"][0]) == ("A", "A2")
    assert layout.local_name(layout.eggs["blue"][0]) == ("A", "B2")


def test_a_line_of_boards_names_squares_and_makes_gaps():
    # An L: A, B, C in a row along the south, D above C.
    layout = Layout.build([{"board": "A", "column": 0, "row": 0}, {"board": "B", "column": 3, "row": 0},
                           {"board": "C", "column": 6, "row": 0}, {"board": "D", "column": 6, "row": 3}])
    assert (layout.width, layout.height, len(layout.squares)) == (9, 6, 36)
    assert "A4" not in layout.coords and layout.square_at("D", "A1") == "G4"
    assert layout.neighbour("F3", "north") is None and layout.neighbour("G3", "north") == "G4"
    assert not layout.is_default


@pytest.mark.parametrize("placements, code", [
    ([{"board": "A", "column": 0, "row": 0}] * 4, "js_layout_boards"),
    ([{"board": "A", "column": 0, "row": 0}, {"board": "B", "column": 2, "row": 0},
      {"board": "C", "column": 0, "row": 3}, {"board": "D", "column": 3, "row": 3}], "js_layout_overlap"),
    ([{"board": "A", "column": 0, "row": 0}, {"board": "B", "column": 3, "row": 0},
      {"board": "C", "column": 7, "row": 0}, {"board": "D", "column": 3, "row": 4}], "js_layout_side_alone"),
    ([{"board": "A", "column": 0, "row": 0}, {"board": "B", "column": 3, "row": 0},
      {"board": "C", "column": 0, "row": 9}, {"board": "D", "column": 3, "row": 9}], "js_layout_not_connected"),
    ([{"board": "E", "column": 0, "row": 0}], "js_layout_unknown_board"),
    ([{"board": "A", "column": 0, "row": 0, "rotation": 5}], "js_layout_bad_number"),
    ("square", "js_layout_not_a_list"),
])
def test_illegal_assemblies_are_refused_with_a_reason(placements, code):
    with pytest.raises(RuleViolation) as error:
        Layout.build(placements)
    assert error.value.reason.code == code


def test_boards_touching_only_by_part_of_a_side_are_legal_when_each_shares_a_whole_side():
    layout = Layout.build([{"board": "A", "column": 0, "row": 0}, {"board": "B", "column": 3, "row": 0},
                           {"board": "C", "column": 1, "row": 3}, {"board": "D", "column": 4, "row": 3}])
    assert len(layout.squares) == 36 and layout.neighbour("A3", "north") is None


# ---- the movement table

MOVES = [
    # (cells, player, piece, square, direction, where it stops, what stopped it)
    ({"A1": "blue", "F6": "yellow"}, BLUE, "diplo", "A1", "north", "A6", EDGE),
    ({"A1": "blue", "A4": "yellow", "F6": "yellow"}, BLUE, "diplo", "A1", "north", "A3", "yellow"),
    ({"A1": "blue", "A4": "blue", "F6": "yellow"}, BLUE, "diplo", "A1", "north", "A3", "blue"),
    ({"A1": "blue", "A4": "trex", "F6": "yellow"}, BLUE, "diplo", "A1", "north", "A3", "trex"),
    ({"A1": "blue", "A4": GRASS, "F6": "yellow"}, BLUE, "diplo", "A1", "north", "A4", GRASS),
    ({"A1": "blue", "B1": GRASS, "F6": "yellow"}, BLUE, "diplo", "A1", "east", "B1", GRASS),
    ({"F6": "yellow", "F1": "blue"}, YELLOW, "diplo", "F6", "south", "F2", "blue"),
    ({"C3": "trex", "C6": "trex", "A1": "blue", "F1": "yellow"}, BLUE, "trex", "C3", "north", "C5", "trex"),
    ({"C3": "trex", "C5": GRASS, "A1": "blue", "F1": "yellow"}, BLUE, "trex", "C3", "north", "C4", GRASS),
    ({"C3": "trex", "A3": "yellow", "A1": "blue", "F1": "yellow"}, BLUE, "trex", "C3", "west", "A3", "yellow"),
    ({"C3": "trex", "A1": "blue", "F1": "yellow"}, YELLOW, "trex", "C3", "east", "F3", EDGE),
    ({"C3": "trex", "C1": "blue", "F1": "yellow"}, YELLOW, "trex", "C3", "south", "C1", "blue"),
]


@pytest.mark.parametrize("cells, player, piece, square, direction, target, blocker", MOVES)
def test_movement_table(cells, player, piece, square, direction, target, blocker):
    game = physical(cells, player=player)
    slide = game.slide(square, direction)
    assert (slide.target, slide.blocker) == (target, blocker)
    game.apply(Move(player, piece, square, direction))
    assert game.content(square) == EMPTY
    assert game.content(target) == ("trex" if piece == "trex" else ("blue", "yellow")[player])


BLOCKED = [
    ({"A1": "blue", "A2": "yellow", "F6": "yellow"}, "diplo", "A1", "north", "yellow"),
    ({"A1": "blue", "A2": "trex", "F6": "yellow"}, "diplo", "A1", "north", "trex"),
    ({"A1": "blue", "F6": "yellow"}, "diplo", "A1", "west", EDGE),
    ({"A1": "blue", "F6": "yellow"}, "diplo", "A1", "south", EDGE),
    ({"C3": "trex", "C4": "trex", "A1": "blue", "F6": "yellow"}, "trex", "C3", "north", "trex"),
    ({"C3": "trex", "C4": GRASS, "A1": "blue", "F6": "yellow"}, "trex", "C3", "north", GRASS),
    ({"C6": "trex", "A1": "blue", "F6": "yellow"}, "trex", "C6", "north", EDGE),
]


@pytest.mark.parametrize("cells, piece, square, direction, blocker", BLOCKED)
def test_a_piece_that_cannot_move_at_all_is_refused_with_what_blocks_it(cells, piece, square, direction, blocker):
    game = physical(cells)
    before = game.to_json()
    reason = game.check(Move(BLUE, piece, square, direction))
    assert reason.code == "js_blocked" and reason.params["blocker"] == blocker
    with pytest.raises(RuleViolation):
        game.apply(Move(BLUE, piece, square, direction))
    assert game.to_json() == before


def test_squares_outside_every_board_stop_pieces_like_the_edge():
    layout = Layout.build([{"board": "A", "column": 0, "row": 0}, {"board": "B", "column": 3, "row": 0},
                           {"board": "C", "column": 6, "row": 0}, {"board": "D", "column": 6, "row": 3}])
    game = arrange(Game.new(["Ana", "Ben"], layout=layout, seed=1), {"A1": "blue", "G6": "yellow"})
    assert game.check(Move(BLUE, "diplo", "A1", "north")) is None
    assert game.slide("A1", "north").target == "A3" and game.slide("A1", "north").blocker == GAP
    assert game.slide("A1", "east").target == "I1"
    game.apply(Move(BLUE, "diplo", "A1", "north"))
    assert game.check(Move(BLUE, "diplo", "A3", "north")).params["blocker"] == GAP


@pytest.mark.parametrize("action, code", [
    (Move(BLUE, "diplo", "B4", "north"), "js_not_your_diplo"),
    (Move(BLUE, "diplo", "A1", "north"), "js_no_diplo_there"),
    (Move(BLUE, "trex", "B5", "north"), "js_no_trex_there"),
    (Move(BLUE, "diplo", "Z9", "north"), "js_unknown_square"),
    (Move(BLUE, "diplo", "B5", "up"), "js_unknown_direction"),
    (Move(BLUE, "stego", "B5", "north"), "js_unknown_piece"),
    (Move(YELLOW, "diplo", "B4", "south"), "js_not_your_turn"),
    (Move(7, "diplo", "B4", "south"), "js_unknown_player"),
    (Pass(BLUE), "js_can_move"),
    (Reveal(BLUE, "birth"), "js_no_effect_pending"),
])
def test_wrong_moves_are_refused_with_a_reason(action, code):
    game = Game.new(["Ana", "Ben"], seed=1)
    assert game.check(action).code == code


def test_the_opening_position_blocks_nothing_but_edges_and_diplos():
    game = Game.new(["Ana", "Ben"], seed=1)
    # B5 (blue) has yellow on B4 to the south: blocked; to the north it eats the grass on B6.
    assert game.check(Move(BLUE, "diplo", "B5", "south")).params["blocker"] == "yellow"
    assert game.slide("B5", "north").target == "B6"


# ---- turns

def test_blue_plays_one_action_first_then_two_each():
    game = Game.new(["Ana", "Ben"], mode=HIDDEN, seed=2)
    assert (game.player, game.actions_left, game.turn) == (BLUE, 1, 1)
    play_until_action(game)
    game.apply(Move(BLUE, "diplo", "B5", "north"))
    play_until_action(game)
    assert (game.player, game.actions_left, game.turn) == (YELLOW, 2, 2)
    game.apply(Move(YELLOW, "diplo", "A3", "south"))
    play_until_action(game)
    assert (game.player, game.actions_left) == (YELLOW, 1)
    game.apply(Move(YELLOW, "diplo", "F5", "north"))
    play_until_action(game)
    assert (game.player, game.actions_left, game.turn) == (BLUE, 2, 3)


def play_until_action(game: Game) -> None:
    """Resolve a pending effect with its first legal choice."""
    while game.phase in (REVEAL, EFFECT):
        game.apply(game.legal_actions()[0])


def test_a_player_who_cannot_move_passes_the_turn():
    game = physical({"A1": "blue", "A2": "yellow", "B1": "yellow", "F6": "yellow"})
    assert game.legal_actions() == [Pass(BLUE)]
    game.apply(Pass(BLUE))
    assert (game.player, game.events[0].code) == (YELLOW, "js_passed")


# ---- tokens and effects (physical tokens: the table says what was eaten)

def eat(game: Game, token: str, square: str = "A1", direction: str = "north") -> Game:
    game.apply(Move(game.player, "diplo", square, direction))
    assert game.phase == REVEAL and game.events[-1].code == "js_turn_token"
    assert game.check(Move(game.player, "diplo", game.eater, "north")).code == "js_reveal_first"
    game.apply(Reveal(game.player, token))
    return game


BASE = {"A1": "blue", "A2": GRASS, "C3": GRASS, "D4": GRASS, "F6": "yellow", "F1": "yellow"}


def test_yum_yum_scores_two_points_and_does_nothing_else():
    game = eat(physical(BASE), "yum_yum")
    assert game.phase == "action" and game.actions_left == 1 and game.score()[BLUE].points == 2


def test_birth_brings_a_reserve_diplo_onto_an_empty_square():
    game = eat(physical(BASE), "birth")
    assert (game.phase, game.pending) == (EFFECT, "birth")
    assert game.check(Move(BLUE, "diplo", "A2", "east")).code == "js_effect_first"
    assert game.check(Hatch(BLUE, "C3")).code == "js_square_not_empty"
    reserve = game.reserve(BLUE)
    game.apply(Hatch(BLUE, "E5"))
    assert game.content("E5") == "blue" and game.reserve(BLUE) == reserve - 1 and game.phase == "action"


def test_birth_with_no_diplo_in_reserve_falls_back_to_a_look_at_two_tokens():
    cells = {**BASE, "B1": "blue", "B2": "blue", "B3": "blue", "B4": "blue"}
    game = eat(physical(cells), "birth")
    assert game.reserve(BLUE) == 0 and game.pending == "look"
    assert [e.code for e in game.events][-2:] == ["js_no_effect", "js_effect"]
    game.apply(Look(BLUE))  # real tokens: the player looked at the table
    assert game.notes_for(BLUE)[-1].source == "look" and game.phase == "action"


def test_scouting_tells_one_player_every_token_of_a_board_in_hidden_mode():
    game = arrange(Game.new(["Ana", "Ben"], mode=HIDDEN, seed=3), {**BASE, "A2": GRASS})
    game._tokens = {"A2": "scouting", "C3": "surprise", "D4": "yum_yum"}
    game.apply(Move(BLUE, "diplo", "A1", "north"))
    assert game.pending == "scouting"
    assert game.check(Scout(BLUE, "A")).code == "js_board_no_grass"
    assert game.check(Scout(BLUE, "X")).code == "js_unknown_board"
    game.apply(Scout(BLUE, "C"))  # board C is the south-west board: A1 to C3
    assert game.notes_for(BLUE) == [game.notes[0]] and game.notes_for(YELLOW) == []
    assert game.notes[0].tokens == (("C3", "surprise"),)
    assert game.events[-1] == Reason("js_scouted", {"player": "Ana", "board": "C"})


def test_air_transport_flies_any_diplo_to_an_empty_square():
    game = eat(physical(BASE), "air_transport")
    assert game.check(Fly(BLUE, "C3", "E5")).code == "js_no_diplo_to_fly"
    assert game.check(Fly(BLUE, "F6", "D4")).code == "js_square_not_empty"
    game.apply(Fly(BLUE, "F6", "E5"))
    assert game.content("E5") == "yellow" and game.content("F6") == EMPTY


def test_air_strike_without_a_trex_on_the_area_falls_back_to_a_look():
    game = eat(physical(BASE), "air_strike")
    assert game.pending == "look"


def test_air_strike_flies_a_trex():
    game = eat(physical({**BASE, "E3": "trex"}), "air_strike")
    assert game.pending == "air_strike"
    assert game.check(Fly(BLUE, "F6", "E5")).code == "js_no_trex_there"
    game.apply(Fly(BLUE, "E3", "E5"))
    assert game.content("E5") == "trex"


def test_eruption_removes_two_grass_tokens_unseen():
    game = eat(physical(BASE), "eruption")
    assert game.check(Erupt(BLUE, ("C3",))).code == "js_choose_grass"
    assert game.check(Erupt(BLUE, ("C3", "C3"))).code == "js_choose_grass"
    assert game.check(Erupt(BLUE, ("C3", "E5"))).code == "js_no_grass_there"
    game.apply(Erupt(BLUE, ("C3", "D4")))
    assert game.grass_left == 0 and game.removed == 2
    assert game.phase == OVER and game.end == "no_grass"


def test_eruption_with_one_token_left_removes_it():
    game = eat(physical({"A1": "blue", "A2": GRASS, "C3": GRASS, "F6": "yellow"}), "eruption")
    game.apply(Erupt(BLUE, ("C3",)))
    assert game.end == "no_grass"


def test_surprise_puts_a_waiting_trex_in_place_of_the_diplo_that_ate():
    game = eat(physical({**BASE, "B1": "blue"}), "surprise")
    assert game.content("A2") == "trex" and game.trex_waiting == 1 and game.reserve(BLUE) == 4
    assert game.score()[BLUE].points == 3 and game.phase == "action"


def test_surprise_with_both_trex_on_the_area_falls_back_to_a_look():
    game = eat(physical({**BASE, "E3": "trex", "E5": "trex"}), "surprise")
    assert game.pending == "look" and game.trex_waiting == 0


def test_surprise_on_the_last_diplo_of_a_player_loses_the_game():
    game = eat(physical(BASE), "surprise")
    assert game.phase == OVER and game.end == "elimination" and game.outcome.winners == (YELLOW,)


def test_a_look_in_hidden_mode_names_two_grass_squares_and_tells_only_that_player():
    game = arrange(Game.new(["Ana", "Ben"], mode=HIDDEN, seed=3), BASE)
    game._tokens = {"A2": "air_strike", "C3": "surprise", "D4": "yum_yum"}
    game.apply(Move(BLUE, "diplo", "A1", "north"))
    assert game.pending == "look"
    assert game.check(Look(BLUE)).code == "js_choose_grass"
    game.apply(Look(BLUE, ("D4", "C3")))
    assert game.notes_for(BLUE)[0].tokens == (("D4", "yum_yum"), ("C3", "surprise"))
    assert game.notes_for(YELLOW) == []


def test_a_token_kind_cannot_be_revealed_more_often_than_the_box_holds():
    game = physical({"A1": "blue", "A2": GRASS, "C3": GRASS, "F6": "yellow"})
    game._eaten[YELLOW] = ["surprise", "surprise"]
    game.apply(Move(BLUE, "diplo", "A1", "north"))
    assert game.check(Reveal(BLUE, "surprise")) == Reason("js_token_exhausted", {"token": "surprise", "count": 2})
    assert game.check(Reveal(BLUE, "chocolate")).code == "js_unknown_token"


# ---- chasing and the end

def test_a_trex_chases_a_diplo_back_to_its_owners_reserve():
    game = physical({"C3": "trex", "A3": "yellow", "F6": "yellow", "A1": "blue"})
    game.apply(Move(BLUE, "trex", "C3", "west"))
    assert game.reserve(YELLOW) == 4 and game.content("A3") == "trex"
    assert [e.code for e in game.events] == ["js_moved", "js_chased"]


def test_chasing_the_last_diplo_of_a_player_ends_the_game_whatever_the_points():
    game = physical({"C3": "trex", "A3": "yellow", "A1": "blue", "A2": GRASS})
    game._eaten[YELLOW] = ["surprise"] * 2 + ["yum_yum"] * 6
    game.apply(Move(BLUE, "trex", "C3", "west"))
    assert game.phase == OVER and game.end == "elimination" and game.outcome.winners == (BLUE,)
    assert game.outcome.reason == Reason("js_win_elimination", {"player": "Ana", "loser": "Ben"})
    assert game.check(Move(BLUE, "diplo", "A1", "north")).code == "js_game_over"


def test_eating_the_last_grass_token_ends_the_game_and_the_token_scores():
    game = eat(physical({"A1": "blue", "A2": GRASS, "F6": "yellow"}), "birth")
    assert game.phase == OVER and game.end == "no_grass" and game.eaten(BLUE) == ["birth"]
    assert game.outcome.winners == (BLUE,)


@pytest.mark.parametrize("quiet_turns", [2, 4])
def test_turns_in_a_row_without_eating_or_chasing_end_the_game(quiet_turns):
    game = arrange(Game.new(["Ana", "Ben"], seed=1, options=Options(quiet_turns=quiet_turns)),
                   {"A1": "blue", "F6": "yellow", "C3": GRASS})
    moves = {BLUE: [("A1", "north"), ("A6", "south")], YELLOW: [("F6", "south"), ("F1", "north")]}
    for _turn in range(quiet_turns):
        assert game.phase != OVER
        for square, direction in moves[game.player]:
            game.apply(Move(game.player, "diplo", square, direction))
    assert game.phase == OVER and game.end == "quiet"
    assert game.outcome.reason.code == "js_win_shared"


def test_chasing_an_opponent_keeps_the_game_alive_but_chasing_ones_own_diplo_does_not():
    game = arrange(Game.new(["Ana", "Ben"], seed=1), {"A1": "blue", "A3": "blue", "F6": "yellow",
                                                      "C3": "trex", "C4": GRASS})
    game.apply(Move(BLUE, "trex", "C3", "west"))  # chases blue's own diplo on A3
    game.apply(Move(BLUE, "diplo", "A1", "east"))
    assert game.player == YELLOW
    game.apply(Move(YELLOW, "diplo", "F6", "south"))
    game.apply(Move(YELLOW, "diplo", "F2", "north"))
    assert game.phase == OVER and game.end == "quiet"


# ---- scoring and ties

def test_scores_add_the_points_of_each_token_kind():
    score = player_score("Ana", BLUE, ["yum_yum", "surprise", "birth", "yum_yum"])
    assert (score.points, score.count, score.tokens) == (8, 4, {"birth": 1, "surprise": 1, "yum_yum": 2})


@pytest.mark.parametrize("blue, yellow, winners, code", [
    (["yum_yum", "surprise"], ["yum_yum"], (BLUE,), "js_win_points"),
    (["yum_yum"], ["surprise", "birth"], (YELLOW,), "js_win_points"),
    (["surprise", "birth"], ["yum_yum", "yum_yum"], (0, 1), "js_win_shared"),
    (["surprise", "yum_yum"], ["birth"] * 5, (BLUE,), "js_win_fewer_tokens"),
    (["birth"] * 4, ["yum_yum", "yum_yum"], (YELLOW,), "js_win_fewer_tokens"),
    ([], [], (0, 1), "js_win_shared"),
])
def test_most_points_win_then_fewer_tokens_then_a_shared_victory(blue, yellow, winners, code):
    outcome = points_outcome([player_score("Ana", BLUE, blue), player_score("Ben", YELLOW, yellow)])
    assert (outcome.winners, outcome.reason.code) == (winners, code)


# ---- set-up, saves

@pytest.mark.parametrize("players, code", [(["Ana"], "js_player_count"), (["Ana", "ana"], "js_duplicate_player")])
def test_two_different_players(players, code):
    with pytest.raises(RuleViolation) as error:
        Game.new(players)
    assert error.value.reason.code == code


def test_bad_mode_seed_and_options_are_refused():
    with pytest.raises(BadInput):
        Game.new(["Ana", "Ben"], mode="open")
    with pytest.raises(BadInput):
        Game.new(["Ana", "Ben"], seed=-1)
    with pytest.raises(RuleViolation):
        Options(quiet_turns=3)
    with pytest.raises(RuleViolation):
        Options.from_json({"speed": 1})


def test_actions_round_trip_through_json():
    for action in (Move(0, "diplo", "B5", "north"), Reveal(1, "birth"), Hatch(0, "A1"), Scout(1, "C"),
                   Fly(0, "A1", "B2"), Erupt(1, ("A1", "A2")), Look(0), Look(1, ("C3", "D4")), Pass(0)):
        assert action_from_json(action_to_json(action)) == action
    for bad in ({"type": "jump"}, {"type": "move", "player": "0"}, {"type": "pass"}, [],
                {"type": "pass", "player": 0, "extra": 1}, {"type": "erupt", "player": 0, "squares": "A1"}):
        with pytest.raises(BadInput):
            action_from_json(bad)


def test_a_save_with_a_tampered_snapshot_or_an_illegal_action_is_refused():
    game = Game.new(["Ana", "Ben"], mode=HIDDEN, seed=9)
    game.apply(Move(BLUE, "diplo", "B5", "north"))
    play_until_action(game)
    saved = game.to_json()
    assert Game.from_json(saved).to_json() == saved
    tampered = {**saved, "snapshot": {**saved["snapshot"], "turn": 7}}
    with pytest.raises(RuleViolation):
        Game.from_json(tampered)
    illegal = {**saved, "actions": saved["actions"] + [{"type": "move", "player": 0, "piece": "diplo",
                                                         "square": "B6", "direction": "north"}]}
    with pytest.raises(RuleViolation) as error:
        Game.from_json({k: v for k, v in illegal.items() if k != "snapshot"})
    assert error.value.number == len(saved["actions"]) + 1 and error.value.reason.code == "js_not_your_turn"
    with pytest.raises(BadInput):
        Game.from_json({"game": "draftosaurus"})


def test_chasing_an_opponents_diplo_counts_as_a_lively_turn():
    game = arrange(Game.new(["Ana", "Ben"], seed=1), {"A1": "blue", "A3": "yellow", "F6": "yellow",
                                                      "C3": "trex", "C4": GRASS})
    game.apply(Move(BLUE, "trex", "C3", "west"))  # chases yellow's diplo on A3
    game.apply(Move(BLUE, "diplo", "A1", "east"))
    game.apply(Move(YELLOW, "diplo", "F6", "south"))
    game.apply(Move(YELLOW, "diplo", "F2", "north"))
    assert game.phase != OVER and game.quiet_turns == 1
