"""Random legal games of Dino, reproducible from a seed (property tests, benchmarks, scripted table games)."""

from __future__ import annotations

import random
from typing import Any

from companion.games.common import OVER
from companion.games.dino.actions import Action, Move
from companion.games.dino.board import Board, load_board
from companion.games.dino.engine import Game
from companion.games.dino.ids import EGGS_RULES, MAX_PLAYERS, MIN_PLAYERS, OWN_EXITS_MAX_PLAYERS
from companion.games.dino.starting_position import Setup, random_layout

NAMES = ("Ana", "Bruno", "Chloé", "David", "Emma", "Farid")


def random_setup(players_count: int, seed: int, board: Board | None = None, **options: Any) -> Setup:
    """A legal setup for `players_count` players: seated names, the first colours, a random nest and barrier layout."""
    board = board or load_board()
    chooser = random.Random(seed)
    nests, barriers = random_layout(board, players_count, chooser)
    return Setup(players=NAMES[:players_count], colours=tuple(board.pawn_colours[:players_count]), nests=nests,
                 barriers=barriers, first_player=chooser.randrange(players_count), board=board, **options)


def random_start(seed: int) -> Game:
    """A new game whose players, layout, eggs rule and exits variant are drawn from `seed`."""
    choices = random.Random(seed)
    count = choices.randint(MIN_PLAYERS, MAX_PLAYERS)
    own_exits = count <= OWN_EXITS_MAX_PLAYERS and choices.random() < 0.5
    return Game.new(random_setup(count, seed, eggs_rule=choices.choice(sorted(EGGS_RULES)),
                                 own_colour_exits=own_exits))


def play_random_game(players_count: int, seed: int, **options: Any) -> Game:
    """A finished game: every choice drawn from `seed`, with a taste for eggs and for going home late."""
    if not 2 <= players_count <= MAX_PLAYERS:
        raise ValueError(f"Dino is for 2 to {MAX_PLAYERS} players")
    game = Game.new(random_setup(players_count, seed, **options))
    chooser = random.Random(seed + 1)
    while game.phase != OVER:
        game.apply(pick_action(game, chooser))
    return game


def pick_action(game: Game, chooser: random.Random) -> Action:
    """One legal action: an egg when one can be had, an exit near the end, else anything legal."""
    actions = game.legal_actions()
    eggs = [a for a in actions if isinstance(a, Move) and a.egg is not None]
    exits = [a for a in actions if isinstance(a, Move) and a.exit]
    if eggs and chooser.random() < 0.7:
        return chooser.choice(eggs)
    if exits and game.meteor_left < 12 and chooser.random() < 0.8:
        return chooser.choice(exits)
    return chooser.choice(actions)
