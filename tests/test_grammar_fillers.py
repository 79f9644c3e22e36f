"""How people talk around a command: fillers and polite words before or after it, in every language and game,
understood when typed and offered to the recognisers; and rules questions that need a rules word or a verb
of explaining before their topic. The example sentences of grammars/<lang>/<game>.examples.yaml hold more."""

from __future__ import annotations

import itertools
import json
import re
import shutil

import pytest

from companion.benchmarks.synthetic import speak_to_wav
from companion.language import recognition_grammar as rg
from companion.language.folding import fold
from companion.language.grammar import games, grammar_source, parse, read_grammar_file, readings
from companion.language.messages import LANGUAGES
from companion.speech.vosk_phrases import vosk_phrases
from tests.conftest import run_companion

# (language, filler before, command, filler after, intent) said in the state `turn` (`action` for Jurassic
# Snack): one shared command, as people say it.
AROUND = {
    "en": [("okay so", "undo that", "please", "undo"), ("well", "could you repeat that", "thanks", "repeat"),
           ("um", "whose turn is it", "thank you", "whose_turn")],
    "fr": [("bon alors", "annule ça", "s'il te plaît", "undo"), ("euh", "tu peux répéter", "merci", "repeat"),
           ("du coup", "c'est à qui", "s'il vous plaît", "whose_turn")],
    "es": [("vale pues", "deshaz eso", "por favor", "undo"), ("eh", "puedes repetir", "gracias", "repeat"),
           ("bueno", "de quién es el turno", "por favor", "whose_turn")],
}
GAME_STATE = {"draftosaurus": "turn", "jurassic-snack": "action", "dino": "turn"}


@pytest.mark.parametrize("game", games())
@pytest.mark.parametrize("lang", LANGUAGES)
def test_shared_commands_are_understood_with_fillers_before_and_after_in_every_game(game, lang):
    for before, command, after, intent in AROUND[lang]:
        for text in (command, f"{before}, {command}", f"{command}, {after}", f"{before} {command} {after}"):
            assert parse(text, game=game, lang=lang, state=GAME_STATE[game]).intent == intent, text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_fillers_alone_are_not_a_command(lang):
    for before, _, after, _ in AROUND[lang]:
        for text in (before, after, f"{before} {after}"):
            assert parse(text, game="draftosaurus", lang=lang, state="turn").intent is None, text


@pytest.mark.parametrize("lang, text, intent", [
    ("en", "okay", "yes"), ("fr", "d'accord", "yes"), ("es", "vale", "yes"),  # a filler alone is read as said
    ("en", "okay so yes", "yes"), ("fr", "bon ben oui", "yes"), ("es", "pues sí", "yes"),
    ("en", "no thanks", "no"), ("fr", "non merci", "no"), ("es", "no, gracias", "no"),
])
def test_a_filler_that_is_also_an_answer(lang, text, intent):
    assert parse(text, game="draftosaurus", lang=lang, state="confirm").intent == intent


def test_a_word_that_is_a_filler_and_part_of_a_command_is_kept_when_needed():
    """ "dis" is a filler ("dis, c'est à qui ?") and the verb of "dis ça encore": the sentence is tried
    without all fillers, then without all but one, then without those at its ends only, then as written."""
    folded = fold("donc tu peux dis ça encore")
    grammar_skips = [tuple(fold(w).words) for w in grammar_source("draftosaurus", "fr")["skip_words"]]
    tried = [r.words for r in readings(folded, grammar_skips)]
    assert tried[0] == ("ca", "encore")
    assert ("dis", "ca", "encore") in tried and tried[-1] == folded.words
    assert tried.index(("dis", "ca", "encore")) < tried.index(("tu", "peux", "dis", "ca", "encore"))
    for text in ("donc tu peux dis ça encore", "donc, tu peux dis, euh, ça encore"):
        assert parse(text, game="draftosaurus", lang="fr", state="turn").intent == "repeat", text
    assert parse("bon, c'est bon", game="draftosaurus", lang="fr", state="confirm").intent == "yes"
    assert parse("ok d'accord", game="draftosaurus", lang="fr", state="confirm").intent == "yes"


@pytest.mark.parametrize("lang, text, state, intent, slots", [
    # "what is" + something close to a topic asks about the game, not about its rules...
    ("en", "what is the die?", "turn", "current_die", {}),
    ("fr", "c'est quoi le dé ?", "turn", "current_die", {}),
    ("es", "¿qué es el dado?", "turn", "current_die", {}),
    ("en", "remind me of the die", "die", "current_die", {}),
    ("en", "what's the score", "turn", "score", {}),
    ("en", "what are the points", "turn", "score", {}),
    # ...while a rules word, a verb of explaining or an ending that asks for a rule still makes a rules question
    ("en", "what are the rules of the lookout", "winter_turn", "rules", {"topic": "lookout"}),
    ("en", "what are the hearts for?", "turn", "rules", {"topic": "prairie_of_love"}),
    ("en", "what's the trio rule", "turn", "rules", {"topic": "woody_trio"}),
    ("en", "explain the river", "turn", "rules", {"topic": "river"}),
    ("fr", "explique la pyramide", "winter_turn", "rules", {"topic": "pyramid"}),
    ("fr", "c'est quoi les règles du point de vue", "winter_turn", "rules", {"topic": "lookout"}),
    ("fr", "à quoi sert le trio ?", "turn", "rules", {"topic": "woody_trio"}),
    ("es", "¿cuáles son las reglas del mirador?", "winter_turn", "rules", {"topic": "lookout"}),
    ("es", "¿para qué sirve el trío?", "turn", "rules", {"topic": "woody_trio"}),
])
def test_rules_questions_need_a_rules_word_or_an_explaining_verb(lang, text, state, intent, slots):
    result = parse(text, game="draftosaurus", lang=lang, state=state)
    assert (result.intent, result.slots) == (intent, slots)


@pytest.mark.parametrize("game, lang, text, state", [
    ("draftosaurus", "en", "what's the river", "turn"), ("draftosaurus", "en", "what are the trios", "turn"),
    ("draftosaurus", "fr", "c'est quoi la rivière", "turn"), ("draftosaurus", "es", "qué es el río", "turn"),
    ("jurassic-snack", "en", "what's the surprise", "action"), ("dino", "fr", "c'est quoi les barrages", "turn"),
])
def test_what_is_and_a_topic_alone_is_no_rules_question(game, lang, text, state):
    assert parse(text, game=game, lang=lang, state=state).intent != "rules"


# ---------------------------------------------------------------- recognisers

@pytest.mark.parametrize("lang", LANGUAGES)
def test_recogniser_fillers_are_words_the_parser_drops(lang):
    skip = {tuple(rg.spelling(lang).words(w)) for w in read_grammar_file(lang, "common")["skip_words"]}
    before, after = rg.fillers(lang)
    assert before and after
    assert set(before) | set(after) <= skip
    assert not (set(before) | set(after)) & rg.unheard(lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_jsgf_allows_one_filler_before_and_one_after_any_command(lang):
    text = rg.jsgf("draftosaurus", lang, "turn")
    public = re.search(r"^public <utterance> = (.*);$", text, re.MULTILINE).group(1)
    assert public.startswith("[ <filler_before> ] ( <intent_place> |") and public.endswith(") [ <filler_after> ]")
    before, after = rg.fillers(lang)
    assert (re.search(r"^<filler_before> = (.*);$", text, re.MULTILINE).group(1)
            == " | ".join(" ".join(f) for f in before))
    assert re.search(r"^<filler_after> = (.*);$", text, re.MULTILINE).group(1) == " | ".join(" ".join(f) for f in after)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_vosk_hears_each_filler_before_and_after_a_command(lang):
    """Vosk learns pairs of words from its phrases: each filler's, and each filler's next to a command's."""
    phrases = vosk_phrases("draftosaurus", lang, "turn")
    pairs = {pair for phrase in phrases for pair in itertools.pairwise(phrase.split())}
    undo = rg.spelling(lang).words(AROUND[lang][0][1])  # "annule ça", said whole
    before, after = rg.fillers(lang)
    for filler in before:
        assert set(itertools.pairwise(filler)) <= pairs and (filler[-1], undo[0]) in pairs, filler
    for filler in after:
        assert set(itertools.pairwise(filler)) <= pairs and (undo[-1], filler[0]) in pairs, filler


def test_heard_words_with_fillers_keep_the_recogniser_safeguards():
    """A recogniser's words go only to the intents whose grammar produces them, fillers set aside: "go ahead"
    heard in a yes/no question still reads on (it cannot be the typed-only yes), with a "please" after it."""
    from companion.speech.path_meaning import intents_saying, parse_heard

    assert parse_heard("so undo that please", game="draftosaurus", lang="en", state="turn").intent == "undo"
    assert parse_heard("go ahead please", game="draftosaurus", lang="en", state="confirm").intent == "next"
    said = {"game": "draftosaurus", "lang": "en", "state": "confirm"}
    assert intents_saying(["please", "undo", "thank", "you"], **said) == {"undo"}
    assert intents_saying(["please", "please", "undo"], **said) == frozenset()  # one filler before, at most


@pytest.mark.slow
@pytest.mark.skipif(not (shutil.which("espeak-ng") and shutil.which("sox")), reason="needs espeak-ng and sox")
@pytest.mark.parametrize("state, sentence, voice, speed, intent, slots", [
    ("turn", "so, whose turn is it, please", "en-us", 150, "whose_turn", {}),
    ("confirm", "no thanks", "en-us+f2", 160, "no", {}),
    ("die", "so, the die says square, thanks", "en-us", 150, "die", {"face": "empty_pen"}),
])
def test_spoken_commands_with_fillers_through_pocketsphinx(tmp_path, grammar_cache, state, sentence, voice, speed,
                                                           intent, slots):
    """Real speech (espeak-ng), heard by `companion listen` with pocketsphinx and our grammar."""
    audio = speak_to_wav(sentence, tmp_path / "said.wav", voice=voice, speed=speed)
    result = run_companion("listen", "--engine", "sphinx", "--lang", "en", "--state", state, "--file", str(audio),
                           "--json", env={"XDG_CACHE_HOME": str(grammar_cache)})
    assert result.returncode == 0, result.stderr
    heard = json.loads(result.stdout)
    assert (heard["intent"], heard["slots"]) == (intent, slots), heard["text"]

@pytest.mark.parametrize("lang, text, intent", [
    # a hesitation inside a polite request: taking out "uh" brings "would you" together, which is part of the
    # question here, so the sentence is also tried without only the fillers as said
    ("en", "what, would uh you play, with the T-Rex?", "advice"),
    ("fr", "donc, tu euh peux euh dis, ça encore", "repeat"),
])
def test_a_filler_inside_another_phrase_does_not_take_it_away(lang, text, intent):
    assert parse(text, game="draftosaurus", lang=lang, state="turn").intent == intent, text
