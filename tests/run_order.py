"""Which worker runs which test file, in what order (pytest-xdist), and how long each file took last.

The files under tests/aloud/ play through the sound server: they wait on real time (a game said aloud, a
microphone spoken into) far more than they compute. They go to the first ALOUD_WORKERS workers only, the longest
first, while the other workers compute from the start; a worker takes any kind of file once its own kind has run
out. The files that compute are handed out the longest first too, by the seconds tests/durations.json holds for
each (written by `pytest --store-durations`); a file it does not know counts as many seconds as it has tests.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

from xdist.scheduler import LoadFileScheduling

DURATIONS = Path(__file__).with_name("durations.json")
ALOUD_FOLDER = "aloud"
# Two workers play aloud while two compute: with three workers that all played aloud first the processor stood
# mostly idle for the first three minutes (docs/BENCHMARKS.md, the test suite).
ALOUD_WORKERS = 2


def is_aloud(path: str) -> bool:
    """Whether a test file (a node id's file part, or a path) plays through the sound server."""
    return Path(path).parent.name == ALOUD_FOLDER


def known_durations() -> dict[str, float]:
    """The seconds each test file took in the run that stored them (by node id file part, such as
    `tests/test_cli.py`); nothing when the file is missing or unreadable."""
    try:
        data = json.loads(DURATIONS.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(name): float(seconds) for name, seconds in data.items()} if isinstance(data, dict) else {}


def store_durations(seconds: dict[str, float]) -> None:
    """Write the seconds each test file took, rounded, sorted by name (so that a change reads as a diff)."""
    text = json.dumps({name: round(value, 1) for name, value in sorted(seconds.items())}, indent=1)
    DURATIONS.write_text(text + "\n", encoding="utf-8")


class DurationsRecorder:
    """A plugin summing the seconds each file's tests took (set-up, call and tear-down) from the reports the run
    receives; at the end of the run they replace those DURATIONS held for the same files, and the files that no
    longer exist are dropped."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)

    def pytest_runtest_logreport(self, report) -> None:
        self.seconds[report.nodeid.split("::", 1)[0]] += report.duration

    def pytest_sessionfinish(self, session) -> None:
        root = Path(session.config.rootpath)
        known = {name: seconds for name, seconds in known_durations().items() if (root / name).is_file()}
        store_durations({**known, **self.seconds})


class AloudBesideComputing(LoadFileScheduling):
    """pytest-xdist's file-by-file scheduling, with the files played aloud kept to the first ALOUD_WORKERS
    workers and every kind handed out the longest first."""

    def schedule(self) -> None:
        if self.collection is None and self.collection_is_completed:
            durations = known_durations()
            counts: dict[str, int] = defaultdict(int)
            for nodeid in next(iter(self.registered_collections.values())):
                counts[self._split_scope(nodeid)] += 1
            self.expected = {name: durations.get(name, float(count)) for name, count in counts.items()}
        super().schedule()

    def _plays_aloud(self, node) -> bool:
        ranks = sorted(int(each.gateway.id.removeprefix("gw")) for each in self.nodes)
        players = ranks[:max(1, min(ALOUD_WORKERS, len(ranks) - 1))]
        return int(node.gateway.id.removeprefix("gw")) in players

    def _assign_work_unit(self, node) -> None:
        aloud = [scope for scope in self.workqueue if is_aloud(scope)]
        computing = [scope for scope in self.workqueue if not is_aloud(scope)]
        choice = (aloud or computing) if self._plays_aloud(node) else (computing or aloud)
        longest = max(choice, key=lambda scope: self.expected[scope])
        work_unit = self.workqueue.pop(longest)
        self.assigned_work.setdefault(node, {})[longest] = work_unit
        collection = self.registered_collections[node]
        node.send_runtest_some([collection.index(nodeid) for nodeid, done in work_unit.items() if not done])
