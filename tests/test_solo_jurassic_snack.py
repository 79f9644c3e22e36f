"""`companion play jurassic-snack --solo` in text mode: the player (blue) against a bot, hidden tokens drawn by
the program; the bot's turn is narrated as it happens, its detail is given on request, what it sees in secret is
never said; undo takes back the bot's turn with the player's move; a game stopped half-way resumes with the same
bot; the end is the engine's."""

import json

from companion.games.jurassic_snack.bots import BOTS, RandomBot, play_game
from companion.games.jurassic_snack.engine import HIDDEN, Game
from companion.language.messages import catalog
from tests.conftest import run_play, saved_state, snack_script

PLAYER_POLICY_SEED = 1000  # the test's own player: a random bot that only the script speaks for


def expected_game(seed: int, level: str) -> Game:
    """The game the table must play: the engine's hidden tokens, the bot the table builds (the level's bot
    with the game's seed), and the test's player."""
    game = Game.new(["Alice", "Bot"], mode=HIDDEN, seed=seed)
    return play_game(game, [RandomBot(PLAYER_POLICY_SEED), BOTS[level](seed)])


def solo_args(save, lang: str, seed: int, level: str) -> list[str]:
    return ["play", "jurassic-snack", "--solo", "--level", level, "--engine", "text", "--lang", lang,
            "--players", "Alice", "--seed", str(seed), "--save", str(save)]


def check_end(output: str, game: Game, lang: str) -> None:
    """The final scores are the engine's, and its winner is named."""
    words = catalog(lang)
    for score in game.score():
        assert words.say("js.score_final", player=score.name, points=score.points, count=score.count, tokens="",
                         tactile="").split(".")[0] in output
    tail = output.split(words.say("js.game_over"), 1)[1]
    assert game.players[game.outcome.winners[0]] in tail


def secret_lines(game: Game, player: int, lang: str) -> list[str]:
    """The words that would tell what `player` saw in secret."""
    words = catalog(lang)
    return [words.say("js.secret_token", square=square, token=words.say(f"js.tokens.{token}"))
            for note in game.notes_for(player) for square, token in note.tokens]


def test_a_whole_solo_game_in_french_with_undo_detail_secrets_and_resume(tmp_path):
    seed = 0
    game = expected_game(seed, "greedy")
    lines = snack_script(game, "fr", player=0)
    save = tmp_path / "solo.json"
    words = catalog("fr")
    half = len(lines) // 2
    first = run_play(solo_args(save, "fr", seed, "greedy"),
                     [lines[0], "qu'a joué Bot ?", "annule", *lines[:half]], tmp_path)
    assert first.returncode == 0, first.stderr
    out = first.stdout
    assert words.say("js.solo_welcome", player="Alice", bot="Bot", level=words.say("solo.levels.greedy")) in out
    assert words.say("js.played", player="Bot", turn=2, events="").strip() in out
    assert "Annulé : " in out and words.say("solo.bots_undone", bots=["Bot"]) in out
    state = saved_state(save)
    assert state["finished"] is False and state["seats"]["bots"] == [{"seat": 1, "level": "greedy"}]
    second = run_play(["resume", str(save), "--engine", "text"], lines[half:], tmp_path)
    assert second.returncode == 0, second.stderr
    assert saved_state(save)["state"] == json.loads(json.dumps(game.to_json()))
    check_end(second.stdout, game, "fr")
    both = first.stdout + second.stdout
    # what the bot alone saw in secret is never said; the player's own looks are said at once
    bot_only = set(secret_lines(game, 1, "fr")) - set(secret_lines(game, 0, "fr"))
    assert bot_only and not any(line in both for line in bot_only)
    assert words.say("js.solo_bot_secret", player="Bot") in both
    assert all(line in both for line in secret_lines(game, 0, "fr"))


def test_a_whole_solo_game_in_english_against_the_strong_bot(tmp_path):
    seed = 2
    game = expected_game(seed, "strong")
    save = tmp_path / "solo.json"
    result = run_play(solo_args(save, "en", seed, "strong"), snack_script(game, "en", player=0), tmp_path)
    assert result.returncode == 0, result.stderr
    assert saved_state(save)["state"] == json.loads(json.dumps(game.to_json()))
    check_end(result.stdout, game, "en")
    bot_only = set(secret_lines(game, 1, "en")) - set(secret_lines(game, 0, "en"))
    assert not any(line in result.stdout for line in bot_only)


def test_a_solo_game_in_spanish_says_the_bot_s_turn_and_gives_advice(tmp_path):
    seed = 3
    game = expected_game(seed, "random")
    lines = snack_script(game, "es", player=0)
    save = tmp_path / "solo.json"
    result = run_play(solo_args(save, "es", seed, "random"),
                      [lines[0], "¿qué ha jugado Bot?", "¿qué me aconsejas?", "secreto para Bot", *lines[1:]],
                      tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    words = catalog("es")
    assert "Turno 2: le toca a Bot" in out and words.say("js.played", player="Bot", turn=2, events="").strip() in out
    assert "Te aconsejo " in out and words.say("js.solo_bot_secret_kept", player="Bot") in out
    assert saved_state(save)["state"] == json.loads(json.dumps(game.to_json()))
    check_end(out, game, "es")


def test_solo_takes_hidden_tokens_only(tmp_path):
    result = run_play(["play", "jurassic-snack", "--solo", "--tokens", "physical", "--engine", "text", "--lang", "fr",
                       "--save", str(tmp_path / "s.json")], [], tmp_path)
    assert result.returncode == 2 and "--tokens physical" in result.stderr and "--solo" in result.stderr
