"""Winter scoring by hand-checked examples, and the Quarantine's move: its legal destinations and the best one.

The point tables are a table's own (TABLE below), so each expected score shows where it comes from:
wood by count 1/3/6/10/15/21; pyramid per place, bottom row 2 each, middle 5 each, top 9; banks of 4.
Fixed by the texts: 6 a couple across the bridge, 2 per dinosaur of the Lookout's species in the right-hand
neighbour's pens, 1 per river dinosaur, +1 per pen (each bank its own, not the river) with a T-Rex.
"""

from __future__ import annotations

import pytest

from companion.games.draftosaurus.engine import Game, Place, QuarantineMove, Roll
from companion.games.draftosaurus.winter import WinterRules
from companion.games.draftosaurus.winter_board import load_winter_board
from companion.games.draftosaurus.winter_scoring import (
    QuarantineChoice,
    best_choice,
    pen_counts,
    quarantine_choices,
    right_neighbours,
    score_winter,
    score_winter_zoos,
    validate_winter_zoos,
)

TABLE = load_winter_board().with_values({
    "well_ordered_wood_points": [1, 3, 6, 10, 15, 21], "pyramid_points": [2, 2, 2, 5, 5, 9],
    "lovers_bridge_left_capacity": 4, "lovers_bridge_right_capacity": 4})
RULES = WinterRules(TABLE)


def sheet(zoos: list[dict], names: list[str] | None = None):
    names = names or [f"P{index + 1}" for index in range(len(zoos))]
    indexed = validate_winter_zoos(RULES, zoos, names, max(2, len(zoos)))
    return score_winter(RULES, indexed, names, right_neighbours(names, [pen_counts(zoo) for zoo in indexed]))


@pytest.mark.parametrize("wood, points", [([], 0), (["trex"], 1), (["trex", "diplodocus"], 3),
                                           (["trex", "diplodocus"] * 3, 21)])
def test_wood_scores_by_its_table(wood, points):
    player = sheet([{"well_ordered_wood": wood}]).players[0]
    assert player.pens["well_ordered_wood"] == points
    assert player.details["well_ordered_wood"].code == ("draft_score_empty" if not wood else "draft_score_wood")


@pytest.mark.parametrize("left, right, couples", [
    (["trex"], [], 0),
    (["stegosaurus", "stegosaurus"], ["stegosaurus"], 1),  # a dinosaur belongs to one couple only
    (["stegosaurus", "stegosaurus"], ["stegosaurus", "stegosaurus"], 2),
    (["stegosaurus", "diplodocus"], ["diplodocus", "stegosaurus", "spinosaurus"], 2),
    (["spinosaurus", "spinosaurus"], [], 0),  # two on one bank make no couple
])
def test_bridge_scores_six_per_couple_across_the_river(left, right, couples):
    player = sheet([{"lovers_bridge_left": left, "lovers_bridge_right": right}]).players[0]
    detail = player.details["lovers_bridge"]
    assert detail.params["couples"] == couples and player.pens["lovers_bridge"] == 6 * couples
    assert (detail.params["left"], detail.params["right"]) == (len(left), len(right))


def test_each_bank_earns_its_own_trex_bonus_and_the_river_none():
    player = sheet([{"lovers_bridge_left": ["trex"], "lovers_bridge_right": ["trex"], "river": ["trex"]}]).players[0]
    # one T-Rex couple: 6; river 1; bonus: two banks -> 2; total 9
    assert (player.pens["lovers_bridge"], player.trex_bonus, player.total) == (6, 2, 9)
    assert player.trex_pens == ["lovers_bridge_left", "lovers_bridge_right"] and player.trex_count == 3


@pytest.mark.parametrize("pyramid, points", [
    (["trex"], 2),
    (["trex", None, "trex"], 4),  # bottom left and right, not side by side
    (["trex", "diplodocus", "stegosaurus"], 6),
    (["trex", "diplodocus", "stegosaurus", "spinosaurus"], 11),
    (["trex", "diplodocus", "stegosaurus", None, "spinosaurus"], 11),
    (["trex", "diplodocus", "trex", "stegosaurus", "spinosaurus", "trex"], 25),  # 6 + 10 + 9
])
def test_pyramid_scores_the_points_of_each_filled_place(pyramid, points):
    player = sheet([{"pyramid": pyramid}]).players[0]
    assert player.pens["pyramid"] == points
    assert player.details["pyramid"].params["count"] == sum(1 for s in pyramid if s)


def test_lookout_counts_the_right_hand_neighbour_that_is_the_player_named_before():
    """Three players named in passing order: Ana passes to Ben, Ben to Cid, Cid to Ana. Ana's right-hand
    neighbour is Cid (who passes to her), Ben's is Ana, Cid's is Ben."""
    zoos = [
        {"lookout": ["stegosaurus"], "well_ordered_wood": ["diplodocus"]},  # Ana
        {"lookout": ["diplodocus"], "pyramid": ["stegosaurus"], "river": ["diplodocus"]},  # Ben
        {"lookout": ["trex"], "lovers_bridge_left": ["stegosaurus", "stegosaurus"], "river": ["stegosaurus"]},  # Cid
    ]
    result = sheet(zoos, ["Ana", "Ben", "Cid"])
    ana, ben, cid = result.players
    # Ana: Cid has 2 stegosaurus in pens (the river one does not count) -> 4; wood 1 -> 5
    assert ana.details["lookout"].params == {"pen": "lookout", "species": "stegosaurus", "neighbour": "Cid",
                                             "count": 2, "points": 4}
    assert ana.total == 5
    # Ben: Ana has 1 diplodocus in pens -> 2; pyramid 2; river 1 -> 5
    assert ben.details["lookout"].params["neighbour"] == "Ana" and ben.total == 5
    # Cid: Ben has no T-Rex -> 0; bonus for the T-Rex in the lookout 1; river 1 -> 2
    assert (cid.pens["lookout"], cid.trex_bonus, cid.total) == (0, 1, 2)


def test_with_two_players_the_right_hand_neighbour_is_the_other_and_alone_there_is_none():
    two = sheet([{"lookout": ["trex"]}, {"lookout": ["trex"], "river": ["trex"]}], ["Ana", "Ben"])
    assert two.players[0].details["lookout"].params["neighbour"] == "Ben"
    assert two.players[1].details["lookout"].params["neighbour"] == "Ana"
    assert (two.players[0].pens["lookout"], two.players[1].pens["lookout"]) == (2, 2)
    alone = sheet([{"lookout": ["trex"]}]).players[0]
    assert alone.details["lookout"].code == "draft_score_lookout_alone" and alone.pens["lookout"] == 0


def test_a_full_zoo_by_hand():
    zoo = {"well_ordered_wood": ["trex", "stegosaurus", "trex", "stegosaurus"],  # 10
           "lovers_bridge_left": ["diplodocus", "spinosaurus"], "lovers_bridge_right": ["diplodocus"],  # 6
           "pyramid": ["parasaurolophus", "triceratops", "parasaurolophus", "diplodocus"],  # 2+2+2+5 = 11
           "lookout": ["triceratops"], "river": []}
    other = {"pyramid": ["triceratops", "stegosaurus", "triceratops"], "river": ["triceratops"]}
    result = sheet([zoo, other], ["Ana", "Ben"])
    ana, ben = result.players
    # Ana's lookout: Ben has 2 triceratops in pens (not the river one) -> 4; bonus: wood 1 -> 10+6+11+4+1 = 32
    assert ana.pens == {"well_ordered_wood": 10, "lovers_bridge": 6, "pyramid": 11, "lookout": 4, "quarantine": 0,
                        "river": 0}
    assert (ana.trex_bonus, ana.total, ana.trex_count) == (1, 32, 2)
    assert ben.total == 6 + 1
    assert result.winner_names == ["Ana"] and result.reason.code == "draft_win_most_points"


def test_a_dinosaur_still_in_quarantine_scores_nothing_and_earns_no_bonus():
    player = sheet([{"quarantine": ["trex"]}]).players[0]
    assert player.details["quarantine"].code == "draft_score_quarantine_waiting"
    assert (player.total, player.trex_bonus, player.trex_count) == (0, 0, 1)


# ---- the Quarantine's move ------------------------------------------------------------------------------

def test_quarantine_destinations_obey_every_pen_rule_and_the_best_one_scores_most():
    zoo = {"well_ordered_wood": ["trex", "stegosaurus"],  # the next must be a T-Rex: not a diplodocus
           "lovers_bridge_left": ["diplodocus"], "lovers_bridge_right": ["spinosaurus"] * 4,  # right bank full
           "pyramid": ["trex", "stegosaurus", "diplodocus"],  # middle left fits, middle right touches the diplodocus
           "lookout": [], "quarantine": ["diplodocus"]}
    indexed = validate_winter_zoos(RULES, [zoo], ["Ana"], 2)[0]
    choices = quarantine_choices(RULES, indexed, "Ana", None)
    base = 3 + 0 + 6 + 2  # wood 2 = 3, no couple, bottom row 6, T-Rex bonus for the wood and the pyramid
    assert choices == [
        QuarantineChoice("lovers_bridge_left", None, base),  # two diplodocus on one bank: no couple
        QuarantineChoice("pyramid", "middle_left", base + 5),
        QuarantineChoice("lookout", None, base),  # alone: no neighbour to look at
        QuarantineChoice("river", None, base + 1),
    ]
    assert best_choice(choices) == QuarantineChoice("pyramid", "middle_left", base + 5)


def test_quarantine_best_choice_on_a_tie_is_the_first_in_board_order():
    indexed = validate_winter_zoos(RULES, [{"quarantine": ["trex"]}], ["Ana"], 2)[0]
    choices = quarantine_choices(RULES, indexed, "Ana", None)
    # wood: 1 point + bonus 1 = 2; a bank: bonus 1; pyramid bottom: 2 + bonus 1 = 3; lookout: bonus 1; river 1
    assert [(c.pen, c.position, c.total) for c in choices] == [
        ("well_ordered_wood", None, 2), ("lovers_bridge_left", None, 1), ("lovers_bridge_right", None, 1),
        ("pyramid", "bottom_left", 3), ("pyramid", "bottom_centre", 3), ("pyramid", "bottom_right", 3),
        ("lookout", None, 1), ("river", None, 1)]
    assert best_choice(choices) == QuarantineChoice("pyramid", "bottom_left", 3)


def test_quarantine_into_the_lookout_counts_the_neighbour():
    zoos = [{"quarantine": ["spinosaurus"]}, {"pyramid": ["spinosaurus", "trex", "spinosaurus"]}]
    result, moves = score_winter_zoos(RULES, zoos, ["Ana", "Ben"])
    # the lookout gives 2 x 2 spinosaurus = 4, more than the pyramid's 2 or the wood's 1
    assert [(m.player, m.species, m.choice) for m in moves] == [
        ("Ana", "spinosaurus", QuarantineChoice("lookout", None, 4))]
    assert result.players[0].pens["lookout"] == 4 and result.players[0].pens["quarantine"] == 0


def test_the_game_asks_each_owner_then_scores():
    game = Game.new(["Ana", "Ben"], board="winter", winter_board=TABLE, mode="full", seed=5)
    import random

    from companion.games.draftosaurus.simulate import play_random_step
    choices = random.Random(5)
    while game.phase not in ("over", "quarantine"):
        if game.phase == "place" and 0 in game.waiting_for() and not game.zoos[0]["quarantine"]:
            species = game.hand(0)[0]
            if "quarantine" in game.legal_pens(0, species):
                game.apply(Place(0, species, "quarantine"))
                continue
        play_random_step(game, choices)
    assert game.phase == "quarantine" and 0 in game.waiting_for()
    assert game.check(Roll("forest")).code == "draft_quarantine_pending"
    choices_now = game.quarantine_choices(0)
    best = game.best_quarantine(0)
    assert best == max(choices_now, key=lambda c: c.total)
    assert {(c.pen, c.position) for c in choices_now} == set(game.quarantine_destinations(0))
    assert game.check(QuarantineMove(0, "quarantine")).code == "draft_quarantine_elsewhere"
    game.apply(QuarantineMove(0, best.pen, best.position))
    assert game.check(QuarantineMove(0, "river")).code in ("draft_quarantine_nothing", "draft_game_over")
    for player in game.waiting_for():
        game.apply(QuarantineMove(player, "river"))
    assert game.phase == "over"
    assert game.score().players[0].total == best.total


def test_untracked_players_report_what_the_lookout_counts():
    game = Game.new(["Ana", "Ben", "Cid"], board="winter", winter_board=TABLE, seed=2, tracked=[1])
    game.apply(Roll("forest"))
    game.apply(Place(1, "diplodocus", "lookout"))
    # Ben's right-hand neighbour is Ana, whom the app does not follow: she says she has 3 diplodocus in pens
    assert game.score({0: {"diplodocus": 3}}).players[0].pens["lookout"] == 6
    assert game.score().players[0].pens["lookout"] == 0
