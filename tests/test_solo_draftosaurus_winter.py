"""Solo Draftosaurus on the winter board and in the summer/winter match, in text mode: the bots place in the
winter pens, the player's Quarantine dinosaur is asked as at a table and the bots' moved by the program, advice
gives winter reasons, and the match adds both games' totals. The board's printed values are not asked in solo."""

from __future__ import annotations

import json

from companion.games.draftosaurus.actions import Discard, Place, QuarantineMove, Roll
from companion.games.draftosaurus.advice import advise_seat
from companion.games.draftosaurus.bots import BOTS, GreedyBot, bot_action, play_game
from companion.games.draftosaurus.engine import Game
from companion.language.messages import catalog
from tests.conftest import PYRAMID, QUARANTINE, TEMPLATES, run_play, saved_state
from tests.test_solo_draftosaurus import DISCARD, bot_names, forced

PLAYER_POLICY_SEED = 1000
ADVICE = {"fr": "que me conseilles-tu ?", "en": "what should I play?", "es": "¿qué me aconsejas?"}


def expected_game(seed: int, bots: int, level: str, board: str = "winter") -> Game:
    """The game the table must play: the engine's die and deal on `board`, the test's player, the bots."""
    game = Game.new(["Alice", *bot_names(bots)], mode="full", seed=seed, board=board)
    return play_game(game, [GreedyBot(PLAYER_POLICY_SEED)] + [BOTS[level](seed) for _ in range(bots)])


def player_lines(game: Game, lang: str) -> list[str]:
    """What the player types: placements (a pyramid place with its place), chosen discards, and where the
    Quarantine dinosaur goes."""
    names = catalog(lang)
    _, place = TEMPLATES[lang]
    lines = []
    for index, action in enumerate(game.actions):
        if getattr(action, "player", None) != 0:
            continue
        words = {"player": "Alice"}
        if isinstance(action, Place):
            words.update(species=names.name("species", action.species), pen=names.name("pens", action.pen))
            lines.append(place.format(**words) if action.position is None else
                         PYRAMID[lang].format(**words, position=names.name("positions", action.position)))
        elif isinstance(action, QuarantineMove):
            to_pen, to_place = QUARANTINE[lang]
            words["pen"] = names.name("pens", action.pen)
            lines.append(to_pen.format(**words) if action.position is None else
                         to_place.format(**words, position=names.name("positions", action.position)))
        elif isinstance(action, Discard) and not forced(game, index):
            lines.append(DISCARD[lang].format(the=names.name("species", action.species).the))
    return lines


def solo_args(save, lang: str, seed: int, bots: int, level: str, *board: str) -> list[str]:
    return ["play", "draftosaurus", "--solo", "--bots", str(bots), "--level", level, "--engine", "text", "--lang",
            lang, "--players", "Alice", "--seed", str(seed), "--save", str(save), *board]


def check_scores(output: str, game: Game, lang: str) -> None:
    words = catalog(lang)
    for entry in game.score().players:
        start = words.say("draft.score_final", player=entry.name, total=entry.total, details="", tactile="")
        assert start.split(".")[0] + "." in output, start


def test_a_whole_winter_solo_game_in_spanish_with_the_quarantine_advice_and_undo(tmp_path):
    seed = 3
    game = expected_game(seed, 2, "greedy")
    assert any(isinstance(action, QuarantineMove) for action in game.actions)
    lines = player_lines(game, "es")
    save = tmp_path / "solo.json"
    result = run_play(solo_args(save, "es", seed, 2, "greedy", "--board", "winter"),
                      [ADVICE["es"], lines[0], "deshacer", *lines, "todos", "¿qué ha jugado Bot 1?"], tmp_path)
    assert result.returncode == 0, result.stderr
    out, words = result.stdout, catalog("es")
    assert words.say("draft.winter_board") in out
    # the board's printed values are said to be provisional, not asked
    assert words.say("draft.board.unconfirmed", board_values=[]).split(":")[0] not in out
    # the advisor's winter advice, with its reason
    first = Game.replay(game.setup_json(), game.actions[:1])
    advice = advise_seat(first, 0, seed=seed)
    why = words.say(f"reasons.{advice.best.reason.code}", **advice.best.reason.params)
    assert why in out and "Te aconsejo " in out
    # the bots' winter placements are said; the undo takes them back with the player's
    bot_place = next(action for action in game.actions if isinstance(action, Place) and action.player == 1)
    assert words.say("solo.bots_undone", bots=bot_names(2)) in out
    assert words.name("pens", bot_place.pen) in out
    # the player's Quarantine was asked; the bots' moved by the program and said
    for index, action in enumerate(game.actions):
        if isinstance(action, QuarantineMove):
            before = Game.replay(game.setup_json(), game.actions[:index])
            species = before.zoos[action.player]["quarantine"][0]
            destination = (words.say("draft.destination", pen=action.pen) if action.position is None else
                           words.say("draft.destination_position", pen=action.pen, position=action.position))
            moved = words.say("draft.quarantine_moved", player=game.players[action.player], species=species,
                              destination=destination)
            assert moved in out, moved  # the player's too: asked, answered by the script, said
    assert saved_state(save)["state"] == json.loads(json.dumps(game.to_json()))
    check_scores(out, game, "es")


def test_a_two_player_winter_solo_game_in_french_against_the_strong_bot(tmp_path):
    seed = 5
    game = expected_game(seed, 1, "strong")
    lines = player_lines(game, "fr")
    save = tmp_path / "solo.json"
    result = run_play(solo_args(save, "fr", seed, 1, "strong", "--board", "winter"),
                      [lines[0], "qu'a joué Bot ?", *lines[1:], "tous"], tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Bot met " in out or "Bot remet " in out
    assert saved_state(save)["state"] == json.loads(json.dumps(game.to_json()))
    check_scores(out, game, "fr")


def test_a_solo_match_in_english_adds_both_games(tmp_path):
    seed = 7
    summer = expected_game(seed, 1, "random", "summer")
    winter = Game.new(["Alice", "Bot"], mode="full", seed=seed + 1, board="winter")
    winter = play_game(winter, [GreedyBot(PLAYER_POLICY_SEED), BOTS["random"](seed)])
    save = tmp_path / "match.json"
    # "all" answers "the points in detail?" after each game; then yes to the winter game
    lines = [*player_lines(summer, "en"), "all", "yes", *player_lines(winter, "en"), "all"]
    result = run_play(solo_args(save, "en", seed, 1, "random", "--match", "summer-winter"), lines, tmp_path)
    assert result.returncode == 0, result.stderr
    out, words = result.stdout, catalog("en")
    check_scores(out, summer, "en")
    check_scores(out, winter, "en")
    totals = {entry.name: entry.total for entry in summer.score().players}
    for entry in winter.score().players:
        games = words.join([words.say("draft.match_games.summer", points=totals[entry.name]),
                            words.say("draft.match_games.winter", points=entry.total)])
        assert words.say("draft.match_player", player=entry.name, games=games,
                         sum=totals[entry.name] + entry.total) in out
    content = saved_state(save)
    assert content["finished"] is True and content["seats"]["solo"] is True
    assert content["state"] == json.loads(json.dumps(winter.to_json()))


def test_the_winter_bots_play_legal_games_and_move_their_quarantine_dinosaurs():
    for level in ("random", "greedy", "strong"):
        game = Game.new(["A", "B", "C"], mode="full", seed=11, board="winter")
        bots = [BOTS[level](11 + seat) for seat in range(3)]
        play_game(game, bots)
        assert game.phase == "over" and Game.replay(game.setup_json(), game.actions).snapshot() == game.snapshot()
        assert all(not zoo["quarantine"] for zoo in game.zoos)
        assert sum(isinstance(action, Roll) for action in game.actions) == game.rounds * game.turns_per_round


def test_the_greedy_winter_bot_beats_the_random_one():
    wins = 0.0
    for seed in range(4):
        game = Game.new(["A", "B", "C", "D"], mode="full", seed=seed, board="winter")
        hero = seed % 4
        bots = [BOTS["greedy" if seat == hero else "random"](seed * 10 + seat) for seat in range(4)]
        play_game(game, bots)
        winners = game.score().winners
        wins += 1 / len(winners) if hero in winners else 0
    assert wins >= 3


def test_a_bot_s_quarantine_move_is_the_best_one_and_the_random_bot_s_is_legal():
    game = Game.new(["A", "B"], mode="full", seed=2, board="winter")
    bots = [BOTS["random"](1), BOTS["random"](2)]
    while game.phase != "quarantine" and game.phase != "over":
        if game.phase == "roll":
            game.apply(game.roll_die())
            continue
        for seat in game.waiting_for():
            hand = game.hand(seat)
            if game.phase == "place" and "quarantine" in game.legal_pens(seat, hand[0]) and \
                    not game.zoos[seat]["quarantine"]:
                game.apply(Place(seat, hand[0], "quarantine"))
            else:
                game.apply(bot_action(game, seat, bots[seat]))
    assert game.phase == "quarantine"
    seat = game.waiting_for()[0]
    best = game.best_quarantine(seat)
    move = bot_action(game, seat, BOTS["greedy"](3))
    assert (move.pen, move.position) == (best.pen, best.position)
    assert game.check(bot_action(game, seat, BOTS["random"](3))) is None
