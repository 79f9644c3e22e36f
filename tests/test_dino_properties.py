"""Random play of Dino: nothing illegal is reachable, the same seed gives the same game, saves round-trip."""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import RuleViolation
from companion.games.dino.actions import Meteor, Move, Penalty
from companion.games.dino.engine import HOME, ON_BOARD, OVER, Game
from companion.games.dino.ids import POINTS_PER_TURN
from companion.games.dino.simulate import pick_action, play_random_game, random_setup
from tests.conftest import budget

PLAYERS = st.integers(min_value=2, max_value=6)
SEEDS = st.integers(min_value=0, max_value=2 ** 31 - 1)
EGG_RULES = st.sampled_from(["players_plus_one", "players", "players_minus_one"])


def check_invariants(game: Game) -> None:
    """What no sequence of legal actions may break."""
    on_board = [view.square for view in game.pawns() if view.place == ON_BOARD]
    assert len(on_board) == len(set(on_board)), "two pawns share a square"
    start = game.setup.eggs_per_nest
    for colour, (_square, left) in game.nests().items():
        taken = sum(game.eggs(player).count(colour) for player in range(len(game.players)))
        assert left >= 0 and left + taken == start, colour
    assert 0 <= game.meteor_left <= game.meteor_total


@settings(max_examples=budget(40))
@given(PLAYERS, SEEDS, EGG_RULES, st.booleans())
def test_random_play_never_reaches_an_illegal_state(players, seed, eggs_rule, own_exits):
    own_exits = own_exits and players <= 3
    game = Game.new(random_setup(players, seed, eggs_rule=eggs_rule, own_colour_exits=own_exits))
    chooser = random.Random(seed)
    homes: set[tuple[int, int]] = set()
    meteor = game.meteor_left
    while game.phase != OVER:
        player = game.current_player
        if len(game.actions) % 10 == 0:
            assert all(game.check(legal) is None for legal in game.legal_actions())
        action = pick_action(game, chooser)
        assert game.check(action) is None
        game.apply(action)
        check_invariants(game)
        assert game.meteor_left <= meteor
        if isinstance(action, Move):
            assert meteor - game.meteor_left == min(meteor, POINTS_PER_TURN - action.steps)
            assert 1 <= action.steps <= POINTS_PER_TURN
        if isinstance(action, Meteor):
            assert meteor - game.meteor_left == min(meteor, POINTS_PER_TURN)
        if isinstance(action, (Move, Meteor)) and game.phase == "play":
            assert game.current_player == (player + 1) % players
        meteor = game.meteor_left
        for view in game.pawns():
            if (view.player, view.pawn) in homes:
                assert view.place == HOME, "a pawn came back from the present"
            if view.place == HOME:
                homes.add((view.player, view.pawn))
        if own_exits:
            for view in game.pawns():
                if view.place == HOME:
                    assert game.board.start_at(view.square).colour == game.colours[view.player]
    assert game.meteor_left == 0 and not game.penalties_due()
    penalised = {key for key in game.penalties()}
    assert penalised == {(v.player, v.pawn) for v in game.pawns() if v.place == ON_BOARD}
    sheet = game.score()
    assert sheet.final and max(p.total for p in sheet.players) == sheet.players[sheet.winners[0]].total


@settings(max_examples=budget(15))
@given(PLAYERS, SEEDS)
def test_same_seed_same_game(players, seed):
    first, second = play_random_game(players, seed), play_random_game(players, seed)
    assert first.actions == second.actions and first.snapshot() == second.snapshot()
    assert first.score() == second.score()


@settings(max_examples=budget(15))
@given(PLAYERS, SEEDS, st.integers(min_value=0, max_value=200))
def test_json_round_trip_at_any_point(players, seed, cut):
    whole = play_random_game(players, seed)
    part = Game.replay(whole.setup, whole.actions[:cut])
    again = Game.from_json(json.loads(json.dumps(part.to_json(), ensure_ascii=False)))
    assert again.snapshot() == part.snapshot() and again.actions == part.actions
    assert again.legal_actions() == part.legal_actions()


@settings(max_examples=budget(25))
@given(PLAYERS, SEEDS, st.data())
def test_illegal_actions_are_refused_and_change_nothing(players, seed, data):
    whole = play_random_game(players, seed)
    game = Game.replay(whole.setup, whole.actions[:data.draw(st.integers(0, len(whole.actions)))])
    squares = [*list(game.board.squares), "G7"]
    action = data.draw(st.one_of(
        st.builds(Move, st.integers(-1, players), st.integers(-1, 2), st.integers(-1, 5), st.sampled_from(squares),
                  st.booleans(), st.sampled_from([None, "red", "green", "white"]),
                  st.sampled_from([None, 0, 1, 2, 3, 4])),
        st.builds(Meteor, st.integers(-1, players)),
        st.builds(Penalty, st.integers(-1, players), st.integers(-1, 2), st.integers(-1, 12))))
    before = game.snapshot()
    reason = game.check(action)
    legal = game.legal_actions()
    if isinstance(action, (Move, Meteor)) and reason is None:
        # a legal turn is in the engine's own list (legal_actions lists every Move with meteor left unsaid)
        plain = Move(action.player, action.pawn, action.steps, action.square, action.exit, action.egg) \
            if isinstance(action, Move) else action
        assert plain in legal
    if reason is None:
        game.apply(action)
        check_invariants(game)
    else:
        try:
            game.apply(action)
        except RuleViolation as refused:
            assert refused.reason == reason
        assert game.snapshot() == before
