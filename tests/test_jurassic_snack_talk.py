"""What a new player hears at a Jurassic Snack table, through the text engine: every square of a row or column
said (the empty ones too), the empty squares on request, the board as it is now, where any piece would stop,
the choices of an effect and examples that the game accepts, a repeat after a secret, real tokens that a
blind player cannot look at, and why a player who eliminated the other ranks first."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.dialogue.savefile import write_save
from companion.games.jurassic_snack.actions import Erupt, Fly, Hatch, Look, Move, Scout
from companion.games.jurassic_snack.engine import EFFECT, EMPTY, GRASS, HIDDEN, OVER, PHYSICAL, REVEAL, Game
from companion.games.jurassic_snack.ids import TREX
from companion.language.messages import catalog
from tests.conftest import run_play, saved_state
from tests.conftest import snack_script as script

PLAYERS = ("Léa", "Max")


def reach(condition: Callable[[Game], bool], mode: str = HIDDEN, seeds: int = 400) -> Game:
    """The first state of a seeded random game where `condition` holds."""
    for seed in range(seeds):
        game = Game.new(PLAYERS, mode=mode, seed=seed)
        chooser = random.Random(seed)
        while game.phase != OVER and not condition(game):
            game.apply(chooser.choice(game.legal_actions()))
        if game.phase != OVER and condition(game):
            return game
    raise AssertionError("no such state")


def resume(tmp_path: Path, game: Game, lines: list[str], lang: str, name: str = "g.json") -> str:
    """The text the program says when a save of `game` is resumed and `lines` are typed."""
    path = tmp_path / name
    write_save(path, "jurassic-snack", {"finished": False, "state": game.to_json()})
    result = run_play(["resume", str(path), "--engine", "text", "--lang", lang], lines, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    return result.stdout


def saved(tmp_path: Path, name: str = "g.json") -> Game:
    return Game.from_json(saved_state(tmp_path / name)["state"])


def line_after(out: str, start: str) -> str:
    return next(line for line in out.splitlines() if line.startswith(start))


# ---------------------------------------------------------------- a row or a column: every square

LINES = {  # how each language says a row, a column, runs of squares and what they hold
    "fr": {"row": ("la ligne {n}", "Ligne {n} : "), "column": ("la colonne {n}", "Colonne {n} : "), "sep": " ; ",
           "run": r"de (\w\d) à (\w\d), (.+)", "two": r"(\w\d) et (\w\d), (.+)",
           "empty": ("vide", "vides"), "grass": ("de l'herbe",)},
    "en": {"row": ("row {n}", "Row {n}: "), "column": ("column {n}", "Column {n}: "), "sep": "; ",
           "run": r"(\w\d) to (\w\d), (.+)", "two": r"(\w\d) and (\w\d), (.+)",
           "empty": ("empty",), "grass": ("grass",)},
    "es": {"row": ("fila {n}", "Fila {n}: "), "column": ("columna {n}", "Columna {n}: "), "sep": "; ",
           "run": r"de (\w\d) a (\w\d), (.+)", "two": r"(\w\d) y (\w\d), (.+)",
           "empty": ("vacía", "vacías"), "grass": ("hierba",)},
}


def heard_line(said: str, squares: list[str], lang: str) -> dict[str, str]:
    """What each square of a line holds by what was said of it ("de C1 à E1, vides": C1, D1, E1 empty)."""
    words, kinds = LINES[lang], catalog(lang)
    contents = {kinds.say(f"js.contents.{c}"): c for c in ("blue", "yellow", "trex")}
    contents.update({word: EMPTY for word in words["empty"]} | {word: GRASS for word in words["grass"]})
    heard: dict[str, str] = {}
    for item in said.rstrip(".").split(words["sep"]):
        run, two = re.fullmatch(words["run"], item), re.fullmatch(words["two"], item)
        if run:
            first, last = squares.index(run[1]), squares.index(run[2])
            heard.update(dict.fromkeys(squares[first:last + 1], contents[run[3]]))
        elif two:
            heard.update({two[1]: contents[two[3]], two[2]: contents[two[3]]})
        else:
            square, content = item.split(", ", 1)
            heard[square] = contents[content]
    return heard


ROWS = {row: [f"{column}{row}" for column in "ABCDEF"] for row in range(1, 7)}  # west to east
COLUMNS = {column: [f"{column}{row}" for row in range(6, 0, -1)] for column in "ABCDEF"}  # north to south


def mixed(game: Game, squares: list[str]) -> bool:
    """A line holding empty squares, grass and a piece."""
    held = {game.content(square) for square in squares}
    return {EMPTY, GRASS} < held


@pytest.mark.parametrize("lang", ["fr", "en", "es"])
def test_a_row_and_a_column_account_for_every_square_the_empty_ones_too(tmp_path, lang):
    state = reach(lambda game: game.phase != EFFECT and any(mixed(game, line) for line in ROWS.values())
                  and any(mixed(game, line) for line in COLUMNS.values()))
    row = next(name for name, line in ROWS.items() if mixed(state, line))
    column = next(name for name, line in COLUMNS.items() if mixed(state, line))
    words = LINES[lang]
    out = resume(tmp_path, state, [words["row"][0].format(n=row), words["column"][0].format(n=column)], lang)
    for kind, name, squares in (("row", row, ROWS[row]), ("column", column, COLUMNS[column])):
        start = words[kind][1].format(n=name)
        heard = heard_line(line_after(out, start)[len(start):], squares, lang)
        assert heard == {square: state.content(square) for square in squares}, (kind, name)


# ---------------------------------------------------------------- the empty squares, and the board now

EMPTY_ASKED = {"fr": ("quelles cases sont vides ?", "cases vides"), "en": ("which squares are empty?", "empty squares"),
               "es": ("¿qué casillas están vacías?", "casillas vacías")}


@pytest.mark.parametrize("lang", ["fr", "en", "es"])
def test_which_squares_are_empty_is_answered_with_every_one(tmp_path, lang):
    state = reach(lambda game: game.phase != EFFECT and len(game.squares_with(EMPTY)) >= 3)
    empty = state.squares_with(EMPTY)
    said = catalog(lang).say("js.empty_squares", count=len(empty), squares=empty)
    out = resume(tmp_path, state, list(EMPTY_ASKED[lang]), lang)
    assert out.count(said[0].upper() + said[1:]) == 2


MEADOW = {"fr": ("décris la prairie", "Ligne {n} : "), "en": ("describe the pasture", "Row {n}: "),
          "es": ("describe la pradera", "Fila {n}: ")}


@pytest.mark.parametrize("lang", ["fr", "en", "es"])
def test_describing_the_meadow_says_the_board_as_it_is_now(tmp_path, lang):
    """Not the layout at the start: an egg square left empty is said empty, a square eaten too."""
    state = reach(lambda game: game.phase != EFFECT and game.turn >= 5
                  and any(game.content(s) == EMPTY for s in game.layout.eggs["blue"] + game.layout.eggs["yellow"]))
    asked, start = MEADOW[lang]
    out = resume(tmp_path, state, [asked], lang)
    sentences = next(line for line in out.splitlines() if start.format(n=6) in line)
    for row in range(6, 0, -1):
        part = sentences.split(start.format(n=row), 1)[1].split(". ", 1)[0]
        assert heard_line(part, ROWS[row], lang) == {square: state.content(square) for square in ROWS[row]}, row


# ---------------------------------------------------------------- where a piece would stop, on any square

STOPS = {"fr": "où s'arrête {square} vers {towards}", "en": "where does {square} stop going {towards}",
         "es": "dónde se para {square} hacia {towards}"}
TOWARDS = {"fr": {"east": "l'est", "west": "l'ouest", "north": "le nord", "south": "le sud"},
           "en": {"east": "east", "west": "west", "north": "north", "south": "south"},
           "es": {"east": "el este", "west": "el oeste", "north": "el norte", "south": "el sur"}}


@pytest.mark.parametrize("lang", ["fr", "en", "es"])
def test_where_a_piece_on_any_square_would_stop_is_answered(tmp_path, lang):
    """On the other player's Diplo, and on a square of grass (where a Diplo leaving it would stop): answered,
    never refused."""
    game = Game.new(PLAYERS, mode=HIDDEN, seed=1)  # Léa (blue) plays; B4 holds a yellow diplo, C2 grass
    assert game.content("B4") == "yellow" and game.content("C2") == GRASS
    lines = [STOPS[lang].format(square=square, towards=TOWARDS[lang]["east"]) for square in ("B4", "C2")]
    out = resume(tmp_path, game, lines, lang)
    words = catalog(lang)
    refused = words.say("table.refused", reason="")
    assert refused.strip() not in out
    towards, eat = words.say("js.towards.east"), words.say("js.stops_eat")
    assert words.say("js.stops", color_piece=words.say("js.color_piece.diplo", color=words.say("js.colors.yellow")),
                     square="B4", towards=towards, target="C4", what=eat) in out
    assert words.say("js.stops_from_empty", square="C2", piece="diplo", towards=towards, target="D2",
                     what=eat) in out


# ---------------------------------------------------------------- the choices of an effect, and its examples

EFFECT_STATES = {"birth": "place", "air_transport": "fly", "air_strike": "fly", "scouting": "board",
                 "eruption": "pick", "look": "pick"}
EXAMPLE = {"fr": r"[Pp]ar exemple(?: :)? (.+?)\.(?: |$)", "en": r"[Ff]or (?:instance|example):? (.+?)\.(?: |$)",
           "es": r"[Pp]or ejemplo:? (.+?)\.(?: |$)"}
HELP = {"fr": "aide", "en": "help", "es": "ayuda"}
ACTIONS = {"birth": Hatch, "air_transport": Fly, "air_strike": Fly, "scouting": Scout, "eruption": Erupt, "look": Look}


def examples_offered(out: str, lang: str) -> set[str]:
    return set(re.findall(EXAMPLE[lang], out, re.MULTILINE))


@pytest.mark.parametrize("lang, effect, mode", [
    *[("fr", effect, HIDDEN) for effect in EFFECT_STATES], ("fr", "look", PHYSICAL),
    *[(lang, effect, HIDDEN) for lang in ("en", "es") for effect in ("birth", "air_transport", "air_strike")],
])
def test_every_example_offered_for_an_effect_is_accepted(tmp_path, lang, effect, mode):
    """The question and its help take their examples from the board as it is: each one, said back, plays the
    effect (Birth on a square that is empty, a flight from a square that holds the piece...)."""
    state = reach(lambda game: game.pending == effect and game.phase == EFFECT and game.grass_left > 2
                  and len(game.squares_with(EMPTY)) > 1, mode=mode)
    out = resume(tmp_path, state, [HELP[lang]], lang)
    offered = examples_offered(out, lang) | ({"c'est fait"} if mode == PHYSICAL else set())
    if effect == "scouting":  # the boards the question offers
        listed = re.search(r"quel plateau veux-tu regarder : (.+) \?", out)[1]
        offered |= {f"plateau {board}" for board in re.split(", | ou ", listed)}
    assert offered, out
    for number, example in enumerate(sorted(offered)):
        name = f"try{number}.json"
        resume(tmp_path, state, [example], lang, name=name)
        after = saved(tmp_path, name)
        assert len(after.actions) == len(state.actions) + 1, example
        assert isinstance(after.actions[-1], ACTIONS[effect]), example


@pytest.mark.parametrize("lang", ["fr", "en", "es"])
def test_the_example_move_of_the_help_is_accepted(tmp_path, lang):
    state = reach(lambda game: game.phase != EFFECT and game.turn >= 3 and game.player == 1)
    out = resume(tmp_path, state, [HELP[lang]], lang)
    move, move_to = examples_offered(out, lang) - {"C4"}, re.findall(
        {"fr": r"la case d'arrivée : (.+?)\.", "en": r"the square it reaches: (.+?)\.",
         "es": r"la casilla de llegada: (.+?)\."}[lang], out)
    for number, example in enumerate(sorted(move) + move_to):
        resume(tmp_path, state, [example], lang, name=f"move{number}.json")
        after = saved(tmp_path, f"move{number}.json")
        assert len(after.actions) == len(state.actions) + 1 and isinstance(after.actions[-1], Move), example


CHOICES = {"fr": ("coups possibles", "où puis-je le poser ?"), "en": ("possible moves", "where can I put it?"),
           "es": ("jugadas posibles", "¿dónde puedo ponerlo?")}


@pytest.mark.parametrize("lang", ["fr", "en", "es"])
@pytest.mark.parametrize("effect", ["birth", "air_transport", "air_strike"])
def test_where_a_new_or_flying_piece_may_go_can_be_asked(tmp_path, lang, effect):
    state = reach(lambda game: game.pending == effect and game.phase == EFFECT)
    out = resume(tmp_path, state, list(CHOICES[lang]), lang)
    words = catalog(lang)
    empty = state.squares_with(EMPTY)
    if effect == "birth":
        said = words.say("js.choices_birth", squares=empty)
    else:
        sources = dict.fromkeys(a.source for a in state.legal_actions())
        pieces = [words.say("js.piece_at", piece=words.say(f"js.contents.{state.content(s)}"), square=s)
                  for s in sources]
        said = words.say("js.choices_fly", pieces=pieces, squares=empty)
    assert out.count(said[0].upper() + said[1:]) == 2


# ---------------------------------------------------------------- secrets

SECRET = {"fr": ("{player} : mon secret", "oui", "répète", "Secret de {player}."),
          "en": ("{player}: my secret", "yes", "repeat", "Secret for {player}."),
          "es": ("{player}: mi secreto", "sí", "repite", "Secreto de {player}.")}


@pytest.mark.parametrize("lang", ["fr", "en", "es"])
def test_repeat_after_hearing_a_secret_asks_the_open_question_not_the_answered_one(tmp_path, lang):
    """Léa hears her secret, then says repeat: the question of the turn, not "say yes to listen" (whose yes
    would no longer be heard); and repeat inside that yes/no question asks it again, then yes works."""
    state = reach(lambda game: any(note.player == 0 for note in game.notes) and game.phase != EFFECT)
    ask, yes, repeat, warning = SECRET[lang]
    lines = [ask.format(player="Léa"), yes, repeat, ask.format(player="Léa"), repeat, yes]
    out = resume(tmp_path, state, lines, lang).splitlines()
    warning = warning.format(player="Léa")
    asked = [index for index, line in enumerate(out) if line.startswith(warning)]
    first_secret = asked[0] + 1
    question = out[first_secret + 1]  # the open question, said again after the secret
    words = catalog(lang)
    assert out[first_secret + 2] == words.say("session.repeating", text=question)  # the repeat
    # asked, and asked again by repeat
    assert [out[asked[1]], out[asked[1] + 1]] == [out[asked[0]], words.say("session.repeating", text=out[asked[0]])]
    assert out[asked[1] + 2] == out[first_secret]  # yes: the secret


SCOUTED = {"fr": ("plateau {board}", "à voix basse", "regarde-les toi-même"),
           "en": ("board {board}", "quietly", "look at them yourself"),
           "es": ("tablero {board}", "en voz baja", "míralas tú")}


@pytest.mark.parametrize("lang", ["fr", "en", "es"])
def test_real_tokens_looked_at_in_secret_are_read_by_someone_else_not_looked_at(tmp_path, lang):
    state = reach(lambda game: game.pending == "scouting" and game.phase == EFFECT, mode=PHYSICAL)
    board, quietly, yourself = SCOUTED[lang]
    out = resume(tmp_path, state, [board.format(board=state.legal_actions()[0].board)], lang)
    said = catalog(lang).say("js.secret_physical", player=PLAYERS[state.player], other=PLAYERS[1 - state.player])
    assert said in out and quietly in said and yourself not in out


# ---------------------------------------------------------------- the end

RANKED = {"fr": "Classement : 1. {winner} avec", "en": "Ranking: 1. {winner} with",
          "es": "Clasificación: 1. {winner} con"}


@pytest.mark.parametrize("lang", ["fr", "en", "es"])
def test_a_win_by_elimination_ranks_the_winner_first_saying_why(tmp_path, lang):
    for seed in range(400):
        game = Game.new(PLAYERS, mode=HIDDEN, seed=seed)
        chooser = random.Random(seed)
        while game.phase != OVER:
            game.apply(chooser.choice(game.legal_actions()))
        scores = game.score()
        winner = game.outcome.winners[0]
        if game.end == "elimination" and scores[winner].points < scores[1 - winner].points:
            break
    else:
        raise AssertionError("no win by elimination on fewer points")
    result = run_play(["play", "jurassic-snack", "--engine", "text", "--lang", lang, "--players", ",".join(PLAYERS),
                       "--tokens", HIDDEN, "--seed", str(seed), "--save", str(tmp_path / "g.json")],
                      script(game, lang), tmp_path)
    ranking = line_after(result.stdout, RANKED[lang].format(winner=PLAYERS[winner]))
    said = catalog(lang).say("js.ranking_elimination", winner=PLAYERS[winner], points=scores[winner].points,
                             loser=PLAYERS[1 - winner], loser_points=scores[1 - winner].points)
    assert ranking == said


def test_the_solo_option_of_jurassic_snack_says_what_solo_is_there():
    from tests.conftest import run_here

    out = run_here("play", "jurassic-snack", "--help").stdout
    assert "rolls the die" not in out and "deals" not in out
    assert "hidden tokens" in " ".join(out.split())


def test_english_says_a_diplo_goes_north(tmp_path):
    out = resume(tmp_path, Game.new(PLAYERS, mode=HIDDEN, seed=1), ["diplo on C1 towards the north"], "en")
    assert "The blue diplo on C1 goes north and stops on C2." in out


@pytest.mark.parametrize("lang", ["fr", "en", "es"])
def test_a_birth_on_a_square_that_is_not_empty_is_refused_with_the_empty_squares(tmp_path, lang):
    state = reach(lambda game: game.pending == "birth" and game.phase == EFFECT)
    grass = state.squares_with(GRASS)[0]
    out = resume(tmp_path, state, [grass], lang)
    words = catalog(lang)
    refusal = words.say("reasons.js_square_not_empty", square=grass, found=words.say("js.contents.grass"))
    choices = words.say("js.choices_birth", squares=state.squares_with(EMPTY))
    assert f"{refusal}\n{choices[0].upper()}{choices[1:]}\n" in out


@pytest.mark.parametrize("lang, effect, mode", [
    ("fr", "look", HIDDEN), ("fr", "look", PHYSICAL), ("fr", "eruption", HIDDEN), ("en", "look", HIDDEN),
    ("es", "eruption", HIDDEN)])
def test_a_square_without_grass_said_for_two_grass_squares_is_refused_at_once(tmp_path, lang, effect, mode):
    """The first of two grass squares, said alone, is checked before the second is asked for: an empty square is
    refused with the reason, then what the effect asks for (with an example), and the question comes back."""
    state = reach(lambda game: game.pending == effect and game.phase == EFFECT and game.grass_left > 2
                  and len(game.squares_with(EMPTY)) > 0, mode=mode)
    empty = state.squares_with(EMPTY)[0]
    out = resume(tmp_path, state, [empty], lang)
    words = catalog(lang)
    refusal = words.say("reasons.js_no_grass_there", square=empty, found=words.say("js.contents.empty"))
    allowed = words.say("js.expected_effect", effect=words.say(f"js.effects.{effect}"), example="|").split("|")[0]
    assert f"{refusal}\n{allowed[0].upper()}{allowed[1:]}" in out, out
    second = words.say("js.which_second", player=PLAYERS[state.player], square=empty)
    assert second not in out and len(saved(tmp_path).actions) == len(state.actions)


def test_an_effect_that_cannot_apply_says_in_french_what_the_two_tokens_are_for(tmp_path):
    """Air strike with no T-Rex on the board: the player hears that two grass tokens are theirs to learn, not that
    they have "a right to two tokens"."""
    state = reach(lambda game: game.phase == REVEAL and not game.squares_with(TREX), mode=PHYSICAL)
    out = resume(tmp_path, state, ["attaque aérienne"], "fr")
    player, other = PLAYERS[state.player], PLAYERS[1 - state.player]
    assert ("\nL'effet Attaque aérienne est impossible ici : à la place, tu choisis deux jetons d'herbe et tu "
            "découvres en secret ce qu'ils cachent.\n") in out, out
    assert (f"\n{player}, pour découvrir en secret deux jetons d'herbe, demande à quelqu'un de te les lire à voix "
            f"basse, loin des oreilles de {other}, puis dis c'est fait.") in out, out
    assert "droit à" not in out


@pytest.mark.parametrize("lang, token, effect, asked", [
    ("en", "air strike", "The Air strike effect cannot apply here: instead, you choose two grass tokens and learn in "
     "secret what they hide.", "{player}, to learn two grass tokens in secret, ask someone"),
    ("es", "ataque aéreo", "El efecto Ataque aéreo no se puede aplicar aquí: en su lugar, eliges dos fichas de hierba "
     "y descubres en secreto lo que esconden.", "{player}, para descubrir en secreto dos fichas de hierba, pide")])
def test_an_effect_that_cannot_apply_says_what_the_two_tokens_are_for(tmp_path, lang, token, effect, asked):
    """As in French: the two grass tokens are the player's to learn, not "two tokens" they "may learn"."""
    state = reach(lambda game: game.phase == REVEAL and not game.squares_with(TREX), mode=PHYSICAL)
    out = resume(tmp_path, state, [token], lang)
    assert f"\n{effect}\n" in out, out
    assert "\n" + asked.format(player=PLAYERS[state.player]) in out, out


@pytest.mark.parametrize("lang", ["fr", "en", "es"])
def test_a_shared_victory_ranks_both_players_first(tmp_path, lang):
    """Equal points and tokens: the victory is shared, and the ranking gives both players the first place (not
    "1. Léa, 2. Max" after "the victory is shared")."""
    for seed in range(400):
        game = Game.new(PLAYERS, mode=HIDDEN, seed=seed)
        chooser = random.Random(seed)
        while game.phase != OVER:
            game.apply(chooser.choice(game.legal_actions()))
        if len(game.outcome.winners) == 2:
            break
    else:
        raise AssertionError("no shared victory")
    result = run_play(["play", "jurassic-snack", "--engine", "text", "--lang", lang, "--players", ",".join(PLAYERS),
                       "--tokens", HIDDEN, "--seed", str(seed), "--save", str(tmp_path / "g.json")],
                      script(game, lang), tmp_path)
    words = catalog(lang)
    points = game.score()[0].points
    ranking = words.say("table.ranking", ranking=[words.say("js.rank_item", place=1, player=player, points=points)
                                               for player in PLAYERS])
    assert ranking in result.stdout.splitlines()


@pytest.mark.parametrize("lang, lines", [
    ("fr", ["Léa et Max", "oui", "aide"]), ("en", ["Léa and Max", "yes", "help"]), ("es", ["Léa y Max", "sí", "ayuda"]),
])
def test_help_at_the_tokens_question_says_what_each_choice_means(tmp_path, lang, lines):
    """Help at "real tokens or hidden tokens?" tells what each one means and what to say, not a list of every
    kind of set-up answer ("a name, real or hidden tokens, yes or no"); the question is asked again."""
    words = catalog(lang)
    out = run_play(["play", "jurassic-snack", "--engine", "text", "--lang", lang, "--save", str(tmp_path / "g.json")],
                   lines, tmp_path).stdout.splitlines()
    asked = words.say("js.setup.ask_mode")
    assert out[out.index(asked) + 1:out.index(asked) + 3] == [words.say("js.setup.help_mode"), asked]
