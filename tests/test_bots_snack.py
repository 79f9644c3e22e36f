"""Jurassic Snack bots and advisor: legal and reproducible decisions that never read a hidden token or the
other player's secret look, and advice whose reasons the engine confirms."""

from __future__ import annotations

import random

import pytest

from companion.errors import RuleViolation
from companion.games.jurassic_snack.advice import CLOSE, advise, advise_seat
from companion.games.jurassic_snack.bots import BOTS, StrongBot, bot_action, play_game
from companion.games.jurassic_snack.engine import GRASS, HIDDEN, PHYSICAL, Game, PrivateNote
from companion.games.jurassic_snack.ids import TOKEN_COUNTS, TOKEN_POINTS
from companion.games.jurassic_snack.observation import observe
from companion.games.levels import LEVELS

FAST = {"worlds": 2}  # few worlds: the tests check behaviour, bench bots measures strength


def make_bot(level: str, seed: int):
    return BOTS[level](seed, **FAST) if level == "strong" else BOTS[level](seed)


def bot_game(levels: list[str], seed: int) -> Game:
    game = Game.new(["Blue", "Yellow"], mode=HIDDEN, seed=seed)
    return play_game(game, [make_bot(level, seed * 10 + seat) for seat, level in enumerate(levels)])


@pytest.mark.parametrize("levels", [["strong", "greedy"], ["random", "strong"], ["greedy", "random"]])
def test_bots_play_whole_games_with_legal_actions_only_and_the_same_seed_gives_the_same_game(levels):
    game = bot_game(levels, seed=3)
    assert game.phase == "over"
    assert Game.replay(game.setup_json(), game.actions).snapshot() == game.snapshot()  # every action was legal
    assert bot_game(levels, seed=3).actions == game.actions
    assert bot_game(levels, seed=4).actions != game.actions


def game_in_play(seed: int, actions: int) -> Game:
    """A hidden-token game after `actions` greedy actions (or fewer if it ended: then one before the end)."""
    game = Game.new(["Blue", "Yellow"], mode=HIDDEN, seed=seed)
    bots = [make_bot("greedy", 1), make_bot("greedy", 2)]
    for _ in range(actions):
        following = game.copy()
        following.apply(bot_action(following, bots[following.player]))
        if following.phase == "over":
            break
        game = following
    return game


def shuffled_hidden_tokens(game: Game, seat: int, seed: int) -> Game:
    """A twin of `game` whose tokens under the grass the seat has not looked at are dealt again."""
    twin = game.copy()
    seen = {square for note in game.notes_for(seat) for square, _ in note.tokens}
    squares = [square for square in twin._tokens if square not in seen]
    tokens = [twin._tokens[square] for square in squares]
    random.Random(seed).shuffle(tokens)
    twin._tokens.update(zip(squares, tokens, strict=True))
    return twin


def test_games_that_differ_only_in_tokens_the_seat_has_not_seen_give_the_same_observation_and_decisions():
    changed = 0
    for seed in range(6):
        game = game_in_play(seed, 8 + 3 * seed)
        seat = game.player
        twin = shuffled_hidden_tokens(game, seat, seed)
        changed += twin._tokens != game._tokens
        assert observe(twin, seat) == observe(game, seat)
        for level in LEVELS:
            assert make_bot(level, 5).choose(observe(twin, seat)) == make_bot(level, 5).choose(observe(game, seat))
    assert changed >= 5


def test_the_other_players_secret_look_never_reaches_the_observation_but_the_seats_own_does():
    game = game_in_play(2, 6)
    seat = game.player
    grass = game.squares_with(GRASS)[:2]
    theirs = game.copy()
    theirs.notes.append(PrivateNote(1 - seat, "look", tuple((s, theirs._tokens[s]) for s in grass), 0))
    assert observe(theirs, seat) == observe(game, seat)
    mine = game.copy()
    mine.notes.append(PrivateNote(seat, "look", tuple((s, mine._tokens[s]) for s in grass), 0))
    observation = observe(mine, seat)
    assert dict(observation.known) == {s: mine._tokens[s] for s in grass}
    eaten = list(observation.eaten[0] + observation.eaten[1])
    for token, count in observation.unseen().items():
        assert count == TOKEN_COUNTS[token] - eaten.count(token) - sum(1 for s in grass if mine._tokens[s] == token)


def test_only_the_player_to_act_is_observed():
    game = Game.new(["Ana", "Ben"], mode=PHYSICAL, seed=1)
    with pytest.raises(RuleViolation) as refused:
        observe(game, 1)
    assert refused.value.reason.code == "js_not_your_turn"
    game.apply(next(a for a in game.legal_actions() if a.direction == "north"))  # a Diplo eats: token to say
    assert game.phase == "reveal"
    with pytest.raises(RuleViolation) as refused:
        observe(game, 0)
    assert refused.value.reason.code == "js_reveal_first"


def check_true(game: Game, suggestion) -> None:
    """The suggestion is legal and its reason is what the engine then shows."""
    action, reason = suggestion.action, suggestion.reason
    seat = game.player
    assert game.check(action) is None and action.player == seat
    after = game.copy()
    after.apply(action)
    params = reason.params
    if reason.code == "js_advice_eat":
        assert game.slide(action.square, action.direction).target == params["square"]
        assert game.content(params["square"]) == GRASS and len(after.eaten(seat)) == len(game.eaten(seat)) + 1
        if "token" in params:
            assert after.eaten(seat)[-1] == params["token"] and TOKEN_POINTS[params["token"]] == params["points"]
        else:
            unseen = observe(game, seat).unseen()
            average = sum(TOKEN_POINTS[t] * n for t, n in unseen.items()) / sum(unseen.values())
            assert params["expected_points"] == round(average, 1)
    elif reason.code == "js_advice_chase":
        assert action.piece == "trex" and game.content(params["square"]) == params["color"] != game.color(seat)
        assert after.reserve(1 - seat) == game.reserve(1 - seat) + 1
    elif reason.code == "js_advice_win":
        assert after.phase == "over" and after.outcome.winners == (seat,)
    elif reason.code in ("js_advice_move", "js_advice_escape"):
        assert game.slide(action.square, action.direction).target == params["target"]
    elif reason.code == "js_advice_fly":
        assert (action.source, action.target) == (params["square"], params["target"])
    elif reason.code == "js_advice_hatch":
        assert after.content(params["square"]) == game.color(seat)
    elif reason.code == "js_advice_erupt":
        assert all(after.content(square) == "empty" for square in params["squares"])
    else:
        assert reason.code in ("js_advice_look", "js_advice_scout", "js_advice_pass")


def test_the_advice_is_legal_and_its_reasons_are_what_the_engine_shows():
    codes = set()
    for seed in range(14):
        game = game_in_play(seed, 4 * seed)
        advice = advise(observe(game, game.player), seed, worlds=2)
        check_true(game, advice.best)
        codes.add(advice.best.reason.code)
        if advice.runner_up is not None:
            check_true(game, advice.runner_up)
            assert 0 <= advice.best.value - advice.runner_up.value <= CLOSE
    assert "js_advice_eat" in codes and len(codes) >= 2


def test_the_advisor_plays_what_the_strong_bot_plays():
    game = game_in_play(7, 12)
    assert advise_seat(game, game.player, 3).best.action == StrongBot(3).choose(observe(game, game.player))
