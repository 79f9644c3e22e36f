"""`companion play dino --solo` in text mode: the program draws the nests and barriers and plays the bots; each
bot's turn is said in one sentence and again on request; undo takes back the bots' turns with the player's; a
game stopped half-way resumes with the same bots; the penalties after the fall are the program's; advice is the
advisor's; a bot's eggs face down are never said before the end."""

from __future__ import annotations

import json
import random

import pytest

from companion.games.common import OVER
from companion.games.dino.actions import Meteor, Move
from companion.games.dino.advice import advise_seat
from companion.games.dino.board import load_board
from companion.games.dino.bots import BOTS, GreedyBot, observe
from companion.games.dino.engine import ON_BOARD, PENALTIES, Game
from companion.games.dino.starting_position import Setup, random_layout
from companion.language.messages import catalog
from companion.terminal_text import sentences
from tests.conftest import run_play, saved_state
from tests.test_dino_play import LINES

PLAYER_POLICY_SEED = 1000  # the test's own player: a greedy bot that only the script speaks for
ADVICE = {"fr": "que me conseilles-tu ?", "en": "what should I play?", "es": "¿qué me aconsejas?"}
PLAYED = {"fr": "qu'a joué {bot} ?", "en": "what did {bot} play?", "es": "¿qué ha jugado {bot}?"}
UNDO = {"fr": "annule", "en": "undo", "es": "deshacer"}
EGGS_OF = {"fr": "les œufs de {bot}", "en": "{bot}'s eggs", "es": "los huevos de {bot}"}


def bot_names(bots: int) -> list[str]:
    return ["Bot"] if bots == 1 else [f"Bot {number}" for number in range(1, bots + 1)]


def solo_setup(seed: int, bots: int) -> Setup:
    """The set-up the table draws: the player first with the first colour, the layout from the seed."""
    board = load_board()
    players = ("Alice", *bot_names(bots))
    nests, barriers = random_layout(board, len(players), random.Random(seed))
    return Setup(players, board.pawn_colours[:len(players)], nests, barriers, board=board)


def expected_game(seed: int, bots: int, level: str, until: int | None = None) -> Game:
    """The game the table must play (to the end, or until the player's turn number `until`): the test's player,
    the bots the table builds (the level's bot with the game's seed), the least penalty for each pawn."""
    game = Game.new(solo_setup(seed, bots))
    players = [GreedyBot(PLAYER_POLICY_SEED)] + [BOTS[level](seed) for _ in range(bots)]
    turns = 0
    while game.phase != OVER:
        if game.phase == PENALTIES:
            game.apply(game.legal_actions()[0])
            continue
        seat = game.current_player
        if seat == 0 and game.in_play(0):
            turns += 1
            if turns == until:
                break
        game.apply(players[seat].choose(observe(game, seat)))
    return game


def player_lines(game: Game, lang: str) -> list[str]:
    """What the player types: each of their turns, and no to an egg they leave."""
    words, names = LINES[lang], catalog(lang)
    replica = Game.new(game.setup)
    lines = []
    for action in game.actions:
        if getattr(action, "player", None) == 0 and not isinstance(action, Meteor | Move):
            pass
        elif isinstance(action, Meteor) and action.player == 0 and replica.in_play(0):
            lines.append(words["meteor"])
        elif isinstance(action, Move) and action.player == 0:
            fields = {"colour": names.name("colours", game.colours[0]), "number": action.pawn + 1,
                      "steps": action.steps, "square": action.square}
            line = words["exit" if action.exit else "move"].format(**fields)
            if action.egg is not None:
                line += words["egg"].format(egg=names.name("colours", action.egg))
            lines.append(line)
            if not action.exit and action.egg is None and replica.egg_choices(0, action.pawn, action.square):
                lines.append(words["no"])
        replica.apply(action)
    return lines


def solo_args(save, lang: str, seed: int, bots: int, level: str) -> list[str]:
    return ["play", "dino", "--solo", "--bots", str(bots), "--level", level, "--engine", "text", "--lang", lang,
            "--players", "Alice", "--seed", str(seed), "--save", str(save)]


def check_end(output: str, game: Game, lang: str) -> None:
    """The final score lines are the engine's, and the winner is named."""
    words = catalog(lang)
    sheet = game.score()
    for entry in sheet.players:
        assert words.say("dino.score_final", player=entry.name, total=entry.total, eggs=entry.eggs,
                         egg_points=entry.egg_points, colours=len(entry.colours), colour_points=entry.colour_points,
                         penalty=entry.penalty) in output
    assert words.say(f"reasons.{sheet.reason.code}", **sheet.reason.params) in output


def bot_sentence(game: Game, index: int, lang: str) -> str:
    """The one sentence that says the bot's turn logged at `index`."""
    words = catalog(lang)
    before = Game.replay(game.setup_json(), game.actions[:index])
    action = game.actions[index]
    after = before.copy()
    after.apply(action)
    stones = before.meteor_left - after.meteor_left
    if isinstance(action, Meteor):
        actions = words.say("dino.solo_clause_all_meteor" if after.in_play(action.player) else
                            "dino.solo_clause_no_pawn")
    else:
        stood = before.pawn(action.player, action.pawn)
        key = "dino.solo_clause_home" if action.exit else "dino.solo_clause_walk_from" if \
            stood.place == ON_BOARD else "dino.solo_clause_walk"
        clauses = [words.say(key, colour=game.colours[action.player], steps=action.steps, square=action.square,
                             from_square=stood.square)]
        if action.egg is not None:
            last = after.nests()[action.egg][1] == 0
            clauses.append(words.say("dino.solo_clause_last_egg" if last else "dino.solo_clause_egg",
                                     colour=action.egg))
        if stones:
            clauses.append(words.say("dino.solo_clause_meteor", stones=stones))
        actions = words.join(clauses)
    name = game.players[action.player]
    if stones and after.phase == "play":
        return words.say("dino.solo_turn_meteor", player=name, actions=actions, left=after.meteor_left)
    return words.say("dino.solo_turn", player=name, actions=actions)


def test_a_whole_solo_game_in_french_with_undo_detail_advice_and_resume(tmp_path):
    seed, bots = 4, 2
    game = expected_game(seed, bots, "strong")
    lines = player_lines(game, "fr")
    save = tmp_path / "solo.json"
    words = catalog("fr")
    half = len(lines) // 2
    first = run_play(solo_args(save, "fr", seed, bots, "strong"),
                     [lines[0], UNDO["fr"], *lines[:half], PLAYED["fr"].format(bot="Bot 2"), ADVICE["fr"]], tmp_path)
    assert first.returncode == 0, first.stderr
    out = first.stdout
    assert words.say("dino.solo_welcome", player="Alice", bots=bot_names(bots),
                     level=words.say("solo.levels.strong")) in out
    # each bot's turn in one sentence, as the engine played it
    bot_turns = [index for index, action in enumerate(game.actions) if getattr(action, "player", 0) != 0][:4]
    for index in bot_turns:
        assert bot_sentence(game, index, "fr") in out
    # the undo names the player's turn and the bots whose turns went with it
    assert "Annulé : " in out and words.say("solo.bots_undone", bots=bot_names(bots)) in out
    # the save records solo play, the bots' seats and level, and the seed
    state = saved_state(save)
    assert state["finished"] is False and "companion resume" in out
    assert state["seats"] == {"solo": True, "bots": [{"seat": seat, "level": "strong"} for seat in (1, 2)],
                              "seed": seed, "advice": True}
    # what Bot 2 played last, and the advisor's best turn with its chance
    played = Game.from_json(state["state"])
    index = max(number for number, action in enumerate(played.actions) if getattr(action, "player", 0) == 2)
    said = bot_sentence(played, index, "fr").removeprefix("Bot 2 ")
    assert f"Bot 2, à son dernier tour, {said.split(' : encore')[0].rstrip('.')}" in out
    advice = advise_seat(played, 0, seed=seed)
    assert words.say("dino.advice_chance", win_in_ten=advice.best.reason.params["win_in_ten"]) in out
    assert words.say(f"reasons.{advice.best.reason.code}", **advice.best.reason.params) in out
    # resumed, the same bots finish the same game; the penalties are the program's
    second = run_play(["resume", str(save), "--engine", "text"], lines[half:], tmp_path)
    assert second.returncode == 0, second.stderr
    assert saved_state(save)["state"] == json.loads(json.dumps(game.to_json()))
    check_end(second.stdout, game, "fr")


def test_a_whole_solo_game_in_english_against_the_greedy_bot(tmp_path):
    seed = 6
    game = expected_game(seed, 1, "greedy")
    lines = player_lines(game, "en")
    save = tmp_path / "solo.json"
    result = run_play(solo_args(save, "en", seed, 1, "greedy"),
                      [lines[0], PLAYED["en"].format(bot="Bot"), "which pawn should I move?", *lines[1:]], tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    words = catalog("en")
    assert words.say("solo.levels.greedy") in out and "I suggest you " in out
    assert "On their last turn, Bot " in out
    assert saved_state(save)["state"] == json.loads(json.dumps(game.to_json()))
    check_end(out, game, "en")


def test_a_whole_solo_game_in_spanish_against_random_bots(tmp_path):
    seed = 8
    game = expected_game(seed, 3, "random")
    lines = player_lines(game, "es")
    save = tmp_path / "solo.json"
    result = run_play(solo_args(save, "es", seed, 3, "random"), [ADVICE["es"], *lines], tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Te aconsejo " in out and "Según mis partidas simuladas" in out
    assert saved_state(save)["state"] == json.loads(json.dumps(game.to_json()))
    check_end(out, game, "es")


@pytest.mark.parametrize("lang", ["fr", "en", "es"])
def test_a_bot_s_eggs_face_down_are_not_said_before_the_end(tmp_path, lang):
    """The rules keep all but the last egg face down: asked about a bot's eggs, the player hears their number and
    the one on show only."""
    seed, bots = 4, 2
    until = next(turn for turn in range(2, 40) if any(
        len(expected_game(seed, bots, "greedy", turn).eggs(seat)) > 1 for seat in (1, 2)))
    game = expected_game(seed, bots, "greedy", until)
    seat = next(seat for seat in (1, 2) if len(game.eggs(seat)) > 1)
    name = game.players[seat]
    lines = player_lines(game, lang)
    result = run_play(solo_args(tmp_path / "s.json", lang, seed, bots, "greedy"),
                      [*lines, EGGS_OF[lang].format(bot=name), {"fr": "les scores", "en": "the scores",
                                                                "es": "la puntuación"}[lang]], tmp_path)
    assert result.returncode == 0, result.stderr
    words = catalog(lang)
    eggs = game.eggs(seat)
    assert words.say("dino.solo_eggs_hidden", player=name, count=len(eggs), colour=eggs[-1]) in result.stdout
    assert words.say("dino.solo_score_hidden", player=name, count=len(eggs), colour=eggs[-1]) in result.stdout
    assert words.say("dino.eggs", player=name, count=len(eggs), detail="", last="").split(":")[0] + ":" \
        not in result.stdout


def test_solo_dino_refuses_players_and_bots_that_do_not_fit(tmp_path):
    for args, words in ((["--bots", "2"], "--bots"), (["--solo", "--bots", "6"], "--bots"),
                        (["--solo", "--players", "Alice,Bruno"], "--players")):
        result = run_play(["play", "dino", "--engine", "text", "--lang", "en", "--save", str(tmp_path / "s.json"),
                           *args], [], tmp_path)
        assert result.returncode == 2 and words in result.stderr, (args, result.stderr)
        assert "Traceback" not in result.stderr


@pytest.mark.parametrize("lang", ["fr", "en", "es"])
def test_the_players_own_moves_are_said_to_them_and_the_bots_in_the_third_person(tmp_path, lang):
    seed = 6
    game = expected_game(seed, 1, "greedy")
    lines = player_lines(game, lang)
    result = run_play(solo_args(tmp_path / "solo.json", lang, seed, 1, "greedy"), [lines[0], UNDO[lang], *lines],
                      tmp_path)
    assert result.returncode == 0, result.stderr
    out, words = result.stdout, catalog(lang)
    replica, kinds = Game.new(game.setup), set()
    for index, action in enumerate(game.actions):
        replica.apply(action)
        if isinstance(action, Move) and action.player == 0:
            kind = "went_home" if action.exit else "moved"
            fields = {"player": "Alice", "colour": game.colours[0], "steps": action.steps, "square": action.square}
            assert words.say(f"dino.solo_{kind}", **fields) in out
            assert words.say(f"dino.{kind}", **fields) not in out
            if action.egg is not None:
                fields = {"player": "Alice", "colour": action.egg, "left": replica.nests()[action.egg][1]}
                assert sentences(words.say("dino.solo_egg_taken", **fields)) in out  # each sentence said capitalised
                assert sentences(words.say("dino.egg_taken", **fields)) not in out
                kinds.add("egg")
            kinds.add(kind)
        elif isinstance(action, Meteor | Move) and action.player != 0:
            assert bot_sentence(game, index, lang) in out  # "Bot moves their yellow pawn..."
    assert kinds == {"moved", "went_home", "egg"}  # the game has each kind of sentence
    first = game.actions[0]
    assert words.say("table.undone", what=words.say("dino.solo_action_move", colour=game.colours[0],
                                                    square=first.square)) in out
