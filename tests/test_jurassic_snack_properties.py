"""Random legal play of Jurassic Snack: nothing illegal is reachable, the box always adds up, the same seed
gives the same game, and a game survives its JSON form."""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import RuleViolation
from companion.games.jurassic_snack.actions import Erupt, Fly, Hatch, Look, Move, Pass, Reveal, Scout
from companion.games.jurassic_snack.engine import EMPTY, GRASS, HIDDEN, MODES, OVER, REVEAL, Game
from companion.games.jurassic_snack.ids import COLORS, DIRECTIONS, PIECES, TOKEN_TOTAL, TOKENS
from companion.games.jurassic_snack.layout import Layout
from companion.games.jurassic_snack.simulate import play_random_game
from tests.conftest import budget

LINE = Layout.build([{"board": "A", "column": 0, "row": 0}, {"board": "B", "column": 3, "row": 0, "rotation": 2},
                     {"board": "C", "column": 6, "row": 0, "rotation": 1}, {"board": "D", "column": 6, "row": 3}])
LAYOUTS = st.sampled_from([None, LINE])


def check_invariants(game: Game) -> None:
    cells = [game.content(square) for square in game.layout.squares]
    for player, color in enumerate(COLORS):
        assert cells.count(color) + game.reserve(player) == 5
    assert cells.count("trex") + game.trex_waiting == 2
    eaten = game.eaten(0) + game.eaten(1)
    being_turned = 1 if game.phase == REVEAL else 0  # eaten, not yet said
    assert cells.count(GRASS) + len(eaten) + being_turned + game.removed == TOKEN_TOTAL
    assert all(count >= 0 for count in game.tokens_unseen().values())
    if game.phase == OVER:
        assert game.outcome is not None and game.end in ("elimination", "no_grass", "quiet")
    else:
        assert cells.count(GRASS) + being_turned > 0 and all(color in cells for color in COLORS)


def random_wrong_action(game: Game, chooser: random.Random):
    squares = [*list(game.layout.squares), "Z9"]
    player = chooser.choice([0, 1])
    pick = chooser.choice
    return pick([Move(player, pick(PIECES), pick(squares), pick(DIRECTIONS)), Reveal(player, pick(TOKENS)),
                 Hatch(player, pick(squares)), Scout(player, pick("ABCDE")), Fly(player, pick(squares), pick(squares)),
                 Erupt(player, (pick(squares), pick(squares))), Look(player, (pick(squares), pick(squares))),
                 Pass(player)])


def unordered(action):
    """Erupt and Look name a set of squares: their order does not matter."""
    squares = getattr(action, "squares", None)
    return action if squares is None else (type(action), action.player, frozenset(squares), len(squares))


@settings(max_examples=budget(60))
@given(seed=st.integers(0, 2 ** 31 - 1), mode=st.sampled_from(MODES), layout=LAYOUTS)
def test_random_play_never_reaches_an_illegal_state(seed, mode, layout):
    chooser = random.Random(seed)
    game = Game.new(["Ana", "Ben"], mode=mode, seed=seed, layout=layout)
    while game.phase != OVER:
        check_invariants(game)
        legal = game.legal_actions()
        assert legal
        for action in legal:
            assert game.check(action) is None, action
        wrong = random_wrong_action(game, chooser)
        if unordered(wrong) not in {unordered(action) for action in legal}:
            before = json.dumps(game.to_json(), sort_keys=True)
            reason = game.check(wrong)
            assert reason is not None, wrong
            try:
                game.apply(wrong)
            except RuleViolation as error:
                assert error.reason == reason
            assert json.dumps(game.to_json(), sort_keys=True) == before
        game.apply(chooser.choice(legal))
    check_invariants(game)
    assert game.legal_actions() == []


@settings(max_examples=budget(30))
@given(seed=st.integers(0, 2 ** 31 - 1), mode=st.sampled_from(MODES))
def test_the_same_seed_gives_the_same_game_and_json_round_trips(seed, mode):
    first, second = play_random_game(seed, mode), play_random_game(seed, mode)
    assert first.actions == second.actions and first.to_json() == second.to_json()
    saved = json.loads(json.dumps(first.to_json()))
    again = Game.from_json(saved)
    assert again.to_json() == first.to_json() and again.notes == first.notes
    middle = Game.replay(first.setup_json(), first.actions[: len(first.actions) // 2])
    assert Game.from_json(json.loads(json.dumps(middle.to_json()))).to_json() == middle.to_json()


@settings(max_examples=budget(30))
@given(seed=st.integers(0, 2 ** 31 - 1))
def test_private_notes_tell_the_truth_to_one_player_in_hidden_mode(seed):
    game = Game.new(["Ana", "Ben"], mode=HIDDEN, seed=seed)
    chooser = random.Random(seed)
    dealt = dict(game._tokens)
    while game.phase != OVER:
        game.apply(chooser.choice(game.legal_actions()))
    for note in game.notes:
        assert note.player in (0, 1) and note.tokens
        for square, token in note.tokens:
            assert token == dealt[square]


def test_copy_is_independent():
    game = play_random_game(4)
    middle = Game.replay(game.setup_json(), game.actions[:10])
    twin = middle.copy()
    twin.apply(twin.legal_actions()[0])
    assert middle.to_json() == Game.replay(game.setup_json(), game.actions[:10]).to_json()
    assert twin.to_json() != middle.to_json()
    assert EMPTY in {middle.content(s) for s in middle.layout.squares}
