"""The Dino bots: legal, reproducible games; the greedy bot takes an egg of a new colour when it can, heads for a
time machine before the meteor falls, and scores more than the random walker of the simulations; a seat sees its
own eggs and only the egg on show of the others; the strong bot's fast positions play as the engine does, and it
wins most games against the greedy bot."""

from __future__ import annotations

import random
import statistics
from collections import Counter

import pytest

from companion.errors import RuleViolation
from companion.games.common import OVER
from companion.games.dino.actions import Move
from companion.games.dino.bots import BOTS, GreedyBot, StrongBot, action_value, is_urgent, observe, play_game
from companion.games.dino.engine import HOME, PENALTIES, Game
from companion.games.dino.playout import Layout, Position
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


# ---------------------------------------------------------------- what a seat sees, the random and strong bots

def played_game(players: int, seed: int, turns: int) -> Game:
    game = Game.new(random_setup(players, seed))
    chooser = random.Random(seed)
    for _ in range(turns):
        if game.phase != "play":
            break
        game.apply(pick_action(game, chooser))
    return game


def test_a_seat_sees_its_own_eggs_and_only_the_egg_on_show_of_the_others():
    game = next(g for seed in range(40) if (g := played_game(3, seed, 30)).phase == "play"
                and all(len(g.eggs(p)) > 1 for p in range(3)))
    seat = game.current_player
    seen = observe(game, seat)
    for player in range(3):
        eggs = game.eggs(player)
        if player == seat:
            assert seen.game.eggs(player) == eggs and seen.hidden[player] == 0
        else:
            assert seen.game.eggs(player) == eggs[-1:] and seen.hidden[player] == len(eggs) - 1
    face_down = Counter(egg for player in range(3) if player != seat for egg in game.eggs(player)[:-1])
    assert Counter(dict(seen.unseen)) == face_down
    # a guess keeps what is seen and draws the rest from the unseen colours
    guess = seen.eggs_guess(random.Random(0))
    assert guess[seat] == game.eggs(seat)
    assert Counter(e for p in range(3) if p != seat for e in guess[p][:-1]) == face_down


def test_the_bots_choose_alike_whatever_the_others_hold_face_down():
    """Two other players' eggs face down swapped (their eggs on show kept): the seat cannot tell, and no bot
    plays otherwise."""
    def others(game: Game) -> list[int]:
        return [player for player in range(3) if player != game.current_player]

    def swappable(game: Game) -> bool:
        first, second = (game.eggs(player)[:-1] for player in others(game))
        return game.phase == "play" and sorted(first) != sorted(second)

    game = next(g for seed in range(80) if swappable(g := played_game(3, seed, 30)))
    seat = game.current_player
    first, second = others(game)
    eggs = [list(game.eggs(player)) for player in range(3)]
    eggs[first], eggs[second] = (eggs[second][:-1] + eggs[first][-1:], eggs[first][:-1] + eggs[second][-1:])
    twin = game.with_eggs(eggs)
    assert twin.score().to_json() != game.score().to_json()  # the truth differs
    for level in ("random", "greedy", "strong"):
        bot = BOTS[level](5)
        assert bot.choose(observe(game, seat)) == bot.choose(observe(twin, seat)), level


@pytest.mark.parametrize("level", ["random", "strong"])
def test_random_and_strong_bots_play_legal_reproducible_games(level):
    def one() -> Game:
        game = Game.new(random_setup(2, 9))
        return play_game(game, [BOTS[level](9), BOTS[level](10)])

    game = one()
    assert game.phase == OVER and Game.replay(game.setup_json(), game.actions).snapshot() == game.snapshot()
    assert one().actions == game.actions


def test_the_fast_position_plays_and_scores_as_the_engine():
    for seed in range(12):
        players = 2 + seed % 4
        game = Game.new(random_setup(players, seed, own_colour_exits=players <= 3 and seed % 2 == 0))
        layout = Layout.of(game)
        position = Position.from_game(game, layout)
        chooser = random.Random(seed)
        while game.phase == "play":
            assert [position.to_action(play) for play in position.legal()] == game.legal_actions()
            distances = game.board.distances(game.setup.barriers)
            seat = game.current_player
            urgent = is_urgent(game, seat, distances)
            values = {action: action_value(game, seat, action, distances, urgent) for action in game.legal_actions()}
            greedy = position.to_action(position.greedy(random.Random(seed)))
            assert values[greedy] == pytest.approx(max(values.values()))
            action = pick_action(game, chooser)
            position.apply(position.play_of(action))
            game.apply(action)
        while game.phase == PENALTIES:
            game.apply(game.legal_actions()[0])
        assert position.totals() == [player.total for player in game.score().players]


def test_the_strong_bot_wins_most_two_player_games_against_the_greedy_bot():
    shares = []
    for seed in range(6):
        hero = seed % 2
        game = Game.new(random_setup(2, seed))
        bots = [StrongBot(seed) if seat == hero else GreedyBot(seed * 10 + seat) for seat in range(2)]
        play_game(game, bots)
        winners = game.score().winners
        shares.append(1 / len(winners) if hero in winners else 0.0)
    assert statistics.mean(shares) >= 0.6
