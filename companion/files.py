"""Reading the JSON and YAML files that come from outside (saves, boards, layouts, zoos): the one place that
opens them, bounds what is read, parses and checks their shape before anything else looks at them.

Only regular files are opened (a pipe, a device or a folder is refused without waiting on it), at most
`limit` bytes are read, YAML aliases are refused (they let a few kilobytes expand into gigabytes), and what
a parser accepts but no program should (numbers of thousands of digits, NaN and infinities, half a UTF-16
pair, nesting hundreds deep) is refused too. Every failure is a FileRefused: the file, and why, in the
player's language (voices/<lang>/messages/files.yaml).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import math
import os
import re
import stat
import tempfile
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import IO, Any, BinaryIO, cast

from companion.errors import BadInput
from companion.terminal_text import clean

# A save nests at most 8 levels (measured on full games of the three games), a board 3; 32 is far beyond.
MAX_DEPTH = 32
# Values in a file; a 1 MiB save of one-character lists would hold about 500,000.
MAX_NODES = 200_000
# Digits of a whole number: seeds and counts need at most 20.
MAX_DIGITS = 40
_TOO_MANY_DIGITS = 10 ** MAX_DIGITS
_SURROGATE = re.compile("[\ud800-\udfff]")

try:
    import fcntl
except ImportError:  # Windows: no advisory locks
    fcntl = None  # type: ignore[assignment]


class FileRefused(BadInput):
    """A file that cannot be used: `code` names the sentence files.<code>, filled with the path and `params`;
    `words` fills parameters with words of the catalog (a parameter name → a key under files.)."""

    PREFIX = "files"

    def __init__(self, code: str, path: Path | str, words: dict[str, str] | None = None, **params: Any):
        self.code = code
        self.path = Path(path)
        self.words = dict(words or {})
        self.params = params
        details = {**self.words, **params}
        super().__init__(f"{path}: {code.replace('_', ' ')}" + "".join(f"; {k}={v}" for k, v in details.items()))

    def explain(self, lang: str) -> str:
        """The catalog sentence, in `lang`, that says why the file cannot be used."""
        from companion.language.messages import catalog

        said = catalog(lang)
        params = {**self.params, **{name: said.say(f"files.{key}") for name, key in self.words.items()}}
        if "where" in params:  # a place in the document (see _at)
            place = params["where"]
            params["where"] = said.say("files.at_field", field=place) if place else said.say("files.top")
        return said.say(f"{self.PREFIX}.{self.code}", path=str(self.path), **params)


# ---- reading the bytes

def read_bytes(path: Path, limit: int) -> bytes:
    """The content of the regular file at `path` (symbolic links followed), at most `limit` bytes."""
    _check_regular(path, _stat(path), limit)
    try:  # O_NONBLOCK: should a pipe take the file's place now, opening it does not wait for a writer
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as error:
        raise _open_error(path, error) from None
    try:
        _check_regular(path, os.fstat(descriptor), limit)
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(descriptor, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as error:
        raise _unreadable(path, error) from None
    finally:
        os.close(descriptor)
    if size > limit:
        raise FileRefused("too_big", path, kib=limit // 1024)
    return b"".join(chunks)


def read_head(path: Path, size: int) -> bytes:
    """The first `size` bytes (fewer when the file is shorter) of the regular file at `path`, however big."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as error:
        raise _open_error(path, error) from None
    except ValueError:
        raise FileRefused("missing", path) from None
    try:
        mode = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(mode):
            raise FileRefused("not_a_file", path, words={"kind": kind_key(mode)})
        return os.read(descriptor, size)
    except OSError as error:
        raise _unreadable(path, error) from None
    finally:
        os.close(descriptor)


def read_stream(stream: IO[str] | None, label: str, limit: int) -> str:
    """At most `limit` characters of an open text stream (standard input), or FileRefused."""
    if stream is None or getattr(stream, "closed", False):
        raise FileRefused("no_input", label)
    try:
        text = stream.read(limit + 1)
    except (OSError, ValueError) as error:
        raise _unreadable(label, error) from None
    except UnicodeDecodeError:
        raise FileRefused("not_text", label) from None
    if len(text) > limit:
        raise FileRefused("too_big", label, kib=limit // 1024)
    return text


def _check_regular(path: Path, info: os.stat_result, limit: int) -> None:
    if not stat.S_ISREG(info.st_mode):
        raise FileRefused("not_a_file", path, words={"kind": kind_key(info.st_mode)})
    if info.st_size > limit:
        raise FileRefused("too_big", path, kib=limit // 1024)


def kind_key(mode: int) -> str:
    """The catalog key (under files.) of the kind of file that is not a regular one: a folder, a pipe..."""
    if stat.S_ISDIR(mode):
        return "kinds.folder"
    if stat.S_ISFIFO(mode):
        return "kinds.pipe"
    return "kinds.device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "kinds.special"


def check_regular_file(path: Path) -> None:
    """FileRefused unless `path` names a regular file (links followed) that exists: said before a file that is
    read by another library (a WAV file) is opened."""
    info = _stat(path)
    if not stat.S_ISREG(info.st_mode):
        raise FileRefused("not_a_file", path, words={"kind": kind_key(info.st_mode)})


def _stat(path: Path) -> os.stat_result:
    try:
        return os.stat(path)
    except OSError as error:
        raise _open_error(path, error) from None
    except ValueError:  # a name holding a NUL byte
        raise FileRefused("missing", path) from None


def _open_error(path: Path, error: OSError) -> FileRefused:
    if error.errno == errno.ELOOP:
        return FileRefused("link_loop", path)
    if error.errno in (errno.ENOENT, errno.ENOTDIR):
        if os.path.islink(path):
            return FileRefused("dangling_link", path, target=os.readlink(path))
        return FileRefused("missing", path)
    return _unreadable(path, error)


def _unreadable(path: Path | str, error: Exception) -> FileRefused:
    """The refusal of a file the system would not read: permission denied, or the system's own words."""
    if getattr(error, "errno", None) in (errno.EACCES, errno.EPERM):
        return FileRefused("denied", path)
    return FileRefused("unreadable", path, reason=getattr(error, "strerror", None) or type(error).__name__)


def decode(data: bytes, path: Path | str) -> str:
    """UTF-8 text (a leading byte order mark is allowed), or FileRefused."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise FileRefused("not_text", path) from None


# ---- writing our own files whole

Fingerprint = tuple[int, int, int, int, int, str | None]  # device, inode, mode, size, time (ns), content digest
_WRITE_REASONS: dict[int | None, str] = {errno.ENOSPC: "no_space", errno.EDQUOT: "no_space", errno.EROFS: "read_only",
                                         errno.EACCES: "denied", errno.EPERM: "denied", errno.EFBIG: "too_large",
                                         errno.ENOENT: "no_folder", errno.ENOTDIR: "no_folder",
                                         errno.EEXIST: "no_folder"}


def write_reason(error: OSError) -> tuple[str, str]:
    """Why a write failed: the catalog key of the reason (files.write_reasons.*) and the system's words."""
    return f"files.write_reasons.{_WRITE_REASONS.get(error.errno, 'other')}", error.strerror or type(error).__name__


def write_json_atomically(path: Path, document: Any) -> Fingerprint:
    """Write `document` as JSON at `path`: a new file is swapped in whole, or nothing changes (OSError).
    Returns the fingerprint of the file written."""
    data = json.dumps(document, ensure_ascii=False, indent=1).encode("utf-8")
    return file_fingerprint(write_whole(path, data), hashlib.sha256(data).hexdigest())


def write_whole(path: Path, data: bytes, permissions: int = 0o600, durable: bool = True) -> os.stat_result:
    """Write `data` at `path` through atomic_write (which syncs it to disk when `durable`); the state of the file
    written (as the new `path` has it: its size, mode and times are set once its bytes are handed over)."""
    with atomic_write(path, permissions, durable) as stream:
        stream.write(data)
        stream.flush()
        return os.fstat(stream.fileno())


@contextlib.contextmanager
def atomic_write(path: Path, permissions: int = 0o600, durable: bool = True) -> Iterator[BinaryIO]:
    """A file to write in binary, swapped in whole at `path` when the block ends, or nothing changes.

    Its folder is made where missing. The new file is made beside `path` (.NAME.XXXXXXXX.tmp) under a name
    nothing held before (so a pipe or a link put there is never opened), locked until renamed (so that
    savefile.remove_leftovers never takes a live write for a leftover) and given `permissions`. When `durable`,
    it is written to disk before it is renamed over `path`, and the folder after (about 10 ms a file on
    ext4, measured): without, a power cut soon after may leave `path` empty or cut, which only a file checked
    before use can afford. When anything fails (an exception raised in the block, an OSError such as a full
    disk), the new file is removed and the error raised again."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = _create_beside(path)
    try:
        with os.fdopen(handle, "wb") as stream:
            if permissions != 0o600:  # mkstemp's own; a FAT disk refuses any change of it
                os.fchmod(stream.fileno(), permissions)
            yield stream
            stream.flush()
            if durable:
                os.fsync(stream.fileno())
            os.replace(temporary, path)  # still open, so still locked
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    if durable:
        _sync_directory(path.parent)


def _create_beside(path: Path) -> tuple[int, str]:
    """A new empty file beside `path`, locked where the system has locks: its descriptor and its name."""
    while True:
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        if fcntl is None:
            return handle, temporary
        try:
            fcntl.flock(handle, fcntl.LOCK_EX)
            if os.fstat(handle).st_nlink > 0:
                return handle, temporary
        except BaseException:
            os.close(handle)
            Path(temporary).unlink(missing_ok=True)
            raise
        os.close(handle)  # taken for a leftover before it was locked: start again


def file_fingerprint(info: os.stat_result, digest: str | None) -> Fingerprint:
    """The fingerprint of a file from its state and the digest of its content (None: not read)."""
    return (info.st_dev, info.st_ino, info.st_mode, info.st_size, info.st_mtime_ns, digest)


def _sync_directory(folder: Path) -> None:
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


# ---- parsing

def parse_json(text: str, path: Path | str, schema: Any = None) -> Any:
    """The JSON document in `text`, its values checked (see check_values) and, when given, its `schema`."""
    try:
        data = json.loads(text, parse_int=lambda digits: _whole_number(digits, path),
                          parse_float=lambda digits: _real_number(digits, path),
                          parse_constant=lambda name: _refuse_number(name, path))
    except json.JSONDecodeError as error:
        raise FileRefused("not_json", path, line=error.lineno, column=error.colno) from None
    except RecursionError:
        raise FileRefused("too_deep", path, limit=MAX_DEPTH) from None
    check_values(data, path)
    if schema is not None:
        check_shape(data, schema, path)
    return data


def parse_yaml(text: str, path: Path | str, schema: Any = None) -> Any:
    """The YAML document in `text`, without aliases, its values checked and, when given, its `schema`."""
    import yaml  # imported where a YAML file is read: PyYAML's imports took 25 ms of every start

    loader = _loader_class()(text, path)
    try:
        data = loader.get_single_data()
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        raise FileRefused("not_yaml", path, line=mark.line + 1 if mark else 0) from None
    except yaml.YAMLError:
        raise FileRefused("not_yaml", path, line=0) from None
    except (ValueError, OverflowError):  # a number the constructor cannot build
        raise FileRefused("bad_number", path, value="?") from None
    finally:
        loader.dispose()
    check_values(data, path)
    if schema is not None:
        check_shape(data, schema, path)
    return data


def load_json(path: Path, limit: int, schema: Any = None) -> Any:
    """The checked JSON document of the file at `path` (see read_bytes and parse_json)."""
    return parse_json(decode(read_bytes(path, limit), path), path, schema)


def load_yaml(path: Path, limit: int, schema: Any = None) -> Any:
    """The checked YAML document of the file at `path` (see read_bytes and parse_yaml)."""
    return parse_yaml(decode(read_bytes(path, limit), path), path, schema)


def load_shipped_yaml(path: Path, limit: int, schema: Any = None) -> Any:
    """A YAML file that comes with the program (a board of companion/games/*/boards/), checked as load_yaml
    checks it, but parsed once and kept parsed in the cache folder (companion.paths.read_data): parsing the Dino
    board with PyYAML's imports took 40 ms of every start of a Dino game. A file that is not there, or is no
    regular file within `limit`, is refused by load_yaml."""
    try:
        info = path.stat()
    except OSError:
        info = None
    if info is None or not stat.S_ISREG(info.st_mode) or info.st_size > limit:
        return load_yaml(path, limit, schema)
    from companion.paths import read_data

    data = read_data(path)
    check_values(data, path)
    if schema is not None:
        check_shape(data, schema, path)
    return data


def _whole_number(digits: str, path: Path | str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        _refuse_number(digits[:12] + "…", path)
    return int(digits)


def _real_number(digits: str, path: Path | str) -> float:
    value = float(digits)
    if not math.isfinite(value):  # 1e400
        _refuse_number(digits[:12] + ("…" if len(digits) > 12 else ""), path)
    return value


def _refuse_number(text: str, path: Path | str) -> Any:
    raise FileRefused("bad_number", path, value=text)


@cache
def _loader_class() -> Any:
    """PyYAML's safe loader, refusing aliases and bounding the depth and the number of nodes."""
    import yaml

    class _Loader(yaml.SafeLoader):
        def __init__(self, text: str, path: Path | str):
            super().__init__(text)
            self.path, self.depth, self.nodes = path, 0, 0

        def compose_node(self, parent: Any, index: Any) -> Any:
            if self.check_event(yaml.AliasEvent):
                event = cast(Any, self).peek_event()  # untyped in PyYAML's stubs
                raise FileRefused("yaml_alias", self.path, line=event.start_mark.line + 1)
            self.depth += 1
            self.nodes += 1
            if self.depth > MAX_DEPTH:
                raise FileRefused("too_deep", self.path, limit=MAX_DEPTH)
            if self.nodes > MAX_NODES:
                raise FileRefused("too_many", self.path, limit=MAX_NODES)
            try:
                return super().compose_node(parent, index)
            finally:
                self.depth -= 1

    return _Loader


# ---- checks

_PLAIN = (str, int, float, bool, type(None))


def check_values(data: Any, path: Path | str) -> None:
    """Refuse what no file of ours holds: nesting deeper than MAX_DEPTH, more than MAX_NODES values, half a
    UTF-16 pair in a text, an infinite number, or a value JSON has no word for (a date, bytes, a set)."""
    pending: list[tuple[Any, tuple[str | int, ...]]] = [(data, ())]
    nodes = 0
    while pending:
        value, where = pending.pop()
        nodes += 1
        if len(where) >= MAX_DEPTH:
            raise FileRefused("too_deep", path, limit=MAX_DEPTH)
        if nodes > MAX_NODES:
            raise FileRefused("too_many", path, limit=MAX_NODES)
        if isinstance(value, dict):
            for key, item in value.items():
                if not isinstance(key, (str, int)) or isinstance(key, bool):
                    raise _at("shape", path, where, {"expected": "kinds.key"})
                pending.append((key, (*where, key)))
                pending.append((item, (*where, key)))
        elif isinstance(value, list):
            pending.extend((item, (*where, index)) for index, item in enumerate(value))
        elif isinstance(value, str):
            if _SURROGATE.search(value):
                raise FileRefused("bad_text", path)
        elif isinstance(value, float):
            if not math.isfinite(value):
                raise FileRefused("bad_number", path, value=str(value))
        elif isinstance(value, int) and not isinstance(value, bool):
            if value.bit_length() > 4 * MAX_DIGITS or abs(value) >= _TOO_MANY_DIGITS:  # as the parser counts
                raise FileRefused("bad_number", path, value=str(value)[:12] + "…")
        elif not isinstance(value, _PLAIN):
            raise _at("shape", path, where, {"expected": "kinds.plain"})


# A schema is a Python value that describes a document:
#   str, int, float (any number), bool, dict, list, Any (anything): a value of that kind (a bool is no number);
#   a dict {"name": schema, "name?": schema}: a mapping with these keys ("?": may be left out); the key ...
#   (Ellipsis) gives the schema of any other key, and without it other keys are refused;
#   a list [schema]: a list whose every item fits `schema`;
#   a tuple (schema, schema...): a value that fits one of them.
_KIND_WORDS = {str: "kinds.text", int: "kinds.whole", float: "kinds.number", bool: "kinds.flag",
               dict: "kinds.mapping", list: "kinds.list"}


def check_shape(data: Any, schema: Any, path: Path | str, where: tuple[str | int, ...] = ()) -> None:
    """Refuse `data` (FileRefused "shape", naming the place) unless it fits `schema` (described above)."""
    if not fits(data, schema):
        _refuse_shape(data, schema, path, where)


def fits(data: Any, schema: Any) -> bool:
    """Whether `data` fits `schema` (see check_shape)."""
    if schema is Any:
        return True
    if isinstance(schema, tuple):
        return any(fits(data, option) for option in schema)
    if isinstance(schema, list):
        return isinstance(data, list) and all(fits(item, schema[0]) for item in data)
    if isinstance(schema, dict):
        return isinstance(data, dict) and _missing(data, schema) is None and _unknown(data, schema) is None and all(
            fits(value, _field(schema, key)) for key, value in data.items())
    return _is_kind(data, schema)


def _is_kind(data: Any, kind: type) -> bool:
    if kind is float:
        return isinstance(data, (int, float)) and not isinstance(data, bool)
    if kind is int:
        return isinstance(data, int) and not isinstance(data, bool)
    return isinstance(data, kind)


def _field(schema: dict[Any, Any], key: Any) -> Any:
    for name in (key, f"{key}?"):
        if name in schema:
            return schema[name]
    return schema.get(...)


def _missing(data: dict[Any, Any], schema: dict[Any, Any]) -> str | None:
    return next((name for name in schema if isinstance(name, str) and not name.endswith("?") and name not in data),
                None)


def _unknown(data: dict[Any, Any], schema: dict[Any, Any]) -> Any:
    if ... in schema:
        return None
    return next((key for key in data if key not in schema and f"{key}?" not in schema), None)


def _refuse_shape(data: Any, schema: Any, path: Path | str, where: tuple[str | int, ...]) -> None:
    """Find the first place where `data` does not fit, and refuse the file naming it."""
    if isinstance(schema, dict) and isinstance(data, dict):
        missing = _missing(data, schema)
        if missing is not None:
            raise _at("missing_field", path, where, field=missing)
        unknown = _unknown(data, schema)
        if unknown is not None:
            raise _at("unknown_field", path, where, field=clean(str(unknown))[:40])
        for key, value in data.items():
            if not fits(value, _field(schema, key)):
                _refuse_shape(value, _field(schema, key), path, (*where, key))
    if isinstance(schema, list) and isinstance(data, list):
        for index, item in enumerate(data):
            if not fits(item, schema[0]):
                _refuse_shape(item, schema[0], path, (*where, index))
    raise _at("shape", path, where, {"expected": _expected(schema)})


def _expected(schema: Any) -> str:
    if isinstance(schema, tuple):
        return _expected(schema[0])
    if isinstance(schema, list):
        return "kinds.list"
    if isinstance(schema, dict):
        return "kinds.mapping"
    return _KIND_WORDS.get(schema, "kinds.plain")


def _at(code: str, path: Path | str, where: tuple[str | int, ...], words: dict[str, str] | None = None,
        **params: Any) -> FileRefused:
    """A refusal naming a place in the document: content.state.actions[3], or its top ("")."""
    place = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in where).lstrip(".")
    return FileRefused(code, path, words, where=clean(place)[:80], **params)
