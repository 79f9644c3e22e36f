"""The fast Jurassic Snack positions play as the engine: seeded random engine games (hidden tokens, two
assemblies) replayed through a Position give the same legal actions, the same area and counts after every
action, and the same winners."""

from __future__ import annotations

import random

import pytest

from companion.games.jurassic_snack.engine import HIDDEN, OVER, Game
from companion.games.jurassic_snack.layout import Layout
from companion.games.jurassic_snack.playout import ACTION, CONTENTS, EFFECT, EFFECT_INDEX, TOKEN_INDEX, Position
from companion.games.jurassic_snack.playout import OVER as POSITION_OVER

LINE = Layout.build([{"board": "A", "column": 0, "row": 0}, {"board": "B", "column": 3, "row": 0, "rotation": 2},
                     {"board": "C", "column": 6, "row": 0, "rotation": 1}, {"board": "D", "column": 6, "row": 3}])


def position_of(game: Game) -> Position:
    """The Position of a new hidden-token game, with the tokens the engine dealt (read here to check)."""
    tokens = [TOKEN_INDEX[game._tokens[square]] if square in game._tokens else -1 for square in game.layout.squares]
    return Position(game.layout, tokens, game.options.quiet_turns)


def same_state(game: Game, position: Position) -> None:
    assert [CONTENTS[c] for c in position.cells] == [game.content(s) for s in game.layout.squares]
    assert position.reserve == [game.reserve(0), game.reserve(1)]
    assert position.trex_waiting == game.trex_waiting and position.removed == game.removed
    assert position.points == [p.points for p in game.score()] and position.counts == [p.count for p in game.score()]
    phase = {ACTION: "action", EFFECT: "effect", POSITION_OVER: "over"}[position.phase]
    assert phase == game.phase
    if game.phase != OVER:
        assert (position.player, position.actions_left, position.quiet) == (game.player, game.actions_left,
                                                                            game.quiet_turns)
        assert position.pending == (-1 if game.pending is None else EFFECT_INDEX[game.pending])


@pytest.mark.parametrize("layout", [None, LINE])
def test_seeded_random_games_play_the_same_through_positions_and_the_engine(layout):
    actions = 0
    for seed in range(120):
        game = Game.new(["Blue", "Yellow"], mode=HIDDEN, seed=seed, layout=layout)
        position = position_of(game)
        chooser = random.Random(seed)
        greedy = seed % 2 == 0  # half the games eat whenever they can, to reach the late game and the T.Rex
        while game.phase != OVER:
            plays = position.legal()
            legal = [position.to_action(play) for play in plays]
            assert sorted(map(repr, legal)) == sorted(map(repr, game.legal_actions()))
            eating = [i for i, play in enumerate(plays) if play[0] == 0 and position.cells[position.slide(
                play[1], play[2])] in (1, 2, 3)]
            index = chooser.choice(eating) if greedy and eating and chooser.random() < 0.9 else \
                int(chooser.random() * len(plays))
            game.apply(legal[index])
            position.apply(plays[index])
            same_state(game, position)
            actions += 1
        assert set(position.winners) == set(game.outcome.winners)
    assert actions > 120 * 30
