"""What players say at a Dino table (grammars/<lang>/dino.yaml): every intent has examples (their meanings are
checked with every game's in test_grammar_examples), squares, colours, rule topics, the recogniser grammars
made from the same templates, and `companion parse --game dino`."""

import json
import random
import re
import subprocess
import sys

import pytest

from companion.games.dino.board import load_board
from companion.language import recognition_grammar as rg
from companion.language.grammar import examples, load_grammar, parse, read_grammar_file, states
from companion.language.messages import LANGUAGES, Catalog
from companion.language.rules import RulesBook
from companion.speech.vosk_phrases import vosk_phrases

GAME = "dino"
OWN_INTENTS = {"pawn_move", "meteor_move", "egg_take", "square_answer", "steps_answer", "pawn_choice", "colour_choice",
               "nest_place", "barrier_place", "stones_answer", "meteor_state", "nest_state", "egg_state", "pawn_state",
               "barrier_state", "reach_query", "rules", "status", "advice", "played"}
ROW_WORDS = {"fr": ["un", "deux", "trois", "quatre", "cinq", "six"],
             "en": ["one", "two", "three", "four", "five", "six"],
             "es": ["uno", "dos", "tres", "cuatro", "cinco", "seis"]}
# A move naming the pawn by its colour, in each language.
MOVE = {"fr": "mon pion {colour} avance de deux jusqu'en C3", "en": "my {colour} pawn moves two to C3",
        "es": "mi peón {colour} avanza dos hasta C3"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_language_has_examples_for_every_intent_of_the_game(lang):
    corpus = examples(GAME, lang)
    assert len(corpus.understood) >= 60 and len(corpus.not_understood) >= 5
    assert {e.intent for e in corpus.understood} >= OWN_INTENTS
    assert set(read_grammar_file(lang, GAME)["intents"]) == OWN_INTENTS


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_square_can_be_said_as_written_and_in_words(lang):
    board = load_board()
    for square in board.squares:
        column, row = square[0], int(square[1:])
        for said in (square, f"{column} {row}", f"{column} {ROW_WORDS[lang][row - 1]}"):
            result = parse(said, game=GAME, lang=lang, state="answer")
            assert (result.intent, result.slots) == ("square_answer", {"square": square}), said


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_colour_is_understood_by_the_name_the_program_says(lang):
    names = Catalog(lang)
    for colour in load_board().pawn_colours:
        spoken = names.name("colours", colour)
        result = parse(MOVE[lang].format(colour=spoken), game=GAME, lang=lang, state="turn")
        assert (result.intent, result.slots["colour"]) == ("pawn_move", colour), spoken


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rule_topics_are_the_sections_of_the_rules(lang):
    topics = {value["out"] for value in read_grammar_file(lang, GAME)["lists"]["topic"]["values"]}
    assert topics == set(RulesBook.load(GAME, lang).ids)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_recogniser_phrases_are_understood_by_the_parser(lang):
    """What the recogniser may output is what the parser accepts, state by state."""
    for state in states(GAME):
        phrases = vosk_phrases(GAME, lang, state, ["Ana", "Bruno"])
        assert phrases[-1] == rg.UNKNOWN_WORD and len(phrases) > 100
        for phrase in random.Random(f"{lang} {state}").sample(phrases[:-1], min(400, len(phrases) - 1)):
            assert not re.search(r"[0-9{}<>()\[\]|]", phrase.replace(rg.UNKNOWN_WORD, "")), phrase
            if rg.UNKNOWN_WORD not in phrase:
                assert parse(phrase, game=GAME, lang=lang, state=state, player_names=["Ana", "Bruno"]).intent, phrase


@pytest.mark.parametrize("lang", LANGUAGES)
def test_jsgf_is_well_formed_in_every_state(lang):
    for state in states(GAME):
        text = rg.jsgf(GAME, lang, state, ["Ana", "Bruno"])
        defined = set(re.findall(r"^<(\w+)> =", text, re.MULTILINE)) | {"utterance"}
        assert set(re.findall(r"<(\w+)>", text)) - {"NULL", "VOID"} <= defined
        assert "<VOID>" not in text


def test_the_state_limits_what_can_be_heard():
    assert "météorite" in rg.vocabulary(GAME, "fr", "turn")
    assert "météorite" not in rg.vocabulary(GAME, "fr", "confirm")
    assert "soixante-huit" in rg.vocabulary(GAME, "fr", "setup")  # meteor stones are asked at set-up only
    assert "soixante-huit" not in rg.vocabulary(GAME, "fr", "turn")


def test_every_english_word_has_a_pocketsphinx_pronunciation(tmp_path):
    merged = rg.write_pocketsphinx_dictionary(tmp_path / "merged.dict")
    words = {w for state in states(GAME) for w in rg.vocabulary(GAME, "en", state)}
    assert rg.missing_words(words, merged) == []


def test_companion_parse_knows_dino():
    result = subprocess.run([sys.executable, "-m", "companion", "parse", "--game", "dino", "--json",
                             "mon pion rouge avance de trois, le météore d'un"], capture_output=True, text=True,
                            check=False)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["slots"] == {"colour": "red", "steps": 3, "meteor": 1}
    spoken = subprocess.run([sys.executable, "-m", "companion", "parse", "--game", "dino", "--lang", "en",
                             "I take a green egg"], capture_output=True, text=True, check=False)
    assert spoken.returncode == 0 and "egg: green" in spoken.stdout, spoken.stdout


def slot_paths(expression, rules, memo) -> set[tuple[str, ...]]:
    """Every multiset of slots one way through a template can fill (sorted tuples)."""
    from hassil import Alternative, ListReference, Permutation, RuleReference, Sequence, TextChunk
    if isinstance(expression, TextChunk):
        return {()}
    if isinstance(expression, ListReference):
        return {(expression.slot_name,)}
    if isinstance(expression, RuleReference):
        if expression.rule_name not in memo:
            memo[expression.rule_name] = slot_paths(rules[expression.rule_name].expression, rules, memo)
        return memo[expression.rule_name]
    if isinstance(expression, Alternative):
        found = set().union(*(slot_paths(item, rules, memo) for item in expression.items))
        return found | {()} if expression.is_optional else found
    assert isinstance(expression, (Sequence, Permutation))
    found = {()}
    for item in expression.items:
        found = {tuple(sorted(a + b)) for a in found for b in slot_paths(item, rules, memo)}
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_sentence_can_fill_a_slot_twice(lang):
    """"my red pawn blues three" must not quietly make the pawn blue: a slot is said once at most."""
    intents = load_grammar(GAME, lang).intents
    memo: dict = {}
    for name in OWN_INTENTS:
        for block in intents.intents[name].data:
            for sentence in block.sentences:
                for path in slot_paths(sentence.expression, intents.expansion_rules, memo):
                    assert len(set(path)) == len(path) and not set(path) & set(block.slots), (name, sentence.text)
