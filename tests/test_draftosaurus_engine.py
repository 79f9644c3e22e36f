"""The Draftosaurus engine: turn order, every pen rule, every die face, table and full modes, the 2-player
variant, refusals as Reasons, undo by replay, and saves."""

from __future__ import annotations

import json

import pytest

from companion.errors import BadInput, RuleViolation
from companion.games.common import Reason
from companion.games.draftosaurus.engine import Discard, Game, Options, Place, ReplayRefused, Roll, action_from_json
from companion.games.draftosaurus.ids import DIE_FACES, PENS, SPECIES, DieFace, Pen, Species

ALL_PENS = set(PENS)


def table_game(players=("Ana", "Ben", "Cid"), **kwargs) -> Game:
    return Game.new(list(players), seed=kwargs.pop("seed", 7), **kwargs)


def play_turn(game: Game, face: str, placements: dict[int, tuple[str, str]]) -> None:
    """Roll `face`, then each player places (in the given order)."""
    game.apply(Roll(face))
    for player, (species, pen) in placements.items():
        game.apply(Place(player, species, pen))


FACE_ALLOWING = {"forest_of_sameness": "forest", "woody_trio": "forest", "king_of_the_jungle": "forest",
                 "prairie_of_love": "grassland", "meadow_of_differences": "grassland",
                 "solitary_island": "grassland", "river": "forest"}


def zoo_with(game: Game, player: int, contents: dict[str, list[str]]) -> None:
    """Fill a player's pens for a rule test: one turn per dinosaur, with a face that allows the pen, while
    the others put the species the bag holds most of into the river."""
    for pen, species_list in contents.items():
        for species in species_list:
            game.apply(Roll(FACE_ALLOWING[pen]))
            game.apply(Place(player, species, pen))
            for other in range(len(game.players)):
                if other != player:
                    spare = max(SPECIES, key=lambda s: (game.bag_remaining()[s], s != species))
                    game.apply(Place(other, spare, "river"))


# ---- set-up -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("count", [1, 6])
def test_player_count_outside_two_to_five_is_refused(count):
    with pytest.raises(RuleViolation) as refused:
        Game.new([f"P{i}" for i in range(count)])
    assert refused.value.reason == Reason("draft_player_count", {"count": count, "least": 2, "most": 5})


def test_duplicate_names_and_bad_arguments_are_refused():
    with pytest.raises(RuleViolation) as refused:
        Game.new(["Ana", "Ana"])
    assert refused.value.reason.code == "draft_duplicate_player"
    for kwargs in ({"mode": "solo"}, {"first_roller": 3}, {"seed": -1}, {"seed": "x"}):
        with pytest.raises(BadInput):
            Game.new(["Ana", "Ben", "Cid"], **kwargs)


@pytest.mark.parametrize("count, rounds, turns, bag", [(2, 4, 3, 8), (3, 2, 6, 6), (4, 2, 6, 8), (5, 2, 6, 10)])
def test_rounds_turns_and_bag_by_player_count(count, rounds, turns, bag):
    game = Game.new([f"P{i}" for i in range(count)], mode="full", seed=1)
    assert (game.rounds, game.turns_per_round, game.two_player) == (rounds, turns, count == 2)
    assert game.bag_remaining() == {species: bag for species in SPECIES}
    assert [len(hand) for hand in game.hands] == [6] * count
    assert (game.round, game.turn, game.phase, game.face, game.roller) == (1, 1, "roll", None, 0)


def test_table_mode_knows_no_hands():
    game = table_game()
    assert game.hands is None
    with pytest.raises(BadInput):
        game.hand(0)


# ---- the turn ------------------------------------------------------------------------------------------

def test_a_turn_ends_by_itself_when_the_last_player_has_placed_in_any_order():
    game = table_game(first_roller=1)
    assert game.waiting_for() == [1]
    game.apply(Roll("grassland"))
    assert (game.phase, game.face, game.waiting_for()) == ("place", DieFace.GRASSLAND, [0, 1, 2])
    game.apply(Place(2, "trex", "river"))
    game.apply(Place(0, "diplodocus", "solitary_island"))
    assert game.waiting_for() == [1]
    game.apply(Place(1, "trex", "woody_trio"))  # the roller ignores the die
    assert (game.phase, game.turn, game.roller, game.face) == ("roll", 2, 2, None)
    assert game.zoos[0]["solitary_island"] == ["diplodocus"]
    assert game.zoos[1]["woody_trio"] == ["trex"]


def test_die_passes_left_every_turn_across_rounds_and_the_game_ends_after_two_rounds():
    game = table_game()
    rollers = []
    species = [s for s in SPECIES for _ in range(6)]  # 36 figures: the 3-player bag
    while game.phase != "over":
        rollers.append(game.roller)
        play_turn(game, "forest", {p: (species.pop(), "river") for p in range(3)})
    assert rollers == [turn % 3 for turn in range(12)]
    assert (game.round, game.turn, game.waiting_for()) == (2, 6, [])
    assert all(len(zoo["river"]) == 12 for zoo in game.zoos)
    assert game.check(Roll("forest")) == Reason("draft_game_over")
    assert game.check(Place(0, "trex", "river")) == Reason("draft_game_over")


def test_round_two_starts_after_six_turns():
    game = table_game()
    species = [s for s in SPECIES for _ in range(6)]
    for _ in range(6):
        assert game.round == 1
        play_turn(game, "forest", {p: (species.pop(), "river") for p in range(3)})
    assert (game.round, game.turn, game.phase) == (2, 1, "roll")


@pytest.mark.parametrize("action, phase_actions, code", [
    (Place(0, "trex", "river"), [], "draft_die_not_rolled"),
    (Roll("forest"), [Roll("grassland")], "draft_die_already_rolled"),
    (Place(0, "trex", "river"), [Roll("forest"), Place(0, "diplodocus", "river")], "draft_already_placed"),
    (Place(5, "trex", "river"), [Roll("forest")], "draft_unknown_player"),
    (Place(0, "velociraptor", "river"), [Roll("forest")], "draft_unknown_species"),
    (Place(0, "trex", "lake"), [Roll("forest")], "draft_unknown_pen"),
    (Roll("cheese"), [], "draft_unknown_face"),
    (Discard(0, "trex"), [Roll("forest")], "draft_no_discard"),
])
def test_refusals_are_reasons_and_change_nothing(action, phase_actions, code):
    game = table_game()
    for earlier in phase_actions:
        game.apply(earlier)
    before = game.to_json()
    assert game.check(action).code == code
    with pytest.raises(RuleViolation) as refused:
        game.apply(action)
    assert refused.value.reason.code == code
    assert game.to_json() == before


def test_reason_parameters_name_the_player_and_the_face():
    game = table_game()
    game.apply(Roll("toilets"))
    assert game.check(Roll("forest")) == Reason("draft_die_already_rolled", {"face": "toilets"})
    game.apply(Place(1, "trex", "river"))
    assert game.check(Place(1, "trex", "river")) == Reason("draft_already_placed", {"player": "Ben"})
    assert game.check(Place(9, "trex", "river")).params["value"] == "9"
    assert set(game.check(Place(0, "raptor", "river")).params["known"]) == set(SPECIES)


def test_enum_ids_are_accepted_and_logged_as_plain_ids():
    game = table_game()
    game.apply(Roll(DieFace.FOREST))
    game.apply(Place(1, Species.TREX, Pen.WOODY_TRIO))
    assert game.zoos[1]["woody_trio"] == ["trex"]
    assert [action.to_json() for action in game.actions] == [
        {"type": "roll", "face": "forest"}, {"type": "place", "player": 1, "species": "trex", "pen": "woody_trio"}]


# ---- every pen ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("pen, fill, extra, code", [
    ("forest_of_sameness", ["trex"] * 6, "trex", "draft_pen_full"),
    ("woody_trio", ["trex", "diplodocus", "trex"], "stegosaurus", "draft_pen_full"),
    ("prairie_of_love", ["trex", "diplodocus", "trex", "stegosaurus", "triceratops", "spinosaurus"],
     "trex", "draft_pen_full"),
    ("king_of_the_jungle", ["trex"], "diplodocus", "draft_pen_full"),
    ("meadow_of_differences", list(SPECIES), "trex", "draft_pen_full"),
    ("solitary_island", ["spinosaurus"], "trex", "draft_pen_full"),
])
def test_each_pen_holds_only_its_capacity(pen, fill, extra, code):
    game = Game.new(["Ana", "Ben", "Cid", "Dee", "Eva"], seed=1)
    zoo_with(game, 0, {pen: fill})
    legal, excluded = game.pen_choices(0, extra)
    assert pen not in legal and excluded[pen].code == code
    assert excluded[pen].params == {"pen": pen, "capacity": len(fill)}


def test_forest_of_sameness_takes_one_species_left_to_right():
    game = table_game()
    zoo_with(game, 0, {"forest_of_sameness": ["stegosaurus", "stegosaurus"]})
    assert game.zoos[0]["forest_of_sameness"] == ["stegosaurus", "stegosaurus"]
    assert "forest_of_sameness" in game.pen_choices(0, "stegosaurus")[0]
    assert game.pen_choices(0, "trex")[1]["forest_of_sameness"] == Reason(
        "draft_forest_other_species", {"pen": "forest_of_sameness", "species": "stegosaurus"})


def test_meadow_of_differences_refuses_a_species_already_there():
    game = table_game()
    zoo_with(game, 0, {"meadow_of_differences": ["trex", "diplodocus"]})
    _, excluded = game.pen_choices(0, "diplodocus")
    assert excluded["meadow_of_differences"] == Reason(
        "draft_meadow_same_species", {"pen": "meadow_of_differences", "species": "diplodocus"})
    assert "meadow_of_differences" in game.pen_choices(0, "spinosaurus")[0]


def test_prairie_takes_any_species_and_the_river_has_no_limit():
    game = table_game()
    zoo_with(game, 0, {"prairie_of_love": ["trex", "trex", "diplodocus"], "river": ["trex"] * 3})
    legal, _ = game.pen_choices(0, "trex")
    assert {"prairie_of_love", "river"} <= set(legal)
    assert len(game.zoos[0]["river"]) == 3


def test_empty_zoo_without_die_allows_every_pen():
    game = table_game()
    assert game.pen_choices(0, "trex") == (list(PENS), {})


# ---- every die face ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("face, allowed, code", [
    ("forest", {"forest_of_sameness", "woody_trio", "king_of_the_jungle"}, "draft_die_forest"),
    ("grassland", {"prairie_of_love", "meadow_of_differences", "solitary_island"}, "draft_die_grassland"),
    ("cafeteria", {"forest_of_sameness", "woody_trio", "prairie_of_love"}, "draft_die_cafeteria"),
    ("toilets", {"king_of_the_jungle", "meadow_of_differences", "solitary_island"}, "draft_die_toilets"),
])
def test_area_and_side_faces_bind_everyone_but_the_roller(face, allowed, code):
    game = table_game()
    game.apply(Roll(face))
    legal, excluded = game.pen_choices(1, "trex")
    assert set(legal) == allowed | {"river"}
    assert excluded == {pen: Reason(code, {"pen": pen, "face": face}) for pen in ALL_PENS - allowed - {"river"}}
    assert game.pen_choices(0, "trex") == (list(PENS), {})  # player 0 rolled
    assert game.bound_by_die(1) and not game.bound_by_die(0)


def test_the_example_reason_of_the_forest_face():
    game = table_game()
    game.apply(Roll("forest"))
    assert game.check(Place(2, "triceratops", "prairie_of_love")) == Reason(
        "draft_die_forest", {"pen": "prairie_of_love", "face": "forest"})


def test_empty_pen_face_allows_only_empty_pens_and_the_river():
    game = table_game()
    zoo_with(game, 1, {"woody_trio": ["trex"], "meadow_of_differences": ["diplodocus"]})
    while game.roller == 1:
        play_turn(game, "forest", {p: ("spinosaurus", "river") for p in range(3)})
    game.apply(Roll("empty_pen"))
    legal, excluded = game.pen_choices(1, "stegosaurus")
    assert set(legal) == ALL_PENS - {"woody_trio", "meadow_of_differences"}
    assert excluded["woody_trio"] == Reason("draft_pen_not_empty", {"pen": "woody_trio", "face": "empty_pen"})


def test_no_trex_face_keeps_out_of_pens_with_a_trex_but_a_trex_may_still_be_placed():
    game = table_game()
    zoo_with(game, 1, {"prairie_of_love": ["trex"], "forest_of_sameness": ["diplodocus"]})
    while game.roller == 1:
        play_turn(game, "forest", {p: ("spinosaurus", "river") for p in range(3)})
    game.apply(Roll("no_trex"))
    legal, excluded = game.pen_choices(1, "trex")
    assert excluded == {"prairie_of_love": Reason("draft_pen_has_trex", {"pen": "prairie_of_love", "face": "no_trex"}),
                        "forest_of_sameness": Reason("draft_forest_other_species",
                                                     {"pen": "forest_of_sameness", "species": "diplodocus"})}
    assert "woody_trio" in legal
    game.apply(Place(1, "trex", "woody_trio"))


@pytest.mark.parametrize("face", DIE_FACES)
def test_the_river_is_always_allowed(face):
    game = table_game()
    zoo_with(game, 1, {"river": ["trex"] * 5})
    game.apply(Roll(face))
    bound = next(p for p in range(3) if game.bound_by_die(p))
    assert "river" in game.pen_choices(bound, "trex")[0]
    assert game.check(Place(bound, "trex", "river")) is None


def test_pen_choices_for_a_hypothetical_face_and_bad_arguments():
    game = table_game()
    legal, _ = game.pen_choices(1, "trex", face="grassland")
    assert set(legal) == {"prairie_of_love", "meadow_of_differences", "solitary_island", "river"}
    assert game.legal_pens(1, "trex", face="grassland") == legal
    for args in ((9, "trex"), (1, "raptor"), (1, "trex", "rain")):
        with pytest.raises(RuleViolation):
            game.pen_choices(*args)


# ---- what the bag can hold (table mode) --------------------------------------------------------------------

def test_table_mode_refuses_a_species_the_bag_no_longer_holds():
    game = table_game()  # 3 players: 6 of each species
    for _ in range(2):
        play_turn(game, "forest", {p: ("trex", "river") for p in range(3)})
    assert game.bag_remaining()["trex"] == 0
    game.apply(Roll("forest"))
    assert game.check(Place(0, "trex", "river")) == Reason("draft_bag_exhausted", {"species": "trex", "limit": 6})
    assert game.legal_actions(0) and all(action.species != "trex" for action in game.legal_actions(0))


# ---- full mode ---------------------------------------------------------------------------------------------

def test_full_mode_places_only_from_the_hand_and_passes_hands_left():
    game = Game.new(["Ana", "Ben", "Cid", "Dee"], mode="full", seed=11)
    hands = game.hands
    game.apply(game.roll_die())
    missing = next(s for s in SPECIES if s not in hands[0])
    assert game.check(Place(0, missing, "river")) == Reason("draft_not_in_hand", {"player": "Ana", "species": missing})
    for player in range(4):
        game.apply(Place(player, hands[player][0], "river"))
    for player in range(4):
        assert sorted(game.hands[(player + 1) % 4]) == sorted(hands[player][1:])


def test_same_seed_same_hands_and_dice():
    first, second = (Game.new(["A", "B", "C"], mode="full", seed=5) for _ in range(2))
    assert first.hands == second.hands and first.roll_die() == second.roll_die()
    assert Game.new(["A", "B", "C"], mode="full", seed=6).hands != first.hands


# ---- the 2-player variant -----------------------------------------------------------------------------------

def test_two_player_turn_places_then_discards_then_swaps_hands():
    game = Game.new(["Ana", "Ben"], mode="full", seed=3)
    hands = game.hands
    game.apply(Roll("forest"))
    assert game.check(Discard(0, hands[0][0])) == Reason("draft_place_first", {"player": "Ana"})
    game.apply(Place(0, hands[0][0], "river"))
    game.apply(Place(1, hands[1][0], "river"))
    assert game.phase == "discard" and game.waiting_for() == [0, 1]
    assert game.check(Place(0, hands[0][1], "river")) == Reason("draft_already_placed", {"player": "Ana"})
    assert game.check(Discard(0, None)) == Reason("draft_discard_needs_species", {"player": "Ana"})
    game.apply(Discard(0, hands[0][1]))
    assert game.check(Discard(0, hands[0][2])) == Reason("draft_already_discarded", {"player": "Ana"})
    game.apply(Discard(1, hands[1][1]))
    assert (game.phase, game.turn, game.roller) == ("roll", 2, 1)
    assert sorted(game.hands[1]) == sorted(hands[0][2:]) and sorted(game.hands[0]) == sorted(hands[1][2:])


def test_two_player_game_is_four_rounds_of_three_with_the_die_alternating():
    game = Game.new(["Ana", "Ben"], seed=3)
    rollers, rounds = [], []
    species = [s for s in SPECIES for _ in range(8)]
    while game.phase != "over":
        rollers.append(game.roller)
        rounds.append(game.round)
        play_turn(game, "forest", {0: (species.pop(), "river"), 1: (species.pop(), "river")})
        game.apply(Discard(0, None))  # table mode: the discarded species may stay unknown
        game.apply(Discard(1, species.pop()))
    assert rollers == [0, 1] * 6
    assert rounds == [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4]
    assert all(len(zoo["river"]) == 12 for zoo in game.zoos)


def test_the_die_binds_only_the_player_who_did_not_roll_in_the_two_player_game():
    game = Game.new(["Ana", "Ben"], seed=3)
    game.apply(Roll("forest"))
    assert game.check(Place(0, "trex", "prairie_of_love")) is None
    assert game.check(Place(1, "trex", "prairie_of_love")).code == "draft_die_forest"


# ---- legal actions, copies, undo, saves ----------------------------------------------------------------------

def test_legal_actions_are_all_legal_and_complete():
    game = Game.new(["Ana", "Ben", "Cid"], mode="full", seed=2)
    assert game.legal_actions() == [Roll(face) for face in DIE_FACES]
    game.apply(Roll("cafeteria"))
    actions = game.legal_actions()
    assert actions and all(game.check(action) is None for action in actions)
    expected = {Place(p, s, pen) for p in range(3) for s in set(game.hand(p)) for pen in PENS
                if game.check(Place(p, s, pen)) is None}
    assert set(actions) == expected


def test_copy_is_independent():
    game = table_game()
    twin = game.copy()
    game.apply(Roll("forest"))
    game.apply(Place(0, "trex", "river"))
    assert twin.phase == "roll" and twin.zoos[0]["river"] == [] and twin.actions == []


def test_undo_is_a_replay_of_the_log_minus_the_last_action():
    game = table_game()
    game.apply(Roll("forest"))
    game.apply(Place(0, "trex", "woody_trio"))
    before = game.to_json()
    game.apply(Place(1, "diplodocus", "river"))
    undone = Game.replay(game.setup_json(), game.actions[:-1])
    assert undone.to_json() == before
    assert Game.replay(game.setup_json(), [a.to_json() for a in game.actions]).to_json() == game.to_json()


def test_save_round_trip_through_json_text():
    game = Game.new(["Ana", "Ben"], mode="full", seed=9, options=Options(trio_points=6), first_roller=1)
    game.apply(game.roll_die())
    game.apply(Place(0, game.hand(0)[0], "river"))
    text = json.dumps(game.to_json())
    loaded = Game.from_json(json.loads(text))
    assert loaded.to_json() == game.to_json()
    assert (loaded.options, loaded.first_roller, loaded.mode) == (Options(trio_points=6), 1, "full")


def test_a_save_with_an_illegal_move_or_a_wrong_snapshot_is_refused():
    game = table_game()
    game.apply(Roll("forest"))
    game.apply(Place(1, "trex", "woody_trio"))
    saved = game.to_json()
    tampered = json.loads(json.dumps(saved))
    tampered["actions"][1]["pen"] = "prairie_of_love"  # the die says forest
    with pytest.raises(ReplayRefused) as refused:
        Game.from_json(tampered)
    assert refused.value.number == 2 and refused.value.reason.code == "draft_die_forest"
    tampered = json.loads(json.dumps(saved))
    tampered["snapshot"]["zoos"][1]["river"] = ["trex"]
    with pytest.raises(RuleViolation) as refused:
        Game.from_json(tampered)
    assert refused.value.reason == Reason("draft_save_inconsistent")
    for broken in ({}, {"game": "dino"}, {**saved, "format": 99}, {**saved, "actions": "x"},
                   {**saved, "setup": {"players": ["A", "B"], "colour": "red"}}):
        with pytest.raises(BadInput):
            Game.from_json(broken)


@pytest.mark.parametrize("data", [{"type": "jump"}, {"type": "place", "player": "0", "species": "trex", "pen": "river"},
                                  {"type": "roll"}, {"type": "discard", "player": 0, "species": 3}, "roll"])
def test_malformed_actions_are_bad_input(data):
    with pytest.raises(BadInput):
        action_from_json(data)


def test_score_of_a_game_uses_the_scorer():
    game = table_game()
    play_turn(game, "forest", {0: ("trex", "woody_trio"), 1: ("trex", "woody_trio"), 2: ("diplodocus", "river")})
    sheet = game.score()
    assert [player.total for player in sheet.players] == [1, 1, 1]  # T-Rex bonus 1, 1; river 1
    assert sheet.winner_names == ["Cid"] and sheet.reason.code == "draft_win_tiebreak_fewer_trex"
