"""The advisor: the best action and a close runner-up, each legal, each with a reason that is true at the
table (the pen's effect and the points are what the engine scores once the action is played)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from companion.errors import BadInput, RuleViolation
from companion.games.draftosaurus.actions import Discard, Place, Roll
from companion.games.draftosaurus.advice import CLOSE, advise, advise_seat
from companion.games.draftosaurus.advice import REASONS as DRAFT_REASONS
from companion.games.draftosaurus.bots import StrongBot
from companion.games.draftosaurus.engine import Game
from companion.games.draftosaurus.observation import observe, observe_table
from companion.games.draftosaurus.simulate import play_random_step
from companion.games.jurassic_snack.advice import REASONS as SNACK_REASONS

WORLDS = 16
PEN_CODES = {"prairie_of_love": {"draft_advice_pair", "draft_advice_pair_started", "draft_advice_pair_last"},
             "forest_of_sameness": {"draft_advice_forest"},
             "woody_trio": {"draft_advice_trio_full", "draft_advice_trio_part", "draft_advice_trio_last"},
             "king_of_the_jungle": {"draft_advice_king_kept", "draft_advice_king_kept_one_rival",
                                    "draft_advice_king_behind"},
             "meadow_of_differences": {"draft_advice_meadow"},
             "solitary_island": {"draft_advice_island_alone", "draft_advice_island_crowded"},
             "river": {"draft_advice_river"}}


def game_after_roll(players: int, seed: int, turns: int) -> Game:
    """A full-mode game played at random for `turns` turns, then the die rolled: nobody has placed yet."""
    game = Game.new([f"P{i}" for i in range(players)], mode="full", seed=seed)
    chooser = random.Random(seed)
    while len([a for a in game.actions if isinstance(a, Roll)]) < turns or game.phase != "roll":
        play_random_step(game, chooser)
    game.apply(game.roll_die())
    return game


def check_true(game: Game, seat: int, suggestion) -> None:
    """The suggestion is legal, and its reason says what the engine then scores."""
    action = suggestion.action
    assert game.check(action) is None and action.player == seat
    reason = suggestion.reason
    assert 0 <= reason.params["win_chance"] <= 100
    if isinstance(action, Discard):
        assert reason.code == "draft_advice_discard" and reason.params["species"] == action.species
        return
    assert reason.code in PEN_CODES[action.pen]
    assert (reason.params["species"], reason.params["pen"]) == (action.species, action.pen)
    before = game.score().players[seat]
    after_game = game.copy()
    after_game.apply(action)
    after = after_game.score().players[seat]
    assert reason.params["points"] == after.total - before.total
    pen_points = after.pens[action.pen] - before.pens[action.pen]
    assert reason.params["pen_points"] == pen_points
    if reason.code == "draft_advice_pair":
        assert pen_points == 5 and after_game.zoos[seat]["prairie_of_love"].count(action.species) % 2 == 0
    if reason.code in ("draft_advice_forest", "draft_advice_meadow", "draft_advice_trio_part"):
        assert reason.params["count"] == len(after_game.zoos[seat][action.pen])
    if "trex_bonus" in reason.params:
        assert action.species == "trex" and after.trex_bonus == before.trex_bonus + 1
    for pen, change in reason.params.get("also", {}).items():
        assert after.pens[pen] - before.pens[pen] == change


@pytest.mark.parametrize("players", [2, 4, 5])
def test_the_advice_is_legal_and_its_reasons_are_what_the_engine_scores(players):
    for seed in range(8):
        game = game_after_roll(players, seed, turns=seed % 6)
        seat = game.waiting_for()[-1]
        advice = advise(observe(game, seat), seed, WORLDS)
        check_true(game, seat, advice.best)
        if advice.runner_up is not None:
            check_true(game, seat, advice.runner_up)
            assert 0 <= advice.best.value - advice.runner_up.value <= CLOSE
            assert advice.runner_up.action != advice.best.action


def test_in_the_two_player_variant_the_discard_advice_says_what_it_denies():
    game = game_after_roll(2, 3, turns=2)
    for player in range(2):
        game.apply(advise(observe(game, player), 0, WORLDS).best.action)
    advice = advise(observe(game, 0), 0, WORLDS)
    check_true(game, 0, advice.best)
    assert isinstance(advice.best.action, Discard) and advice.best.reason.params["denied"] >= 0


def test_the_advisor_plays_what_the_strong_bot_plays():
    game = game_after_roll(4, 6, turns=3)
    observation = observe(game, 1)
    assert advise(observation, 5, WORLDS).best.action == StrongBot(5, WORLDS).choose(observation)


def table_with_a_triceratops_in_the_prairie() -> Game:
    """A table game: Ana has one triceratops in the prairie of love; Ben has rolled the grassland."""
    game = Game.new(["Ana", "Ben", "Cid"], seed=3)
    game.apply(Roll("grassland"))
    for player, species in enumerate(("triceratops", "trex", "stegosaurus")):
        game.apply(Place(player, species, "prairie_of_love" if player == 0 else "river"))
    game.apply(Roll("grassland"))
    return game


def test_at_a_table_the_named_species_goes_where_it_completes_a_pair_for_five_points():
    game = table_with_a_triceratops_in_the_prairie()
    advice = advise_seat(game, 0, ["triceratops"])
    best = advice.best
    assert best.action == Place(0, "triceratops", "prairie_of_love")
    assert best.reason.code == "draft_advice_pair"
    assert best.reason.params["points"] == 5 and best.reason.params["pen_points"] == 5
    check_true(game, 0, best)


def test_in_solo_a_named_species_narrows_the_advice_to_it():
    game = game_after_roll(4, 2, turns=1)
    species = game.hand(0)[0]
    advice = advise_seat(game, 0, [species])
    assert advice.best.action.species == species
    assert advice.runner_up is None or advice.runner_up.action.species == species
    missing = next(s for s in ("trex", "triceratops", "stegosaurus", "diplodocus", "parasaurolophus",
                               "spinosaurus") if s not in game.hand(0))
    with pytest.raises(RuleViolation) as refused:
        advise_seat(game, 0, [missing])
    assert refused.value.reason.code == "draft_not_in_hand"


def test_at_a_table_impossible_hands_are_refused_with_a_reason():
    game = table_with_a_triceratops_in_the_prairie()
    with pytest.raises(RuleViolation) as refused:
        advise_seat(game, 0, ["triceratops"] * 6)
    assert refused.value.reason.code == "draft_advice_hand_too_big"
    assert refused.value.reason.params == {"count": 6, "limit": 5}
    with pytest.raises(RuleViolation) as refused:
        advise_seat(game, 0, ["dodo"])
    assert refused.value.reason.code == "draft_unknown_species"
    with pytest.raises(BadInput):
        advise_seat(game, 0, None)
    exhausted = Game.new(["Ana", "Ben", "Cid"], seed=3)  # three players: six of each species in the bag
    for _ in range(2):
        exhausted.apply(Roll("forest"))
        for player in range(3):
            exhausted.apply(Place(player, "trex", "river"))
    exhausted.apply(Roll("forest"))
    with pytest.raises(RuleViolation) as refused:
        advise_seat(exhausted, 0, ["trex"])
    assert refused.value.reason.code == "draft_bag_exhausted"


def test_at_a_table_that_follows_some_players_only_the_others_zoos_are_sampled():
    game = Game.new(["Ana", "Ben", "Cid", "Dan"], seed=3, tracked=[0, 2])
    game.apply(Roll("forest"))
    game.apply(Place(0, "trex", "king_of_the_jungle"))
    game.apply(Place(2, "trex", "river"))
    game.apply(Roll("grassland"))
    observation = observe_table(game, 0, ["trex", "triceratops"])
    assert observation.hidden_zoo == (0, 1, 0, 1) and observation.unknown == (3, 5, 5, 5)
    assert sum(observation.unseen) == 48 - 2 - 2  # two placed in the followed zoos, two cards named
    advice = advise_seat(game, 0, ["trex", "triceratops"])
    check_true(game, 0, advice.best)
    with pytest.raises(BadInput):
        observe_table(game, 1, ["trex"])


@pytest.mark.parametrize("package, reasons", [("draftosaurus", DRAFT_REASONS), ("jurassic_snack", SNACK_REASONS)])
def test_the_advisors_list_every_code_their_reasons_carry(package, reasons):
    prefix = "draft_advice_" if package == "draftosaurus" else "js_advice_"
    found = set()
    for path in (Path(__file__).parent.parent / "companion" / "games" / package).glob("*.py"):
        found |= set(re.findall(rf'"({prefix}\w+)"', path.read_text(encoding="utf-8")))
    assert found == set(reasons)
