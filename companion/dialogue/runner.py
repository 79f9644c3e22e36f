"""Running a game at the table: open speech in and out, start or resume, and stop cleanly.

Whatever ends the game loop (the game is over, a player says quit, the input ends, Ctrl-C), every
accepted move is already on disk; the runner says where, and closes the audio.
"""

from __future__ import annotations

import argparse
import io
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from companion.dialogue.savefile import SaveFileError, SaveWriteError
from companion.dialogue.session import EndOfInput, QuitRequested, Session
from companion.dialogue.table import Table
from companion.errors import EXIT_BAD_INPUT, EXIT_CANNOT_WRITE, EXIT_OK, BadInput, Stopped
from companion.files import FileRefused
from companion.speech.base import TextListener, TextSpeaker
from companion.text import clean

EXIT_INTERRUPTED = 130


@dataclass
class GameDialogue:
    """How to run one game: start a new table from options, or rebuild one from a save."""

    name: str
    new_table: Callable[[Session, argparse.Namespace, Path], Table]
    resume_table: Callable[[Session, dict[str, Any], Path], Table]


def add_speech_options(parser: argparse.ArgumentParser) -> None:
    """The options every command that talks with the table shares."""
    parser.add_argument("--lang", default="fr", choices=("fr", "en", "es"), help="language (default fr)")
    parser.add_argument("--engine", default="auto", choices=("auto", "vosk", "sphinx", "text"),
                        help="how to listen: best available (default), vosk, sphinx or typed text")
    parser.add_argument("--model", type=Path, help="folder of a Vosk model")
    parser.add_argument("--audio", type=Path, nargs="+", metavar="WAV",
                        help="WAV files to hear instead of the microphone, one utterance each")
    parser.add_argument("--push-to-talk", action="store_true", help="listen only while a key is held")
    parser.add_argument("--quiet", action="store_true", help="print only, do not speak")
    parser.add_argument("--no-earcons", action="store_true", help="no short sounds")
    parser.add_argument("--verbosity", default="full", choices=("short", "full"), help="message length")


def refuse_save(args: argparse.Namespace, error: SaveFileError) -> BadInput:
    """The error to raise for an unusable save file, said aloud first when a voice is available."""
    message = error.explain(args.lang)
    if not (args.quiet or args.engine == "text"):
        from companion.speech.engines import open_speaker

        speaker = open_speaker("auto", args.lang, out=io.StringIO())
        speaker.say(message)
        speaker.wait()
        speaker.close()
    return BadInput(message)


def open_session(args: argparse.Namespace, game: str) -> Session:
    """Speech out and in as the options ask, with the fallbacks the speech layer chooses and announces.

    Text mode needs nothing of the audio stack, so it works even where the sound libraries are missing."""
    if args.engine == "text" and not args.audio:
        return Session(game=game, lang=args.lang, speaker=TextSpeaker(), listener=TextListener(),
                       verbosity=args.verbosity)
    from companion.speech.engines import open_earcons, open_listener, open_speaker

    speaker = open_speaker("text" if args.quiet or args.engine == "text" else "auto", args.lang)
    listener = open_listener(args.engine, args.lang, game, model=args.model, audio_files=args.audio,
                             speaker=speaker, push_to_talk=args.push_to_talk, say=speaker.say)
    earcons = open_earcons(not args.no_earcons, lang=args.lang, say=speaker.say)
    return Session(game=game, lang=args.lang, speaker=speaker, listener=listener, earcons=earcons,
                   verbosity=args.verbosity)


def run_table(session: Session, make_table: Callable[[], Table], resumed: bool) -> int:
    """Play until the end; every way out leaves the game saved and says where."""
    table: Table | None = None
    try:
        table = make_table()
        table.announce_start(resumed)
        table.run()
        return EXIT_OK
    except (FileRefused, SaveWriteError) as error:  # a file given to start the game, or a save not written
        message = error.explain(session.lang)
        session.say_text(message)
        print(f"companion: {clean(message)}", file=sys.stderr)
        return EXIT_CANNOT_WRITE if isinstance(error, SaveWriteError) else EXIT_BAD_INPUT
    except (EndOfInput, QuitRequested):
        if table is not None:
            session.say("session.saved_and_stopped", path=str(table.save_path))
        return EXIT_OK
    except KeyboardInterrupt as stop:  # Ctrl-C, or SIGTERM and SIGHUP (errors.Stopped)
        session.say("session.interrupted" if table is not None else "files.interrupted",
                    path=str(table.save_path) if table is not None else "")
        return stop.exit_code if isinstance(stop, Stopped) else EXIT_INTERRUPTED
    finally:
        session.speaker.wait()
        for part in (session.listener, session.speaker):
            try:
                part.close()
            except Exception:  # noqa: BLE001 - closing audio must never hide how the game ended
                print(f"companion: {part.name} did not close cleanly", file=sys.stderr)
