"""`companion audio check`: the player's first minute at the table. Says a sentence (is the speaker heard?),
then, if there is a microphone, asks the player to say yes, and reports in words how loud the voice came in
against the room's noise, whether the recogniser understood it, and what to change. Works without a sound card
(says so) and without a recogniser for the language (says so, and still measures the microphone)."""

from __future__ import annotations

import argparse
import io
import math
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from companion.dialogue.session import understand
from companion.language.grammar import CONFIRM_STATE
from companion.language.messages import DEFAULT_LANGUAGE, LANGUAGES, catalog, check_language
from companion.speech.audio import AudioSource, default_device
from companion.speech.base import Speaker, Unavailable

# Levels of the voice heard (RMS of its frames, dB below full scale) and of the room (its quietest moments).
TOO_QUIET_DB = -42.0  # a voice this faint is lost in a real room's noise
CLIPPED_DB = -1.0     # a peak this loud has been cut by the microphone's gain
NOISY_MARGIN_DB = 15.0  # a voice less than this above the room's noise is often misheard
SILENT_DB = -90.0     # nothing louder than this: digital silence, a microphone switched off or muted
LISTEN_S = 8.0        # how long the player has to say the word
GAME = "draftosaurus"  # whose grammar hears the yes (every game understands it the same way)


def configure(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=type(parser))
    check = actions.add_parser("check", help="say a sentence, listen to the microphone, and say what to change",
                               description=__doc__)
    check.add_argument("--lang", default=DEFAULT_LANGUAGE, choices=LANGUAGES,
                       help=f"language (default {DEFAULT_LANGUAGE})")
    check.add_argument("--engine", default="auto", choices=("auto", "vosk", "sphinx", "whisper"),
                       help="recogniser to try (default: the best available, as a game chooses)")
    check.add_argument("--voice", default="auto", choices=("auto", "speechd", "tts"),
                       help="how to speak (default: as a game chooses)")


@dataclass
class _Meter(AudioSource):
    """A source that keeps the loudness of every chunk it hands on, and ends after `seconds`."""

    inner: AudioSource
    seconds: float
    levels: list[float] = field(default_factory=list)
    peaks: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.native_rate = self.inner.native_rate

    def chunks(self) -> Iterator[np.ndarray]:
        deadline = time.monotonic() + self.seconds
        for chunk in self.inner.chunks():
            if len(chunk):
                self.levels.append(_db(float(np.sqrt(np.mean(chunk * chunk)))))
                self.peaks.append(_db(float(np.max(np.abs(chunk)))))
            yield chunk
            if time.monotonic() > deadline:
                return


def _db(amplitude: float) -> float:
    return 20 * math.log10(max(amplitude, 1e-6))


def run(args: argparse.Namespace) -> int:
    lang = check_language(args.lang)
    messages = catalog(lang)
    speaker, said = _speaker(args.voice, lang)
    try:
        speaker.say(messages.say("audio.start"))
        speaker.say(said)
        _listen(args.engine, lang, speaker)
        speaker.say(messages.say("audio.done"))
        speaker.wait()
    finally:
        speaker.close()
    return 0


def _speaker(voice: str, lang: str) -> tuple[Speaker, str]:
    """The voice a game would use, and what to say of it; without any output device, printed lines and why."""
    from companion.speech.base import TextSpeaker
    from companion.speech.engines import open_speaker

    messages = catalog(lang)
    try:
        default_device("output")
    except Unavailable as problem:
        return TextSpeaker(), messages.say("audio.no_output", reason=problem.explain(lang))
    speaker = open_speaker(voice, lang)
    key = {"speechd": "audio.output_speechd", "tts": "audio.output_voice"}.get(speaker.name, "audio.output_text")
    return speaker, messages.say(key)


def _listen(engine: str, lang: str, speaker: Speaker) -> None:
    """Ask for a yes, measure it, recognise it, and say what was found."""
    from companion.speech.audio import MicrophoneSource
    from companion.speech.endpoint import Endpointer
    from companion.speech.engines import open_listener
    from companion.speech.listener import SpeechListener

    messages = catalog(lang)
    try:
        default_device("input")
    except Unavailable as problem:
        speaker.say(messages.say("audio.no_microphone", reason=problem.explain(lang)))
        return
    listener = open_listener(engine, lang, GAME, speaker=speaker, say=speaker.say, keys=io.StringIO())
    word = messages.say("speech.answer_yes").split()[0]
    if not isinstance(listener, SpeechListener):  # no recogniser for this language here
        speaker.say(messages.say("audio.no_recogniser", language=messages.say(f"speech.languages.{lang}")))
    microphone = next(listener.sources) if isinstance(listener, SpeechListener) else MicrophoneSource()
    if isinstance(microphone, MicrophoneSource):  # listening from now on, deaf to the program's own voice
        microphone.muted = listener.muted if isinstance(listener, SpeechListener) else speaker.is_speaking
        microphone.open()
    speaker.say(messages.say("audio.say_yes", word=word, seconds=round(LISTEN_S)))
    speaker.wait()  # the microphone hears the player, not this question
    meter = _Meter(microphone, LISTEN_S)
    try:
        if isinstance(listener, SpeechListener):
            listener.recogniser.use_grammar(CONFIRM_STATE, ())
            heard = listener.hear(meter)
        else:
            for _frame in Endpointer().speech(meter.frames()):
                pass
            heard = None
    finally:
        microphone.close()
    if not _report_level(meter, speaker, lang) or heard is None:
        return  # no voice came in: what to change is said already
    if not heard.text.strip():
        speaker.say(messages.say("audio.not_understood"))
        return
    meaning = understand(heard, game=GAME, lang=lang, state=CONFIRM_STATE)
    key = "audio.understood" if meaning.intent == "yes" else "audio.misunderstood"
    speaker.say(messages.say(key, heard=heard.text, word=word))


def _report_level(meter: _Meter, speaker: Speaker, lang: str) -> bool:
    """The voice's level against the room's, in words, and what to change; whether a voice came in at all."""
    messages = catalog(lang)
    if not meter.levels or max(meter.levels) < SILENT_DB:
        speaker.say(messages.say("audio.microphone_silent"))
        return False
    levels = np.array(meter.levels)
    room = float(np.percentile(levels, 10))
    loud = levels[levels > room + 6.0]
    if not len(loud):
        speaker.say(messages.say("audio.nothing_heard", room=_spoken_db(room)))
        return False
    voice = float(np.median(loud))
    speaker.say(messages.say("audio.level", voice=_spoken_db(voice), room=_spoken_db(room)))
    if max(meter.peaks) >= CLIPPED_DB:
        speaker.say(messages.say("audio.too_loud"))
    elif voice < TOO_QUIET_DB:
        speaker.say(messages.say("audio.too_quiet"))
    elif voice - room < NOISY_MARGIN_DB:
        speaker.say(messages.say("audio.noisy"))
    else:
        speaker.say(messages.say("audio.level_good"))
    return True


def _spoken_db(level: float) -> int:
    """A level as a whole number of decibels below full scale (a positive number, said as such)."""
    return max(0, round(-level))
