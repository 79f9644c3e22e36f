"""The test files' assertions rewritten once, before the workers start, instead of once in every worker.

pytest rewrites the `assert` statements of each test file and keeps the result beside it (`__pycache__`, a pyc of
its own). From a fresh clone there is none yet, and the workers of pytest-xdist start together: each of the four
rewrote every file, about 7 s of processor time apiece, before its first test (a worker collected in 9.5 s
without the kept files, 2.5 s with them). `rewrite_once` writes them first, the files shared among the
processors; a file whose kept form is up to date is not read again, and anything that fails here is left to the
workers, which rewrite as before.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest


def _rewrite(files: list[Path], config: pytest.Config) -> None:
    from _pytest.assertion import rewrite

    state = config.stash[rewrite.assertstate_key]
    for path in files:
        kept = rewrite.get_cache_dir(path) / (path.name[:-3] + rewrite.PYC_TAIL)
        if rewrite._read_pyc(path, kept) is None and rewrite.try_makedirs(kept.parent):
            source_hash, code = rewrite._rewrite_test(path, config)
            rewrite._write_pyc(state, code, source_hash, kept)


def rewrite_once(config: pytest.Config, folder: Path) -> None:
    """Write the rewritten form of every test file and conftest under `folder`, split among the processors (one
    forked process each, where processes fork); nothing when Python may not write bytecode or assertions are not
    rewritten."""
    if sys.dont_write_bytecode or config.getoption("assertmode") != "rewrite":
        return
    files = sorted({*folder.rglob("test_*.py"), *folder.rglob("conftest.py")})
    if not hasattr(os, "fork"):  # Windows: one process
        _rewrite(files, config)
        return
    shares = max(1, min(os.cpu_count() or 1, len(files)))
    children = []
    for share in range(shares):
        pid = os.fork()
        if pid == 0:  # the child writes its share and leaves without running anything of pytest's
            code = 0
            try:
                _rewrite(files[share::shares], config)
            except BaseException:  # noqa: BLE001 - the workers rewrite what is missing
                code = 1
            finally:
                os._exit(code)
        children.append(pid)
    for pid in children:
        os.waitpid(pid, 0)
