"""`companion say`: speak a sentence with the program's voice, or write it to a WAV file."""

from __future__ import annotations

import argparse
import io
import os
import stat
import sys
from pathlib import Path

from companion.errors import EXIT_CANNOT_WRITE, EXIT_INTERNAL, EXIT_OK, Said
from companion.files import FileRefused, kind_key
from companion.language.messages import DEFAULT_LANGUAGE, LANGUAGES, catalog
from companion.settings import settings_path
from companion.speech.base import Unavailable
from companion.speech.config import RATE_RANGE, VOLUME_RANGE, SpeechConfig, load_config, save_config
from companion.speech.engines import open_speaker
from companion.speech.tts import TtsSpeaker
from companion.terminal_text import clean, shown


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("text", nargs="+", metavar="TEXT", help="what to say")
    parser.add_argument("--lang", default=DEFAULT_LANGUAGE, choices=LANGUAGES, help="language of the voice")
    parser.add_argument("--out", type=Path, metavar="FILE.wav", help="write the speech to this WAV file")
    parser.add_argument("--rate", type=float, metavar="FACTOR",
                        help=f"speed, 1 = normal ({RATE_RANGE[0]} to {RATE_RANGE[1]})")
    parser.add_argument("--volume", type=float, help=f"volume ({VOLUME_RANGE[0]} to {VOLUME_RANGE[1]})")
    parser.add_argument("--remember", action="store_true", help="keep --rate and --volume for next times")


def _settings(args: argparse.Namespace) -> SpeechConfig:
    config = load_config()
    for name, bounds in (("rate", RATE_RANGE), ("volume", VOLUME_RANGE)):
        value = getattr(args, name)
        if value is not None:
            if not bounds[0] <= value <= bounds[1]:
                raise Said("commands.say.bad_range", option=f"--{name}", value=value, least=bounds[0],
                           most=bounds[1])
            setattr(config, name, value)
    return config


def run(args: argparse.Namespace) -> int:
    text = clean(shown(" ".join(args.text))).strip()  # bytes that are not UTF-8, escapes: never sent to a voice
    if not text:
        raise Said("commands.say.empty")
    config = _settings(args)
    if args.out is not None:
        _check_out(args.out)
    remembered = not args.remember or _remember(config, args.lang)
    if args.out is not None:
        code = _write(text, args, config)
    else:
        speaker = open_speaker("auto", args.lang, config=config)
        try:
            speaker.say(text)
            speaker.wait()
        finally:
            speaker.close()
        code = EXIT_OK
    return EXIT_CANNOT_WRITE if code == EXIT_OK and not remembered else code


def _remember(config: SpeechConfig, lang: str) -> bool:
    """Keep the voice settings for next times; say so when the settings file takes nothing (False)."""
    if save_config(config) is not None:
        return True
    print(f"companion: {catalog(lang).say('commands.say.not_remembered', path=str(settings_path()))}",
          file=sys.stderr)
    return False


def _check_out(out: Path) -> None:
    """Refuse, before anything is said, a place where no WAV file can be written: a missing folder, or
    something else than a plain file (a folder, a device such as /dev/full, a pipe)."""
    if not out.parent.is_dir():
        raise Said("commands.say.no_folder", folder=str(out.parent), path=str(out))
    try:
        mode = os.stat(out).st_mode
    except OSError:
        return
    if not stat.S_ISREG(mode):
        raise FileRefused("not_a_file_to_write", out, words={"kind": kind_key(mode)})


def _write(text: str, args: argparse.Namespace, config: SpeechConfig) -> int:
    out: Path = args.out
    try:
        speaker = TtsSpeaker(args.lang, config, out=io.StringIO(), remember=False, save_only=True)
    except Unavailable as problem:
        print(f"companion: {problem.explain(args.lang)}", file=sys.stderr)
        return EXIT_INTERNAL
    try:
        speaker.save(text, out.resolve())
    except Unavailable as problem:
        print(f"companion: {problem.explain(args.lang)}", file=sys.stderr)
        return EXIT_INTERNAL
    finally:
        speaker.close()
    return EXIT_OK
