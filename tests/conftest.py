"""Helpers shared by the tests, imported by name (`from tests.conftest import run_companion`).

- The program itself, on the command line a player types: `run_here` runs it in this process (the real parser,
  command and Session, with the text speaker and listener on string buffers in place of the standard streams) and
  `run_companion` in a child process, for what only a process shows (start-up, signals, killing, the standard
  streams' own bytes, the sound system); both give a CompletedProcess. `run_play` types a scripted game on standard
  input (in this process unless `process=True`), `saved_state` reads what a game saved; plain Python: `run_python`.
- Whole Draftosaurus games as the table types them: `random_game` (a complete legal game from a seed) and
  `script_lines`; Jurassic Snack games: `snack_script`.
- Speech environments: what the sound system offers is set by an ALSA configuration in a fresh home folder
  (Linux), and a library is made unavailable by a module of the same name that fails to import. Everything runs
  in child processes, because PortAudio reads the ALSA configuration once per process.
- A real sound server: `sound_server`, a PulseAudio of the test run's own (one per worker) whose null "speaker" is
  recorded and whose null "mic" is what the program hears (companion.speech.soundserver); `sound_env` points this
  process and its children at it.
- `EmptyRecogniser`, for tests of what happens around recognition.
- Hypothesis profiles: `ci` (the default), `dev` and `thorough`, chosen with `--hypothesis-profile NAME` or
  HYPOTHESIS_PROFILE; a property test asks for `budget(N)` examples, N under `ci`, scaled by the profile.
"""

from __future__ import annotations

import gc
import io
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import settings

from companion.games.draftosaurus.engine import Discard, Game, Place, QuarantineMove, Roll
from companion.games.draftosaurus.simulate import play_random_game as random_game  # noqa: F401 - seeded, full mode; board= too
from companion.games.jurassic_snack.actions import Erupt, Fly, Hatch, Look, Move, Pass, Reveal, Scout
from companion.language.messages import catalog
from companion.speech.recogniser import Recogniser, Recognition
from tests.rewrite_once import rewrite_once
from tests.run_order import AloudBesideComputing, DurationsRecorder, is_aloud


def whisper_missing() -> str | None:
    """Why Whisper cannot run here, or None."""
    import importlib.util

    from companion.speech.whisper import find_whisper_model

    for module in ("ctranslate2", "tokenizers"):
        if importlib.util.find_spec(module) is None:
            return f"{module} is not installed (./install.sh)"
    if find_whisper_model() is None:
        return "the Whisper model is not assembled (companion models whisper)"
    return None


_WHISPER_MISSING = whisper_missing()
needs_whisper = pytest.mark.skipif(_WHISPER_MISSING is not None, reason=str(_WHISPER_MISSING))

ROOT = Path(__file__).resolve().parents[1]

# Hypothesis budgets. Each property test's own count (the budget(N) it asks for) is what `ci` runs; `dev` runs a
# tenth of it for a quick check while working, `thorough` ten times as many for a long search before a release.
# The profile's max_examples is the scale, out of ci's 100.
settings.register_profile("ci", max_examples=100, deadline=None)
settings.register_profile("dev", max_examples=10, deadline=None)
settings.register_profile("thorough", max_examples=1000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def budget(ci: int) -> int:
    """How many examples a property test tries: `ci` under the ci profile, scaled by the profile loaded."""
    return max(1, ci * settings().max_examples // 100)

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ALSA configurations are Linux only")


# ---------------------------------------------------------------- child processes

def run_companion(*args: str, env: dict[str, str] | None = None, stdin: str = "",
                  timeout: float = 120) -> subprocess.CompletedProcess:
    """`companion ARGS` in a child process with extra environment variables."""
    return subprocess.run([sys.executable, "-m", "companion", *args], input=stdin, capture_output=True,
                          text=True, encoding="utf-8", env={**os.environ, **(env or {})}, cwd=ROOT,
                          timeout=timeout, check=False)


class TookTooLong(BaseException):
    """A command run in this process went past its time (as a child would be killed): not an Exception, so that
    the program's own last line of defence does not take it for an internal error."""


def run_here(*args: str, env: dict[str, str] | None = None, stdin: str = "",
             timeout: float = 120) -> subprocess.CompletedProcess:
    """`companion ARGS` run by `companion.cli.main` in this process: standard input reads `stdin`, standard output
    and error are kept, the environment has `env` added for the run; its exit code as a child's would be."""
    from companion.cli import main

    added = dict(env or {})
    before = {name: os.environ.get(name) for name in added}
    streams = sys.stdin, sys.stdout, sys.stderr
    out, err = io.StringIO(), io.StringIO()

    def too_long(_number, _frame):
        raise TookTooLong(f"companion {' '.join(args)}: still running after {timeout} s")

    alarm = signal.signal(signal.SIGALRM, too_long)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    os.environ.update(added)
    sys.stdin, sys.stdout, sys.stderr = io.StringIO(stdin), out, err
    try:
        code = main(list(args))
    except SystemExit as stop:  # --help and --version: argparse exits
        code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    finally:
        sys.stdin, sys.stdout, sys.stderr = streams
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, alarm)
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    return subprocess.CompletedProcess(["companion", *args], code, out.getvalue(), err.getvalue())


def play_env(home: Path) -> dict[str, str]:
    """Saves and settings kept under `home`."""
    return {"COMPANION_HOME": str(home), "COMPANION_CONFIG": str(home / "config.json")}


def run_play(args: list[str], lines: list[str], home: Path, timeout: float = 120,
             process: bool = False) -> subprocess.CompletedProcess:
    """`companion ARGS` with the lines on standard input, saves and settings kept under `home`; in this process
    (run_here), or in a child with `process`."""
    run = run_companion if process else run_here
    return run(*args, stdin="\n".join(lines) + "\n", timeout=timeout, env=play_env(home))


def saved_state(path: Path) -> dict:
    """The content of a save file."""
    return json.loads(path.read_text(encoding="utf-8"))["content"]


# How a player types a die face and a placement, with the spoken names of voices/<lang>/names/; on the
# winter board a pyramid place, and where a Quarantine dinosaur goes.
TEMPLATES = {
    "fr": ("dé : {face}", "{player} : {species} dans {pen}"),
    "en": ("the die says {face}", "{player}: {species} in the {pen}"),
    "es": ("dado: {face}", "{player}: {species} en {pen}"),
}
PYRAMID = {"fr": "{player} : {species} {position} de la pyramide",
           "en": "{player}: {species} {position} of the pyramid", "es": "{player}: {species} {position} de la pirámide"}
QUARANTINE = {"fr": ("{player} : dans {pen}", "{player} : {position} de la pyramide"),
              "en": ("{player}: in the {pen}", "{player}: at the {position} of the pyramid"),
              "es": ("{player}: en {pen}", "{player}: {position} de la pirámide")}


def script_lines(game: Game, lang: str) -> list[str]:
    """What the table types for a Draftosaurus game: each die face, each placement naming its player, each
    Quarantine dinosaur's destination.

    Discards of the 2-player variant are not typed: at the table they go back to the box unseen.
    """
    names = catalog(lang)
    die, place = TEMPLATES[lang]
    lines = []
    for action in game.actions:
        if isinstance(action, Roll):
            lines.append(die.format(face=names.name("faces", _value(action.face))))
        elif isinstance(action, Place):
            words = {"player": game.players[action.player], "species": names.name("species", _value(action.species)),
                     "pen": names.name("pens", _value(action.pen))}
            if action.position is None:
                lines.append(place.format(**words))
            else:
                lines.append(PYRAMID[lang].format(**words, position=names.name("positions", action.position)))
        elif isinstance(action, QuarantineMove):
            to_pen, to_place = QUARANTINE[lang]
            words = {"player": game.players[action.player], "pen": names.name("pens", action.pen)}
            lines.append(to_pen.format(**words) if action.position is None
                         else to_place.format(**words, position=names.name("positions", action.position)))
        else:
            assert isinstance(action, Discard)
    return lines


# How a player types each Jurassic Snack action.
SNACK_LINES = {
    "fr": {"diplo": "diplo en {square} vers {direction}", "trex": "T-Rex en {square} vers {direction}",
           "one": "en {square}", "board": "plateau {board}", "fly": "{source} en {target}",
           "two": "{first} et {second}", "done": "c'est fait", "pass": "je passe"},
    "en": {"diplo": "diplo on {square} towards the {direction}", "trex": "T-Rex on {square} towards the {direction}",
           "one": "on {square}", "board": "board {board}", "fly": "{source} to {target}", "two": "{first} and {second}",
           "done": "done", "pass": "i pass"},
    "es": {"diplo": "diplo en {square} hacia {direction}", "trex": "T-Rex en {square} hacia {direction}",
           "one": "en {square}", "board": "tablero {board}", "fly": "{source} a {target}", "two": "{first} y {second}",
           "done": "hecho", "pass": "paso"},
}


def snack_script(game, lang: str, player: int | None = None) -> list[str]:
    """What the table types for a Jurassic Snack game, action by action (of `player` only, when given)."""
    words, lines = catalog(lang), SNACK_LINES[lang]
    said = []
    for action in game.actions:
        if player is not None and action.player != player:
            continue
        if isinstance(action, Move):
            said.append(lines[action.piece].format(square=action.square,
                                                   direction=words.say(f"js.directions.{action.direction}")))
        elif isinstance(action, Reveal):
            said.append(words.say(f"js.tokens.{action.token}"))
        elif isinstance(action, Hatch):
            said.append(lines["one"].format(square=action.square))
        elif isinstance(action, Scout):
            said.append(lines["board"].format(board=action.board))
        elif isinstance(action, Fly):
            said.append(lines["fly"].format(source=action.source, target=action.target))
        elif isinstance(action, (Erupt, Look)) and len(action.squares) == 2:
            said.append(lines["two"].format(first=action.squares[0], second=action.squares[1]))
        elif isinstance(action, (Erupt, Look)) and action.squares:
            said.append(lines["one"].format(square=action.squares[0]))
        elif isinstance(action, Look):
            said.append(lines["done"])
        else:
            assert isinstance(action, Pass)
            said.append(lines["pass"])
    return said


def final_lines(output: str, names: list[str], lang: str) -> dict[str, str]:
    """Each player's final score line (the one that ends with the tactile code)."""
    marker = {"fr": "code tactile", "en": "tactile code", "es": "código táctil"}[lang]
    lines = {}
    for line in output.splitlines():
        for name in names:
            if line.startswith(name) and marker in line:
                lines[name] = line
    return lines


def _value(item) -> str:
    return getattr(item, "value", item)


def run_python(code: str, env: dict[str, str] | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, encoding="utf-8",
                          env={**os.environ, **(env or {})}, cwd=ROOT, timeout=timeout, check=False)


# ---------------------------------------------------------------- work shared by the whole run

@pytest.fixture(scope="session")
def grammar_cache(tmp_path_factory) -> Path:
    """A cache folder (for XDG_CACHE_HOME) of this test run alone, shared by its workers: a recogniser grammar
    compiled by one test (English Draftosaurus: 0.4 s for `confirm`, 6 s for `turn`, 13 s for `any`, on a busy
    machine) is read back by the others, as its file is named by a digest of its text (companion.speech.fsg) and
    written whole; the user's own cache is never read."""
    base = tmp_path_factory.getbasetemp()
    run = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base  # pytest-N, above each worker's folder
    folder = run / "grammar-cache"
    folder.mkdir(exist_ok=True)
    return folder


# ---------------------------------------------------------------- a real sound server

@pytest.fixture(scope="session")
def sound_server(tmp_path_factory):
    """A private PulseAudio server for the whole run (install.sh installs it; on Linux its absence is a failure,
    not a skip: the voice loop would go untested)."""
    from companion.speech.soundserver import PrivateSoundServer, missing_programs

    if not sys.platform.startswith("linux"):
        pytest.skip("the private sound server is PulseAudio, on Linux")
    missing = missing_programs()
    assert not missing, f"not installed: {', '.join(missing)} (install.sh installs them)"
    server = PrivateSoundServer(tmp_path_factory.mktemp("sound-server")).start()
    yield server
    server.stop()


@pytest.fixture
def short_path():
    """A folder of its own with a short name, for the games said aloud: their last line says the save's path
    twice (where it is, and the command to go on), and pytest's own folder names made that line the longest
    of a game."""
    import shutil
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="game-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def sound_env(sound_server, monkeypatch):
    """This process and the children it starts use the private sound server; the server is returned."""
    for name, value in sound_server.environment().items():
        monkeypatch.setenv(name, value)
    return sound_server


# ---------------------------------------------------------------- speech environments

ALSA = {
    # A sound card that plays instantly and records noise.
    "null": "pcm.!default {{ type null }}\n",
    # Playback that never finishes: the device blocks (a pipe nobody reads), as during a long sentence.
    "blocking": 'pcm.!default {{ type file\n slave.pcm null\n file "{fifo}"\n format raw\n}}\n',
    # Playback written to a file; recording read from a file (a microphone hearing that file).
    "files": 'pcm.!default {{ type file\n slave.pcm null\n file "{played}"\n infile "{heard}"\n format raw\n}}\n',
}


def sound_home(folder: Path, kind: str, **paths: Path) -> dict[str, str]:
    """Environment variables for a child process whose default sound device is of `kind` (see ALSA)."""
    folder.mkdir(parents=True, exist_ok=True)
    if kind == "blocking":
        paths["fifo"] = folder / "speaker.fifo"
        os.mkfifo(paths["fifo"])
    (folder / ".asoundrc").write_text(ALSA[kind].format(**{k: str(v) for k, v in paths.items()}))
    return {"HOME": str(folder), "XDG_CACHE_HOME": str(Path.home() / ".cache"),
            "COMPANION_CONFIG": str(folder / "config.json")}


def no_sound_devices(folder: Path) -> dict[str, str]:
    """Environment variables for a child process that sees no sound device at all."""
    folder.mkdir(parents=True, exist_ok=True)
    config = folder / "alsa.conf"
    config.write_text("pcm.!default { type hw card 99 }\nctl.!default { type hw card 99 }\n")
    return {"ALSA_CONFIG_PATH": str(config), "HOME": str(folder),
            "XDG_CACHE_HOME": str(Path.home() / ".cache"), "COMPANION_CONFIG": str(folder / "config.json")}


def hidden_module(folder: Path, module: str, error: str) -> dict[str, str]:
    """Environment variables that make `import module` fail with `error` (an exception expression)."""
    package = folder / "hidden" / module
    package.mkdir(parents=True, exist_ok=True)
    (package / "__init__.py").write_text(f"raise {error}\n")
    return {"PYTHONPATH": os.pathsep.join([str(folder / "hidden"), os.environ.get("PYTHONPATH", "")])}


class EmptyRecogniser(Recogniser):
    """A recogniser that hears nothing, for tests of what happens around recognition (muting, fallbacks)."""

    def use_grammar(self, state, player_names=()):
        pass

    def start(self):
        pass

    def accept(self, frame):
        pass

    def finish(self):
        return Recognition("", 0.0)


# ---------------------------------------------------------------- the order of the run

# The priority of a worker (its niceness, inherited by what it starts: the program, its voice, the sound server).
# A file played through the sound server needs the processor on time, or a voice waiting for it is cut: four
# workers on two cores without priorities cut a voice played beside three busy ones. A worker playing aloud asks
# for more than the others where it may (as root, as CI runs); a worker that computes always gives way.
ALOUD_NICENESS = -5
COMPUTING_NICENESS = 10


def pytest_addoption(parser):
    parser.addoption("--store-durations", action="store_true",
                     help="write the seconds each test file took to tests/durations.json (tests/run_order.py)")


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_make_scheduler(config, log):
    """Files played aloud beside files that compute, the longest first (tests/run_order.py)."""
    return AloudBesideComputing(config, log) if config.getvalue("dist") == "loadfile" else None


def pytest_collection_modifyitems(session, config, items):
    """A test that plays through the sound server lives in tests/aloud/, where the run order looks for them."""
    misplaced = sorted({str(item.path) for item in items
                        if "sound_server" in getattr(item, "fixturenames", ()) and not is_aloud(str(item.path))})
    if misplaced:
        raise pytest.UsageError(f"these files play through the sound server, move them to tests/aloud/: {misplaced}")


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    """A worker takes the priority of the file it runs (ALOUD_NICENESS or COMPUTING_NICENESS) before its fixtures
    start anything; raising a priority takes the right to, and is skipped without it."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return
    change = (ALOUD_NICENESS if is_aloud(str(item.path)) else COMPUTING_NICENESS) - os.nice(0)
    try:
        if change:
            os.nice(change)
    except PermissionError:
        pass


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session):
    """Before pytest-xdist starts its workers (its own hook runs last), the test files are rewritten once for
    all of them (tests/rewrite_once.py)."""
    if not os.environ.get("PYTEST_XDIST_WORKER") and session.config.pluginmanager.has_plugin("dsession"):
        rewrite_once(session.config, Path(__file__).parent)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """After the last test of a file (its module's fixtures torn down), the garbage is collected and what is
    left frozen out of the collector: the collections after it go through the objects made since, not again
    through the grammars every file before kept compiled."""
    yield
    if nextitem is None or nextitem.path != item.path:
        gc.collect()
        gc.freeze()


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session):
    """Once its tests and fixtures are done, a worker collects its garbage (the hook that reports exceptions
    raised in finalizers still there) and freezes what is left out of the garbage collector. At the end of a run
    pytest collects twice more; over a worker's millions of objects (the grammars kept compiled) each collection
    took over 3 s, and 5 s after it was asked to stop xdist's gateway sent the worker a SIGINT (the
    KeyboardInterrupt printed at the end of every run) and the run waited for it. Here the worker has not yet
    said it is done: the gateway's clock has not started."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        gc.collect()
        gc.freeze()


def pytest_configure(config):
    if config.getoption("store_durations") and not os.environ.get("PYTEST_XDIST_WORKER"):
            config.pluginmanager.register(DurationsRecorder(), "file-durations")
