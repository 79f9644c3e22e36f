"""`companion listen`: hear one utterance (microphone, WAV file or typed line) exactly as a game would,
and say what it meant."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion.dialogue.session import understand
from companion.errors import EXIT_OK, Said
from companion.language.grammar import check_state, games
from companion.language.messages import DEFAULT_LANGUAGE, LANGUAGES, catalog
from companion.speech.config import LISTENING_ENGINES
from companion.speech.engines import open_listener


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--engine", default="auto", choices=("auto", *LISTENING_ENGINES),
                        help="recogniser (default: the best available)")
    parser.add_argument("--lang", default=DEFAULT_LANGUAGE, choices=LANGUAGES, help="language spoken")
    parser.add_argument("--game", default="draftosaurus", choices=games(), help="game whose commands to hear")
    parser.add_argument("--state", default="any",
                        help="dialogue state whose commands to hear (die, turn, confirm, setup, any)")
    parser.add_argument("--file", type=Path, metavar="WAV", help="hear this WAV file instead of the microphone")
    parser.add_argument("--model", type=Path, metavar="PATH",
                        help="speech model folder (Vosk, PocketSphinx or Whisper)")
    parser.add_argument("--player", action="append", default=[], metavar="NAME",
                        help="a player's name that may be said (repeat for each player)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    check_state(args.game, args.state)
    listener = open_listener(args.engine, args.lang, args.game, player_names=args.player, model=args.model,
                             audio_files=[args.file] if args.file else None,
                             say=lambda line: print(line, file=sys.stderr, flush=True))
    try:
        heard = listener.listen(args.state)
    finally:
        listener.close()
    if heard is None:
        raise Said("commands.listen.input_ended")
    meaning = understand(heard, game=args.game, lang=args.lang, state=args.state,
                         player_names=args.player) if heard.text.strip() else None
    result = {"text": heard.text, "intent": meaning.intent if meaning else None,
              "slots": dict(meaning.slots) if meaning else {}, "decode_ms": heard.decode_ms,
              "confidence": heard.confidence, "needs_confirmation": heard.needs_confirmation,
              "engine": heard.engine}
    print(json.dumps(result, ensure_ascii=False) if args.json else _spoken(result, args.lang))
    return EXIT_OK


def _spoken(result: dict[str, Any], lang: str) -> str:
    messages = catalog(lang)
    if not result["text"]:
        return messages.say("speech.heard_nothing")
    lines = [messages.say("speech.heard", text=result["text"])]
    if result["intent"] is None:
        lines.append(messages.say("speech.no_meaning"))
    else:
        slots = ", ".join(f"{name} = {value}" for name, value in result["slots"].items())
        lines.append(messages.say("speech.meaning", intent=result["intent"], slots=slots or "-"))
    return "\n".join(lines)
