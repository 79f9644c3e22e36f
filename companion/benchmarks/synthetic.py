"""Spoken commands made by machine, to measure and test listening without a microphone.

Sentences are drawn at random from the game's own recognition grammar (so they are exactly what players
may say), then spoken with several voices and speeds, with pauses around them and, for some, background
noise. Two synthesisers speak: espeak-ng, whose voices are made by rule (formant synthesis), and flite, whose
voices are built from recordings of real speakers and sound closer to a person at the table.
"""

from __future__ import annotations

import random
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from companion.benchmarks.rooms import coloured_noise, mix
from companion.language.grammar import parse
from companion.language.recognition_grammar import WILDCARD, Choice, Ref, state_grammar
from companion.speech.audio import read_wav, write_wav
from companion.speech.pronounce import espeak_path

# espeak-ng voices (language+variant) that sound different from one another.
ENGLISH_VOICES: tuple[str, ...] = ("en-us", "en-us+m3", "en-us+f2", "en-us+m7", "en-us+f4", "en-us+m1")
ESPEAK_VOICES: dict[str, tuple[str, ...]] = {"en": ENGLISH_VOICES, "fr": ("fr", "fr+m3", "fr+f2", "fr+m7"),
                                             "es": ("es", "es+m3", "es+f2", "es+m7")}
# espeak-ng voices that no listening setting is chosen on (companion bench listen reports them apart). English
# holds out a whole synthesiser, flite; no other synthesiser speaks French or Spanish here, so those languages
# hold out espeak-ng's regional voices (Belgian and Swiss French, Latin American Spanish) with other variants.
HELD_OUT_ESPEAK_VOICES: dict[str, tuple[str, ...]] = {
    "en": (), "fr": ("fr-be+m2", "fr-ch+f3", "fr-be+f5", "fr-ch+m6"),
    "es": ("es-419+m2", "es-419+f3", "es-419+f5", "es-419+m6")}
# flite's 16 kHz English voices (it speaks English only): US male (diphones), Scottish male, US male, US female.
FLITE_VOICES: tuple[str, ...] = ("kal16", "awb", "rms", "slt")
# Debian's mbrola voices (diphones of recorded speakers, said through espeak-ng's phonemes), far closer to a
# person than espeak-ng alone; installed for the tests only (tests/install_voices.sh). One voice of French and of
# Spanish is held out (HELD_OUT_MBROLA_VOICES): no setting is chosen on it.
MBROLA_VOICES: dict[str, tuple[str, ...]] = {"fr": ("fr1", "fr4"), "es": ("es1", "es2"), "en": ("us1",)}
HELD_OUT_MBROLA_VOICES = frozenset({"fr4", "es2"})
MBROLA_FOLDER = Path("/usr/share/mbrola")
# espeak-ng 1.51 names Spanish vowels "e/", "o/"... and the trill "R2", which the Spanish mbrola voices lack (mbrola
# then leaves the sound out): they are renamed to the voices' own phonemes. The trill of "río" or "perro" (R2) it
# even drops before mbrola sees it ("río" said "ío"): its phonemes are read back as espeak-ng's own mnemonics, with
# the trill that it does pass on (R) in their place, and said from those.
MBROLA_RENAMED = {"es": {"a/": "a", "e/": "e", "i/": "i", "o/": "o", "u/": "u", "R2": "r", "aU": "a"}}
MBROLA_MNEMONICS = {"es": {"R2": "R"}}
SYNTHESISERS = ("espeak-ng", "flite", "mbrola")
DEFAULT_SYNTHESISERS = ("espeak-ng", "flite")  # what `bench listen` and the tests speak with unless told
SPEEDS: tuple[int, ...] = (135, 150, 165, 180)  # words per minute
FLITE_WORDS_PER_MINUTE = 160  # flite's own pace, about; other speeds stretch its sounds


@dataclass(frozen=True)
class SyntheticVoice:
    """A synthesiser and one of its voices."""

    synthesiser: str
    name: str

    def __str__(self) -> str:
        return f"{self.synthesiser}:{self.name}"


def synthetic_voices(lang: str = "en",
                     synthesisers: Sequence[str] = DEFAULT_SYNTHESISERS) -> tuple[SyntheticVoice, ...]:
    """The voices of the wanted synthesisers that speak `lang` and are installed here."""
    voices = {"espeak-ng": ESPEAK_VOICES[lang] + HELD_OUT_ESPEAK_VOICES[lang],
              "flite": FLITE_VOICES if lang == "en" else (),
              "mbrola": tuple(v for v in MBROLA_VOICES.get(lang, ()) if _mbrola_database(v).is_file())}
    return tuple(SyntheticVoice(name, voice) for name in synthesisers if synthesiser_program(name)
                 for voice in voices[name])


def held_out(voice: SyntheticVoice) -> bool:
    """Whether no listening setting was chosen on this voice (see HELD_OUT_ESPEAK_VOICES, HELD_OUT_MBROLA_VOICES)."""
    if voice.synthesiser == "mbrola":
        return voice.name in HELD_OUT_MBROLA_VOICES
    return voice.synthesiser == "flite" or any(voice.name in v for v in HELD_OUT_ESPEAK_VOICES.values())


def _mbrola_database(voice: str) -> Path:
    return MBROLA_FOLDER / voice / voice


@dataclass(frozen=True)
class Command:
    """A sentence said in a dialogue state, and what it means."""

    state: str
    text: str
    intent: str
    slots: dict[str, Any]


def _sample(parts: Sequence[object], named: dict[str, Choice], rng: random.Random,
            optional_rate: float) -> list[str] | None:
    words: list[str] = []
    for part in parts:
        if isinstance(part, str):
            words.append(part)
            continue
        if part == WILDCARD:
            return None
        if isinstance(part, Ref):
            part = named[part.name]
        assert isinstance(part, Choice)
        if not part.options or (part.optional and rng.random() >= optional_rate):
            continue
        chosen = _sample(rng.choice(part.options), named, rng, optional_rate)
        if chosen is None:
            return None
        words.extend(chosen)
    return words


def sample_commands(game: str, lang: str, wanted: Sequence[tuple[str, str]], count: int,
                    rng: random.Random, player_names: Sequence[str] = (),
                    optional_rate: float = 0.3) -> list[Command]:
    """`count` sentences for the (state, intent) pairs in `wanted`, taken in turn, each checked with the
    parser (a sentence the parser reads otherwise is drawn again)."""
    commands: list[Command] = []
    attempts = 0
    while len(commands) < count:
        attempts += 1
        if attempts > 50 * count:
            raise ValueError(f"the grammar yields too few sentences for {wanted}")
        state, intent = wanted[len(commands) % len(wanted)]
        grammar = state_grammar(game, lang, state, tuple(player_names))
        templates = dict(grammar.intents).get(intent)
        if not templates:
            raise ValueError(f"no intent '{intent}' in state '{state}'")
        words = _sample(rng.choice(templates), grammar.named, rng, optional_rate)
        if not words:
            continue
        text = " ".join(words)
        meaning = parse(text, game=game, lang=lang, state=state, player_names=player_names)
        if meaning.intent == intent:
            commands.append(Command(state, text, intent, dict(meaning.slots)))
    return commands


def synthesiser_program(synthesiser: str = "espeak-ng") -> str | None:
    """The program of a synthesiser, or None when it is not installed (mbrola needs espeak-ng too)."""
    if synthesiser == "mbrola":
        return shutil.which("mbrola") if espeak_path() else None
    return shutil.which("flite") if synthesiser == "flite" else espeak_path()


def _installed(synthesiser: str) -> str:
    program = synthesiser_program(synthesiser)
    if program is None:
        raise FileNotFoundError(f"{synthesiser} is not installed")
    return program


def _synthesis_command(text: str, path: Path, voice: str | SyntheticVoice, speed: int) -> list[str]:
    if isinstance(voice, SyntheticVoice) and voice.synthesiser == "flite":
        stretch = FLITE_WORDS_PER_MINUTE / speed
        return [_installed("flite"), "-voice", voice.name, "--setf", f"duration_stretch={stretch:.3f}", "-t",
                text, "-o", str(path)]
    name = voice.name if isinstance(voice, SyntheticVoice) else voice
    return [_installed("espeak-ng"), "-v", name, "-s", str(speed), "-w", str(path), text]


def _mbrola(text: str, path: Path, voice: str, speed: int) -> None:
    """`text` said by an mbrola voice: espeak-ng's phonemes and timing (its mb- voice), renamed where the voice
    names a phoneme otherwise (MBROLA_RENAMED), then mbrola's diphones."""
    lang = next(code for code, names in MBROLA_VOICES.items() if voice in names)
    espeak = [_installed("espeak-ng"), "-v", f"mb-{voice}", "-s", str(speed), "-q"]
    if lang in MBROLA_MNEMONICS:
        mnemonics = subprocess.run([*espeak, "-x", text], check=True, capture_output=True, text=True,
                                   timeout=60).stdout
        for name, replacement in MBROLA_MNEMONICS[lang].items():
            mnemonics = mnemonics.replace(name, replacement)
        text = f"[[{' '.join(mnemonics.split())}]]"
    phonemes = subprocess.run([*espeak, "--pho", text], check=True, capture_output=True, text=True,
                              timeout=60).stdout
    renamed = MBROLA_RENAMED.get(lang, {})
    lines = []
    for line in phonemes.splitlines():
        name, _, rest = line.partition("\t")
        lines.append(f"{renamed.get(name, name)}\t{rest}" if rest else line)
    subprocess.run([_installed("mbrola"), "-e", str(_mbrola_database(voice)), "-", str(path)],
                   input="\n".join(lines) + "\n", check=True, capture_output=True, text=True, timeout=60)


def speak_to_wav(text: str, path: Path, *, voice: str | SyntheticVoice = "en-us", speed: int = 160,
                 pause_s: float = 0.4, noise_snr_db: float | None = None, seed: int = 0) -> Path:
    """`text` spoken into a WAV file (by espeak-ng, or by the synthesiser of a SyntheticVoice), with
    `pause_s` of quiet around it and, if `noise_snr_db` is given, room-like (pink) noise that much quieter
    than the speech."""
    if isinstance(voice, SyntheticVoice) and voice.synthesiser == "mbrola":
        _mbrola(text, path, voice.name, speed)
    else:
        subprocess.run(_synthesis_command(text, path, voice, speed), check=True, capture_output=True, timeout=60)
    samples, rate = read_wav(path)
    pause = np.zeros(int(pause_s * rate), dtype=np.float32)
    samples = np.concatenate([pause, samples, pause])
    if noise_snr_db is not None:
        samples = mix(samples, coloured_noise(len(samples), 1.0, seed), noise_snr_db)  # pink: a room's hum
    return write_wav(path, samples, rate)
