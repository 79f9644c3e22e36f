"""Winter board placement rules, each accepted and refused, through the engine (table mode, one tracked
player) and through the pure rules: the Well-Ordered Wood, the Lovers' Bridge banks, the Pyramid's places,
the Lookout, the Quarantine, the die read from the board data, the river. Every refusal names the pen and
says what is allowed."""

from __future__ import annotations

import pytest

from companion.games.common import Reason
from companion.games.draftosaurus.engine import Game, Place, QuarantineMove, Roll
from companion.games.draftosaurus.ids import PYRAMID_POSITIONS, WINTER_PENS
from companion.games.draftosaurus.scoring import ZooRefused
from companion.games.draftosaurus.winter import WinterRules
from companion.games.draftosaurus.winter_board import load_winter_board
from companion.games.draftosaurus.winter_scoring import validate_winter_zoo
from companion.language.messages import LANGUAGES, catalog

BOARD = load_winter_board()
RULES = WinterRules(BOARD)


def game_with(placements: list[tuple], face: str | None = None) -> Game:
    """A winter table game of three where only Ana is followed; each placement is one turn, the die showing
    `face` (default: the area of the pen, from the board data, so the die allows it)."""
    game = Game.new(["Ana", "Ben", "Cid"], board="winter", seed=1, tracked=[0])
    for placement in placements:
        ready(game, placement[1], face)
        game.apply(Place(0, *placement))
    return game


def ready(game: Game, pen: str, face: str | None = None) -> None:
    """Roll the die for the next turn: `face`, or one whose area holds `pen`."""
    game.apply(Roll(face or ("forest" if pen == "river" else BOARD.area(pen))))


def said(reason: Reason) -> list[str]:
    return [catalog(lang).say(f"reasons.{reason.code}", **reason.params) for lang in LANGUAGES]


# ---- the Well-Ordered Wood ---------------------------------------------------------------------------

def test_wood_takes_any_first_species_then_another_then_alternates():
    game = game_with([("trex", "well_ordered_wood"), ("stegosaurus", "well_ordered_wood"),
                      ("trex", "well_ordered_wood")])
    assert game.zoos[0]["well_ordered_wood"] == ["trex", "stegosaurus", "trex"]
    ready(game, "well_ordered_wood")
    assert game.check(Place(0, "stegosaurus", "well_ordered_wood")) is None


@pytest.mark.parametrize("content, species, code, allowed", [
    (["trex"], "trex", "draft_wood_second_species", "trex"),  # the second must be another species
    (["trex", "stegosaurus"], "stegosaurus", "draft_wood_alternate", "trex"),  # no two of a kind in a row
    (["trex", "stegosaurus"], "diplodocus", "draft_wood_alternate", "trex"),  # only the two species
    (["trex", "stegosaurus", "trex"], "trex", "draft_wood_alternate", "stegosaurus"),
])
def test_wood_refuses_what_breaks_the_alternation_and_names_the_species_it_needs(content, species, code, allowed):
    zoo = validate_winter_zoo(RULES, {"well_ordered_wood": content}, "Ana", 4)
    blocker = RULES.pen_blockers(zoo, _index(species), -1, (0,))[0]
    assert blocker == code
    reason = RULES.placement_reason(blocker, zoo, 0, _index(species), -1)
    assert reason == Reason(code, {"pen": "well_ordered_wood", "species": allowed})
    assert all(sentence and "{" not in sentence for sentence in said(reason))


def test_wood_holds_six_alternating_and_no_seventh():
    six = ["diplodocus", "spinosaurus"] * 3
    zoo = validate_winter_zoo(RULES, {"well_ordered_wood": six}, "Ana", 4)
    assert RULES.pen_blockers(zoo, _index("diplodocus"), -1, (0,)) == ["draft_pen_full"]
    with pytest.raises(Exception) as refused:
        validate_winter_zoo(RULES, {"well_ordered_wood": [*six, "diplodocus"]}, "Ana", 4)
    assert refused.value.reason.code == "draft_pen_full" and refused.value.reason.params["capacity"] == 6


def test_wood_refusal_through_the_engine_names_the_pen():
    game = game_with([("trex", "well_ordered_wood"), ("stegosaurus", "well_ordered_wood")])
    ready(game, "well_ordered_wood")
    assert game.check(Place(0, "stegosaurus", "well_ordered_wood")) == Reason(
        "draft_wood_alternate", {"pen": "well_ordered_wood", "species": "trex"})
    assert game.check(Place(0, "trex", "well_ordered_wood")) is None


# ---- the Lovers' Bridge --------------------------------------------------------------------------------

def test_each_bank_takes_any_species_up_to_its_printed_capacity():
    capacity = BOARD.capacity("lovers_bridge_left")
    zoo = validate_winter_zoo(RULES, {"lovers_bridge_left": ["trex"] * capacity,
                                      "lovers_bridge_right": ["trex", "trex"]}, "Ana", 4)
    left, right = 1, 2
    assert RULES.pen_blockers(zoo, _index("trex"), -1, (left, right)) == ["draft_pen_full", None]
    reason = RULES.placement_reason("draft_pen_full", zoo, left, _index("trex"), -1)
    assert reason == Reason("draft_pen_full", {"pen": "lovers_bridge_left", "capacity": capacity})


def test_a_table_board_with_bigger_banks_takes_more():
    rules = WinterRules(BOARD.with_values({"lovers_bridge_left_capacity": 5}))
    zoo = validate_winter_zoo(rules, {"lovers_bridge_left": ["trex"] * 5}, "Ana", 4)
    assert rules.pen_blockers(zoo, _index("trex"), -1, (1,)) == ["draft_pen_full"]
    with pytest.raises(ZooRefused):
        validate_winter_zoo(RULES, {"lovers_bridge_left": ["trex"] * 5}, "Ana", 4)


def test_each_bank_is_its_own_pen_for_the_empty_pen_and_trex_faces():
    game = game_with([("trex", "lovers_bridge_left")], face="empty_pen")
    ready(game, "", "empty_pen")
    assert game.check(Place(0, "stegosaurus", "lovers_bridge_right")) is None
    assert game.check(Place(0, "stegosaurus", "lovers_bridge_left")).code == "draft_pen_not_empty"
    game.apply(Place(0, "stegosaurus", "river"))
    ready(game, "", "no_trex")
    assert game.check(Place(0, "trex", "lovers_bridge_right")) is None
    assert game.check(Place(0, "diplodocus", "lovers_bridge_left")).code == "draft_pen_has_trex"


# ---- the Pyramid ----------------------------------------------------------------------------------------

def test_pyramid_bottom_row_first_in_any_order_then_middle_then_top():
    game = game_with([("trex", "pyramid", "bottom_right"), ("stegosaurus", "pyramid", "bottom_left")])
    assert game.pyramid_positions(0, "diplodocus") == ["bottom_centre"]
    ready(game, "pyramid")
    assert game.check(Place(0, "diplodocus", "pyramid", "middle_left")) == Reason("draft_pyramid_row_first", {
        "pen": "pyramid", "positions": ["bottom_centre"], "position": "middle_left"})
    game.apply(Place(0, "diplodocus", "pyramid", "bottom_centre"))
    assert game.pyramid_positions(0, "spinosaurus") == ["middle_left", "middle_right"]
    ready(game, "pyramid")
    assert game.check(Place(0, "spinosaurus", "pyramid", "top")).code == "draft_pyramid_row_first"
    game.apply(Place(0, "spinosaurus", "pyramid", "middle_right"))
    ready(game, "pyramid")
    game.apply(Place(0, "parasaurolophus", "pyramid", "middle_left"))
    assert game.pyramid_positions(0, "triceratops") == ["top"]
    assert game.zoos[0]["pyramid"] == ["stegosaurus", "diplodocus", "trex", "parasaurolophus", "spinosaurus"]


BOTTOM = {"bottom_left": "trex", "bottom_centre": "diplodocus", "bottom_right": "stegosaurus"}


@pytest.mark.parametrize("placed, species, position, beside, fits", [
    ({"bottom_left": "trex"}, "trex", "bottom_centre", "bottom_left", ["bottom_right"]),  # side by side
    (BOTTOM, "trex", "middle_left", "bottom_left", ["middle_right"]),  # a middle place rests on two bottom ones
    (BOTTOM, "stegosaurus", "middle_right", "bottom_right", ["middle_left"]),
])
def test_pyramid_refuses_a_species_touching_its_own_kind_and_says_which_places_fit(placed, species, position,
                                                                                  beside, fits):
    zoo = validate_winter_zoo(RULES, {"pyramid": _places(placed)}, "Ana", 4)
    refusal = RULES.position_refusal(zoo, _index(species), PYRAMID_POSITIONS.index(position))
    assert refusal == Reason("draft_pyramid_touching", {"pen": "pyramid", "positions": fits, "position": position,
                                                        "species": species, "beside": beside})
    assert all(sentence and "{" not in sentence for sentence in said(refusal))


@pytest.mark.parametrize("placed, species", [
    (BOTTOM, "diplodocus"),  # both middle places rest on the bottom centre
    ({**BOTTOM, "middle_left": "spinosaurus"}, "spinosaurus"),  # side by side in the middle row
    ({**BOTTOM, "middle_left": "spinosaurus", "middle_right": "triceratops"}, "triceratops"),  # the top
    ({**BOTTOM, "middle_left": "spinosaurus", "middle_right": "triceratops"}, "spinosaurus"),
])
def test_pyramid_refuses_a_species_no_free_place_takes(placed, species):
    zoo = validate_winter_zoo(RULES, {"pyramid": _places(placed)}, "Ana", 4)
    assert RULES.legal_positions(zoo, _index(species)) == []
    assert RULES.pen_blockers(zoo, _index(species), -1, (3,)) == ["draft_pyramid_no_place"]
    with pytest.raises(Exception) as refused:
        validate_winter_zoo(RULES, {"pyramid": _places(placed) + [None] * 5 + [species]}, "Ana", 4)
    assert refused.value.reason.code == "draft_pen_full"  # a seventh place does not exist
    places = _places(placed)
    with pytest.raises(Exception) as refused:
        validate_winter_zoo(RULES, {"pyramid": [*places, species]}, "Ana", 4)
    assert refused.value.reason.code == "draft_pyramid_no_place"


def test_pyramid_places_that_do_not_touch_may_hold_one_species():
    """Bottom left and bottom right are not side by side: the same species may take both; the top does not
    touch the bottom row."""
    zoo = validate_winter_zoo(RULES, {"pyramid": ["trex", "diplodocus", "trex", "stegosaurus", "spinosaurus",
                                                  "trex"]}, "Ana", 4)
    assert len(zoo[3]) == 6


def test_pyramid_without_a_fitting_place_is_refused_as_a_whole_and_the_river_stays_open():
    game = game_with([("trex", "pyramid", "bottom_centre")])
    ready(game, "pyramid")
    legal, excluded = game.pen_choices(0, "trex")
    assert "pyramid" not in legal and "river" in legal
    assert excluded["pyramid"] == Reason("draft_pyramid_no_place", {"pen": "pyramid", "species": "trex"})
    assert game.check(Place(0, "trex", "pyramid", "bottom_left")).code == "draft_pyramid_no_place"


def test_pyramid_place_must_be_said_unless_only_one_fits():
    game = game_with([("trex", "pyramid", "bottom_left"), ("stegosaurus", "pyramid", "bottom_right")])
    ready(game, "pyramid")
    assert game.check(Place(0, "diplodocus", "pyramid")) is None  # bottom centre is the only free place
    game.apply(Place(0, "diplodocus", "pyramid"))
    assert game.actions[-1] == Place(0, "diplodocus", "pyramid", "bottom_centre")  # logged with its place
    ready(game, "pyramid")
    assert game.check(Place(0, "spinosaurus", "pyramid")) == Reason(
        "draft_pyramid_which_position", {"pen": "pyramid", "positions": ["middle_left", "middle_right"]})


def test_pyramid_taken_place_and_full_pyramid():
    game = game_with([("trex", "pyramid", "bottom_left")])
    ready(game, "pyramid")
    assert game.check(Place(0, "diplodocus", "pyramid", "bottom_left")) == Reason("draft_pyramid_place_taken", {
        "pen": "pyramid", "positions": ["bottom_centre", "bottom_right"], "position": "bottom_left",
        "species": "trex"})
    full = validate_winter_zoo(RULES, {"pyramid": ["trex", "diplodocus", "trex", "stegosaurus", "spinosaurus",
                                                   "trex"]}, "Ana", 4)
    assert RULES.pen_blockers(full, _index("triceratops"), -1, (3,)) == ["draft_pen_full"]


@pytest.mark.parametrize("action, code", [
    (Place(0, "trex", "pyramid", "halfway"), "draft_unknown_position"),
    (Place(0, "trex", "lookout", "top"), "draft_position_not_pyramid"),
    (Place(0, "trex", "prairie_of_love"), "draft_unknown_pen"),  # a summer pen is not on the winter board
])
def test_unknown_places_and_pens_are_refused_with_what_exists(action, code):
    game = game_with([])
    game.apply(Roll("no_trex"))  # Ana rolled it: no die binds her
    reason = game.check(action)
    assert reason.code == code
    if code == "draft_unknown_position":
        assert reason.params["positions"] == list(PYRAMID_POSITIONS)
    if code == "draft_unknown_pen":
        assert reason.params["known"] == list(WINTER_PENS)


# ---- the one-dinosaur pens, the die and the river ------------------------------------------------------

@pytest.mark.parametrize("pen", ["lookout", "quarantine"])
def test_lookout_and_quarantine_hold_one_dinosaur(pen):
    game = game_with([("trex", pen)])
    ready(game, pen)
    assert game.check(Place(0, "stegosaurus", pen)) == Reason("draft_pen_full", {"pen": pen, "capacity": 1})


@pytest.mark.parametrize("face", ["forest", "grassland", "cafeteria", "toilets"])
def test_area_and_side_faces_follow_the_board_data(face):
    game = Game.new(["Ana", "Ben", "Cid"], board="winter", seed=1, tracked=[0], first_roller=1)
    game.apply(Roll(face))
    legal, excluded = game.pen_choices(0, "stegosaurus")
    expected = {pen for pen in WINTER_PENS[:-1]
                if face in (BOARD.area(pen), BOARD.side(pen))}
    assert set(legal) == expected | {"river"}
    for pen, reason in excluded.items():
        assert reason == Reason(f"draft_die_{face}", {"pen": pen, "face": face})


def test_a_table_board_moves_the_pens_between_areas_and_the_die_follows():
    areas = {pen: "forest" for pen in WINTER_PENS[:-1]}
    board = BOARD.with_values({"areas": areas})
    game = Game.new(["Ana", "Ben", "Cid"], board="winter", winter_board=board, seed=1, tracked=[0], first_roller=1)
    game.apply(Roll("grassland"))
    assert game.legal_pens(0, "trex") == ["river"]
    assert Game.from_json(game.to_json()).legal_pens(0, "trex") == ["river"]  # the save keeps the board


def test_the_roller_obeys_no_die_and_the_river_is_always_open():
    game = Game.new(["Ana", "Ben", "Cid"], board="winter", seed=1, tracked=[0])
    game.apply(Roll("empty_pen"))
    assert game.legal_pens(0, "trex") == list(WINTER_PENS)
    assert "river" in game.legal_pens(0, "trex", face="grassland")


def test_no_quarantine_move_before_the_end_and_none_on_summer():
    game = game_with([("trex", "quarantine")])
    assert game.check(QuarantineMove(0, "river")) == Reason("draft_quarantine_not_yet", {"player": "Ana"})
    summer = Game.new(["Ana", "Ben"], seed=1)
    assert summer.check(QuarantineMove(0, "river")).code == "draft_winter_only"
    assert summer.check(Place(0, "trex", "river", "top")).code == "draft_position_not_pyramid"


def _index(species: str) -> int:
    from companion.games.draftosaurus.ids import SPECIES
    return SPECIES.index(species)


def _places(placed: dict[str, str]) -> list[str | None]:
    places = [placed.get(position) for position in PYRAMID_POSITIONS]
    while places and places[-1] is None:
        places.pop()
    return places
