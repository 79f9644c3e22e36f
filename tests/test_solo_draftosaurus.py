"""`companion play draftosaurus --solo` in text mode: the program deals, rolls and plays the bots; the player
hears their hand, each bot's move in one sentence and its detail on request; undo takes back the bots' replies
with the player's move; a game stopped half-way resumes with the same bots; the final scores are the engine's."""

import json
from collections import Counter

import pytest

from companion.games.draftosaurus.actions import Discard, Place, Roll
from companion.games.draftosaurus.advice import logged_reason
from companion.games.draftosaurus.bots import BOTS, RandomBot, play_game
from companion.games.draftosaurus.engine import Game
from companion.games.draftosaurus.ids import SPECIES
from companion.language.grammar import parse
from companion.language.messages import catalog
from companion.language.numbers import to_words
from tests.conftest import final_lines, run_companion, run_play, saved_state

# How the player types a placement and a discard (solo: the player's name is not needed).
PLACE = {"fr": "{species} dans {pen}", "en": "{species} in the {pen}", "es": "{species} en {pen}"}
DISCARD = {"fr": "je remets {the}", "en": "I put back {the}", "es": "devuelvo {the}"}
PLAYER_POLICY_SEED = 1000  # the test's own player: a random bot that only the script speaks for


def bot_names(bots: int) -> list[str]:
    return ["Bot"] if bots == 1 else [f"Bot {number}" for number in range(1, bots + 1)]


def expected_game(seed: int, bots: int, level: str) -> Game:
    """The game the table must play: the engine's die and deal, the bots the table builds (the level's bot
    with the game's seed), and the test's player."""
    game = Game.new(["Alice", *bot_names(bots)], mode="full", seed=seed)
    return play_game(game, [RandomBot(PLAYER_POLICY_SEED)] + [BOTS[level](seed) for _ in range(bots)])


def forced(game: Game, index: int) -> bool:
    """Whether the discard logged at `index` put back the last card of a hand (the last turn of a round of the
    2-player variant): the program makes it without asking."""
    rolls = sum(1 for action in game.actions[:index] if isinstance(action, Roll))
    return rolls % game.turns_per_round == 0


def player_lines(game: Game, lang: str) -> list[str]:
    """What the player types: each of their placements and the discards they choose."""
    names, lines = catalog(lang), []
    for index, action in enumerate(game.actions):
        if isinstance(action, Place) and action.player == 0:
            lines.append(PLACE[lang].format(species=names.name("species", action.species),
                                            pen=names.name("pens", action.pen)))
        elif isinstance(action, Discard) and action.player == 0 and not forced(game, index):
            lines.append(DISCARD[lang].format(the=names.name("species", action.species).the))
    return lines


def hand_said(hand: list[str], lang: str) -> str:
    """The hand as the table must say it: the species held most first, counts in words."""
    names, counts = catalog(lang), Counter(hand)
    items = [names.name("species", kind, "one") if counts[kind] == 1 else
             f"{to_words(counts[kind], lang, before_noun=True)} {names.name('species', kind, 'plural')}"
             for kind in sorted(counts, key=lambda kind: (-counts[kind], SPECIES.index(kind)))]
    return names.join(items)


def solo_args(save, lang: str, seed: int, bots: int, level: str) -> list[str]:
    return ["play", "draftosaurus", "--solo", "--bots", str(bots), "--level", level, "--engine", "text",
            "--lang", lang, "--players", "Alice", "--seed", str(seed), "--save", str(save)]


def check_final(output: str, game: Game, lang: str) -> None:
    """Each player's final score line holds the engine's total."""
    names = catalog(lang)
    lines = final_lines(output, list(game.players), lang)
    for entry in game.score().players:
        start = names.say("draft.score_final", player=entry.name, total=entry.total, details="", tactile="")
        assert lines[entry.name].startswith(start.split(".")[0] + "."), (lines[entry.name], start)


def test_a_whole_solo_game_in_french_with_undo_detail_and_resume(tmp_path):
    seed, bots = 7, 3
    game = expected_game(seed, bots, "greedy")
    lines = player_lines(game, "fr")
    save = tmp_path / "solo.json"
    words = catalog("fr")
    half = len(lines) // 2
    # The first move, taken back with the bots' replies, then played again; half the game; the detail of a
    # bot's last move; the hand again.
    first = run_play(solo_args(save, "fr", seed, bots, "greedy"),
                     [lines[0], "annule", *lines[:half], "qu'a joué Bot 2 ?", "ma main"], tmp_path)
    assert first.returncode == 0, first.stderr
    out = first.stdout
    first_hand = Game.new(list(game.players), mode="full", seed=seed).hand(0)
    assert f"Ta main : {hand_said(first_hand, 'fr')}." in out
    # each bot's move in one sentence, as the engine played it
    for action in game.actions[:5]:
        if isinstance(action, Place) and action.player:
            assert words.say("draft.accepted_full", player=game.players[action.player], species=action.species,
                             pen=action.pen) in out
    # the undo names the player's move and the bots whose replies went with it
    assert "Annulé : " in out and words.say("solo.bots_undone", bots=bot_names(bots)) in out
    # the detail of Bot 2's last placement: what it brought, as the engine's advisor reasons it
    state = saved_state(save)
    assert state["finished"] is False and "companion resume" in out
    played = Game.from_json(state["state"])
    index = max(i for i, action in enumerate(played.actions) if isinstance(action, Place) and action.player == 2)
    placed = played.actions[index]
    reason = logged_reason(played, index)
    assert words.say("draft.played", player="Bot 2", species=placed.species, pen=placed.pen,
                     why=words.say(f"reasons.{reason.code}", **reason.params)) in out
    # the save records solo play, the bots' seats and level, and the seed
    assert state["seats"] == {"solo": True, "bots": [{"seat": seat, "level": "greedy"} for seat in (1, 2, 3)],
                              "seed": seed, "advice": True}
    # resumed, the same bots finish the same game
    second = run_play(["resume", str(save), "--engine", "text"], [*lines[half:], "tous"], tmp_path)  # every detail
    assert second.returncode == 0, second.stderr
    assert saved_state(save)["state"] == json.loads(json.dumps(game.to_json()))
    check_final(second.stdout, game, "fr")


def test_a_whole_two_player_solo_game_in_english_against_the_strong_bot(tmp_path):
    seed = 11
    game = expected_game(seed, 1, "strong")
    save = tmp_path / "solo.json"
    lines = player_lines(game, "en")
    result = run_play(solo_args(save, "en", seed, 1, "strong"),
                      [lines[0], lines[1], "what did Bot play?", *lines[2:], "all"], tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    words = catalog("en")
    assert "Your hand: " in out and "which dinosaur do you put back in the box?" in out
    # the player's discard is said, the bot's stays unseen
    own = next(action for action in game.actions if isinstance(action, Discard) and action.player == 0)
    assert words.say("draft.solo_discarded", player="Alice", species=own.species) in out
    assert out.count(words.say("draft.solo_bot_discarded", player="Bot")) == 12
    assert words.say("draft.played_discard", player="Bot") in out
    assert saved_state(save)["state"] == json.loads(json.dumps(game.to_json()))
    check_final(out, game, "en")


def test_a_solo_game_in_spanish_against_random_bots(tmp_path):
    seed = 5
    game = expected_game(seed, 2, "random")
    save = tmp_path / "solo.json"
    lines = player_lines(game, "es")
    result = run_play(solo_args(save, "es", seed, 2, "random"),
                      [lines[0], "¿qué ha jugado Bot 2?", "deshacer", *lines, "todos"], tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Tu mano: " in out and "Bot 2 ha puesto " in out
    assert catalog("es").say("solo.bots_undone", bots=["Bot 1", "Bot 2"]) in out
    assert saved_state(save)["state"] == json.loads(json.dumps(game.to_json()))
    check_final(out, game, "es")


def test_a_bot_seat_is_not_the_player_s_and_a_card_not_held_is_refused_with_the_hand(tmp_path):
    seed = 7
    save = tmp_path / "solo.json"
    hand = Game.new(["Alice", "Bot 1", "Bot 2", "Bot 3"], mode="full", seed=seed).hand(0)
    missing = next(species for species in SPECIES if species not in hand)
    words = catalog("fr")
    result = run_play(solo_args(save, "fr", seed, 3, "random"),
                      ["Bot 1 : stégosaure dans la rivière", f"{words.name('species', missing)} dans la rivière"],
                      tmp_path)
    assert result.returncode == 0, result.stderr
    assert words.say("draft.solo_bot_plays", player="Bot 1") in result.stdout
    assert words.say("draft.solo_not_in_hand", player="Alice", species=missing,
                     hand=hand_said(hand, "fr")) in result.stdout
    assert [type(action) for action in Game.from_json(saved_state(save)["state"]).actions] == [Roll]


@pytest.mark.parametrize("args, words", [
    (["--bots", "2"], "--bots"),
    (["--solo", "--only-mine", "Alice"], "--only-mine"),
    (["--solo", "--board", "summer", "--match", "summer-winter"], "--board"),
    (["--solo", "--players", "Alice,Bruno"], "--players"),
    (["--solo", "--bots", "5"], "--bots"),
])
def test_solo_options_that_do_not_fit_are_refused_in_one_line(tmp_path, args, words):
    result = run_play(["play", "draftosaurus", "--engine", "text", "--lang", "en", "--save", str(tmp_path / "s.json"),
                       *args], [], tmp_path)
    assert result.returncode == 2 and words in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr


def test_a_save_whose_bots_sit_in_a_table_game_is_refused_as_corrupt(tmp_path):
    save = tmp_path / "table.json"
    made = run_play(["play", "draftosaurus", "--engine", "text", "--players", "Alice,Bruno", "--save", str(save)], [],
                    tmp_path)
    assert made.returncode == 0, made.stderr
    from companion.dialogue.savefile import write_save

    content = saved_state(save)
    content["seats"] = {"solo": True, "bots": [{"seat": 1, "level": "strong"}], "seed": 0, "advice": True}
    write_save(save, "draftosaurus", content)
    before = save.read_bytes()
    result = run_companion("resume", str(save), "--engine", "text", env={"COMPANION_HOME": str(tmp_path)})
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert save.read_bytes() == before


def test_redo_plays_the_bots_again_and_help_speaks_of_the_hand_and_the_bots(tmp_path):
    seed = 3
    game = expected_game(seed, 3, "random")
    save = tmp_path / "solo.json"
    first = player_lines(game, "fr")[0]
    result = run_play(solo_args(save, "fr", seed, 3, "random"), [first, "annule", "rétablis", "aide"], tmp_path)
    assert result.returncode == 0, result.stderr
    out, words = result.stdout, catalog("fr")
    redone = out.split("Rétabli : ", 1)[1]
    # the bots' moves come back with the player's, then the hands pass, then the next roll is said
    passed = words.say("draft.solo_pass_hands", giver="Bot 3")
    assert redone.index(words.say("solo.bots_redone", bots=bot_names(3))) < redone.index(passed) < redone.index("Dé : ")
    assert words.say("draft.help.solo_turn", other="Bot 1") in out
    played = Game.from_json(saved_state(save)["state"]).actions
    assert played == game.actions[:len(played)] and isinstance(played[-1], Roll) and len(played) == 6


@pytest.mark.parametrize("lang, text", [("fr", "qu'a joué Bot 2 ?"), ("en", "what did Bot 2 play?"),
                                        ("es", "¿qué ha jugado Bot 2?")])
def test_a_bot_is_named_like_any_player(lang, text):
    result = parse(text, game="draftosaurus", lang=lang, state="turn", player_names=["Alice", *bot_names(3)])
    assert (result.intent, result.slots) == ("played", {"player": "Bot 2"})


@pytest.mark.parametrize("lang, said, no, name, yes", [
    ("fr", "bot triceratops dans la rivière", "non", "Léa", "oui"),
    ("en", "bot triceratops in the river", "no", "Lea", "yes"),
    ("es", "bot tricerátops en el río", "no", "Lea", "sí"),
])
def test_the_name_asked_in_solo_is_read_back_and_a_no_asks_it_again(tmp_path, lang, said, no, name, yes):
    """Any line can be a name, even a move said too early: the one name is read back like a table's names."""
    words = catalog(lang)
    save = tmp_path / "solo.json"
    help_word = {"fr": "aide", "en": "help", "es": "ayuda"}[lang]
    result = run_play(["play", "draftosaurus", "--solo", "--bots", "1", "--engine", "text", "--lang", lang,
                       "--seed", "3", "--save", str(save)], [help_word, said, no, name, yes, help_word], tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert words.say("help.own_name") in out  # the help of one's own name, not of a table's names
    bot = words.say("solo.bot_alone")  # the one bot is named without a number, and the help names it so
    assert words.say("draft.help.solo_turn", other=bot) in out and f"{bot} 1" not in out
    assert words.say("setup.confirm_name", name=said) in out
    assert words.say("setup.name_again") in out
    assert words.say("setup.confirm_name", name=name) in out
    assert Game.from_json(saved_state(save)["state"]).players[0] == name


@pytest.mark.parametrize("lang, lines, name", [
    ("fr", ["Marc", "non, Jean-Pierre", "oui"], "Jean-Pierre"),
    ("fr", ["Marc", "je m'appelle Paul", "oui"], "Paul"),
    ("en", ["Marc", "no, Mary", "yes"], "Mary"),
    ("es", ["Marc", "no María", "sí"], "María"),
])
def test_a_name_read_back_is_corrected_by_saying_the_right_one(tmp_path, lang, lines, name):
    words = catalog(lang)
    save = tmp_path / "solo.json"
    result = run_play(["play", "draftosaurus", "--solo", "--bots", "2", "--engine", "text", "--lang", lang,
                       "--seed", "3", "--save", str(save)], lines, tmp_path)
    assert result.returncode == 0, result.stderr
    assert words.say("setup.confirm_name", name=name) in result.stdout
    assert words.say("setup.expected_yes_no") not in result.stdout
    assert Game.from_json(saved_state(save)["state"]).players[0] == name


# ---------------------------------------------------------------- what a tester met in solo

LEVEL_WORDS = {"fr": ("opportuniste", "gourmand"), "es": ("oportunista", "glotón"), "en": ("greedy", None)}


@pytest.mark.parametrize("lang", ["fr", "en", "es"])
def test_the_greedy_level_is_named_for_what_it_does(tmp_path, lang):
    """The level that takes the best immediate gain is not called by a word for eating ("gourmand")."""
    result = run_play(solo_args(tmp_path / "s.json", lang, 3, 1, "greedy"), [], tmp_path)
    assert result.returncode == 0, result.stderr
    word, old = LEVEL_WORDS[lang]
    assert catalog(lang).say("solo.levels.greedy") == word and word in result.stdout
    assert old is None or old not in result.stdout


HAND_QUERY = {"fr": "ma main", "en": "my hand", "es": "mi mano"}
UNDO = {"fr": "annule", "en": "undo", "es": "deshacer"}


@pytest.mark.parametrize("lang", ["fr", "en", "es"])
def test_my_hand_is_said_once_then_the_question_without_it(tmp_path, lang):
    seed = 7
    hand = Game.new(["Alice", *bot_names(3)], mode="full", seed=seed).hand(0)
    words = catalog(lang)
    result = run_play(solo_args(tmp_path / "s.json", lang, seed, 3, "random"), [HAND_QUERY[lang]], tmp_path)
    assert result.returncode == 0, result.stderr
    # the question with the hand, the hand the query says, then the question again without the hand
    assert result.stdout.count(hand_said(hand, lang)) == 2
    after = result.stdout.rsplit(words.say("draft.hand", hand=hand_said(hand, lang)), 1)[1]
    assert after.startswith("\n" + words.say("draft.solo_ask_place_again_full", player="Alice") + "\n")


@pytest.mark.parametrize("lang", ["fr", "en", "es"])
def test_after_an_undo_the_die_is_said_again_before_the_hand(tmp_path, lang):
    seed = 7
    game = expected_game(seed, 3, "random")
    first = player_lines(game, lang)[0]
    words = catalog(lang)
    result = run_play(solo_args(tmp_path / "s.json", lang, seed, 3, "random"), [first, UNDO[lang]], tmp_path)
    assert result.returncode == 0, result.stderr
    roll = game.actions[0]
    face = words.say("draft.face_full", face=roll.face, sticker=words.name("faces", roll.face, "sticker"),
                     meaning="", roller="Alice").split(".")[0]  # "Dé : côté cafétéria, autocollant rond"
    undone = result.stdout.split(words.say("solo.bots_undone", bots=bot_names(3)), 1)[1]
    assert undone.index(face) < undone.index(hand_said(Game.new(list(game.players), mode="full", seed=seed).hand(0),
                                                                lang))


@pytest.mark.parametrize("lang", ["fr", "en", "es"])
def test_the_runner_up_is_said_with_its_own_chance_of_winning(tmp_path, lang):
    from companion.games.draftosaurus.advice import advise_seat

    seed = 0
    game = Game.new(["Alice", "Bot"], mode="full", seed=seed)
    game.apply(game.roll_die())
    advice = advise_seat(game, 0, seed=seed)
    assert advice.runner_up is not None
    ask = {"fr": "que me conseilles-tu ?", "en": "what should I play?", "es": "¿qué me aconsejas?"}[lang]
    result = run_play(solo_args(tmp_path / "s.json", lang, seed, 1, "strong"), [ask], tmp_path)
    assert result.returncode == 0, result.stderr
    words = catalog(lang)
    best, second = (suggestion.reason.params["win_chance"] for suggestion in (advice.best, advice.runner_up))
    assert words.say("draft.advice_chance", win_chance=best) in result.stdout
    key = "draft.advice_runner_up_chance_margin" if second >= best else "draft.advice_runner_up_chance"
    assert words.say(key, win_chance=second) in result.stdout


PUT_BACK = {"fr": "que dois-je remettre dans la boîte ?", "en": "what should I put back in the box?",
            "es": "¿qué debería devolver a la caja?"}


@pytest.mark.parametrize("lang", ["fr", "en", "es"])
def test_what_to_put_back_is_advice_in_the_two_player_variant(tmp_path, lang):
    from companion.games.draftosaurus.advice import advise_seat

    seed = 11
    game = expected_game(seed, 1, "random")
    first = player_lines(game, lang)[0]
    result = run_play(solo_args(tmp_path / "s.json", lang, seed, 1, "random"), [first, PUT_BACK[lang]], tmp_path)
    assert result.returncode == 0, result.stderr
    replay = Game.replay(game.setup_json(), game.actions[:3])  # the roll and both placements: Alice discards
    advice = advise_seat(replay, 0, seed=seed)
    words = catalog(lang)
    why = words.say(f"reasons.{advice.best.reason.code}", **advice.best.reason.params)
    assert words.say("draft.advice_best_discard", species=advice.best.action.species, why=why) in result.stdout
    assert parse(PUT_BACK[lang], game="draftosaurus", lang=lang, state="discard").intent == "advice"


@pytest.mark.parametrize("lang", ["fr", "en", "es"])
def test_the_last_card_of_a_hand_goes_back_without_a_question(tmp_path, lang):
    seed = 11
    game = expected_game(seed, 1, "random")
    save = tmp_path / "s.json"
    lines = player_lines(game, lang)
    result = run_play(solo_args(save, lang, seed, 1, "random"), lines[:4], tmp_path)  # the first two turns
    assert result.returncode == 0, result.stderr
    played = Game.from_json(saved_state(save)["state"])
    assert (played.round, played.turn, len(played.hand(0))) == (1, 3, 2)
    # the third placement; the last card goes back by itself, said once, and no question asks for it
    third = [action for action in game.actions if isinstance(action, Place) and action.player == 0][2]
    last = next(action for index, action in enumerate(game.actions)
                if isinstance(action, Discard) and action.player == 0 and forced(game, index))
    result = run_play(["resume", str(save), "--engine", "text"], [lines[4], UNDO[lang]], tmp_path)
    assert result.returncode == 0, result.stderr
    out, words = result.stdout, catalog(lang)
    assert out.count(words.say("draft.solo_discarded_last", player="Alice", species=last.species)) == 1
    assert words.say("draft.solo_ask_discard_full", player="Alice", hand=hand_said([last.species], lang)) not in out
    # an undo takes back the placement with the discard that had no choice and the bot's replies
    what = words.say("draft.action_place", player="Alice", species=third.species, pen=third.pen)
    assert words.say("table.undone", what=what) in out
    assert Game.from_json(saved_state(save)["state"]).actions == played.actions


@pytest.mark.parametrize("lang", ["fr", "en", "es"])
def test_the_player_s_own_placements_and_die_are_said_to_them_and_the_bots_in_the_third_person(tmp_path, lang):
    """As the rest of solo speaks to the player ("Ta main", "tu reçois"), their own placement and the die they
    rolled are said in the second person; the bots' stay in the third person."""
    seed, bots = 7, 3
    game = expected_game(seed, bots, "greedy")
    lines = player_lines(game, lang)[:4]
    result = run_play(solo_args(tmp_path / "solo.json", lang, seed, bots, "greedy"), lines, tmp_path)
    assert result.returncode == 0, result.stderr
    out, words = result.stdout, catalog(lang)
    placed = [action for action in game.actions if isinstance(action, Place)][:4 * (bots + 1)]
    said = 0
    for action in placed:
        key = "draft.solo_accepted_full" if action.player == 0 else "draft.accepted_full"
        if action.position is None and action.player == 0 and said < len(lines):
            said += 1
            assert words.say(key, species=action.species, pen=action.pen) in out, out
            assert words.say("draft.accepted_full", player="Alice", species=action.species, pen=action.pen) not in out
        elif action.position is None and action.player and said < len(lines):
            assert words.say(key, player=game.players[action.player], species=action.species, pen=action.pen) in out
    assert said >= 2
    first = game.actions[0]
    assert isinstance(first, Roll) and game.players[0] == "Alice"
    sticker = words.name("faces", first.face, "sticker")
    mine = words.say("draft.solo_face_full", face=first.face, sticker=sticker,
                     meaning=words.say(f"draft.faces.{first.face}"), roller="Alice")
    assert mine in out, out
