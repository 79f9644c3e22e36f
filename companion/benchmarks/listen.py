"""`companion bench listen`: how well and how fast spoken commands are understood.

Commands, in English unless `--lang` says otherwise, are either drawn at random from the game's grammar (die
faces, placements, questions, answers and table commands: every path the grammar allows, odd ones included),
or taken from the example sentences written as players say them at the table (`--sentences examples`). They
are spoken by espeak-ng and (in English) flite voices at several speeds, some with background noise, then
heard and understood as in a game (WAV source, endpointer, recogniser, `understand`). A command counts as
understood when its intent and slots are those of the sentence that was spoken; a misheard one counts as
applied when it would change the game (a move, a die face, an undo, a yes or no) without a read-back.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from companion.benchmarks import peak_memory_mb, percentile
from companion.dialogue.session import understand
from companion.errors import BadInput
from companion.language.grammar import examples
from companion.language.messages import LANGUAGES, catalog
from companion.speech.audio import WavFileSource
from companion.speech.base import ACTION_CONFIDENCE, LOW_CONFIDENCE, Unavailable
from companion.speech.listener import SpeechListener
from companion.speech.synthetic import (
    SPEEDS,
    SYNTHESISERS,
    Command,
    SyntheticVoice,
    sample_commands,
    speak_to_wav,
    synthetic_voices,
)

NAME = "listen"
HELP = "Speech recognition: command accuracy, decode time (p50, p95), real-time factor, peak memory."

GAME = "draftosaurus"
PLAYERS = ("Alice", "Bob")
# (dialogue state, intent) pairs, taken in turn: placements and die faces most often.
COMMANDS = (("turn", "place"), ("die", "die"), ("turn", "legal"), ("turn", "place"), ("die", "die"),
            ("turn", "score"), ("confirm", "yes"), ("turn", "zoo"), ("confirm", "no"), ("die", "current_die"),
            ("turn", "undo"), ("turn", "repeat"), ("turn", "whose_turn"), ("turn", "help"))
NOISE_EVERY = 4          # one utterance in NOISE_EVERY gets background noise ...
NOISE_SNR_DB = 30.0      # ... this many dB below the speech
# What changes the game when heard (a yes/no answers a read-back); applied without a question at or above
# ACTION_CONFIDENCE (moves, faces, undo) or LOW_CONFIDENCE (yes, no).
GAME_CHANGING = ("place", "die", "undo", "redo")
ANSWERS = ("yes", "no")
TARGETS = {"accuracy": 0.95, "p95_ms_per_3s": 150.0, "peak_mb": 300.0}


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lang", default="en", choices=LANGUAGES,
                        help="language of the commands (default en; fr and es are said by espeak-ng only)")
    parser.add_argument("--count", type=int, default=120, help="number of utterances (default 120, at least 1)")
    parser.add_argument("--engine", default="sphinx", choices=("sphinx", "vosk", "whisper"),
                        help="recogniser to measure")
    parser.add_argument("--model", type=Path, help="model folder (for --engine vosk or whisper)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random sentences")
    parser.add_argument("--sentences", default="grammar", choices=("grammar", "examples"),
                        help="random paths of the grammar (default), or the sentences written as players say them")
    parser.add_argument("--voices", default="all", choices=("all",) + SYNTHESISERS,
                        help="synthesisers that speak the commands (default: all those installed)")
    parser.add_argument("--repeats", type=int, default=3,
                        help="decodes per utterance for its decode time, the median is kept (default 3)")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="keep the generated WAV files in DIR")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--verbose", action="store_true", help="list every utterance that was misheard")


def _recogniser(args: argparse.Namespace):
    if args.engine == "vosk":
        from companion.speech.models import find_vosk_model
        from companion.speech.vosk_engine import VoskRecogniser

        path = find_vosk_model(args.lang, args.model)
        if path is None:
            raise BadInput(f"bench listen: no Vosk model for {args.lang} (give --model or set VOSK_MODEL_PATH)")
        return VoskRecogniser(args.lang, GAME, path)
    if args.engine == "whisper":
        from companion.speech.whisper import WhisperRecogniser

        return WhisperRecogniser(args.lang, GAME, model=args.model)
    from companion.speech.sphinx import SphinxRecogniser

    return SphinxRecogniser(args.lang, GAME, model=args.model)


def bench_voices(wanted: str, lang: str = "en") -> tuple[SyntheticVoice, ...]:
    voices = synthetic_voices(lang, SYNTHESISERS if wanted == "all" else (wanted,))
    if not voices:
        raise BadInput(f"bench listen: no speech synthesiser for --voices {wanted} in {lang} "
                       "(install espeak-ng, or flite for English)")
    return voices


def synthesise(commands: list[Command], folder: Path,
               voices: tuple[SyntheticVoice, ...]) -> list[tuple[Path, SyntheticVoice]]:
    """One WAV per command, cycling through voices and speeds; every NOISE_EVERY-th one noisy."""
    spoken = []
    for index, command in enumerate(commands):
        voice = voices[index % len(voices)]
        speed = SPEEDS[(index // len(voices)) % len(SPEEDS)]
        noise = NOISE_SNR_DB if index % NOISE_EVERY == NOISE_EVERY - 1 else None
        path = speak_to_wav(command.text, folder / f"{index:04d}.wav", voice=voice, speed=speed,
                            noise_snr_db=noise, seed=index)
        spoken.append((path, voice))
    return spoken


def spoken_commands(args: argparse.Namespace) -> tuple[list[Command], tuple[str, ...]]:
    """The commands to say, and the player names they may use."""
    if args.sentences == "grammar":
        return sample_commands(GAME, args.lang, COMMANDS, args.count, random.Random(args.seed), PLAYERS), PLAYERS
    book = examples(GAME, args.lang)
    natural = [Command(e.state, e.text, e.intent, dict(e.slots)) for e in book.understood if e.intent is not None]
    return [natural[index % len(natural)] for index in range(args.count)], tuple(book.players)


def measure(args: argparse.Namespace, folder: Path) -> dict:
    commands, players = spoken_commands(args)
    spoken = synthesise(commands, folder, bench_voices(args.voices, args.lang))
    sources = [WavFileSource(path) for path, _ in spoken]
    started = time.perf_counter()
    try:
        recogniser = _recogniser(args)
    except Unavailable as problem:
        raise BadInput(f"bench listen: {problem.explain('en')}") from None
    listener = SpeechListener(recogniser, iter(sources), lang=args.lang, player_names=players, say=lambda _: None)
    for state in sorted({c.state for c in commands}):
        recogniser.use_grammar(state, players)
    load_s = time.perf_counter() - started
    rows: list[dict[str, Any]] = []
    for command, source, (_, voice) in zip(commands, sources, spoken):
        listener.expect_speaker(str(voice))  # as a game expects the player whose turn it is
        heard = listener.listen(command.state)
        assert heard is not None  # one file for each command
        meaning = understand(heard, game=GAME, lang=args.lang, state=command.state, player_names=players)
        rows.append({"said": command.text, "heard": heard.text, "seconds": source.seconds,
                     "voice": str(voice), "synthesiser": voice.synthesiser, "decode_ms": [heard.decode_ms],
                     "final_ms": listener.last_final_ms, "confidence": heard.confidence, "meant": meaning.intent,
                     "understood": meaning.intent == command.intent and dict(meaning.slots) == command.slots})
    for _ in range(args.repeats - 1):
        for command, row, (path, voice) in zip(commands, rows, spoken):
            listener.expect_speaker(str(voice))
            recogniser.use_grammar(command.state, players)
            row["decode_ms"].append(listener.hear(WavFileSource(path)).decode_ms)
    for row in rows:
        row["decode_ms"] = statistics.median(row["decode_ms"])
    return _report(rows, load_s, recogniser.describe(), args.engine, args.lang)


def _report(rows: list[dict], load_s: float, model: str, engine: str, lang: str = "en") -> dict:
    decode = [r["decode_ms"] for r in rows]
    per_3s = [r["decode_ms"] * 3.0 / r["seconds"] for r in rows]
    confident_right = [r for r in rows if r["understood"] and r["confidence"] >= LOW_CONFIDENCE]
    wrong = [r for r in rows if not r["understood"] and r["heard"]]
    applied = [r for r in wrong if _applied(r)]
    answered_wrongly = [r for r in wrong if r not in applied and r["meant"] is not None
                        and r["meant"] not in GAME_CHANGING + ANSWERS and r["confidence"] >= LOW_CONFIDENCE]
    return {
        "engine": engine, "model": model, "lang": lang, "utterances": len(rows),
        "accuracy": sum(r["understood"] for r in rows) / len(rows),
        "decode_ms_p50": percentile(decode, 0.5), "decode_ms_p95": percentile(decode, 0.95),
        "p95_ms_per_3s": percentile(per_3s, 0.95), "p50_ms_per_3s": percentile(per_3s, 0.5),
        "accuracy_by_synthesiser": {name: sum(r["understood"] for r in group) / len(group)
                                    for name in SYNTHESISERS
                                    for group in [[r for r in rows if r["synthesiser"] == name]] if group},
        "after_speech_ms_p95": percentile([r["final_ms"] for r in rows], 0.95),
        "real_time_factor": sum(decode) / 1000 / sum(r["seconds"] for r in rows),
        "audio_seconds_mean": sum(r["seconds"] for r in rows) / len(rows),
        "misheard_confirmed_share": _share_below(wrong, LOW_CONFIDENCE),
        "misheard_confirmed_share_moves": _share_below(wrong, ACTION_CONFIDENCE),
        "understood_without_question_share": len(confident_right) / len(rows),
        "misheard_and_applied_share": len(applied) / len(rows),
        "answered_wrongly_share": len(answered_wrongly) / len(rows),
        "load_s": load_s, "peak_mb": peak_memory_mb(), "said": [r["said"] for r in rows],
        "misheard": [r for r in rows if not r["understood"]],
    }


def _applied(row: dict) -> bool:
    """A misheard command that changes the game without a question."""
    if row["meant"] in GAME_CHANGING:
        return row["confidence"] >= ACTION_CONFIDENCE
    return row["meant"] in ANSWERS and row["confidence"] >= LOW_CONFIDENCE


def _share_below(rows: list[dict], confidence: float) -> float | None:
    """The share of `rows` heard with less than `confidence` (None when there are none)."""
    return sum(r["confidence"] < confidence for r in rows) / len(rows) if rows else None


def _print(report: dict, verbose: bool) -> None:
    def verdict(name: str, value: float, lower_is_better: bool) -> str:
        met = value <= TARGETS[name] if lower_is_better else value >= TARGETS[name]
        return "met" if met else "MISSED"

    language = catalog("en").say(f"speech.languages.{report['lang']}")
    print(f"listen benchmark: {report['utterances']} {language} commands, engine {report['engine']} "
          f"({report['model']}), mean length {report['audio_seconds_mean']:.2f} s")
    print(f"  accuracy (intent and slots)  {report['accuracy']:.1%}  target >= {TARGETS['accuracy']:.0%}: "
          f"{verdict('accuracy', report['accuracy'], False)}")
    for name, accuracy in report["accuracy_by_synthesiser"].items():
        print(f"    spoken by {name:<10}        {accuracy:.1%}")
    print(f"  decode time p50 / p95        {report['decode_ms_p50']:.0f} / {report['decode_ms_p95']:.0f} ms")
    print(f"  decode time p95 per 3 s      {report['p95_ms_per_3s']:.0f} ms  target < {TARGETS['p95_ms_per_3s']:.0f}: "
          f"{verdict('p95_ms_per_3s', report['p95_ms_per_3s'], True)}")
    print(f"  decode time p50 per 3 s      {report['p50_ms_per_3s']:.0f} ms")
    print(f"  wait after the end of speech {report['after_speech_ms_p95']:.0f} ms p95 (with a microphone, the rest "
          "is decoded while the player speaks)")
    print(f"  real-time factor             {report['real_time_factor']:.3f}")
    print(f"  peak memory                  {report['peak_mb']:.0f} MB  target < {TARGETS['peak_mb']:.0f}: "
          f"{verdict('peak_mb', report['peak_mb'], True)}")
    print(f"  model and grammars loaded in {report['load_s']:.2f} s")
    if report["misheard_confirmed_share"] is not None:
        print(f"  misheard but read back       {report['misheard_confirmed_share']:.0%} of them as questions "
              f"(confidence below {LOW_CONFIDENCE}), {report['misheard_confirmed_share_moves']:.0%} as moves "
              f"(below {ACTION_CONFIDENCE})")
        print(f"  understood at once           {report['understood_without_question_share']:.0%}")
    print(f"  misheard and applied         {report['misheard_and_applied_share']:.1%} (a wrong move, face, undo or "
          f"yes/no confident enough to skip the read-back)")
    print(f"  answered wrongly             {report['answered_wrongly_share']:.1%} (another question or command, "
          f"confident enough)")
    if verbose:
        for row in report["misheard"]:
            print(f"    said '{row['said']}' ({row['voice']}), heard '{row['heard']}' "
                  f"(confidence {row['confidence']:.2f})")


def run(args: argparse.Namespace) -> int:
    if args.count < 1:
        raise BadInput("bench listen: --count must be at least 1")
    if args.repeats < 1:
        raise BadInput("bench listen: --repeats must be at least 1")
    if args.keep is not None:
        args.keep.mkdir(parents=True, exist_ok=True)
        report = measure(args, args.keep)
    else:
        with tempfile.TemporaryDirectory(prefix="companion-bench-listen-") as folder:
            report = measure(args, Path(folder))
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        _print(report, args.verbose)
    return 0
