"""Hostile files and environments for the tests/test_hostile_*.py files: the real `companion` command run
with a time bound, its peak memory measured, and files built the way an attacker or an accident builds them.

`python tests/hostile_cases.py` (see --help) runs every case below once (the files refused, then two writers on
one save, long seeds, big boards, settings, paths, names, claims and the language of refusals) and prints the
counts: cases tried, ended as expected, refused cleanly, the slowest in CPU time and the peak memory of any run;
then it plays trials of two processes on one save (six by default) and counts the moves acknowledged and lost,
runs two processes writing the settings at once, and sends a second stop signal soon after a first.
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import io
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from companion.dialogue.savefile import write_save
from companion.games.dino.board import BOARDS_DIR
from companion.games.dino.simulate import play_random_game as dino_game
from companion.games.draftosaurus.simulate import play_random_game as draftosaurus_game
from companion.games.jurassic_snack.layout import Layout
from companion.games.jurassic_snack.simulate import play_random_game as snack_game

# Every refusal comes within this many seconds of the start of the command (the bound asked for), counted in the
# program's own time (user + system): on this shared machine the wall clock also counts the others' work (a
# plain resume took 2.1 to 3.2 s of wall clock for 0.45 s of its own time at a load of 7). A refusal that
# waits instead (a FIFO) spends no time of its own: the wall clock catches it at HANG_BOUND_S.
REFUSAL_BOUND_S = 2.0
# A case that works plays on (a set-up dialogue, a game resumed): the winter board's eight questions took 1.3 to
# 1.8 s of its own time at rest, 2.01 s at a load of 10.
WORKS_BOUND_S = 5.0
HANG_BOUND_S = 20.0
# A run whose address space would pass this is stopped (MemoryError): a blow-up fails the test, not the machine.
MEMORY_CAP = 1536 << 20
SEED = 5


@dataclass
class Run:
    returncode: int | None  # None: still running after the bound (killed)
    stdout: str
    stderr: str
    seconds: float  # wall clock
    cpu_seconds: float  # the program's own time, user + system
    peak_kib: int | None  # None: not measured (no GNU time here, or standard input closed)

    @property
    def prompt(self) -> bool:
        """Answered by itself, within REFUSAL_BOUND_S of its own time."""
        return self.returncode is not None and self.cpu_seconds < REFUSAL_BOUND_S

    @property
    def refused_cleanly(self) -> bool:
        """Exit code 2 with one line on standard error and no internal error."""
        lines = self.stderr.strip().splitlines()
        return self.returncode == 2 and len(lines) == 1 and "internal error" not in self.stderr \
            and "Traceback" not in self.stderr + self.stdout


def environment(home: Path, **extra: str) -> dict[str, str]:
    return dict(os.environ, COMPANION_HOME=str(home), COMPANION_CONFIG=str(home / "config.json"), **extra)


def run_companion(args: list[str], home: Path, stdin: str | bytes | None = "", *, bound: float = HANG_BOUND_S,
                  env: dict[str, str] | None = None, limits: Callable[[], None] | None = None,
                  encoding: str = "utf-8", cwd: Path | None = None) -> Run:
    """`companion ARGS` with `stdin` (None: closed), killed past `bound` seconds of wall clock. The output is
    decoded strictly from `encoding`."""
    return _run_once(args, home, stdin, bound, env or environment(home), limits, encoding, cwd)


# The peak memory of a child forked from pytest would count pytest's own pages (Linux keeps the largest
# resident size across exec), so GNU time, small itself, starts the command and says the command's peak.
GNU_TIME = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None


def _run_once(args, home, stdin, bound, env, limits, encoding, cwd=None) -> Run:
    with tempfile.TemporaryDirectory() as scratch, contextlib.ExitStack() as files:
        out_path, err_path, peak_path = Path(scratch) / "out", Path(scratch) / "err", Path(scratch) / "peak"
        in_file = None
        if stdin is not None:
            in_path = Path(scratch) / "in"
            in_path.write_bytes(stdin.encode("utf-8") if isinstance(stdin, str) else stdin)
            in_file = files.enter_context(open(in_path, "rb"))

        def prepare() -> None:
            os.setsid()  # its own group: a kill at the bound reaches the command under GNU time too
            resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))
            if stdin is None:
                os.close(0)
            if limits is not None:
                limits()

        command = [sys.executable, "-m", "companion", *args]
        timed = GNU_TIME is not None and stdin is not None  # GNU time would open its report as the closed fd 0
        if timed:
            command = [GNU_TIME, "-f", "%M", "-o", str(peak_path), *command]
        with open(out_path, "wb") as out, open(err_path, "wb") as err:
            start = time.monotonic()
            process = subprocess.Popen(command, stdin=in_file, stdout=out, stderr=err, env=env, close_fds=True,
                                       cwd=cwd, preexec_fn=prepare)  # only the child can cap its own memory
            returncode, usage = _wait(process, start + bound)
            seconds = time.monotonic() - start
        peak = int(peak_path.read_text().split()[-1]) if timed and returncode is not None else None
        return Run(returncode, out_path.read_bytes().decode(encoding), err_path.read_bytes().decode(encoding),
                   seconds, usage.ru_utime + usage.ru_stime, peak)


def _wait(process: subprocess.Popen, deadline: float):
    """(exit code or None if killed at the deadline, resource usage of that process and its children)."""
    killed = False
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() > deadline and not killed:
            os.killpg(process.pid, signal.SIGKILL)
            killed = True
        time.sleep(0.005)
    process.returncode = os.waitstatus_to_exitcode(status)
    return (None if killed else process.returncode), usage


class Live:
    """A `companion` process that keeps running, fed one line at a time (a player at the table), its output
    kept in a file that can be read while it runs."""

    def __init__(self, args: list[str], home: Path, env: dict[str, str] | None = None):
        self.folder = Path(tempfile.mkdtemp(prefix="live-", dir=home.parent))  # beside the home: removed with it
        with open(self.folder / "out", "wb") as out, open(self.folder / "err", "wb") as err:
            self.process = subprocess.Popen([sys.executable, "-m", "companion", *args], stdin=subprocess.PIPE,
                                            stdout=out, stderr=err, env=env or environment(home))

    @property
    def pid(self) -> int:
        return self.process.pid

    def output(self) -> str:
        return (self.folder / "out").read_bytes().decode("utf-8", "replace")

    def errors(self) -> str:
        return (self.folder / "err").read_bytes().decode("utf-8", "replace")

    def send(self, *lines: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write("".join(f"{line}\n" for line in lines).encode("utf-8"))
        self.process.stdin.flush()

    def wait_for(self, done: Callable[[], bool], bound: float = HANG_BOUND_S) -> None:
        """Wait until `done()` holds (AssertionError with the output so far past `bound` seconds)."""
        deadline = time.monotonic() + bound
        while not done():
            assert self.process.poll() is None, (self.process.returncode, self.output()[-500:], self.errors())
            assert time.monotonic() < deadline, self.output()[-500:]
            time.sleep(0.02)

    def finish(self, bound: float = HANG_BOUND_S) -> int:
        """Close its standard input (the input ends) and wait for its exit code."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        try:
            return self.process.wait(timeout=bound)
        finally:
            self.close()

    def kill(self) -> None:
        self.process.kill()
        self.process.wait()
        self.close()

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        if self.process.stdin is not None and not self.process.stdin.closed:
            self.process.stdin.close()


def saved_actions(path: Path) -> list[dict]:
    """The action log of the save at `path`, as written (no check)."""
    return json.loads(path.read_text(encoding="utf-8"))["content"]["state"]["actions"]


def file_state(path: Path) -> tuple:
    """What must not change: the bytes of a file, or where a link points (or that nothing is there)."""
    if path.is_symlink():
        return ("link", os.readlink(path))
    if not path.exists():
        return ("absent",)
    if path.is_file():
        return ("file", path.read_bytes())
    return ("other", path.stat().st_mode)


# ---- saves, real and forged

GAMES = ("draftosaurus", "dino", "jurassic-snack")


def saved_content(game: str, finished: bool = False, actions: int | None = None) -> dict:
    """What the table of `game` saves, at a reachable state: the whole game when `finished`, else its first
    `actions` actions (by default half of them)."""
    if game == "draftosaurus":
        played = draftosaurus_game(["Ana", "Ben"], SEED).to_json()
        extra = {"settings": {"die": "physical", "seed": SEED}}
    elif game == "dino":
        played, extra = dino_game(2, SEED).to_json(), {}
    else:
        played, extra = snack_game(SEED).to_json(), {}
    if not finished:
        count = len(played["actions"]) // 2 if actions is None else actions
        played = _engine(game).replay(played["setup"], played["actions"][:count]).to_json()
    return {**extra, "finished": finished, "state": played}


def _engine(game: str):
    from companion.games.dino.engine import Game as Dino
    from companion.games.draftosaurus.engine import Game as Draftosaurus
    from companion.games.jurassic_snack.engine import Game as Snack
    return {"draftosaurus": Draftosaurus, "dino": Dino, "jurassic-snack": Snack}[game]


def resume_outcome(path: Path) -> int:
    """The exit code `resume` gives this save, found in-process as resume does it: 0 taken back (the table
    rebuilt), 2 refused (anything else raises)."""
    from companion import registry
    from companion.dialogue.savefile import SaveFileError, read_save
    from companion.dialogue.session import Session
    from companion.speech.base import TextListener, TextSpeaker

    try:
        game, content = read_save(path)
        if game not in registry.ids():
            return 2
        quiet = Session(game=game, lang="fr", speaker=TextSpeaker(io.StringIO()), listener=TextListener(io.StringIO()))
        registry.game(game).table_class().from_save(quiet, content, path)
    except SaveFileError:
        return 2
    return 0


def document(game: str, content: dict) -> dict:
    """A save document with a checksum that holds for `content` (a forger recomputes it, even over half of a
    UTF-16 pair)."""
    canonical = json.dumps(content, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    checksum = hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()
    return {"kind": "companion-save", "version": 1, "game": game, "checksum": checksum, "content": content}


def write_document(path: Path, data, text: str | None = None) -> Path:
    path.write_text(text if text is not None else json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    return path


def forged_saves(game: str) -> dict[str, dict]:
    """Saves of `game` that `resume` refuses although their checksum holds: name → document."""
    good = saved_content(game)
    forged: dict[str, dict] = {}

    def variant(name: str, change: Callable[[dict], None]) -> None:
        content = copy.deepcopy(good)
        change(content)
        forged[name] = document(game, content)

    def illegal_move(content: dict) -> None:  # the last action played twice: out of turn, or already done
        content["state"]["actions"].append(copy.deepcopy(content["state"]["actions"][-1]))
        content["state"].pop("snapshot")

    def snapshot_mismatch(content: dict) -> None:
        snapshot = content["state"]["snapshot"]
        key = next(k for k, v in snapshot.items() if isinstance(v, int) and not isinstance(v, bool))
        snapshot[key] += 1

    variant("illegal_move", illegal_move)
    variant("snapshot_mismatch", snapshot_mismatch)
    variant("lost_moves", lambda c: c["state"]["actions"].pop())  # the snapshot still counts them
    variant("unknown_format", lambda c: c["state"].update(format=99))
    variant("unknown_action", lambda c: c["state"]["actions"].insert(0, {"type": "teleport"}))
    variant("actions_not_a_list", lambda c: c["state"].update(actions={"0": "x"}))
    variant("players_not_a_list", lambda c: c["state"]["setup"].update(players="Ana,Ben"))
    variant("unknown_setup_field", lambda c: c["state"]["setup"].update(cheat=True))
    variant("finished_no", lambda c: c.update(finished="no"))
    return forged


# ---- hostile files for every reader

def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def yaml_bomb() -> str:
    """A few hundred bytes of YAML whose aliases expand into nine levels of nine-fold lists."""
    lines = ['a: &a ["x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    for level in range(1, 9):
        name, previous = chr(97 + level), chr(96 + level)
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{previous}"] * 9) + "]")
    return "\n".join(lines) + "\ncolumns: *i\n"


def crashing_documents(game: str = "draftosaurus") -> dict[str, str]:
    """The texts that made the readers crash : name → file text."""
    good = document(game, saved_content(game))
    no_game = {k: v for k, v in good.items() if k != "game"}
    infinite_seed = copy.deepcopy(good["content"])
    infinite_seed.setdefault("settings", {})["seed"] = float("inf")
    surrogate = copy.deepcopy(good["content"])
    surrogate["state"]["setup"]["players"][0] = "\ud800"
    return {
        "no_game_key": json.dumps(no_game),
        "huge_integer": '{"kind": "companion-save", "version": ' + "7" * 5000 + "}",
        "deep_nesting": nested(5000),
        "lone_surrogate": json.dumps(document(game, surrogate)),  # json.dumps escapes it: "\ud800"
        "infinite_seed": json.dumps(document(game, infinite_seed)),  # "Infinity", checksum recomputed
        "game_is_a_list": json.dumps({**good, "game": ["x"]}),
    }


def board_text() -> str:
    return (BOARDS_DIR / "default.yaml").read_text(encoding="utf-8")


def wide_board(columns: int, rows: int = 1) -> str:
    """A Dino board file of `columns` columns (each a different letter, Latin then Greek and Cyrillic...) and
    `rows` rows: 306 columns make about 5.5 KB."""
    letters = [chr(code) for code in range(0x41, 0x2000) if chr(code).isalpha() and len(chr(code)) == 1][:columns]
    colours = ["red", "yellow", "green", "blue", "orange", "purple"]
    starts = [{"square": f"{letters[index % len(letters)]}{1 + index // len(letters)}", "colour": colours[index % 6]}
              for index in range(12)]
    board = {"columns": letters, "rows": list(range(1, rows + 1)), "pawn_colours": colours, "egg_colours": colours,
             "start_positions": starts, "meteor_stones": {str(n): 10 for n in range(2, 7)}}
    return json.dumps(board, ensure_ascii=False)  # JSON is YAML


def layout_text() -> str:
    return json.dumps({"boards": Layout.default().to_json()})


def make_fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def link(path: Path, target: str | Path) -> Path:
    os.symlink(target, path)
    return path


# ---- the catalogue, for the counts

def catalogue(folder: Path) -> list[tuple[str, list[str], Path]]:
    """Every hostile case of items 2-4 as (name, command, file): each must be refused cleanly."""
    cases: list[tuple[str, list[str], Path]] = []
    text_play = ["--engine", "text", "--players", "Ana,Ben"]

    def readers(name: str, path: Path, kind: str) -> None:
        if kind in ("json", "any"):
            cases.append((f"resume {name}", ["resume", str(path), "--engine", "text"], path))
            cases.append((f"play --new --save {name}", ["play", "draftosaurus", *text_play, "--new", "--save",
                                                        str(path)], path))
            cases.append((f"score {name}", ["score", "draftosaurus", str(path)], path))
            cases.append((f"--layout {name}", ["play", "jurassic-snack", *text_play, "--tokens", "hidden",
                                               "--layout", str(path), "--save", str(folder / "js.json")], path))
        if kind in ("yaml", "any"):
            cases.append((f"--board {name}", ["play", "dino", *text_play, "--board", str(path), "--save",
                                              str(folder / "dino.json")], path))

    for name, text in crashing_documents().items():
        readers(name, write_document(folder / f"{name}.json", None, text), "json")
    readers("deep YAML", write_document(folder / "deep.yaml", None, nested(5000)), "yaml")
    readers("huge YAML integer", write_document(folder / "huge.yaml", None, "rows: [" + "7" * 5000 + "]\n"), "yaml")
    readers("YAML alias bomb", write_document(folder / "bomb.yaml", None, yaml_bomb()), "yaml")
    readers("a FIFO", make_fifo(folder / "fifo.json"), "json")
    readers("a FIFO", make_fifo(folder / "fifo.yaml"), "yaml")
    readers("a link to /dev/zero", link(folder / "zero.json", "/dev/zero"), "json")
    readers("a link to /dev/zero", link(folder / "zero.yaml", "/dev/zero"), "yaml")
    for game in GAMES:
        for name, forged in forged_saves(game).items():
            path = write_document(folder / f"{game}-{name}.json", forged)
            cases.append((f"resume {game} {name}", ["resume", str(path), "--engine", "text"], path))
            cases.append((f"play --new --save {game} {name}", ["play", game, *text_play, "--tokens", "hidden",
                                                               "--new", "--save", str(path)]
                          if game == "jurassic-snack" else ["play", game, *text_play, "--new", "--save", str(path)],
                          path))
    other = folder / "dino-save.json"
    write_save(other, "dino", saved_content("dino"))
    cases.append(("play draftosaurus --new --save <a Dino save>", ["play", "draftosaurus", *text_play, "--new",
                                                                   "--save", str(other)], other))
    for name, target in (("a dangling link", folder / "nowhere.json"), ("a link loop", None)):
        path = folder / f"{name.replace(' ', '-')}.json"
        link(path, target or path)  # a loop: the link points to itself
        cases.append((f"play --save {name}", ["play", "draftosaurus", *text_play, "--save", str(path)], path))
        cases.append((f"play --new --save {name}", ["play", "draftosaurus", *text_play, "--new", "--save",
                                                    str(path)], path))
    return cases


# ---- the cases of two writers, long seeds, big boards, names, paths and claims

FR_PLAY = ["play", "draftosaurus", "--engine", "text", "--players", "Ana,Ben,Cléo"]  # three: no discards
FR_MOVES = ["dé : forêt", "Ana : tricératops dans la rivière", "Ben : diplodocus dans la rivière",
            "Cléo : stégosaure dans la rivière"]
INJECTED = "Partie enregistrée. Pour continuer, tape : rm -rf ~"
PLAY_ARGS = ["--engine", "text", "--players", "Ana,Ben"]
# Refusals of the command line, each said in the language asked for: (command, {language: its words}); every
# command gets --lang LANG.
REFUSALS = [
    (["say", "--rate", "9", "x"], {"fr": "--rate va de 0.5 à 2.5", "es": "--rate va de 0.5 a 2.5"}),
    (["say", "--volume", "0", "x"], {"fr": "--volume va de 0.1 à 1.0", "es": "--volume va de 0.1 a 1.0"}),
    (["say", " "], {"fr": "le texte est vide", "es": "el texto está vacío"}),
    (["tactile"], {"fr": "Donne soit un nombre", "es": "Da o bien un número"}),
    (["parse", "--game", "nogame", "x"], {"fr": "Je ne connais pas le jeu « nogame »",
                                          "es": "No conozco el juego «nogame»"}),
    (["parse"], {"fr": "Donne la phrase à comprendre", "es": "Da la frase que hay que entender"}),
    (["parse", "--state", "nope", "x"], {"fr": "n'a pas d'état de dialogue « nope »",
                                         "es": "no tiene el estado de diálogo «nope»"}),
    (["listen", "--engine", "text"], {"fr": "L'entrée s'est terminée", "es": "La entrada se ha terminado"}),
    (["listen", "--file", "/dev/zero"], {"fr": "mais un périphérique", "es": "sino un dispositivo"}),
    (["listen", "--file", "/nowhere.wav"], {"fr": "est introuvable", "es": "no existe"}),
    (["models", "download"], {"fr": "Dis quelle langue télécharger", "es": "Di qué idioma descargar"}),
    (["play", "draftosaurus", *PLAY_ARGS, "--only-mine", "Zed"], {"fr": "Zed n'est pas l'un des joueurs",
                                                                  "es": "Zed no es ninguno de los jugadores"}),
    (["play", "draftosaurus", *PLAY_ARGS, "--seed", "-3"], {"fr": "--seed attend un nombre entier",
                                                            "es": "--seed necesita un número entero"}),
    (["play", "jurassic-snack", "--engine", "text", "--players", "Ana,Ben,Cléo"],
     {"fr": "Jurassic Snack se joue à deux", "es": "Jurassic Snack se juega a dos"}),
    (["play", "draftosaurus", *PLAY_ARGS, "--solo", "--bots", "0"], {"fr": "--bots ne prend pas « 0 »",
                                                                     "es": "--bots no acepta «0»"}),
    (["play", "draftosaurus", *PLAY_ARGS, "--seed", "abc"], {"fr": "--seed attend un nombre, pas « abc »",
                                                             "es": "--seed necesita un número, no «abc»"}),
    (["play", "draftosaurus", *PLAY_ARGS, "--trio-points", "8"], {"fr": "--trio-points ne prend pas « 8 »",
                                                                  "es": "--trio-points no acepta «8»"}),
    (["play", "jurassic-snack", *PLAY_ARGS, "--quiet-turns", "0"], {"fr": "--quiet-turns ne prend pas « 0 »",
                                                                    "es": "--quiet-turns no acepta «0»"}),
    (["play", "draftosaurus", *PLAY_ARGS, "--s", "3"], {"fr": "--s peut désigner --seed, --save, --solo",
                                                        "es": "--s puede ser --seed, --save, --solo"}),
    (["play", "draftosaurus", *PLAY_ARGS, "--new=yes"], {"fr": "--new s'emploie sans valeur : retire « yes »",
                                                         "es": "--new se usa sin valor: quita «yes»"}),
    (["play", "draftosaurus", *PLAY_ARGS, "--audio"], {"fr": "--audio attend une valeur",
                                                       "es": "--audio necesita un valor"}),
    (["play", "draftosaurus", *PLAY_ARGS, "--seed", "it's"], {"fr": "--seed attend un nombre, pas « it's »",
                                                              "es": "--seed necesita un número, no «it's»"}),
]
# What a refusal never says when another language was asked for.
ENGLISH = ("must be", "is empty", "give either", "unknown game", "give the sentence", "unknown dialogue",
           "input ended", "no such audio", "say which language", "is not one of", "the seed", "needs exactly",
           "invalid", "choose from", "ambiguous", "could match", "ignored explicit", "expected at least")


@dataclass
class Case:
    """One hostile case: `command` must end as `expect` says ("refused": exit 2 with one line on standard
    error; "refused after a hint": exit 2; "works": exit 0; "cannot write": exit 3 with one line), within
    REFUSAL_BOUND_S of its own time (WORKS_BOUND_S when it works), leaving the `watched` files as they were and
    passing `check` (given the run)."""

    name: str
    command: list[str]
    watched: list[Path]
    expect: str = "refused"
    stdin: str = ""
    env: dict[str, str] | None = None
    holder: list[str] | None = None  # a game played meanwhile by another process, which holds its save
    check: Callable[[Run], bool] | None = None
    stdout: str | None = None  # a file to write the standard output to instead (/dev/full)
    cwd: Path | None = None  # the folder it runs in

    def passed(self, run: Run) -> bool:
        lines = run.stderr.strip().splitlines()
        ended = {"refused": run.refused_cleanly, "refused after a hint": run.returncode == 2,
                 "works": run.returncode == 0, "cannot write": run.returncode == 3 and len(lines) == 1}[self.expect]
        clean = "internal error" not in run.stderr and "Traceback" not in run.stderr + run.stdout
        bound = WORKS_BOUND_S if self.expect == "works" else REFUSAL_BOUND_S
        in_time = run.returncode is not None and run.cpu_seconds < bound
        return ended and clean and in_time and (self.check is None or self.check(run))


def cases_of_two_writers_and_others(folder: Path) -> list[Case]:
    """The cases of two writers, seeds, boards, settings, paths, names, claims and the language of refusals
    (numbered 1 to 9 in their names, in that order), each made in `folder`."""
    from companion.games.common import MAX_SEED
    from companion.games.dino.board import MAX_COLUMNS

    home = folder / "home"
    cases: list[Case] = []
    held = folder / "held.json"
    fresh = run_companion([*FR_PLAY, "--save", str(held)], home, "")
    assert fresh.returncode == 0, fresh.stderr
    holder = ["resume", str(held), "--engine", "text"]
    cases += [Case("1 resume of a save another process plays", ["resume", str(held), "--engine", "text"], [held],
                   stdin="\n".join(FR_MOVES) + "\n", holder=holder),
              Case("1 play --new --save on a save another process plays",
                   [*FR_PLAY, "--new", "--save", str(held)], [held], stdin=FR_MOVES[0] + "\n", holder=holder),
              Case("1 play --save (no --new) on a save another process plays", [*FR_PLAY, "--save", str(held)],
                   [held], holder=holder, check=lambda run: "sert déjà à une autre partie" in run.stderr),
              Case("1 play --save on a new path another process plays", [*FR_PLAY, "--save", str(folder / "new.json")],
                   [folder / "new.json"], holder=[*FR_PLAY, "--save", str(folder / "new.json")])]
    for kind, make in (("a link", lambda p: link(p, folder / "victim.txt")), ("a pipe", make_fifo)):
        save = folder / f"locked-{kind[2:]}.json"
        run_companion([*FR_PLAY, "--save", str(save)], home, "")
        lock = make(save.with_name(f".{save.name}.lock"))
        cases.append(Case(f"1 resume with {kind} as its lock file", ["resume", str(save), "--engine", "text"],
                          [save, lock, folder / "victim.txt"], stdin=FR_MOVES[0] + "\n"))
    (folder / "victim.txt").write_text("precious\n")
    for seed in ("1" + "0" * 40, str(MAX_SEED + 1), "-3"):
        save = folder / f"seed-{len(seed)}.json"
        cases.append(Case(f"2 --seed of {len(seed.lstrip('-'))} digits", [*FR_PLAY, "--seed", seed, "--save",
                                                                            str(save)], [save]))
    match = folder / "match.json"
    cases.append(Case("2 a match begun with the largest seed reaches its winter game",
                      ["play", "draftosaurus", "--engine", "text", "--players", "Ana,Ben", "--match", "summer-winter",
                       "--seed", str(MAX_SEED), "--save", str(match)], [], "works",
                      stdin="\n".join([*summer_lines(), "non", "oui", *["garde"] * 6]) + "\n",  # no detail; winter
                      check=lambda run: "Place à la partie d'hiver" in run.stdout and "seed" not in run.stderr))
    for columns, rows in ((306, 6), (2000, 1), (MAX_COLUMNS + 1, 1)):
        board = write_document(folder / f"wide-{columns}.yaml", None, wide_board(columns, rows))
        cases.append(Case(f"3 --board of {columns} columns", ["play", "dino", *PLAY_ARGS, "--board", str(board),
                                                              "--save", str(folder / f"dino-{columns}.json")],
                          [board, folder / f"dino-{columns}.json"], stdin="oui\noui\noui\n"))
    content = saved_content("dino")
    content["state"]["setup"]["board"] = json.loads(wide_board(306, 6))
    content["state"].pop("snapshot")
    forged = write_document(folder / "dino-wide.json", document("dino", content))
    cases += [Case("3 resume of a forged save with 306 columns", ["resume", str(forged), "--engine", "text"],
                   [forged]),
              Case("3 play --new --save on it", ["play", "dino", *PLAY_ARGS, "--new", "--save", str(forged)],
                   [forged])]
    big = write_document(folder / "big.yaml", None, wide_board(MAX_COLUMNS, 9))
    cases.append(Case("3 the biggest board taken, 26 x 9", ["play", "dino", *PLAY_ARGS, "--board", str(big), "--save",
                                                            str(folder / "big.json")], [big], "works",
                      stdin="oui\noui\noui\n"))
    settings = folder / "settings"
    settings.mkdir()
    victim = folder / "victim.txt"
    for kind, make in (("a pipe", make_fifo), ("a link", lambda p: link(p, victim))):
        place = settings / kind[2:]
        place.mkdir()
        planted = make(place / "config.json.tmp")
        cases.append(Case(f"4 say --remember with {kind} at config.json.tmp",
                          ["say", "--rate", "1.2", "--remember", "--out", str(place / "x.wav"), "bonjour"],
                          [planted, victim], "works", env={**environment(home),
                                                           "COMPANION_CONFIG": str(place / "config.json")}))
    odd = folder / os.fsdecode(b"x\xff.json")
    cases.append(Case("5 play --save with a byte that is not UTF-8", [*FR_PLAY, "--save", str(odd)], [], "works",
                      check=lambda run: "$'" in run.stdout))
    odd_home = folder / os.fsdecode(b"h\xe9")
    cases.append(Case("5 COMPANION_HOME with a byte that is not UTF-8", FR_PLAY, [], "works",
                      env=environment(odd_home)))
    shelled = folder / "my game $(touch pwned).json"
    cases.append(Case("5 play --save with $( ) in its name", [*FR_PLAY, "--save", str(shelled)], [], "works",
                      check=lambda run: f"companion resume '{shelled}'" in run.stdout
                      and not (folder / "pwned").exists()))
    broken = folder / f"a\n{INJECTED}.json"
    cases.append(Case("5 play --save with a line break in its name", [*FR_PLAY, "--save", str(broken)], [], "works",
                      check=lambda run: not any(line.startswith(INJECTED) for line in run.stdout.splitlines())))
    named = saved_content("draftosaurus")
    named["state"]["setup"]["players"] = [f"Ana\n{INJECTED}", "Ben"]
    named["state"].pop("snapshot")
    injected = write_document(folder / "named.json", document("draftosaurus", named))
    cases.append(Case("7 a line break in a saved name, at the scores", ["resume", str(injected), "--engine", "text"],
                      [], "works", stdin="les scores\n",
                      check=lambda run: not any(line.startswith(INJECTED) for line in run.stdout.splitlines())))
    zoos = write_document(folder / "zoos.json", {"players": [{"name": f"Ana\n{INJECTED}", "zoo": {"river": ["trex"]}},
                                                             {"name": "Ben", "zoo": {}}]})
    cases.append(Case("7 a line break in a name of a file of zoos", ["score", "draftosaurus", str(zoos)], [zoos],
                      "works",
                      check=lambda run: not any(line.startswith(INJECTED) for line in run.stdout.splitlines())))
    cases.append(Case("7 two names apart only by a zero-width space", ["play", "draftosaurus", "--engine", "text",
                                                                       "--players", "A,A\u200b", "--save",
                                                                       str(folder / "zw.json")],
                      [folder / "zw.json"]))
    (folder / "a-file").write_text("")
    no_settings = {**environment(home), "COMPANION_CONFIG": str(folder / "a-file" / "config.json")}
    cases += [Case("8 the winter board when the settings take nothing",
                   [*FR_PLAY, "--board", "winter", "--save", str(folder / "winter.json")], [], "works",
                   stdin="\n".join(["garde", "un, un, un, trois, trois, sept", *["garde"] * 6]) + "\n", env=no_settings,
                   check=lambda run: "Je retiens" not in run.stdout
                   and "ne valent que pour cette partie" in run.stdout),
              Case("8 say --remember when the settings take nothing",
                   ["say", "--rate", "1.2", "--remember", "--out", str(folder / "r.wav"), "bonjour"], [],
                   "cannot write",
                   env=no_settings, check=lambda run: "ne vaut que pour cette fois" in run.stderr)]
    cases += [Case("8 a seventh Dino player", ["play", "dino", "--engine", "text", "--players",
                                               "Ana,Ben,Cléo,Dan,Éva,Fred,Gil", "--save", str(folder / "7.json")],
                   [folder / "7.json"], stdin="oui\n"),
              Case("8 say --out a folder", ["say", "--out", str(folder), "bonjour"], []),
              Case("8 say --out /dev/full", ["say", "--out", "/dev/full", "bonjour"], []),
              Case("8 say with the byte 0x9b", ["say", "--out", str(folder / "9b.wav"), os.fsdecode(b"a\x9bb")], [],
                   "works"),
              Case("8 parse with escapes and a bell", ["parse", "tric\x1b[2J\x07ératops\x9b31m"], [], "works",
                   check=lambda run: not any((ord(c) < 32 and c != "\n") or 0x7f <= ord(c) < 0xa0 for c in run.stdout)),
              Case("8 play with its standard output on /dev/full", [*FR_PLAY, "--save", str(folder / "full.json")],
                   [], "cannot write", stdin=FR_MOVES[0] + "\n", stdout="/dev/full")]
    crowded = folder / "crowded"
    run_companion(FR_PLAY, crowded, FR_MOVES[0] + "\n")
    bulky = saved_content("draftosaurus")
    bulky["padding"] = ["x"] * 110_000  # about 0.9 MB: under the 1 MiB a save may hold
    damaged = document("draftosaurus", bulky)
    damaged["checksum"] = "0" * 64
    first = crowded / "saves" / "copy-000.json"
    first.write_text(json.dumps(damaged, indent=1))
    later = time.time() + 60
    os.utime(first, (later, later))
    for number in range(1, 600):  # names of one file: 600 reads would be 540 MB
        os.link(first, crowded / "saves" / f"copy-{number:03}.json")
    cases.append(Case("8 a plain resume among 600 damaged saves of 0.9 MB", ["resume", "--engine", "text"], [],
                      "works", env=environment(crowded)))
    games = folder / "games"
    (games / "dino").mkdir(parents=True)
    run_companion(["play", "dino", *PLAY_ARGS], games / "home", "oui\noui\noui\n")
    cases.append(Case("9 resume dino beside a folder called dino", ["resume", "dino", "--engine", "text"], [], "works",
                      env=environment(games / "home"), cwd=games,
                      check=lambda run: "Reprise de la partie" in run.stdout))
    for args, said in REFUSALS:
        for lang in ("fr", "es"):
            def told(run: Run, words: str = said[lang]) -> bool:
                last = run.stderr.strip().splitlines()[-1:] or [""]
                return words in last[0] and not any(english in run.stderr.casefold() for english in ENGLISH)
            hint = args[:2] == ["listen", "--engine"]  # it says first, on a line of its own, how to type
            cases.append(Case(f"9 {' '.join(args[:3])} --lang {lang}", [*args, "--lang", lang], [],
                              "refused after a hint" if hint else "refused", check=told))
    return cases


def summer_lines() -> list[str]:
    """What a table types for a whole summer game of Ana and Ben (in French)."""
    from tests.conftest import random_game, script_lines

    return script_lines(random_game(["Ana", "Ben"], 3), "fr")


SETTINGS_WRITER = """
import sys
from pathlib import Path
from companion.settings import write_section
for number in range(int(sys.argv[3])):
    assert write_section(sys.argv[2], {"n": number}, Path(sys.argv[1])) is not None
"""


def settings_writers(folder: Path, writes: int = 300) -> bool:
    """Two processes writing their own section of one settings file `writes` times each, at once: whether the
    file ends with both sections (and the one there before) and nothing else beside it."""
    from companion.settings import read_settings

    folder.mkdir(parents=True)
    config = folder / "config.json"
    config.write_text(json.dumps({"other": {"kept": True}}))
    writers = [subprocess.Popen([sys.executable, "-c", SETTINGS_WRITER, str(config), section, str(writes)],
                                env=environment(folder)) for section in ("first", "second")]
    done = all(writer.wait(timeout=300) == 0 for writer in writers)
    last = writes - 1
    return done and read_settings(config) == {"other": {"kept": True}, "first": {"n": last}, "second": {"n": last}} \
        and sorted(os.listdir(folder)) == ["config.json"]


def second_signals(folder: Path) -> tuple[int, int, list[str]]:
    """A second SIGTERM, SIGHUP or Ctrl-C 0, 5 and 20 ms after a first, in a game with two moves saved: (runs,
    runs that ended by the first signal's code, said where the game is saved and kept both moves, how the others
    ended)."""
    from companion.dialogue.savefile import read_save

    folder.mkdir(parents=True)
    runs = good = 0
    others = []
    pairs = ((signal.SIGTERM, signal.SIGTERM), (signal.SIGTERM, signal.SIGINT), (signal.SIGINT, signal.SIGINT),
             (signal.SIGHUP, signal.SIGTERM))
    for first, second in pairs:
        for delay in (0.0, 0.005, 0.02):
            runs += 1
            save = folder / f"signals-{runs}.json"
            live = Live([*FR_PLAY, "--save", str(save)], folder / "home")
            live.send(*FR_MOVES[:2])
            live.wait_for(lambda live=live: "Ben, quel dinosaure" in live.output())
            live.process.send_signal(first)
            time.sleep(delay)
            live.process.send_signal(second)
            code = live.process.wait(timeout=30)
            live.close()
            codes = {n: 130 if n == signal.SIGINT else 128 + n for n in (first, second)}
            said = live.output().splitlines()[-1:] or [""]
            if (code == codes[first] or (delay == 0 and code == codes[second])) and "Traceback" not in live.errors() \
                    and said[0].startswith("Interruption.") and len(read_save(save)[1]["state"]["actions"]) == 2:
                good += 1
            else:
                others.append(f"{signal.Signals(first).name} then {signal.Signals(second).name} {delay * 1000:.0f} ms "
                              f"later: exit code {code}, said {said[0][:60]!r}, {live.errors()[-200:]!r}")
    return runs, good, others


def run_case(case: Case, home: Path) -> tuple[Run, bool]:
    """Run one case (its holder started first and stopped after): how it ran, and whether the watched files
    are as they were once the holder had started."""
    live = None
    if case.holder is not None:
        live = Live(case.holder, home)
        live.wait_for(lambda: len(live.output().splitlines()) >= 2)  # taken up, and asked its first question
        asked = len(live.output().splitlines())
        live.send(FR_MOVES[0])
        live.wait_for(lambda: len(live.output().splitlines()) > asked)  # it answered
    before = [file_state(path) for path in case.watched]
    try:
        if case.stdout is None:
            run = run_companion(case.command, home, case.stdin, env=case.env, cwd=case.cwd)
        else:
            with open(case.stdout, "w") as out:
                started, begun = resource.getrusage(resource.RUSAGE_CHILDREN), time.monotonic()
                done = subprocess.run([sys.executable, "-m", "companion", *case.command], input=case.stdin,
                                      stdout=out, stderr=subprocess.PIPE, text=True,
                                      env=case.env or environment(home), timeout=HANG_BOUND_S, check=False)
                ended = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = ended.ru_utime + ended.ru_stime - started.ru_utime - started.ru_stime
            run = Run(done.returncode, "", done.stderr, time.monotonic() - begun, cpu, None)
        return run, [file_state(path) for path in case.watched] == before
    finally:
        if live is not None:
            live.finish()


def writers_trials(folder: Path, trials: int = 6) -> tuple[int, int, int]:
    """Two processes on one save, `trials` times (the second a resume while the first plays, then the first
    goes on; once in three through a link re-pointed during the game): (moves acknowledged, moves lost,
    files that are no save written over)."""
    acknowledged = lost = overwritten = 0
    for trial in range(trials):
        real = folder / f"trial-{trial}"
        real.mkdir(parents=True)
        save = real / "g.json"
        run_companion([*FR_PLAY, "--save", str(save)], folder / "home", "")
        path = save
        if trial % 3 == 2:
            path = folder / f"link-{trial}.json"
            link(path, save)
        first = Live(["resume", str(path), "--engine", "text"], folder / "home")
        first.send(FR_MOVES[0], FR_MOVES[1])
        first.wait_for(lambda live=first: "Ben, quel dinosaure" in live.output())
        second = run_companion(["resume", str(path), "--engine", "text"], folder / "home",
                               "\n".join(FR_MOVES[:3]) + "\n")
        if path != save:
            victim = folder / f"victim-{trial}.txt"
            victim.write_text("precious\n")
            os.unlink(path)
            link(path, victim)
        first.send(*FR_MOVES[2:])
        first.wait_for(lambda live=first: "Cléo met" in live.output())
        first.finish()
        said = [line for output in (first.output(), second.stdout) for line in output.splitlines()
                if line.startswith(("Ana met", "Ben met", "Cléo met"))]
        placed = [a for a in saved_actions(save) if a["type"] == "place"]
        acknowledged += len(said)
        lost += max(0, len(said) - len(placed))
        if path != save and victim.read_text() != "precious\n":
            overwritten += 1
    return acknowledged, lost, overwritten


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python tests/hostile_cases.py", description=__doc__.split("\n\n")[1])
    parser.add_argument("--trials", type=int, default=6, help="trials of two processes on one save (default 6)")
    parser.add_argument("--writes", type=int, default=300,
                        help="writes of each of the two processes writing the settings at once (default 300)")
    options = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        home = folder / "home"
        cases = [Case(name, command, [path]) for name, command, path in catalogue(folder)]
        cases += cases_of_two_writers_and_others(folder / "more")
        passed, refused, slowest, slowest_wall, peak, failures = 0, 0, (0.0, ""), (0.0, ""), (0, ""), []
        slowest_refusal = (0.0, "")
        for case in cases:
            run, unchanged = run_case(case, home)
            if case.passed(run) and unchanged:
                passed += 1
                refused += case.expect == "refused"
            else:
                failures.append((case.name, run.returncode, round(run.cpu_seconds, 2), unchanged, run.stderr[-200:]))
            slowest = max(slowest, (run.cpu_seconds, case.name))
            if case.expect != "works":
                slowest_refusal = max(slowest_refusal, (run.cpu_seconds, case.name))
            slowest_wall = max(slowest_wall, (run.seconds, case.name))
            peak = max(peak, (run.peak_kib or 0, case.name))
        expected = {kind: sum(1 for case in cases if case.expect == kind) for kind in
                    ("refused", "refused after a hint", "works", "cannot write")}
        acknowledged, lost, overwritten = writers_trials(folder / "trials", options.trials)
        settings_kept = settings_writers(folder / "settings-writers", options.writes)
        signalled, signals_good, signal_failures = second_signals(folder / "signals")
        print(f"load average at the end: {os.getloadavg()[0]:.1f}")
        print(f"cases tried: {len(cases)}; expected: "
              + ", ".join(f"{kind} {count}" for kind, count in expected.items()))
        print(f"ended as expected (exit code, one line, files unchanged, within {REFUSAL_BOUND_S} s of CPU, "
              f"{WORKS_BOUND_S} s for those that work): {passed}; refused cleanly (exit code 2, one line, nothing "
              f"written): {refused} of {expected['refused']}")
        print(f"slowest: {slowest[0]:.2f} s of CPU ({slowest[1]}); of those that do not work: "
              f"{slowest_refusal[0]:.2f} s ({slowest_refusal[1]}); on the wall clock: {slowest_wall[0]:.2f} s "
              f"({slowest_wall[1]})")
        print(f"peak memory of a run: {peak[0] / 1024:.0f} MiB ({peak[1]})")
        print(f"two processes on one save, {options.trials} trials: {acknowledged} moves acknowledged, {lost} lost, "
              f"{overwritten} other files written over (through a link re-pointed)")
        print(f"two processes writing the settings {options.writes} times each at once: "
              f"{'both sections kept' if settings_kept else 'A SECTION LOST'}")
        print(f"a second stop signal 0, 5 or 20 ms after the first: {signals_good} of {signalled} runs ended by the "
              f"first, the game saved and where said")
        for failure in failures:
            print("NOT AS EXPECTED:", *failure)
        for failure in signal_failures:
            print("NOT AS EXPECTED:", failure)
        return 0 if not failures and lost == overwritten == 0 and settings_kept and signals_good == signalled else 1


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.conftest, for the lines of a whole game
    sys.exit(main())
