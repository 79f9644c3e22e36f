"""Words that sound like their opposite, or like another dinosaur, are never offered to recognisers, so a
spoken no cannot come back as a confident yes; typed, those words still count."""

from __future__ import annotations

import re
import shutil

import pytest

from companion.dialogue.session import understand
from companion.language.grammar import parse
from companion.language.messages import LANGUAGES
from companion.language.recognition_grammar import jsgf, not_as_written, unheard
from companion.speech.base import Heard
from companion.speech.path_meaning import parse_heard
from companion.speech.vosk_phrases import vosk_phrases


def offered(state: str) -> set[str]:
    """Every alternative (a word or phrase) of the recognisers' grammar in `state`."""
    return {part.strip() for part in re.split(r"[()|;=<>]", jsgf("draftosaurus", "en", state))}


@pytest.mark.parametrize("phrase", ["ok", "o k", "okay", "go for it", "go ahead"])
def test_unheard_phrases_stay_out_of_recogniser_grammars_but_are_understood_typed(phrase):
    assert parse(phrase, game="draftosaurus", lang="en", state="confirm").intent == "yes"
    phrases = vosk_phrases("draftosaurus", "en", "confirm")
    assert phrase not in phrases or parse_heard(phrase, game="draftosaurus", lang="en", state="confirm").intent != "yes"
    assert not any(parse_heard(p, game="draftosaurus", lang="en", state="confirm").intent == "yes"
                   for p in phrases if p.startswith(phrase + " "))  # "go ahead" reads on: "go" and "ahead" are `next`'s
    alternatives = offered("confirm")
    assert phrase not in alternatives and "yeah" in alternatives
    assert "yes" in phrases


def test_a_kept_phrase_made_of_another_intent_s_words_means_that_intent_when_heard():
    """"go ahead" is no yes for recognisers, but "go" and "ahead" are words of `next` (read on)."""
    assert "ahead" in offered("confirm")
    assert parse_heard("go ahead", game="draftosaurus", lang="en", state="confirm").intent == "next"
    # words no recogniser template gives whole (Vosk may join phrases) are parsed as typed
    assert parse_heard("yes go ahead", game="draftosaurus", lang="en", state="confirm").intent == "yes"
    heard, typed = Heard("go ahead", 0.9, "sphinx"), Heard("go ahead", None, "text")
    assert understand(heard, game="draftosaurus", lang="en", state="confirm").intent == "next"
    assert understand(typed, game="draftosaurus", lang="en", state="confirm").intent == "yes"


def test_heard_words_keep_their_meaning_when_one_intent_produces_them():
    said = parse_heard("alice put the t rex in the river", game="draftosaurus", lang="en", state="turn",
                       player_names=("Alice", "Bob"))
    assert (said.intent, said.slots) == ("place", {"player": "Alice", "species": "trex", "pen": "river"})


@pytest.mark.parametrize("short, species", [("spino", "spinosaurus"), ("stego", "stegosaurus")])
def test_short_names_heard_as_each_other_are_left_to_the_keyboard(short, species):
    typed = parse(f"{short} in the river", game="draftosaurus", lang="en", state="turn")
    assert (typed.intent, typed.slots) == ("place", {"species": species, "pen": "river"})
    alternatives = offered("turn")
    assert short not in alternatives and species in alternatives


def test_a_question_about_the_die_cannot_be_heard_as_a_die_face():
    assert parse("woods was rolled", game="draftosaurus", lang="en", state="die").slots == {"face": "forest"}
    assert parse("what was rolled", game="draftosaurus", lang="en", state="die").intent == "current_die"
    alternatives = offered("die")
    assert "woods" not in alternatives and {"forest", "rolled"} <= alternatives


def test_what_whisper_wrote_for_other_words_is_never_offered_to_recognisers():
    assert ("middle",) in not_as_written("en")
    for lang in LANGUAGES:
        assert not_as_written(lang) <= unheard(lang), lang  # else the sound match could give it back, sure


@pytest.mark.parametrize("state", ["turn", "die", "confirm", "any"])
def test_no_unheard_phrase_is_offered_in_any_state(state):
    assert not {" ".join(words) for words in unheard("en")} & offered(state)


@pytest.mark.parametrize("typed, intent, slots", [
    ("rex in the river", "place", {"species": "trex", "pen": "river"}),
    ("alice drops the trike in the river", "place", {"player": "Alice", "species": "triceratops", "pen": "river"}),
    ("huh", "repeat", {}), ("another time", "repeat", {}),
    ("trex in the middle", "place", {"species": "trex", "pen": "river"}),
    ("stegosaur in the river", "place", {"species": "stegosaurus", "pen": "river"}),
    ("what's the rule about ties", "rules", {"topic": "tiebreak"})])
def test_unheard_phrases_are_still_understood_typed(typed, intent, slots):
    meaning = parse(typed, game="draftosaurus", lang="en", state="turn", player_names=("Alice", "Bob"))
    assert (meaning.intent, dict(meaning.slots)) == (intent, slots)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_a_spoken_no_never_passes_as_a_confident_yes(tmp_path):
    from companion.benchmarks.synthetic import ENGLISH_VOICES, speak_to_wav
    from companion.speech.audio import WavFileSource
    from companion.speech.listener import SpeechListener
    from companion.speech.sphinx import SphinxRecogniser

    said = [(word, voice, speed) for word in ("no", "nope", "no thanks") for voice in ENGLISH_VOICES
            for speed in (140, 170)]
    wavs = [speak_to_wav(word, tmp_path / f"{n}.wav", voice=voice, speed=speed, seed=n)
            for n, (word, voice, speed) in enumerate(said)]
    listener = SpeechListener(SphinxRecogniser("en", "draftosaurus"), iter(WavFileSource(w) for w in wavs),
                              lang="en", say=lambda text: None)
    for word, voice, speed in said:
        heard = listener.listen("confirm")
        meaning = understand(heard, game="draftosaurus", lang="en", state="confirm").intent
        assert not (meaning == "yes" and not heard.needs_confirmation), (word, voice, speed, heard)
