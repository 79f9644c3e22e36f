"""What a recogniser's words mean is read on the path they take through the state's compiled grammar (the
automaton with meaning on its arcs: the intent, the slots its block fixes and those its lists fill), with no
second parse. Differential checks: on sampled phrases of every game, language and state, and on every example
sentence a recogniser can say, the path gives what the parser gives for the same words, read the same way
(fillers set aside only at the edges, as recognisers hear them). Where the parser would read an alternative
kept from recognisers ("rex" alone), the path reads what a recogniser can say (a test below)."""

import random
import shutil

import pytest

from companion.dialogue.session import Heard, understand
from companion.games.common import name_key
from companion.language import recognition_grammar as rg
from companion.language.automaton import label, minimal_meant
from companion.language.folding import fold
from companion.language.grammar import _recognize, examples, games, load_grammar, parse, states
from companion.language.kept_automata import ArcTable
from companion.language.messages import LANGUAGES
from companion.language.reading import PathReader
from companion.speech import path_meaning as pm
from companion.speech.recogniser import meaning_of
from companion.speech.vosk_phrases import vosk_phrases

PLAYERS = ("Alice", "Jean-Luc")
PER_STATE = 25  # phrases sampled in each state (every phrase is parsed typed in test_grammar_recognition)


def readings(words: list[str], lang: str) -> list[tuple[int, int]]:
    """Where the words begin and end once the fillers heard before them, after them, or both are set aside (the
    most set aside first, then the words as heard)."""
    before, after = rg.fillers(lang)
    heads = [0] + [len(f) for f in before if len(words) > len(f) and tuple(words[:len(f)]) == f]
    cuts = [(start, len(words)) for start in heads] + [
        (start, len(words) - len(f)) for start in heads for f in after
        if len(words) - start > len(f) and tuple(words[-len(f):]) == f]
    return list(reversed(dict.fromkeys(cuts)))


def typed(text: str, game: str, lang: str, state: str, players: tuple[str, ...]):
    """The parser's meaning for the intents of the state with a sentence of the words of `text`, given the
    text of each reading (without its edge fillers first, then as heard)."""
    spans = rg.spelling(lang).spans(text)
    words = [word for word, _, _ in spans]
    saying = pm.intents_saying(words, game=game, lang=lang, state=state, player_names=players)
    for start, end in readings(words, lang):
        found = _recognize(fold(text[spans[start][1]:spans[end - 1][2]]), load_grammar(game, lang), state, players,
                           saying)
        if found is not None:
            return found
    return None


def on_path(text: str, game: str, lang: str, state: str, players: tuple[str, ...] = PLAYERS):
    """What the path of `text` means, as (intent, slots), or None when no sentence of the state has its words."""
    found = pm.path_meaning(text, game=game, lang=lang, state=state, player_names=players)
    return None if found is None else (found[0], dict(found[1]))


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", games())
def test_sampled_recogniser_phrases_mean_on_their_path_what_the_parser_reads(game, lang):
    checked = 0
    for state in states(game):
        phrases = [p for p in vosk_phrases(game, lang, state, PLAYERS)[:-1] if rg.UNKNOWN_WORD not in p]
        for phrase in random.Random(f"{game} {lang} {state}").sample(phrases, min(PER_STATE, len(phrases))):
            found = on_path(phrase, game, lang, state)
            assert found is not None, (state, phrase)  # every phrase a recogniser is offered has a path
            assert same_meaning(found, typed(phrase, game, lang, state, PLAYERS), PLAYERS), (state, phrase)
            checked += 1
    assert checked > 10 * len(states(game))


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", games())
def test_example_sentences_a_recogniser_can_say_mean_on_their_path_what_they_mean_typed(game, lang):
    book = examples(game, lang)
    said = 0
    for example in book.understood:
        found = on_path(example.text, game, lang, example.state, book.players)
        if found is None:  # digits, words kept from recognisers, or free text: only typed
            continue
        assert same_meaning(found, typed(example.text, game, lang, example.state, book.players), book.players), \
            example.text
        assert found[0] == example.intent, example.text
        said += 1
    assert said > len(book.understood) // 3, (said, len(book.understood))


def heard(text: str, game: str, lang: str, state: str, players: tuple[str, ...] = PLAYERS):
    return understand(Heard(text, 0.9, "test"), game=game, lang=lang, state=state, player_names=players)


def test_a_hesitation_inside_heard_words_is_a_word_of_their_path():
    """"de ah une" is heard as "of A one", the square A1, as the recogniser grammar says it; typed, "ah" is a
    hesitation set aside, and the same line reads D1."""
    line = "je choisis jetons de ah une puis de ah une"
    assert heard(line, "jurassic-snack", "fr", "any").slots["square"] == "A1"
    assert pm.parse_heard(line, game="jurassic-snack", lang="fr", state="any").slots["square"] == "A1"


@pytest.mark.parametrize("lang, line, intent", [("en", "not so loud", "quieter"),
                                                 ("fr", "je préfère des réponses brèves", "verbosity"),
                                                 ("fr", "allez à la suite", "next")])
def test_a_command_heard_when_a_name_is_asked_is_that_command(lang, line, intent):
    assert heard(line, "draftosaurus", lang, "who").intent == intent


def test_heard_words_no_template_produces_whole_are_read_as_typed():
    line = "place the t rex uh in the forest of sameness"  # no path: a recogniser hears no "uh" inside a command
    assert on_path(line, "draftosaurus", "en", "turn") is None
    result = heard(line, "draftosaurus", "en", "turn")  # Vosk may join pieces of phrases: read as typed
    assert (result.intent, result.slots) == ("place", {"species": "trex", "pen": "forest_of_sameness"})


def test_heard_words_longer_than_any_sentence_are_not_understood():
    line = " ".join(["place le tricératops dans la forêt"] * 100)  # a wildcard name would take them all
    assert heard(line, "draftosaurus", "fr", "who").intent is None
    short = heard("Zoé", "draftosaurus", "fr", "who")
    assert (short.intent, short.slots) == ("name_said", {"player": "Zoé"})


@pytest.mark.parametrize("lang, line, name", [("fr", "Je m'appelle Zoé.", "Zoé"), ("fr", "Jean-Luc", "Jean-Luc"),
                                              ("en", "My name is Mary Ann", "Mary Ann"),
                                              ("en", "so, my name is Mary Ann", "Mary Ann")])
def test_a_name_heard_is_kept_as_it_was_written(lang, line, name):
    result = heard(line, "draftosaurus", lang, "who")
    assert result.slots == {"player": name}, result
    typed_line = parse(line, game="draftosaurus", lang=lang, state="who", player_names=PLAYERS)
    assert (result.intent, result.slots) == (typed_line.intent, typed_line.slots)


def test_a_list_s_longest_value_is_taken_first_as_typed():
    """Lists of plain words: the longest value first, then the next, as the parser takes them (a: "x" or
    "x y", b: "y z" or "z"; "x y z" is a = "x y", b = "z")."""
    def read(longest_first: bool):
        a = rg.Choice((("x",), ("x", "y")), values=("A1", "A2"), longest_first=longest_first)
        b = rg.Choice((("y", "z"), ("z",)), values=("B1", "B2"), longest_first=longest_first)
        template = (rg.Ref("list_a", "a"), rg.Ref("list_b", "b"))
        grammar = rg.StateGrammar((("both", (template,)),), {"list_a": a, "list_b": b}, (((),),))
        table = ArcTable.of(minimal_meant(rg.grammar_graph(grammar, "en")))
        ends = PathReader(table).paths(["x", "y", "z"])
        return rg.Tag.meaning(ends["both"][1])

    assert read(True) == ("both", {"a": "A2", "b": "B2"})
    assert read(False) == ("both", {"a": "A1", "b": "B1"})  # in the order written


def test_an_alternative_kept_from_recognisers_is_not_part_of_a_heard_path():
    """"rex" alone is never offered to recognisers: heard, "tyrannosaurus rex" is one T-Rex, as typed (the longer
    form is tried first); "rex" alone is a T-Rex typed only."""
    line = "i've your stegosaurus and tyrannosaurus rex five stegosaurus"
    assert ("rex",) in rg.unheard("en")
    meant = {"card1": "stegosaurus", "card2": "trex", "count3": 5, "card3": "stegosaurus"}
    assert heard(line, "draftosaurus", "en", "hand_named").slots == meant
    assert parse(line, game="draftosaurus", lang="en", state="hand_named", player_names=PLAYERS).slots == meant
    alone = "i've your stegosaurus and rex"
    assert on_path(alone, "draftosaurus", "en", "hand_named") is None
    typed_line = parse(alone, game="draftosaurus", lang="en", state="hand_named", player_names=PLAYERS)
    assert typed_line.slots == {"card1": "stegosaurus", "card2": "trex"}


# ---------------------------------------------------------------- meaning on the arcs of the phone graph

needs_espeak = pytest.mark.skipif(shutil.which("espeak-ng") is None and shutil.which("espeak") is None,
                                  reason="espeak-ng is not installed")
ON_ARCS = (("draftosaurus", ("turn", "hand_named", "any", "who")), ("jurassic-snack", ("any",)),
           ("dino", ("any",)))


def same_meaning(on_path, walked, players: tuple[str, ...]) -> bool:
    """The same intent and slots; a player's name that the parser read as free text (a template of a new
    name, which no recogniser graph holds) is the name of the list, as it is written."""
    if on_path is None or walked is None or on_path[0] != walked[0] or on_path[1].keys() != walked[1].keys():
        return on_path == walked
    def said(name: str) -> str:  # a recogniser spells "Jean-Luc" as two words in some languages
        return name_key(name.replace("-", " "))

    return all(value == walked[1][slot] or (value in players and said(value) == said(walked[1][slot]))
               for slot, value in on_path[1].items())


@needs_espeak
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game, chosen", ON_ARCS)
def test_a_sentence_matched_by_sound_means_what_the_parser_reads_in_its_words(game, chosen, lang):
    """Whisper's words are matched by sound to a path of the state's phone graph, and the words of that path read
    as every recogniser's are: on sampled sentences, and on the same sentences said otherwise, the sentence found
    means what the parser reads in it."""
    from companion.speech.phonetic import closest_sentence

    checked = 0
    for state in chosen:
        phrases = [p for p in vosk_phrases(game, lang, state, PLAYERS)[:-1] if rg.UNKNOWN_WORD not in p]
        for phrase in random.Random(f"{game} {lang} {state} arcs").sample(phrases, min(PER_STATE, len(phrases))):
            for said in (phrase, phrase[: max(1, len(phrase) - 3)]):  # as written, and its end garbled
                found = closest_sentence(said, game, lang, state, PLAYERS)
                assert found.text and found.meaning is not None, (state, said)
                assert same_meaning((found.meaning[0], dict(found.meaning[1])),
                                    typed(found.text, game, lang, state, PLAYERS), PLAYERS), (state, said, found)
                checked += 1
    assert checked >= 2 * PER_STATE * len(chosen)


@needs_espeak
def test_the_words_matched_by_sound_are_read_in_the_parser_s_order_not_by_a_sum_of_ranks(monkeypatch):
    """"x y z", a: "x" or "x y", b: "z" or, listed far later, "y z": the parser reads a = "x" (the first value it
    tries), then b = "y z". Added up, the ranks of that path (1 and 7) cost more than those of a = "x y", b = "z"
    (2 and 3), the path the search by sound takes among those of the same sounds; the words it found are read as
    every recogniser's are."""
    from companion.speech import phonetic

    a = rg.Choice((("x",), ("x", "y")), values=("A1", "A2"))
    b = rg.Choice((("z",), ("q",), ("r",), ("s",), ("t",), ("y", "z")), values=("B1", "B2", "B3", "B4", "B5", "B6"))
    template = (rg.Ref("list_a", "a"), rg.Ref("list_b", "b"))
    grammar = rg.StateGrammar((("both", (template,)),), {"list_a": a, "list_b": b}, (((),),))
    table = ArcTable.of(minimal_meant(rg.grammar_graph(grammar, "en")))
    graph = phonetic.PhoneGraph(table.automaton(), phonetic.phones_of(["x", "y", "z", "q", "r", "s", "t"], "en"))
    monkeypatch.setattr(phonetic, "phone_graph", lambda *args: graph)
    monkeypatch.setattr(pm, "path_reader", lambda *args: PathReader(table))

    _, searched = graph.closest(tuple(p for w in ("x", "y", "z") for p in phonetic.phones_of([w], "en")[w]))
    assert rg.Tag.meaning(tag for arc in searched for tag in label(arc)[1]) == ("both", {"a": "A2", "b": "B1"})
    found = phonetic.closest_sentence("x y z", "draftosaurus", "en", "any")
    assert found.text == "x y z" and found.distance == 0
    assert found.meaning == meaning_of("both", {"a": "A1", "b": "B6"})


@needs_espeak
def test_of_sentences_of_the_same_sounds_the_path_reads_the_one_the_parser_reads_first():
    """"plus rapide" is both the quicker voice and shorter answers, "plaine" a topic of the rules twice (the
    meadow, the grassland face): the path takes the parser's first reading."""
    from companion.speech.phonetic import closest_sentence

    for state, text in (("who", "plus rapide"), ("quarantine", "je veux comprendre plaine"), ("die", "plaine"),
                        ("any", "tricératops"), ("hand_named", "j' ai en main vos stégosaure un long-cou")):
        found = closest_sentence(text, "draftosaurus", "fr", state, PLAYERS)
        typed_line = parse(text, game="draftosaurus", lang="fr", state=state, player_names=PLAYERS)
        assert found.text == text and found.distance == 0
        assert found.meaning == meaning_of(typed_line.intent, typed_line.slots), (state, text)
    # "blue one": a word of the pawn's name (the parser's reading), not pawn one (grammars/README.md)
    found = closest_sentence("alice blue one in eleven spaces", "dino", "en", "turn", PLAYERS)
    assert found.text == "alice blue one in eleven spaces" and found.distance == 0
    assert found.meaning == meaning_of("pawn_move", {"player": "Alice", "colour": "blue", "steps": 11})


def test_heard_words_mean_what_the_recogniser_s_path_said_in_the_grammar_it_listened_with():
    path = ("undo", ())  # not what the words say through the grammar: the path is taken, not the words
    said = Heard("place the t-rex in the river", 0.9, "whisper", meaning=path, grammar=("turn", PLAYERS))
    result = understand(said, game="draftosaurus", lang="en", state="turn", player_names=PLAYERS)
    assert (result.intent, result.slots) == ("undo", {})
    # a path of another state's grammar (or other players' names) is not taken: the words are read again
    for grammar in (("any", PLAYERS), ("turn", ("Zoé", "Bruno"))):
        other = Heard("place the t-rex in the river", 0.9, "whisper", meaning=path, grammar=grammar)
        result = understand(other, game="draftosaurus", lang="en", state="turn", player_names=PLAYERS)
        assert (result.intent, result.slots) == ("place", {"pen": "river", "species": "trex"})


@needs_espeak
def test_a_match_by_sound_reads_its_meaning_off_its_path_without_walking_its_words(monkeypatch):
    from companion.speech import phonetic, second_opinion, whisper
    from companion.speech.whisper import heard_as

    phonetic.closest_sentence("la rivière", "draftosaurus", "fr", "turn", PLAYERS)  # the graph built first

    def walked(*args, **kwargs):
        raise AssertionError("the words were walked through the grammar")

    monkeypatch.setattr(pm, "parse_heard", walked)
    monkeypatch.setattr(pm, "path_meaning", walked)
    monkeypatch.setattr(second_opinion, "parse_heard", walked)
    monkeypatch.setattr(whisper, "path_meaning", walked)  # Whisper's own words are read there
    heard = heard_as("Je met le trice et ratopse dans la riviere.", game="draftosaurus", lang="fr", state="turn",
                     player_names=PLAYERS)
    assert heard.text.endswith("le tricératops dans la rivière")
    assert heard.meaning == ("place", (("pen", "river"), ("species", "triceratops")))
