"""Opening speech parts by name, with fallbacks that say what happened.

`open_speaker`: the system voice in a child process, or printed text. `open_listener`: Vosk, PocketSphinx,
Whisper or typed text, the best available in the configured order, saying which one listens. `open_earcons`: the
short sounds. Every fallback is said once, in the user's language, with the reason.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO

from companion.errors import BadInput
from companion.files import check_regular_file
from companion.language.messages import catalog, check_language
from companion.speech import speechd
from companion.speech.audio import AudioSource, MicrophoneSource, WavFileSource
from companion.speech.base import Listener, Speaker, TextListener, TextSpeaker, Unavailable, is_terminal
from companion.speech.config import LISTENING_ENGINES, SPEAKER_KINDS, SpeechConfig, load_config
from companion.speech.earcons import Earcons
from companion.speech.listener import SpeechListener
from companion.speech.models import RemoteModel, download_vosk_model, find_vosk_model
from companion.speech.recogniser import Recogniser
from companion.speech.tts import TtsSpeaker
from companion.speech.voice import voice_settings


def open_speaker(kind: str = "auto", lang: str = "fr", *, config: SpeechConfig | None = None,
                 out: IO[str] | None = None) -> Speaker:
    """A speaker: "speechd" (speech-dispatcher, with the player's own voice settings), "tts" (the program's
    voice), "text" (printed lines), or "auto" (speech-dispatcher when it runs, else the program's voice, else
    printed lines after saying once why). A voice asked for by name that cannot speak is an error."""
    if kind not in SPEAKER_KINDS:
        raise BadInput(f"unknown speaker '{kind}': choose one of {', '.join(SPEAKER_KINDS)}")
    check_language(lang)
    out = out if out is not None else sys.stdout
    if kind == "text":
        return TextSpeaker(out)
    tried = [kind] if kind != "auto" else ["speechd", "tts"] if speechd.running() else ["tts"]
    for voice in tried:
        try:
            if voice == "speechd":
                return speechd.SpeechdSpeaker(lang, out=out)
            return TtsSpeaker(lang, config if config is not None else load_config(), out=out)
        except Unavailable as problem:
            if kind != "auto":
                raise BadInput(problem.explain(lang)) from None
            reason = problem
    print(catalog(lang).say("speech.tts_unavailable", reason=reason.explain(lang)), file=out, flush=True)
    return TextSpeaker(out)


def open_earcons(enabled: bool = True, *, lang: str = "fr", config: SpeechConfig | None = None,
                 say: Callable[[str], None] = print, speaker: Speaker | None = None) -> Earcons:
    """The earcons, on unless switched off here or in the settings; played in turn with the speech of
    `speaker` when it is the program's own voice, else on a sound queue of their own."""
    config = config if config is not None else load_config()
    return Earcons(enabled and config.earcons, lang=lang, volume=config.volume, say=say,
                   voice=speaker if isinstance(speaker, TtsSpeaker) else None)


def terminal_confirm(lang: str, keys: IO[str] | None = None,
                     say: Callable[[str], None] = print) -> Callable[[RemoteModel], bool]:
    """A question asked on the terminal before a download: typed yes (in the user's language) agrees."""
    keys = keys if keys is not None else sys.stdin
    messages = catalog(lang)

    def confirm(remote: RemoteModel) -> bool:
        say(messages.say("speech.download.ask", language=messages.say(f"speech.languages.{lang}"),
                         name=remote.name, size=remote.size))
        answer = keys.readline().strip().lower()
        return answer in messages.say("speech.answer_yes").split()

    return confirm


def _file_sources(paths: Sequence[Path]) -> Iterator[AudioSource]:
    for path in paths:  # FileRefused, said in the user's language: missing, a folder, a device, a pipe
        check_regular_file(Path(path))
    return (WavFileSource(Path(p), lead_in=True) for p in paths)  # recordings a player or a script gives


def _recogniser(engine: str, lang: str, game: str, model: Path | None, config: SpeechConfig,
                confirm_download: Callable[[RemoteModel], bool] | None,
                say: Callable[[str], None]) -> Recogniser:
    if engine == "sphinx":
        from companion.speech.sphinx import SphinxRecogniser

        return SphinxRecogniser(lang, game, model=model)
    if engine == "whisper":
        from companion.speech.whisper import WhisperRecogniser

        return WhisperRecogniser(lang, game, model=model, say=say)
    from companion.speech.vosk_engine import VoskRecogniser

    path = find_vosk_model(lang, model, config)
    if path is None:
        if confirm_download is None:
            raise Unavailable("no_vosk_model", lang=lang)
        path = download_vosk_model(lang, confirm=confirm_download, say=say)
        say(catalog(lang).say("speech.download.done", name=path.name, path=str(path)))
    return VoskRecogniser(lang, game, path)


def open_listener(engine: str = "auto", lang: str = "fr", game: str = "draftosaurus", *,
                  player_names: Sequence[str] = (), model: Path | None = None,
                  audio_files: Sequence[Path] | None = None, speaker: Speaker | None = None,
                  push_to_talk: bool = False, barge_in: bool = False, order: Sequence[str] | None = None,
                  say: Callable[[str], None] = print, config: SpeechConfig | None = None,
                  confirm_download: Callable[[RemoteModel], bool] | None = None,
                  keys: IO[str] | None = None) -> Listener:
    """A listener: "vosk", "sphinx", "whisper", "text", or "auto" (the first that works in `order`, by default
    the settings' order: vosk, whisper, sphinx, text; in "auto", PocketSphinx only in a language it has a model
    of). Says which one listens, and why others were skipped.

    With `audio_files`, each file is one utterance; else the microphone. Without `confirm_download`, a
    missing Vosk model is offered for download only when the keyboard is a terminal.
    """
    check_language(lang)
    config = config if config is not None else load_config()
    keys = keys if keys is not None else sys.stdin
    explicit = engine != "auto"
    candidates = _candidates(engine, order or config.engines, audio_files)
    if not explicit and not voice_settings(lang).sphinx_model:
        candidates = [name for name in candidates if name != "sphinx"]  # it could only say it has no model
    if confirm_download is None and audio_files is None and is_terminal(keys):
        confirm_download = terminal_confirm(lang, keys, say)
    messages = catalog(lang)

    def skip(message: str) -> None:
        """An explicitly chosen engine that cannot work is an error; in "auto", the next one is tried."""
        if explicit:
            raise BadInput(message)
        say(message)

    speech_engines = list(itertools.takewhile(lambda name: name != "text", candidates))
    microphone = None
    if speech_engines and audio_files is None:
        try:
            microphone = MicrophoneSource()
        except Unavailable as problem:
            skip(messages.say("speech.microphone_unusable", reason=problem.explain(lang)))
            speech_engines = []
    for name in speech_engines:
        try:
            recogniser = _recogniser(name, lang, game, model if explicit or name == "vosk" else None, config,
                                     confirm_download, say)
        except Unavailable as problem:
            skip(messages.say("speech.engine_skipped", engine=name, reason=problem.explain(lang)))
            continue
        say(messages.say(f"speech.listening_with.{name}", model=recogniser.describe(),
                         language=messages.say(f"speech.languages.{lang}")))
        if audio_files is not None:
            sources = _file_sources(audio_files)
        else:
            assert microphone is not None  # it opened: had it failed, no speech engine would be left to try
            sources = itertools.repeat(microphone)
        return SpeechListener(recogniser, sources, lang=lang, player_names=player_names, speaker=speaker,
                              guard_s=config.guard_ms / 1000, push_to_talk=push_to_talk or config.push_to_talk,
                              barge_in=barge_in or config.barge_in, keys=keys, say=say)
    if audio_files is not None:
        raise BadInput(messages.say("speech.no_engine_for_files"))
    say(messages.say("speech.listening_with.text"))
    return TextListener(keys, speaker)


def _candidates(engine: str, order: Sequence[str], audio_files: Sequence[Path] | None) -> list[str]:
    """The engines to try, in order; audio files need a speech engine (and must exist)."""
    candidates = list(order) if engine == "auto" else [engine]
    unknown = [name for name in candidates if name not in LISTENING_ENGINES]
    if unknown:
        raise BadInput(f"unknown listening engine '{unknown[0]}': choose one of auto, {', '.join(LISTENING_ENGINES)}")
    if audio_files is None:
        return candidates
    _file_sources(audio_files)
    if candidates == ["text"]:
        raise BadInput("audio files need a speech engine (vosk, sphinx or whisper), not text")
    return [name for name in candidates if name != "text"]
