"""companion.files.atomic_write and write_whole: a file is swapped in whole or not at all, under a name of its
own that nothing held before, and nothing is left behind when the write fails."""

from __future__ import annotations

import errno
import os
import stat
import tempfile

import pytest

from companion import files
from companion.dialogue.savefile import remove_leftovers
from companion.files import atomic_write, write_json_atomically, write_whole
from tests.hostile_cases import file_state, link, make_fifo


def names(folder):
    return sorted(os.listdir(folder))


def test_the_file_written_holds_the_data_with_the_permissions_asked(tmp_path):
    target = tmp_path / "new" / "folder" / "data.bin"
    info = write_whole(target, b"first")
    assert target.read_bytes() == b"first" and stat.S_IMODE(target.stat().st_mode) == 0o600
    assert (info.st_ino, info.st_size, info.st_mtime_ns) == (target.stat().st_ino, 5, target.stat().st_mtime_ns)
    with atomic_write(target, 0o644) as stream:
        for chunk in (b"one ", b"two ", b"three"):
            stream.write(chunk)
    assert target.read_bytes() == b"one two three" and stat.S_IMODE(target.stat().st_mode) == 0o644
    assert names(target.parent) == ["data.bin"]


def test_an_error_in_the_block_leaves_the_file_as_it_was_and_nothing_beside_it(tmp_path):
    target = tmp_path / "data.bin"
    target.write_bytes(b"old")
    with pytest.raises(RuntimeError, match="stopped"), atomic_write(target) as stream:
        stream.write(b"half of the new")
        stream.flush()
        raise RuntimeError("stopped")
    assert target.read_bytes() == b"old" and names(tmp_path) == ["data.bin"]


class FullDisk:
    """A file on a disk that fills up after `room` bytes: write raises ENOSPC from then on."""

    def __init__(self, stream, room: int):
        self.stream, self.room = stream, room

    def write(self, data: bytes) -> int:
        if len(data) > self.room:
            self.stream.write(data[:self.room])
            self.room = 0
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        self.room -= len(data)
        return self.stream.write(data)

    def __getattr__(self, name):
        return getattr(self.stream, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return self.stream.__exit__(*exc)


def test_a_full_disk_leaves_the_file_as_it_was_and_nothing_beside_it(tmp_path, monkeypatch):
    target = tmp_path / "save.json"
    write_json_atomically(target, {"state": "old"})
    before = target.read_bytes()
    real = os.fdopen
    monkeypatch.setattr(files.os, "fdopen", lambda *args, **kw: FullDisk(real(*args, **kw), room=4))
    with pytest.raises(OSError) as error:
        write_json_atomically(target, {"state": "new, much longer than the room left"})
    assert error.value.errno == errno.ENOSPC
    assert target.read_bytes() == before and names(tmp_path) == ["save.json"]


def write_in_a_block(path, data):
    with atomic_write(path) as stream:
        stream.write(data)


@pytest.mark.parametrize("write", [write_whole, write_in_a_block])
def test_a_disk_full_when_the_file_is_synced_leaves_the_file_as_it_was(write, tmp_path, monkeypatch):
    target = tmp_path / "data.bin"
    target.write_bytes(b"old")

    def full(descriptor):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(files.os, "fsync", full)
    with pytest.raises(OSError) as error:
        write(target, b"new")
    assert error.value.errno == errno.ENOSPC
    assert target.read_bytes() == b"old" and names(tmp_path) == ["data.bin"]


def test_the_file_is_on_the_disk_before_it_takes_the_name_and_the_folder_after(tmp_path, monkeypatch):
    target = tmp_path / "data.bin"
    target.write_bytes(b"old")
    synced: list[tuple[str, bytes]] = []
    real = os.fsync

    def fsync(descriptor):
        kind = "folder" if stat.S_ISDIR(os.fstat(descriptor).st_mode) else "file"
        synced.append((kind, target.read_bytes()))
        real(descriptor)

    monkeypatch.setattr(files.os, "fsync", fsync)
    with atomic_write(target) as stream:
        stream.write(b"new")
    assert synced == [("file", b"old"), ("folder", b"new")]
    synced.clear()
    write_whole(target, b"newer", durable=False)
    assert synced == [] and target.read_bytes() == b"newer"


@pytest.mark.parametrize("kind", ["fifo", "link"])
def test_a_pipe_or_a_link_at_the_temporary_name_is_never_written_through(kind, tmp_path, monkeypatch):
    target = tmp_path / "config.json"
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    first = tmp_path / ".config.json.planted0.tmp"  # the name tempfile draws first (below)
    planted = make_fifo(first) if kind == "fifo" else link(first, victim)
    reader = os.open(first, os.O_RDONLY | os.O_NONBLOCK) if kind == "fifo" else None  # a write would not wait
    before = (file_state(planted), file_state(victim))
    monkeypatch.setattr(tempfile, "_get_candidate_names", lambda: iter(["planted0", "fresh000"]))
    try:
        write_whole(target, b"{}")
        if reader is not None:
            assert os.read(reader, 100) == b"", "written into the pipe"
    finally:
        if reader is not None:
            os.close(reader)
    assert target.read_bytes() == b"{}"
    assert (file_state(planted), file_state(victim)) == before
    assert names(tmp_path) == sorted([".config.json.planted0.tmp", "config.json", "victim.txt"])


def test_a_write_under_way_is_no_leftover(tmp_path):
    target = tmp_path / "dino.json"
    with atomic_write(target) as stream:
        assert remove_leftovers(tmp_path) == []  # empty, as a save cut short at its start, but locked
        stream.write(b"{}")
    assert target.read_bytes() == b"{}" and names(tmp_path) == ["dino.json"]
