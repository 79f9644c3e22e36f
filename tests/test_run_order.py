"""The order of a test run on several workers (tests/run_order.py): the files played aloud go to two workers
only, the others compute from the start, and each kind is handed out the longest first."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tests import run_order
from tests.run_order import AloudBesideComputing, is_aloud

# (file, tests in it, seconds it took last)
FILES = [("tests/aloud/test_long_game.py", 3, 150.0), ("tests/aloud/test_microphone.py", 3, 77.0),
         ("tests/aloud/test_short.py", 3, 20.0), ("tests/test_whisper.py", 4, 80.0),
         ("tests/test_grammar.py", 3, 70.0), ("tests/test_engine.py", 5, 1.0), ("tests/test_new.py", 9, 0.0)]


class Worker:
    def __init__(self, number: int):
        self.gateway = SimpleNamespace(id=f"gw{number}")
        self.shutting_down = False
        self.sent: list[int] = []

    def send_runtest_some(self, indices: list[int]) -> None:
        self.sent += indices

    def shutdown(self) -> None:
        self.shutting_down = True


def scheduled(monkeypatch, workers: int) -> tuple[AloudBesideComputing, list[Worker], list[str]]:
    """A scheduler for FILES over `workers` workers, their first files handed out."""
    known = {name: seconds for name, _, seconds in FILES if name != "tests/test_new.py"}
    monkeypatch.setattr(run_order, "known_durations", lambda: known)
    config = SimpleNamespace(getvalue=lambda name: [f"{workers}*popen"] if name == "tx" else None,
                             option=SimpleNamespace(loadscopereorder=True))
    scheduler = AloudBesideComputing(config)  # type: ignore[arg-type]
    collection = [f"{name}::test_{k}" for name, count, _ in FILES for k in range(count)]
    nodes = [Worker(number) for number in range(workers)]
    for node in nodes:
        scheduler.add_node(node)  # type: ignore[arg-type]
        scheduler.add_node_collection(node, collection)  # type: ignore[arg-type]
    scheduler.schedule()
    return scheduler, nodes, collection


def files_of(node: Worker, collection: list[str]) -> list[str]:
    return list(dict.fromkeys(collection[index].split("::")[0] for index in node.sent))


def test_two_workers_play_aloud_the_longest_first_while_the_others_compute(monkeypatch):
    _, nodes, collection = scheduled(monkeypatch, 4)
    firsts = [files_of(node, collection)[0] for node in nodes]
    assert firsts == ["tests/aloud/test_long_game.py", "tests/aloud/test_microphone.py", "tests/test_whisper.py",
                      "tests/test_grammar.py"]
    assert [is_aloud(name) for name in firsts] == [True, True, False, False]


def test_a_worker_takes_the_other_kind_once_its_own_has_run_out(monkeypatch):
    scheduler, nodes, collection = scheduled(monkeypatch, 4)
    computing = nodes[2]
    while not computing.shutting_down:  # the computing worker finishes everything it is given, test by test
        index = next(i for i in computing.sent if not scheduler.assigned_work[computing][
            collection[i].split("::")[0]][collection[i]])
        scheduler.mark_test_complete(computing, index)  # type: ignore[arg-type]
    taken = files_of(computing, collection)
    assert not is_aloud(taken[0]) and "tests/aloud/test_short.py" in taken  # computing first, then what is left
    everything = [name for node in nodes for name in files_of(node, collection)]
    assert sorted(everything) == sorted(name for name, _, _ in FILES)  # every file once


def test_a_file_with_no_time_known_counts_a_second_per_test(monkeypatch):
    scheduler, _, _ = scheduled(monkeypatch, 4)
    assert scheduler.expected["tests/test_new.py"] == 9.0 and scheduler.expected["tests/test_engine.py"] == 1.0


def test_one_worker_runs_every_kind(monkeypatch):
    _, nodes, collection = scheduled(monkeypatch, 1)
    assert files_of(nodes[0], collection)[0] == "tests/aloud/test_long_game.py"


def test_a_file_that_plays_aloud_elsewhere_stops_the_run(pytester):
    pytester.makeconftest("import pytest\n@pytest.fixture\ndef sound_server():\n    return None\n"
                          "from tests.conftest import pytest_collection_modifyitems\n")
    pytester.makepyfile(test_misplaced="def test_voice(sound_server):\n    pass\n")
    result = pytester.runpytest("-p", "no:xdist")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*move them to tests/aloud/*test_misplaced.py*"])


def test_the_test_files_are_rewritten_once_as_a_worker_would_read_them(pytester, monkeypatch):
    """rewrite_once leaves beside each test file and conftest what pytest's own import reads back instead of
    rewriting it (an `assert` rewritten: its operands named), and does not write over a kept form that is up to
    date."""
    from _pytest.assertion import rewrite

    from tests.rewrite_once import rewrite_once

    pytester.makepyfile(test_sum="def test_sum():\n    assert 1 + 1 == 3\n")
    pytester.makeconftest("")
    (pytester.path / "deeper").mkdir()
    (pytester.path / "deeper" / "test_more.py").write_text("def test_more():\n    assert 2 == 2\n", encoding="utf-8")
    monkeypatch.setattr("sys.dont_write_bytecode", False)
    config = pytester.parseconfigure()
    sources = [pytester.path / "test_sum.py", pytester.path / "conftest.py", pytester.path / "deeper" / "test_more.py"]
    rewrite_once(config, pytester.path)
    kept = [rewrite.get_cache_dir(path) / (path.name[:-3] + rewrite.PYC_TAIL) for path in sources]
    codes = [rewrite._read_pyc(path, pyc) for path, pyc in zip(sources, kept, strict=True)]
    assert all(code is not None for code in codes), kept
    test_sum = next(const for const in codes[0].co_consts if hasattr(const, "co_name"))  # type: ignore[union-attr]
    assert any(name.startswith("@py_assert") for name in test_sum.co_varnames), test_sum.co_varnames
    written = [pyc.stat().st_mtime_ns for pyc in kept]
    rewrite_once(config, pytester.path)
    assert [pyc.stat().st_mtime_ns for pyc in kept] == written
    result = pytester.runpytest("-p", "no:cacheprovider", "test_sum.py")
    result.stdout.fnmatch_lines(["*assert (1 + 1) == 3*"])  # rewritten: the failure is explained
    assert [pyc.stat().st_mtime_ns for pyc in kept] == written  # read as kept, not written again
