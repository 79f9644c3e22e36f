"""Draftosaurus bots: every decision is legal and reproducible from the seed, and reads only what its seat
could know (hidden hands, other players' unrevealed placements, the other player's discards)."""

from __future__ import annotations

import random

import pytest

from companion.errors import BadInput, RuleViolation
from companion.games.draftosaurus.actions import Discard, Place, Roll
from companion.games.draftosaurus.bots import BOTS, StrongBot, bot_action, play_game
from companion.games.draftosaurus.engine import Game
from companion.games.draftosaurus.ids import SPECIES
from companion.games.draftosaurus.observation import observe
from companion.games.draftosaurus.simulate import play_random_step
from companion.games.levels import LEVELS

FAST = {"worlds": 8}  # few worlds: the tests check behaviour, bench bots measures strength


def make_bot(level: str, seed: int):
    return BOTS[level](seed, **FAST) if level == "strong" else BOTS[level](seed)


def bot_game(levels: list[str], seed: int) -> Game:
    game = Game.new([f"P{index + 1}" for index in range(len(levels))], mode="full", seed=seed)
    return play_game(game, [make_bot(level, seed * 10 + seat) for seat, level in enumerate(levels)])


@pytest.mark.parametrize("levels", [["strong", "greedy"], ["random", "strong", "greedy"],
                                    ["greedy", "random", "strong", "random", "greedy"]])
def test_bots_play_whole_games_with_legal_actions_only_and_the_same_seed_gives_the_same_game(levels):
    game = bot_game(levels, seed=4)
    assert game.phase == "over" and len(game.actions) == (60 if len(levels) == 2 else 12 + 12 * len(levels))
    assert Game.replay(game.setup_json(), game.actions).snapshot() == game.snapshot()  # every action was legal
    again = bot_game(levels, seed=4)
    assert again.actions == game.actions
    other = bot_game(levels, seed=5)
    assert other.actions != game.actions


def test_a_decision_depends_on_the_bot_seed_and_the_observation_only():
    game = Game.new(["A", "B", "C", "D"], mode="full", seed=11)
    game.apply(game.roll_die())
    observation = observe(game, 2)
    for level in LEVELS:
        first = make_bot(level, 3).choose(observation)
        assert make_bot(level, 3).choose(observation) == first
        assert game.check(first) is None
    picks = {make_bot("random", seed).choose(observation) for seed in range(20)}
    assert len(picks) > 1


def hand_key(game: Game, players) -> tuple:
    return tuple(tuple(sorted(game.hand(player))) for player in players)


def twin_seeds(players: int, same: tuple[int, ...]) -> tuple[int, int]:
    """Two seeds whose first deals give the same hands to the players `same` and different ones to another."""
    seen: dict[tuple, int] = {}
    for seed in range(20000):
        game = Game.new([f"P{i}" for i in range(players)], mode="full", seed=seed)
        key = hand_key(game, same)
        if key in seen:
            first = Game.new([f"P{i}" for i in range(players)], mode="full", seed=seen[key])
            others = [p for p in range(players) if p not in same]
            if hand_key(first, others) != hand_key(game, others):
                return seen[key], seed
        seen.setdefault(key, seed)
    raise AssertionError("no twin seeds found")


def test_games_that_differ_only_in_hands_the_seat_has_not_seen_give_it_the_same_observation_and_decisions():
    # Four players; seat 0 receives player 3's hand after the first turn, and has not seen players 1 and 2's.
    first_seed, second_seed = twin_seeds(4, (0, 3))
    games = [Game.new(["A", "B", "C", "D"], mode="full", seed=seed) for seed in (first_seed, second_seed)]
    assert hand_key(games[0], (1, 2)) != hand_key(games[1], (1, 2))
    for game in games:
        game.apply(Roll("forest"))
    for player in range(4):  # everyone places a species both games' hands hold, into the river
        common = sorted(set(games[0].hand(player)) & set(games[1].hand(player)))
        assert common, "the twin hands share no species"
        for game in games:
            game.apply(Place(player, common[0], "river"))
    for game in games:
        game.apply(Roll("grassland"))
    observations = [observe(game, 0) for game in games]
    assert observations[0] == observations[1]
    assert observations[0].unknown == (0, 0, 5, 5)  # its hand, the one it passed on, two it has not held
    for level in LEVELS:
        assert make_bot(level, 1).choose(observations[0]) == make_bot(level, 1).choose(observations[1])
    # seat 1 held player 1's first hand, which differs between the games: its observations differ
    assert observe(games[0], 1) != observe(games[1], 1)


def test_placements_of_the_turn_under_way_stay_hidden_until_everyone_has_placed():
    game = Game.new(["A", "B", "C", "D"], mode="full", seed=2)
    game.apply(game.roll_die())
    before = observe(game, 3)
    decisions = {level: make_bot(level, 7).choose(before) for level in LEVELS}
    for player in range(3):
        game.apply(bot_action(game, player, make_bot("greedy", player)))
    after = observe(game, 3)
    assert after == before
    assert {level: make_bot(level, 7).choose(after) for level in LEVELS} == decisions
    game.apply(decisions["strong"])
    game.apply(game.roll_die())
    shown = observe(game, 3).zoos  # the turn is over: every placement is shown
    assert [sum(len(content) for content in zoo) for zoo in shown] == [1, 1, 1, 1]


def test_the_other_players_discard_is_never_shown_in_the_two_player_variant():
    game = Game.new(["A", "B"], mode="full", seed=9)
    game.apply(game.roll_die())
    for player in range(2):
        game.apply(bot_action(game, player, make_bot("greedy", player)))
    before = observe(game, 1)
    outcomes = []
    for species in sorted(set(game.hand(0))):
        twin = game.copy()
        twin.apply(Discard(0, species))
        outcomes.append(observe(twin, 1))
    assert len(outcomes) > 1 and all(outcome == before for outcome in outcomes)


def test_the_observation_never_claims_more_than_the_truth_and_counts_every_unseen_figure():
    for players in (2, 3, 4, 5):
        for seed in range(6):
            game = Game.new([f"P{i}" for i in range(players)], mode="full", seed=seed)
            chooser = random.Random(seed)
            while game.phase != "over":
                if game.phase != "roll":
                    for seat in game.waiting_for():
                        check_knowledge(game, observe(game, seat))
                play_random_step(game, chooser)


def check_knowledge(game: Game, observation) -> None:
    """Known cards are in the hands at the start of the phase; the unseen figures cover every unknown card."""
    this_phase = []
    for action in reversed(game.actions):
        if isinstance(action, Roll) or (game.phase == "discard" and isinstance(action, Place)):
            break
        this_phase.append(action)
    assert sorted(observation.hand) == sorted(SPECIES.index(s) for s in game.hand(observation.seat))
    hidden = [0] * len(SPECIES)
    for player in range(observation.players):
        held = game.hand(player) + [a.species for a in this_phase if a.player == player]
        real = [held.count(species) for species in SPECIES]
        assert all(known <= count for known, count in zip(observation.known[player], real, strict=True))
        assert sum(observation.known[player]) + observation.unknown[player] == len(held)
        for species, count in enumerate(real):
            hidden[species] += count - observation.known[player][species]
    undealt = game._bag  # the engine's bag, read here only to check the observation against the truth
    extra = [unseen - need - left for unseen, need, left in zip(observation.unseen, hidden, undealt, strict=True)]
    assert all(count >= 0 for count in extra)
    # Without discards the unseen figures are exactly the unknown cards and the bag; with them (2 players)
    # the only card never learnt is the other player's first discard of each round.
    assert sum(extra) == 0 if observation.players > 2 else sum(extra) <= game.round


def test_bad_levels_and_seeds_are_refused():
    from companion.games.bots import bot_class
    with pytest.raises(BadInput):
        bot_class(BOTS, "expert", "Draftosaurus")
    with pytest.raises(BadInput):
        StrongBot(-1)


def test_observing_a_seat_that_has_nothing_to_decide_is_refused_with_a_reason():
    game = Game.new(["A", "B", "C"], mode="full", seed=1)
    with pytest.raises(RuleViolation) as refused:
        observe(game, 0)
    assert refused.value.reason.code == "draft_die_not_rolled"
    game.apply(game.roll_die())
    game.apply(bot_action(game, 1, make_bot("random", 0)))
    with pytest.raises(RuleViolation) as refused:
        observe(game, 1)
    assert refused.value.reason.code == "draft_already_placed"
    with pytest.raises(BadInput):
        observe(Game.new(["A", "B", "C"]), 0)
    winter = Game.new(["A", "B", "C"], mode="full", seed=1, board="winter")
    winter.apply(winter.roll_die())
    seen = observe(winter, 1)  # the winter board is observed too, with its own zoos
    assert seen.winter and seen.winter_board == winter.winter_board and len(seen.zoos[1]) == len(winter.pens) + 1
