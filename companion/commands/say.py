"""`companion say`: speak a sentence with the program's voice, or write it to a WAV file."""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

from companion.errors import EXIT_INTERNAL, EXIT_OK, BadInput
from companion.language.messages import DEFAULT_LANGUAGE, LANGUAGES
from companion.speech.base import Unavailable
from companion.speech.config import RATE_RANGE, VOLUME_RANGE, load_config, save_config
from companion.speech.engines import open_speaker
from companion.speech.tts import TtsSpeaker


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("text", nargs="+", metavar="TEXT", help="what to say")
    parser.add_argument("--lang", default=DEFAULT_LANGUAGE, choices=LANGUAGES, help="language of the voice")
    parser.add_argument("--out", type=Path, metavar="FILE.wav", help="write the speech to this WAV file")
    parser.add_argument("--rate", type=float, metavar="FACTOR",
                        help=f"speed, 1 = normal ({RATE_RANGE[0]} to {RATE_RANGE[1]})")
    parser.add_argument("--volume", type=float, help=f"volume ({VOLUME_RANGE[0]} to {VOLUME_RANGE[1]})")
    parser.add_argument("--remember", action="store_true", help="keep --rate and --volume for next times")


def _settings(args: argparse.Namespace):
    config = load_config()
    for name, bounds in (("rate", RATE_RANGE), ("volume", VOLUME_RANGE)):
        value = getattr(args, name)
        if value is not None:
            if not bounds[0] <= value <= bounds[1]:
                raise BadInput(f"--{name} {value}: must be between {bounds[0]} and {bounds[1]}")
            setattr(config, name, value)
    if args.remember:
        save_config(config)
    return config


def run(args: argparse.Namespace) -> int:
    text = " ".join(args.text).strip()
    if not text:
        raise BadInput("say: TEXT is empty")
    config = _settings(args)
    if args.out is not None:
        return _write(text, args, config)
    speaker = open_speaker("auto", args.lang, config=config)
    try:
        speaker.say(text)
        speaker.wait()
    finally:
        speaker.close()
    return EXIT_OK


def _write(text: str, args: argparse.Namespace, config) -> int:
    out: Path = args.out
    if not out.parent.is_dir():
        raise BadInput(f"--out {out}: the folder {out.parent} does not exist")
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
