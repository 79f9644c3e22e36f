"""Audio plumbing: WAV reading, resampling, frames, the endpointer, pronunciation guesses, grammar automata."""

from __future__ import annotations

import random
import shutil
import subprocess

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.benchmarks.synthetic import _mbrola, speak_to_wav, synthetic_voices
from companion.errors import BadInput
from companion.language.automaton import determinise, minimise
from companion.speech.audio import FRAME_SAMPLES, SAMPLE_RATE, Resampler, WavFileSource, read_wav, write_wav
from companion.speech.endpoint import Endpointer, EndpointSettings, frame_level_db
from companion.speech.fsg import shortened
from companion.speech.pronounce import guess_pronunciations, ipa_to_cmu
from tests.conftest import budget

needs_sox = pytest.mark.skipif(shutil.which("sox") is None, reason="sox is not installed")


def tone(seconds: float, rate: int, frequency: float = 440.0) -> np.ndarray:
    t = np.arange(int(seconds * rate)) / rate
    return (0.5 * np.sin(2 * np.pi * frequency * t)).astype(np.float32)


@needs_sox
@pytest.mark.parametrize("options", [["-b", "16"], ["-b", "24"], ["-e", "floating-point", "-b", "32"],
                                     ["-b", "8", "-e", "unsigned"], ["-c", "2", "-b", "16"]])
def test_wav_files_of_common_formats_read_alike(tmp_path, options):
    reference = write_wav(tmp_path / "ref.wav", tone(0.5, 22050), 22050)
    converted = tmp_path / "converted.wav"
    subprocess.run(["sox", str(reference), *options, str(converted)], check=True)
    samples, rate = read_wav(converted)
    original, _ = read_wav(reference)
    assert rate == 22050 and len(samples) == len(original)
    assert np.max(np.abs(samples - original)) < 0.02


def test_files_that_are_not_wav_are_bad_input(tmp_path):
    (tmp_path / "notes.wav").write_text("hello")
    with pytest.raises(BadInput, match=r"notes\.wav"):
        read_wav(tmp_path / "notes.wav")
    with pytest.raises(BadInput, match=r"missing\.wav"):
        read_wav(tmp_path / "missing.wav")


@pytest.mark.parametrize("source_rate", [8000, 22050, 44100, 48000])
def test_resampling_in_chunks_keeps_the_signal(source_rate):
    signal = tone(1.0, source_rate, 440)
    chunks = np.array_split(signal, 37)
    resampler = Resampler(source_rate)
    out = np.concatenate([resampler.process(c) for c in chunks])
    assert abs(len(out) - SAMPLE_RATE) <= 2
    spectrum = np.abs(np.fft.rfft(out[1000:-1000]))
    peak_hz = np.argmax(spectrum) * SAMPLE_RATE / len(out[1000:-1000])
    assert abs(peak_hz - 440) < 3
    assert np.allclose(out, Resampler(source_rate).process(signal)[:len(out)], atol=1e-5)


def test_downsampling_removes_what_16_khz_cannot_hold():
    out = Resampler(48000).process(tone(1.0, 48000, 12000))
    assert np.sqrt(np.mean(out[500:-500] ** 2)) < 0.01


def test_a_file_becomes_frames_of_30_ms(tmp_path):
    path = write_wav(tmp_path / "a.wav", tone(1.0, 44100), 44100)
    frames = list(WavFileSource(path).frames())
    assert len(frames) == SAMPLE_RATE // FRAME_SAMPLES
    assert {len(f) for f in frames} == {FRAME_SAMPLES * 2}


@pytest.mark.skipif(not synthetic_voices("fr", ("mbrola",)), reason="the mbrola voices are not installed")
def test_a_recording_given_that_starts_with_a_word_is_heard_after_a_silence_of_its_own(tmp_path):
    """"aide" said by mbrola fr1, the recording cut right at the word (0.6 s): the endpointer takes the room's noise
    from the quietest moment it heard, the word itself, and never heard it. Given by a player (`listen --file`,
    `play --audio`), such a recording is preceded by half a second of silence; one that starts quiet is read as it
    is, and so are the bench's own files."""
    path = tmp_path / "aide.wav"
    _mbrola("aide", path, "fr1", 150)
    as_it_is, given = WavFileSource(path), WavFileSource(path, lead_in=True)
    lead = WavFileSource.LEAD_IN_MS * SAMPLE_RATE / 1000 / FRAME_SAMPLES  # in frames
    assert abs(len(list(given.frames())) - len(list(as_it_is.frames())) - lead) < 1
    assert not list(Endpointer().speech(as_it_is.frames()))
    assert list(Endpointer().speech(given.frames()))
    samples, rate = read_wav(path)
    quiet = write_wav(tmp_path / "quiet.wav", np.concatenate([np.zeros(rate // 2, dtype=np.float32), samples]), rate)
    assert len(list(WavFileSource(quiet, lead_in=True).frames())) == len(list(WavFileSource(quiet).frames()))


@pytest.fixture(scope="module")
def spoken(tmp_path_factory):
    """A spoken word as 16 kHz frames, without the quiet that espeak-ng puts around it."""
    folder = tmp_path_factory.mktemp("spoken")
    path = speak_to_wav("triceratops", folder / "one.wav", voice="en-us", speed=160, pause_s=0.0)
    frames = list(WavFileSource(path).frames())
    loud = [i for i, f in enumerate(frames) if frame_level_db(f) > -45]
    return frames[loud[0]:loud[-1] + 1]


def silence(seconds: float) -> list[bytes]:
    return [bytes(FRAME_SAMPLES * 2)] * int(seconds * 1000 / 30)


def noise(seconds: float, level: float, seed: int = 0) -> list[bytes]:
    rng = np.random.default_rng(seed)
    return [(rng.standard_normal(FRAME_SAMPLES) * level * 32767).astype("<i2").tobytes()
            for _ in range(int(seconds * 1000 / 30))]


def test_the_endpointer_cuts_one_utterance_with_a_little_before_and_after(spoken):
    stream = silence(1.0) + spoken + silence(2.0) + spoken
    endpointer = Endpointer()
    utterance = list(endpointer.speech(iter(stream)))
    assert endpointer.started
    settings_ = EndpointSettings()
    assert len(spoken) <= len(utterance) <= len(spoken) + (settings_.preroll_ms + settings_.tail_ms) // 30 + 2


def test_a_short_pause_does_not_end_the_utterance(spoken):
    utterance = list(Endpointer().speech(iter(silence(0.5) + spoken + silence(0.3) + spoken + silence(1.5))))
    assert len(utterance) >= 2 * len(spoken) + 8


def test_speech_in_noise_is_found_and_noise_alone_is_not(spoken):
    quiet_noise = noise(3.0, 0.01)
    loud_speech = [(np.frombuffer(f, "<i2") + np.frombuffer(n, "<i2")).astype("<i2").tobytes()
                   for f, n in zip(spoken, noise(len(spoken) * 0.03, 0.01, seed=1), strict=True)]
    endpointer = Endpointer()
    assert list(endpointer.speech(iter(quiet_noise))) == [] and not endpointer.started
    utterance = list(Endpointer().speech(iter(quiet_noise + loud_speech + quiet_noise)))
    assert len(spoken) <= len(utterance) <= len(spoken) + 20


def test_endless_speech_is_cut_at_the_longest_utterance(spoken):
    settings_ = EndpointSettings(max_ms=3000)
    utterance = list(Endpointer(settings_).speech(iter(spoken * 20)))
    assert len(utterance) == 3000 // 30


def test_ipa_becomes_cmu_phones():
    assert ipa_to_cmu("tɹa\u200dɪsˈɛɹətˌɑːps") == "T R AY S EH R AH T AA P S"
    assert ipa_to_cmu("d\u200dʒˈiːn") == "JH IY N"


def test_french_and_spanish_sounds_get_their_nearest_english_phones():
    assert ipa_to_cmu("dˈɑ̃", foreign=True) == "D AA N"  # "dans": a nasal vowel is its vowel and an N
    assert ipa_to_cmu("pˈɔ̃", foreign=True) == "P OW N"
    assert ipa_to_cmu("steɡozˈɔʁ", foreign=True) == "S T EY G OW Z AO R"
    assert ipa_to_cmu("pɾˈaðo", foreign=True) == "P R AA DH OW"  # the Spanish tap is an R, not an English flap
    assert ipa_to_cmu("pɾˈaðo") == "P T AA DH OW"


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_names_get_pronunciations_from_espeak():
    guessed = guess_pronunciations(["alice", "zoltan", "marie-claire"])
    assert guessed["alice"] == "AE L IH S"
    assert guessed["zoltan"].startswith("Z") and len(guessed) == 3


def accepted(start, finals, words, nulls, max_length: int) -> set[tuple[str, ...]]:
    """Every word sequence up to `max_length` words that an automaton with null transitions accepts."""
    automaton = determinise([start], finals, words, nulls)
    arcs = {}
    for source, target, word in automaton.arcs:
        arcs.setdefault(source, []).append((word, target))
    found, frontier = set(), [((), automaton.start)]
    for _ in range(max_length + 1):
        next_frontier = []
        for sequence, state in frontier:
            if state in automaton.accepting:
                found.add(sequence)
            next_frontier += [((*sequence, word), target) for word, target in arcs.get(state, [])]
        frontier = next_frontier
    return found


@settings(max_examples=budget(60))
@given(st.integers(min_value=0, max_value=10 ** 6))
def test_minimised_grammars_accept_exactly_the_same_sentences(seed):
    rng = random.Random(seed)
    states = rng.randint(2, 8)
    words, nulls = {}, {}
    for _ in range(rng.randint(1, 14)):
        source, target = rng.randrange(states), rng.randrange(states)
        if rng.random() < 0.3:
            nulls.setdefault(source, []).append(target)
        else:
            words.setdefault(source, []).append((rng.choice("abc"), target))
    finals = {rng.randrange(states)}
    small = minimise(0, finals, words, nulls)
    small_arcs = {}
    for source, target, word in small.arcs:
        small_arcs.setdefault(source, []).append((word, target))
    assert accepted(0, finals, words, nulls, 5) == accepted(small.start, set(small.accepting), small_arcs, {}, 5)
    assert small.n_states <= max(1, len(determinise([0], finals, words, nulls).arcs) + 1)


@settings(max_examples=budget(40))
@given(st.integers(min_value=0, max_value=10 ** 6), st.integers(min_value=0, max_value=4))
def test_shortened_grammars_keep_exactly_the_short_sentences(seed, max_words):
    rng = random.Random(seed)
    states = rng.randint(2, 6)
    words = {}
    for _ in range(rng.randint(1, 12)):
        words.setdefault(rng.randrange(states), []).append((rng.choice("abc"), rng.randrange(states)))
    finals = {rng.randrange(states)}
    whole = minimise(0, finals, words, {})
    short = shortened(whole, max_words)
    short_arcs = {}
    for source, target, word in short.arcs:
        short_arcs.setdefault(source, []).append((word, target))
    expected = {s for s in accepted(0, finals, words, {}, 6) if len(s) <= max_words}
    assert accepted(short.start, set(short.accepting), short_arcs, {}, 6) == expected
