"""What a new player hears at a Draftosaurus table, through the text engine in French, English and Spanish: who
is asked after the roll, guesses that never change a pen or drop a name, the end of the game (the ranking first,
the detail on request), the match's totals during its winter game, a pen read species by species, a redo that
says what the action says, an undo back into the turn before that says the die again, the prompt said again
when the player is lost, what repeats are, the turn's recap, the empty pens, and a one-pen choice."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from companion.games.draftosaurus.engine import Game
from companion.language.messages import catalog
from tests.conftest import random_game, run_play, saved_state, script_lines
from tests.test_play_draftosaurus_winter import confirm_shipped_values

EVERYONE = {"fr": "tous", "en": "all", "es": "todos"}  # the answer to "the points in detail?"
DIE = {"fr": "dé croix", "en": "the die says cross", "es": "dado cruz"}
YES = {"fr": "oui", "en": "yes", "es": "sí"}
NO = {"fr": "non", "en": "no", "es": "no"}


def draft(tmp_path: Path, lines: list[str], players: str = "Alice,Bruno,David", lang: str = "fr",
          *options: str) -> subprocess.CompletedProcess:
    return run_play(["play", "draftosaurus", "--engine", "text", "--lang", lang, "--players", players,
                     "--save", str(tmp_path / "g.json"), *options], lines, tmp_path)


def zoos(tmp_path: Path) -> list[dict[str, list[str]]]:
    return Game.from_json(saved_state(tmp_path / "g.json")["state"]).zoos


def words_of(text: str) -> int:
    return len(re.findall(r"[\w'-]+", text))


# ---------------------------------------------------------------- who is asked after the roll

@pytest.mark.parametrize("lang, place, rolled, asked", [
    ("en", "triceratops in the river", "I roll the die for Ben.",
     "Ben, which dinosaur do you place, and in which pen?"),
    ("fr", "tricératops dans la rivière", "Je lance le dé pour Ben.",
     "Ben, quel dinosaure mets-tu, et dans quel enclos ?"),
    ("es", "tricerátops en el río", "Tiro el dado por Ben.", "Ben, ¿qué dinosaurio pones y en qué corral?"),
])
def test_after_the_roll_the_player_who_rolled_is_asked_first(tmp_path, lang, place, rolled, asked):
    out = draft(tmp_path, [place] * 5, "Amy,Ben,Cal,Dee,Eve", lang, "--die", "virtual", "--seed", "7").stdout
    lines = out.splitlines()
    roll = lines.index(rolled)
    assert lines[roll + 2] == asked  # after the face: the one whose turn it is, as the engine goes round the table


# ---------------------------------------------------------------- guesses

@pytest.mark.parametrize("lang, said", [
    ("fr", "diplodocus dans la plaine des amoureux"),
    ("en", "stegosaurus in the meadow of love"),
    ("es", "estegosaurio en el bosque del amor"),
])
def test_a_guess_never_drops_a_word_that_changes_the_pen(tmp_path, lang, said):
    out = draft(tmp_path, [DIE[lang], said, YES[lang]], lang=lang).stdout
    assert catalog(lang).say("session.not_understood", heard=said) in out
    assert not any(zoos(tmp_path)[0].values())  # nothing offered, nothing placed


def test_the_meadow_of_love_is_the_prairie_in_spanish(tmp_path):
    out = draft(tmp_path, [DIE["es"], "estegosaurio en el prado del amor"], lang="es").stdout
    assert "Alice pone el estegosaurio en la pradera del amor." in out
    assert zoos(tmp_path)[0]["prairie_of_love"] == ["stegosaurus"]


@pytest.mark.parametrize("lang, said, answer", [
    ("fr", "Zoé : diplodocus dans le roi de la jungle",
     "Je ne connais pas Zoé : les joueurs sont Alice, Bruno et David. Redis-le avec le nom d'un joueur."),
    ("en", "Zoe: diplodocus in the king of the jungle",
     "I don't know Zoe: the players are Alice, Bruno and David. Say it again with a player's name."),
    ("es", "Zoe: diplodocus en el rey de la selva",
     "No conozco a Zoe: los jugadores son Alice, Bruno y David. Repítelo con el nombre de un jugador."),
])
def test_a_name_that_is_nobody_s_is_said_with_the_players_and_nothing_is_played(tmp_path, lang, said, answer):
    out = draft(tmp_path, [DIE[lang], said, YES[lang]], lang=lang).stdout
    assert answer in out
    assert not any(zoo[pen] for zoo in zoos(tmp_path) for pen in zoo)


@pytest.mark.parametrize("lang, said, guess", [
    ("fr", "Brono : diplodocus dans le roi de la jungle",
     "Voulais-tu dire : Bruno : diplodocus dans le roi de la jungle ?"),
    ("en", "Brono: diplodocus in the king of the jungle", "Did you mean: Bruno: diplodocus in the king of the jungle?"),
    ("es", "Brono: diplodocus en el rey de la selva", "¿Querías decir: Bruno: diplodocus en el rey de la selva?"),
])
def test_a_name_close_to_a_player_s_is_offered_as_that_player(tmp_path, lang, said, guess):
    out = draft(tmp_path, [DIE[lang], said, YES[lang]], lang=lang).stdout
    assert guess in out
    alice, bruno, _ = zoos(tmp_path)
    assert bruno["king_of_the_jungle"] == ["diplodocus"] and not any(alice.values())


def test_a_bot_seat_that_does_not_exist_is_said_so_in_solo(tmp_path):
    out = run_play(["play", "draftosaurus", "--solo", "--engine", "text", "--players", "Alice", "--seed", "3",
                    "--save", str(tmp_path / "g.json")], ["qu'a joué Bot 7 ?", "le zoo de Bot 9"], tmp_path).stdout
    assert "Il n'y a pas de Bot 7 : les bots sont Bot 1, Bot 2 et Bot 3." in out
    assert "Il n'y a pas de Bot 9 : les bots sont Bot 1, Bot 2 et Bot 3." in out


@pytest.mark.parametrize("said, guess", [
    ("undo", "deshacer"),
    ("triceratops in the river", "triceratops río"),
])
def test_a_sentence_of_another_language_is_offered_in_the_game_s(tmp_path, said, guess):
    out = draft(tmp_path, [DIE["es"], said, "sí"], lang="es").stdout
    assert f"¿Querías decir: {guess}? Sí o no." in out
    if said != "undo":
        assert zoos(tmp_path)[0]["river"] == ["triceratops"]


# ---------------------------------------------------------------- the end of the game

@pytest.mark.parametrize("lang, players, seed", [
    ("fr", ["Alice", "Bruno", "Chloé", "David"], 3),
    ("en", ["Amy", "Ben", "Cal", "Dee", "Eve"], 8),
    ("es", ["Ana", "Beto"], 5),
])
def test_the_end_says_the_ranking_in_few_words_then_the_detail_on_request(tmp_path, lang, players, seed):
    expected = random_game(players, seed)
    words = catalog(lang)
    second = players[1]
    lines = [*script_lines(expected, lang), second, {"fr": "les scores", "en": "the scores", "es": "los puntos"}[lang]]
    out = draft(tmp_path, lines, ",".join(players), lang).stdout
    end = out.index(words.say("draft.game_over"))
    question = out.index(words.say("draft.ask_detail_full"), end)
    said = out[end + len(words.say("draft.game_over")):question]
    assert words_of(said) <= 40, said  # the ranking and why the winner wins, nothing pen by pen
    scores = expected.score()
    ranking = said.strip().splitlines()[0]
    order = sorted(scores.players, key=lambda entry: (-entry.total, entry.trex_count))
    assert [ranking.index(entry.name) for entry in order] == sorted(ranking.index(entry.name) for entry in order)
    assert "code tactile" not in said and "tactile code" not in said and "código táctil" not in said
    after = out[question:].splitlines()
    entry = next(entry for entry in scores.players if entry.name == second)
    assert after[1].startswith(f"{second} : {entry.total} " if lang == "fr" else f"{second}: {entry.total} ")
    assert after[2] == words.say("session.after_end")
    assert sum(line.startswith(tuple(players)) for line in after[3:]) == len(players)  # "the scores" after the end


def test_all_gives_every_player_s_detail_and_no_goes_on(tmp_path):
    expected = random_game(["Alice", "Bruno"], 4)
    out = draft(tmp_path, [*script_lines(expected, "fr"), "aide", "tous"], "Alice,Bruno").stdout
    assert catalog("fr").say("draft.help.detail", other="Bruno") in out
    assert out.count("En code tactile") == 2
    other = draft(tmp_path / "b", [*script_lines(expected, "fr"), "non"], "Alice,Bruno").stdout
    assert "En code tactile" not in other and catalog("fr").say("session.after_end") in other


# ---------------------------------------------------------------- the match

@pytest.mark.parametrize("lang, asked, side", [
    ("en", "what are the match totals", "summer scores"),
    ("fr", "les scores du match", "les scores d'été"),
    ("es", "los puntos de la serie", "los puntos de verano"),
])
def test_the_match_totals_are_given_during_the_winter_game(tmp_path, lang, asked, side):
    summer = random_game(["Ann", "Ben"], 3)
    winter = random_game(["Ann", "Ben"], 4, board="winter")
    confirm_shipped_values(tmp_path)
    lines = [*script_lines(summer, lang), NO[lang], YES[lang], *script_lines(winter, lang)[:9], asked, side]
    out = draft(tmp_path, lines, "Ann,Ben", lang, "--match", "summer-winter").stdout
    words = catalog(lang)
    game = Game.from_json(saved_state(tmp_path / "g.json")["state"])
    assert game.board == "winter"
    now = {entry.name: entry.total for entry in game.score().players}
    before = {entry.name: entry.total for entry in summer.score().players}
    for name in ("Ann", "Ben"):
        games = words.join([words.say("draft.match_games.summer", points=before[name]),
                            words.say("draft.match_games_so_far.winter", points=now[name])])
        assert words.say("draft.match_player", player=name, games=games, sum=before[name] + now[name]) in out
    totals = words.say("list.clauses").join(words.say("draft.total_item", player=name, total=before[name])
                                            for name in ("Ann", "Ben"))
    assert words.say("draft.match_side.summer", totals=totals) in out


# ---------------------------------------------------------------- what a pen holds, what the turn played

@pytest.mark.parametrize("lang, die, place, asked, pen", [
    ("fr", "dé carré", "stégosaure dans la rivière", "le zoo de Bruno", "Rivière : cinq stégosaures."),
    ("en", "the die says square", "stegosaurus in the river", "Bruno's zoo", "River: five stegosauruses."),
    ("es", "dado cuadrado", "estegosaurio en el río", "el zoo de Bruno", "Río: cinco estegosaurios."),
])
def test_a_pen_says_each_species_once_with_its_count(tmp_path, lang, die, place, asked, pen):
    out = draft(tmp_path, [die, place] * 5 + [asked], "Alice,Bruno,Chloé", lang, "--only-mine", "Bruno").stdout
    assert pen in out


@pytest.mark.parametrize("lang, lines, recap, empty", [
    ("fr", ["dé croix", "tricératops dans le trio des bois", "Bruno : T-Rex dans la rivière",
            "qu'a-t-on joué à ce tour ?", "quels enclos sont vides ?", "quels enclos de Bruno sont vides ?"],
     "À ce tour, dé : forêt. Alice : tricératops, trio des bois ; Bruno : T-Rex, rivière.\nOn attend encore David.",
     [("Enclos vides de David : forêt des similaires, trio des bois, prairie des amoureux, roi de la jungle, plaine "
       "des différences et île du solitaire."), "Enclos vides de Bruno :"]),
    ("en", ["the die says cross", "triceratops in the woody trio", "Bruno: T-Rex in the river",
            "what was played this turn?", "which pens are empty?", "which of Alice's pens are empty?"],
     "This turn, the die says forest. Alice: triceratops, woody trio; Bruno: T-Rex, river.\nStill waiting for David.",
     ["David's empty pens: forest of sameness, woody trio,",
      "Alice's empty pens: forest of sameness, prairie of love"]),
    ("es", ["dado cruz", "tricerátops en el trío", "Bruno: T-Rex en el río", "¿qué se ha jugado en este turno?",
            "¿qué corrales están vacíos?", "¿qué corrales de Alice están vacíos?"],
     "En este turno, el dado dice bosque. Alice: tricerátops, trío del bosque; Bruno: T-Rex, río.\n"
     "Aún esperamos a David.",
     ["Corrales vacíos de David:", "Corrales vacíos de Alice: bosque de la igualdad, pradera del amor"]),
])
def test_the_turn_s_recap_and_the_empty_pens_are_said(tmp_path, lang, lines, recap, empty):
    out = draft(tmp_path, lines, lang=lang).stdout
    assert recap in out
    for answer in empty:
        assert answer in out


@pytest.mark.parametrize("lang, die, half, asked, answer, legal", [
    ("es", "dado cuadrado", "tricerátops", "¿dónde puede ir el tricerátops?",
     "Ana, el tricerátops solo puede ir al río: di río para ponerlo allí.",
     "El tricerátops de Ana solo puede ir al río."),
    ("en", "the die says square", "triceratops", "where can the triceratops go",
     "Ana, the triceratops can only go in the river: say river to put it there.",
     "Ana's triceratops can only go in the river."),
    ("fr", "dé carré", "tricératops", "où va le tricératops",
     "Ana, le tricératops ne peut aller que dans la rivière : dis rivière pour l'y mettre.",
     "Le tricératops d'Ana ne peut aller que dans la rivière."),
])
def test_a_choice_of_one_pen_says_it_is_the_only_one(tmp_path, lang, die, half, asked, answer, legal):
    names = catalog(lang)
    pens = ["forest_of_sameness", "woody_trio", "prairie_of_love", "king_of_the_jungle", "meadow_of_differences",
            "solitary_island"]
    lines = [line for pen in pens
             for line in (die, f"{names.name('species', 'stegosaurus')} {names.name('pens', pen)}")]
    out = draft(tmp_path, [*lines, die, asked, half], "Beto,Ana", lang, "--only-mine", "Ana").stdout
    assert legal in out and answer in out


# ---------------------------------------------------------------- redo, repeat, lost players

@pytest.mark.parametrize("lang, lines, discard", [
    ("es", ["dado cruz", "Ana: tricerátops en el río", "Beto: tricerátops en el río", "deshacer", "rehacer"],
     "Cada uno devuelve a la caja un dinosaurio de su mano."),
    ("fr", ["dé croix", "Ana : tricératops dans la rivière", "Beto : tricératops dans la rivière", "annule",
            "rétablis"],
     "Chacun remet un dinosaure de sa main dans la boîte."),
    ("en", ["the die says cross", "Ana: triceratops in the river", "Beto: triceratops in the river", "undo", "redo"],
     "Each of you puts one dinosaur from your hand back in the box."),
])
def test_a_redo_says_what_the_action_says(tmp_path, lang, lines, discard):
    out = draft(tmp_path, lines, "Ana,Beto", lang).stdout
    assert out.count(discard) == 2  # when it was played, and again when it is played again


UNDO_LINES = {
    "fr": ["dé croix", "Ann : tricératops dans la rivière", "Ben : tricératops dans la rivière",
           "Cy : tricératops dans la rivière", "annule", "annule"],
    "en": ["the die says cross", "Ann: triceratops in the river", "Ben: triceratops in the river",
           "Cy: triceratops in the river", "undo", "undo"],
    "es": ["dado cruz", "Ann: tricerátops en el río", "Ben: tricerátops en el río", "Cy: tricerátops en el río",
           "deshacer", "deshacer"],
}
FOREST_ROLLED = {"fr": "Dé : forêt", "en": "Die: forest", "es": "Dado: bosque"}


@pytest.mark.parametrize("lang", ["fr", "en", "es"])
def test_an_undo_back_into_the_turn_before_says_the_die_in_force_again(tmp_path, lang):
    """Cy's placement ended the turn (the die passed to Ben): taking it back brings Ann's forest roll back, and
    the die is said with the undo, with whom it binds, Cy being asked again and not Ann who rolled; taking back
    Ben's placement then stays within the turn, and says no die."""
    lines = draft(tmp_path, UNDO_LINES[lang], "Ann,Ben,Cy", lang, "--die", "physical").stdout.splitlines()
    words = catalog(lang)
    rolled = next(line for line in lines if line.startswith(FOREST_ROLLED[lang]))
    undone = [index for index, line in enumerate(lines) if line.startswith(words.say("table.undone", what="@")
                                                                         .split("@")[0])]
    assert len(undone) == 2
    assert lines[undone[0] + 1] == rolled  # the die of Ann's turn binds again: said with the undo
    assert lines[undone[0] + 2] == words.say("draft.die_binds", player="Cy")  # Ann rolled; Cy is asked
    assert lines[undone[0] + 3].startswith("Cy")  # then asked
    assert lines.count(rolled) == 2  # and not after the second undo, within the turn
    game = Game.from_json(saved_state(tmp_path / "g.json")["state"])
    assert (game.turn, str(game.face.value)) == (1, "forest")


@pytest.mark.parametrize("lang, lines, repeated", [
    ("fr", ["dé croix", "tricératops dans la rivière", "annule", "répète"],
     "Je répète : Annulé : le tricératops d'Alice dans la rivière."),
    ("en", ["the die says cross", "triceratops in the river", "undo", "repeat"],
     "I repeat: Undone: Alice's triceratops in the river."),
    ("es", ["dado cruz", "tricerátops en el río", "deshacer", "repite"],
     "Repito: Deshecho: el tricerátops de Alice en el río."),
])
def test_a_repeat_says_it_repeats(tmp_path, lang, lines, repeated):
    out = draft(tmp_path, lines, lang=lang).stdout
    assert repeated in out
    assert not any(zoos(tmp_path)[0].values())


@pytest.mark.parametrize("lang, lines, asked, short", [
    ("fr", ["dé croix", "blabla", "aide", "messages courts"], "Alice, quel dinosaure mets-tu, et dans quel enclos ?",
     "Alice ?"),
    ("en", ["the die says cross", "blah blah", "help", "short messages"],
     "Alice, which dinosaur do you place, and in which pen?", "Alice?"),
    ("es", ["dado cruz", "bla bla", "ayuda", "mensajes cortos"], "Alice, ¿qué dinosaurio pones y en qué corral?",
     "¿Alice?"),
])
def test_the_question_is_said_again_after_not_understood_help_and_short_messages(tmp_path, lang, lines, asked,
                                                                                 short):
    out = draft(tmp_path, lines, lang=lang).stdout.splitlines()
    words = catalog(lang)
    not_understood = next(i for i, line in enumerate(out) if line.startswith(words.say(
        "session.not_understood", heard=lines[1]).split("«")[0].split('"')[0][:12]))
    assert out[not_understood + 1] == asked
    helped = next(i for i, line in enumerate(out) if i > not_understood + 1 and line != asked)
    assert out[helped + 1] == asked
    assert out[out.index(words.say("session.verbosity_short")) + 1] == short


# ---------------------------------------------------------------- the last turn's advice

def test_the_last_turn_never_says_a_dinosaur_waits_for_a_partner(tmp_path):
    species = ["T-Rex", "stégosaure", "diplodocus", "parasaurolophe", "spinosaure", "tricératops"]
    lines: list[str] = []
    for turn in range(12):
        lines.append("dé fleur")
        if turn < 11:
            lines += [f"Alice : {species[(2 * turn) % 5]} dans la rivière",
                      f"Bruno : {species[(2 * turn + 1) % 5]} dans la rivière"]
    lines += ["Bruno : diplodocus dans la rivière", "Alice : tricératops dans la prairie", "non", "qu'a joué Alice ?"]
    out = draft(tmp_path, lines, "Alice,Bruno").stdout
    assert ("Alice a mis le tricératops dans la prairie des amoureux : il reste sans partenaire, la partie finit à "
            "ce tour : aucun point.") in out
    assert "attend un partenaire" not in out


# ---------------------------------------------------------------- the winter Quarantine

def test_a_refused_quarantine_destination_says_the_destinations_once(tmp_path):
    from companion.games.draftosaurus.engine import QuarantineMove

    expected = random_game(["Ann", "Ben"], 12, board="winter")
    moves = sum(isinstance(action, QuarantineMove) for action in expected.actions)
    confirm_shipped_values(tmp_path)
    lines = [*script_lines(expected, "en")[:-moves], "at the top of the pyramid"]
    out = draft(tmp_path, lines, "Ann,Ben", "en", "--board", "winter").stdout
    refused = out.index("Refused. The pyramid, top: not yet, the row below must be full first.")
    after = out[refused:]
    assert after.count("in the river for") == 1, after  # the list of destinations, once
    assert "Ann, before scoring, the diplodocus leaves the quarantine zone." in after


def test_a_player_named_like_a_filler_word_is_heard_as_the_player(tmp_path):
    """"Ben" is a French filler ("ben, je sais pas"): at a table where Ben plays, it is his name."""
    out = draft(tmp_path, ["dé croix", "Ben : stégosaure dans la rivière"], "Alice,Ben,Cal").stdout
    assert "Ben met le stégosaure dans la rivière." in out
    alice, ben, _ = zoos(tmp_path)
    assert ben["river"] == ["stegosaurus"] and not any(alice.values())
