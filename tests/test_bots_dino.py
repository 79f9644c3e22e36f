"""The greedy Dino bot: legal, reproducible games; it takes an egg of a new colour when it can, heads for a
time machine before the meteor falls, and scores more than the random walker of the simulations."""

from __future__ import annotations

import random
import statistics

import pytest

from companion.errors import RuleViolation
from companion.games.common import OVER
from companion.games.dino.actions import Move
from companion.games.dino.bots import GreedyBot, is_urgent, observe, play_game
from companion.games.dino.engine import HOME, PENALTIES, Game
from companion.games.dino.simulate import pick_action, random_setup


def greedy_game(players: int, seed: int, **options) -> Game:
    game = Game.new(random_setup(players, seed, **options))
    return play_game(game, [GreedyBot(seed * 10 + seat) for seat in range(players)])


@pytest.mark.parametrize("players", [2, 4, 6])
def test_greedy_bots_play_legal_reproducible_games(players):
    game = greedy_game(players, 3)
    assert game.phase == OVER
    assert Game.replay(game.setup_json(), game.actions).snapshot() == game.snapshot()
    assert greedy_game(players, 3).actions == game.actions
    assert sum(game.score().players[p].eggs for p in range(players)) > 0


def test_a_new_colour_in_reach_is_taken_while_the_meteor_is_far():
    checked = 0
    for seed in range(10):
        game = Game.new(random_setup(3, seed))
        chooser = random.Random(seed)
        while game.phase == "play" and checked < 30:
            seat = game.current_player
            new_eggs = [a for a in game.legal_actions()
                        if isinstance(a, Move) and a.egg is not None and a.egg not in game.eggs(seat)]
            if new_eggs and not is_urgent(game, seat, game.board.distances(game.setup.barriers)):
                choice = GreedyBot(seed).choose(observe(game, seat))
                assert isinstance(choice, Move) and choice.egg is not None and choice.egg not in game.eggs(seat)
                checked += 1
            game.apply(pick_action(game, chooser))
    assert checked >= 10


def test_the_pawns_go_home_before_the_meteor_falls():
    home, penalties = [], []
    for seed in range(6):
        game = greedy_game(2, seed)
        home.append(sum(1 for view in game.pawns() if view.place == HOME))
        penalties.append(sum(player.penalty for player in game.score().players))
    assert statistics.mean(home) >= 3 and statistics.mean(penalties) <= 2  # of four pawns


def test_greedy_scores_more_than_the_random_walker():
    margins = []
    for seed in range(12):
        game = Game.new(random_setup(3, seed))
        chooser = random.Random(seed)
        hero = seed % 3
        bot = GreedyBot(seed)
        while game.phase != OVER:
            if game.phase == PENALTIES:
                game.apply(game.legal_actions()[0])
                continue
            seat = game.current_player
            game.apply(bot.choose(observe(game, seat)) if seat == hero else pick_action(game, chooser))
        totals = [player.total for player in game.score().players]
        margins.append(totals[hero] - statistics.mean(t for p, t in enumerate(totals) if p != hero))
    assert statistics.mean(margins) > 2


def test_only_the_player_to_act_is_observed():
    game = Game.new(random_setup(2, 1))
    with pytest.raises(RuleViolation) as refused:
        observe(game, 1 - game.current_player)
    assert refused.value.reason.code == "dino_not_your_turn"
