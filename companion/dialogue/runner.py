"""Running a game at the table: open speech in and out, start or resume, and stop cleanly.

Whatever ends the game loop (the game is over, a player says quit, the input ends, Ctrl-C), every
accepted move is already on disk; the runner says where and how to go on, and closes the audio.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.dialogue.recent import remember
from companion.dialogue.savefile import HeldSave, SaveFileError, SaveWriteError, default_save_path, hold_save
from companion.dialogue.session import EndOfInput, QuitRequested, Session
from companion.dialogue.turn import Table
from companion.errors import (
    EXIT_BAD_INPUT,
    EXIT_CANNOT_WRITE,
    EXIT_INTERRUPTED,
    EXIT_OK,
    BadInput,
    OutputLost,
    Stopped,
)
from companion.paths import typed_path
from companion.speech.base import TextListener, TextSpeaker
from companion.speech.config import SPEAKER_KINDS
from companion.terminal_text import clean

# What a game is played with when neither the command line nor its save says otherwise.
SESSION_DEFAULTS = {"lang": "fr", "engine": "auto", "verbosity": "full"}


def add_speech_options(parser: argparse.ArgumentParser, *, saved: bool = False) -> None:
    """The options every command that talks with the table shares. With `saved`, the language, engine and
    verbosity left out are those the game was played with (see session_settings)."""
    def default(name: str) -> str | None:
        return None if saved else SESSION_DEFAULTS[name]

    kept = " (default: as the game was played)" if saved else ""
    parser.add_argument("--lang", default=default("lang"), choices=("fr", "en", "es"),
                        help=f"language{kept or ' (default fr)'}")
    parser.add_argument("--engine", default=default("engine"), choices=("auto", "vosk", "sphinx", "whisper", "text"),
                        help=f"how to listen: best available (default), vosk, sphinx, whisper or typed text{kept}")
    parser.add_argument("--model", type=Path, help="folder of a Vosk model (or, with --engine whisper or sphinx, "
                                                   "of that engine's model)")
    parser.add_argument("--audio", type=Path, nargs="+", metavar="WAV",
                        help="WAV files to hear instead of the microphone, one utterance each")
    parser.add_argument("--push-to-talk", action="store_true", help="listen only while a key is held")
    parser.add_argument("--barge-in", action="store_true",
                        help="listen while the program speaks: speaking cuts it off (with headphones only: through a "
                             "loudspeaker the microphone would hear the program itself)")
    parser.add_argument("--voice", choices=SPEAKER_KINDS,
                        help="how to speak: auto (speech-dispatcher when it runs, else the program's own voice; "
                             "the default), speechd, tts (the program's own voice) or text (print only; the "
                             "default with --engine text)")
    parser.add_argument("--quiet", action="store_true", help="print only, do not speak (as --voice text)")
    parser.add_argument("--no-earcons", action="store_true", help="no short sounds")
    parser.add_argument("--verbosity", default=default("verbosity"), choices=("short", "full"),
                        help=f"message length{kept}")


def session_settings(args: argparse.Namespace, saved: dict[str, Any] | None = None) -> argparse.Namespace:
    """`args` with the language, engine and verbosity it leaves out taken from `saved` (a save's session),
    else from the defaults."""
    saved = saved if isinstance(saved, dict) else {}
    for name, default in SESSION_DEFAULTS.items():
        if getattr(args, name, None) is None:
            value = saved.get(name)
            setattr(args, name, value if isinstance(value, str) else default)
    if args.lang not in ("fr", "en", "es"):
        args.lang = SESSION_DEFAULTS["lang"]
    return args


def refuse_save(args: argparse.Namespace, error: SaveFileError) -> BadInput:
    """The error to raise for an unusable save file, said aloud first when a voice is available."""
    lang = args.lang or SESSION_DEFAULTS["lang"]
    message = error.explain(lang)
    voice = speaker_kind(args)
    if voice != "text":
        from companion.speech.engines import open_speaker

        try:
            speaker = open_speaker(voice, lang, out=io.StringIO())
        except BadInput:  # the voice asked for cannot speak: the refusal is printed all the same
            return BadInput(message)
        speaker.say(message)
        speaker.wait()
        speaker.close()
    return BadInput(message)


def held_save(args: argparse.Namespace, path: Path) -> HeldSave:
    """The save at `path` held for this game (savefile.hold_save), or the refusal to raise, said aloud, when
    another game holds it."""
    try:
        return hold_save(path)
    except SaveFileError as error:
        raise refuse_save(args, error) from None


def open_session(args: argparse.Namespace, game: str) -> Session:
    """Speech out and in as the options ask, with the fallbacks the speech layer chooses and announces.

    Text mode needs nothing of the audio stack, so it works even where the sound libraries are missing."""
    voice = speaker_kind(args)
    if args.engine == "text" and voice == "text" and not args.audio:
        return Session(game=game, lang=args.lang, speaker=TextSpeaker(), listener=TextListener(),
                       verbosity=args.verbosity, engine=args.engine)
    from companion.speech.engines import open_earcons, open_listener, open_speaker
    from companion.speech.listener import SpeechListener

    speaker = open_speaker(voice, args.lang)
    listener = open_listener(args.engine, args.lang, game, model=args.model, audio_files=args.audio,
                             speaker=speaker, push_to_talk=args.push_to_talk, barge_in=args.barge_in,
                             say=speaker.say)
    earcons = open_earcons(not args.no_earcons, lang=args.lang, say=speaker.say,
                           speaker=speaker)
    if isinstance(listener, SpeechListener) and listener.recogniser.decodes_after_speech:
        listener.speech_ended = lambda: earcons.play("heard")  # the wait for Whisper is not silence
    return Session(game=game, lang=args.lang, speaker=speaker, listener=listener, earcons=earcons,
                   verbosity=args.verbosity, engine=args.engine)


def speaker_kind(args: argparse.Namespace) -> str:
    """The speaker the options ask for: --quiet prints only, --engine text prints only unless --voice says
    otherwise (a screen reader reads what is printed), else --voice or auto."""
    if getattr(args, "quiet", False):
        return "text"
    voice = getattr(args, "voice", None)
    return voice or ("text" if args.engine == "text" else "auto")


def resume_command(game: str, save_path: Path) -> str:
    """What to type to go on: the game's name for its usual save, else the file."""
    return f"companion resume {game if Path(save_path) == default_save_path(game) else typed_path(save_path)}"


def run_table(session: Session, make_table: Callable[[], Table[Any, Any]], resumed: bool) -> int:
    """Play until the end; every way out leaves the game saved and says where and how to go on."""
    table: Table[Any, Any] | None = None
    try:
        table = make_table()
        remember(table.save_path)
        table.announce_start(resumed)
        table.run()
        _say_where(session, table, "session.saved_and_stopped", "session.stopped_before_save")
        return EXIT_OK
    except BadInput as error:  # a file refused (a save, a table's own board file...), a save not written
        explain = getattr(error, "explain", None)  # FileRefused, SaveWriteError, Said
        message = explain(session.lang) if explain is not None else str(error)
        session.say_text(message)
        print(f"companion: {clean(message)}", file=sys.stderr)
        return EXIT_CANNOT_WRITE if isinstance(error, SaveWriteError) else EXIT_BAD_INPUT
    except (EndOfInput, QuitRequested):
        _say_where(session, table, "session.saved_and_stopped", "session.stopped_before_save")
        return EXIT_OK
    except OutputLost as lost:  # nothing more can be printed: one line on standard error, where the game is
        _complain(" ".join((lost.explain(session.lang), _where(session, table, "session.saved_and_stopped",
                                                                "session.stopped_before_save"))))
        return EXIT_CANNOT_WRITE
    except KeyboardInterrupt as stop:  # Ctrl-C, or SIGTERM and SIGHUP (errors.Stopped)
        session.speaker.stop()  # the player wants out now: only where the game is saved is still said
        _say_where(session, table, "session.interrupted", "session.interrupted_before_save")
        return stop.exit_code if isinstance(stop, Stopped) else EXIT_INTERRUPTED
    finally:
        session.speaker.wait()
        for part in (session.listener, session.speaker):
            try:
                part.close()
            except Exception:  # noqa: BLE001 - closing audio must never hide how the game ended
                print(f"companion: {part.name} did not close cleanly", file=sys.stderr)


def _say_where(session: Session, table: Table[Any, Any] | None, saved_key: str, unsaved_key: str) -> None:
    session.say_text(_where(session, table, saved_key, unsaved_key))


def _where(session: Session, table: Table[Any, Any] | None, saved_key: str, unsaved_key: str) -> str:
    """Where the game is saved and how to go on (`saved_key`), or that nothing is (`unsaved_key`)."""
    if table is None:
        return session.text(unsaved_key)
    if table.finished():
        return session.text("session.finished_saved", path=str(table.save_path))
    return session.text(saved_key, path=str(table.save_path), command=resume_command(session.game, table.save_path))


def _complain(message: str) -> None:
    with contextlib.suppress(OSError):
        print(f"companion: {clean(message)}", file=sys.stderr, flush=True)
