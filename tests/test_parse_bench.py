"""`companion bench parse` measures real parse() calls and reports the grammar sizes."""

import json

from companion.benchmarks import parse as bench
from companion.cli import _Parser


def test_bench_reports_percentiles_sizes_and_target(capsys):
    parser = _Parser(prog="companion bench parse")
    bench.configure(parser)
    assert bench.run(parser.parse_args(["--rounds", "1", "--langs", "fr,en", "--json"])) == 0
    report = json.loads(capsys.readouterr().out)
    assert [r["lang"] for r in report["results"]] == ["fr", "en"]
    for result in report["results"]:
        assert result["utterances"] >= 60
        assert 0 < result["all"]["p50_ms"] <= result["all"]["p95_ms"] <= result["all"]["max_ms"]
    assert {s["state"] for s in report["grammar_sizes"]} == {"die", "turn", "confirm", "setup", "who", "any"}
    assert report["target"]["p95_ms"] == 5.0 and isinstance(report["target"]["met"], bool)
