"""`companion bench parse`: time to understand one utterance (p50, p95, max) and recogniser grammar sizes."""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from companion.benchmarks import peak_memory_mb, percentile
from companion.errors import BadInput
from companion.language.grammar import examples, games, load_grammar, parse, states
from companion.language.messages import LANGUAGES, check_language
from companion.language.reading import typed_reader

TARGET_P95_MS = 5.0


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", default=games()[0], help="game (default %(default)s)")
    parser.add_argument("--langs", default=",".join(LANGUAGES), help="languages, comma separated (default all)")
    parser.add_argument("--rounds", type=int, default=20, help="passes over the example sentences (default 20)")
    parser.add_argument("--no-sizes", action="store_true", help="skip the recogniser grammar sizes")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def load_seconds(game: str, lang: str) -> float:
    """Time to read a language's grammar and its every state's automaton with meaning in this process: compiled,
    or read back from the cache folder where they are kept (companion.language.kept_automata)."""
    start = time.perf_counter()
    load_grammar(game, lang)
    for state in states(game):
        typed_reader(game, lang, state)
    return time.perf_counter() - start


def time_utterances(game: str, lang: str, rounds: int) -> dict[str, Any]:
    """Milliseconds per parse() call, for sentences understood and for sentences refused."""
    corpus = examples(game, lang)
    timings: dict[str, list[float]] = {"understood": [], "not_understood": []}
    for _ in range(rounds):
        for kind, items in (("understood", corpus.understood), ("not_understood", corpus.not_understood)):
            for example in items:
                start = time.perf_counter()
                parse(example.text, game=game, lang=lang, state=example.state, player_names=corpus.players)
                timings[kind].append(1000 * (time.perf_counter() - start))
    every = timings["understood"] + timings["not_understood"]
    summary: dict[str, object] = {"lang": lang, "utterances": len(every)}
    for kind, values in (("all", every), *timings.items()):
        summary[kind] = {"p50_ms": round(percentile(values, 0.50), 3), "p95_ms": round(percentile(values, 0.95), 3),
                         "max_ms": round(max(values), 3) if values else None}
    return summary


def run(args: argparse.Namespace) -> int:
    if args.game not in games():
        raise BadInput(f"--game: unknown game '{args.game}': choose one of {', '.join(games())}")
    if args.rounds < 1:
        raise BadInput("--rounds must be at least 1")
    langs = [check_language(lang.strip()) for lang in args.langs.split(",") if lang.strip()]
    results = []
    for lang in langs:
        loaded = load_seconds(args.game, lang)
        result = time_utterances(args.game, lang, args.rounds)
        result["load_ms"] = round(1000 * loaded, 1)
        results.append(result)
    worst_p95 = max(r["all"]["p95_ms"] for r in results)
    report: dict[str, Any] = {
        "benchmark": "parse", "results": results, "peak_memory_mb": round(peak_memory_mb(), 1),
        "target": {"p95_ms": TARGET_P95_MS, "worst_p95_ms": worst_p95, "met": worst_p95 < TARGET_P95_MS}}
    if not args.no_sizes:
        from companion.speech.vosk_phrases import grammar_sizes
        report["grammar_sizes"] = [s.to_json() for s in grammar_sizes(args.game, langs)]
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
        return 0
    for result in results:
        print(f"lang={result['lang']} utterances={result['utterances']} load_ms={result['load_ms']}")
        for kind in ("all", "understood", "not_understood"):
            print(f"  {kind}: " + " ".join(f"{k}={v}" for k, v in result[kind].items()))
    for size in report.get("grammar_sizes", []):
        print(f"grammar lang={size['lang']} state={size['state']} words={size['words']} "
              f"vosk_phrases={size['phrases']} jsgf_bytes={size['jsgf_bytes']}")
    print(f"peak_memory_mb={report['peak_memory_mb']}")
    print(" ".join(f"target_{key}={value}" for key, value in report["target"].items()))
    return 0
