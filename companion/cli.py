"""The `companion` command line: the sub-commands of companion/commands/ (COMMANDS), each imported only when chosen.

Exit codes: 0 done, 2 bad input (one line on stderr), 3 a save could not be written (the last one stays good),
1 internal error, 130 Ctrl-C, 128 + the signal's number for SIGTERM and SIGHUP (the game stays saved).
"""

from __future__ import annotations

import argparse
import re
import signal
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import Any, NoReturn, TextIO

from companion import __version__
from companion.commands import COMMANDS, add_chosen
from companion.errors import (
    EXIT_BAD_INPUT,
    EXIT_CANNOT_WRITE,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    BadInput,
    OutputLost,
    Stopped,
)
from companion.language.messages import DEFAULT_LANGUAGE, LANGUAGES, catalog
from companion.terminal_text import clean, print_anywhere, read_anything

VERSION = f"companion {__version__}"
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


# argparse's usual complaints, said in the user's language (cli.<key> in voices/<lang>/messages/). A value is
# shown by argparse as Python writes it ('x', or "it's" when it holds a quote): _REPR takes either.
_REPR = r"""(?P<value>'.*'|".*"|[^'"].*?)"""
_USAGE_ERRORS = ((re.compile(r"unrecognized arguments: (?P<value>.+)"), "unknown_option"),
                 (re.compile(rf"argument (?P<option>\S+): invalid choice: {_REPR} \(choose from "
                             r"(?P<choices>.+)\)"), "bad_choice"),
                 (re.compile(rf"argument (?P<option>\S+): invalid (?:int|float) value: {_REPR}"), "bad_number"),
                 (re.compile(r"argument (?P<option>\S+): expected (?:one|at least one) argument"), "needs_value"),
                 (re.compile(rf"argument (?P<option>\S+): ignored explicit argument {_REPR}"), "takes_no_value"),
                 (re.compile(r"ambiguous option: (?P<option>\S+?)(?:=.*)? could match (?P<choices>.+)"), "ambiguous"),
                 (re.compile(r"the following arguments are required: (?P<value>.+)"), "missing"))


class _Parser(argparse.ArgumentParser):
    """argparse that reports bad usage as one line, in the language asked for, and exit code 2."""

    def error(self, message: str) -> NoReturn:
        command = self.prog.partition(" ")[2]  # "play dino" of "companion play dino"; main adds "companion:"
        for pattern, key in _USAGE_ERRORS:
            found = pattern.fullmatch(message)
            if found:
                message = catalog(_language(sys.argv[1:])).say(f"cli.{key}", **_unquoted(found.groupdict()))
                break
        raise BadInput(f"{command}: {message}" if command else message)


def _unquoted(found: dict[str, str]) -> dict[str, str]:
    """The parts of an argparse complaint, its value as it was typed (not as Python writes it)."""
    value = found.get("value")
    if value is not None and len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        import ast

        with suppress(ValueError, SyntaxError):
            found = {**found, "value": str(ast.literal_eval(value))}
    return found


def _language(argv: list[str]) -> str:
    """The --lang of a command line not parsed yet (the default language when none or a bad one is given)."""
    for index, arg in enumerate(argv):
        value = arg.partition("=")[2] if arg.startswith("--lang=") else (
            argv[index + 1] if arg == "--lang" and index + 1 < len(argv) else None)
        if value in LANGUAGES:
            return value
    return DEFAULT_LANGUAGE


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="companion", description=(
        "An offline, voice-first companion for playing dinosaur board games eyes-free. "
        "Every sub-command has its own --help."))
    parser.add_argument("--version", action="version", version=VERSION)
    add_chosen(parser, "companion.commands", COMMANDS, dest="command", metavar="COMMAND")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = None
    for stream in (sys.stdout, sys.stderr):
        print_anywhere(stream)
    read_anything(sys.stdin)
    given = sys.stdout
    sys.stdout = _Output(given)
    try:
        with _signals_stop():
            if (sys.argv[1:] if argv is None else argv) == ["--version"]:  # as argparse says it, without building
                print(VERSION)  # the parser (its formatter imports shutil, textwrap and locale: 10 ms of 0.1 s)
                sys.stdout.flush()
                return 0
            parser = build_parser()
            args = parser.parse_args(argv)
            if not getattr(args, "_command_run", None):
                parser.print_help()
                return EXIT_BAD_INPUT
            code = int(args._command_run(args) or 0)
            sys.stdout.flush()  # what is left to print, while a full output can still be said
            return code
    except BadInput as error:
        explain = getattr(error, "explain", None)
        _complain(explain(_lang(args)) if explain else str(error))
        return EXIT_BAD_INPUT
    except KeyboardInterrupt as stop:
        _complain(catalog(_lang(args)).say("files.interrupted"))
        return stop.exit_code if isinstance(stop, Stopped) else EXIT_INTERRUPTED
    except OutputLost as lost:  # standard output full: said on standard error
        _complain(lost.explain(_lang(args)))
        return EXIT_CANNOT_WRITE
    except BrokenPipeError:
        return 0
    except Exception as error:  # noqa: BLE001 - the last line of defence: never a bare traceback for users
        _complain(f"internal error: {type(error).__name__}: {error}")
        return EXIT_INTERNAL
    finally:
        sys.stdout = given


class _Output:
    """Standard output, for every command: a write it does not take (a full disk, a device error) is OutputLost,
    said on standard error with exit code 3 (parse or rules > /dev/full ended in an internal error). A pipe closed
    by its reader stays a BrokenPipeError. Anything else is the stream's own."""

    def __init__(self, stream: TextIO):
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as error:
            raise OutputLost(error) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as error:
            raise OutputLost(error) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _complain(message: str) -> None:
    """One line on standard error (if there still is one)."""
    with suppress(OSError, ValueError):
        print(f"companion: {clean(message)}", file=sys.stderr)


def _lang(args: argparse.Namespace | None) -> str:
    lang = getattr(args, "lang", None)
    return lang if lang in LANGUAGES else DEFAULT_LANGUAGE


@contextmanager
def _signals_stop() -> Iterator[None]:
    """SIGTERM and SIGHUP stop the program as Ctrl-C does (the game loop says where the game is saved). Once
    one of them or Ctrl-C has come, later ones change nothing: the program is already on its way out (a closed
    terminal sends SIGHUP after SIGTERM; a second Ctrl-C must not kill it while it says where the game is).
    The handler does nothing then, and once out of the program the signals are ignored by the system to the
    exit (Python would put back the system's handlers as it exits, and those would kill it)."""
    stopping = False

    def stop(number: int, _frame: object) -> None:
        nonlocal stopping
        if stopping:  # a handler calls nothing of the signal module: it would run the handlers of pending ones
            return
        stopping = True
        raise KeyboardInterrupt if number == signal.SIGINT else Stopped(number)

    numbers = (*STOP_SIGNALS, signal.SIGINT)
    try:
        previous = {number: signal.signal(number, stop) for number in numbers}
    except ValueError:  # not the main thread: signals stay as they are
        previous = {}
    relay = _relayed_to_main_thread(numbers, lambda: stopping) if previous else None
    try:
        yield
    finally:
        if relay is not None:
            relay()
        for number, handler in previous.items():  # once stopping, ignored by the system until the exit
            signal.signal(number, signal.SIG_IGN if stopping else handler)


# How long the relay leaves the main thread to run the handler itself, before sending it the signal.
RELAY_WAIT_S = 0.05


def _relayed_to_main_thread(numbers: tuple[int, ...], handled: Callable[[], bool]) -> Callable[[], None] | None:
    """A stop signal that another thread of the process received is sent on to the main thread, unless `handled()`
    says the handler ran; the returned function ends the relay (None: no relay where the system has no way to
    signal one thread). The system gives a signal sent to the process to any of its threads, and Python runs its
    handler in the main thread only when that thread runs: one blocked reading the standard input never did.
    numpy's import starts a thread of its own (OpenBLAS's); with it, a game stopped by two signals at once stayed
    blocked on its input in 3 of 12 tries on a loaded machine, in none of 36 with the relay. Python writes the
    number of each signal it receives, in any thread, to the wakeup file; the first stop signal read there is sent
    to the main thread (the program stops at the first, the handler does nothing after)."""
    import os
    import threading

    main = threading.main_thread().ident
    if not hasattr(signal, "pthread_kill") or main is None:
        return None
    try:
        read_end, write_end = os.pipe()
    except OSError:
        return None
    try:
        os.set_blocking(write_end, False)
        previous = signal.set_wakeup_fd(write_end, warn_on_full_buffer=False)
    except (AttributeError, OSError, ValueError):
        os.close(read_end)
        os.close(write_end)
        return None
    lock = threading.Lock()
    ended = False

    def relay() -> None:
        relayed = False
        try:
            while data := os.read(read_end, 64):  # read to the end: a signal written to a closed pipe is an error
                number = next((number for number in data if number in numbers), None)
                if number is None or relayed:
                    continue
                relayed = True
                time.sleep(RELAY_WAIT_S)  # the main thread, if it received it, runs the handler meanwhile
                with lock:
                    if not ended and not handled():
                        signal.pthread_kill(main, number)
        except OSError:
            return
        finally:
            os.close(read_end)

    threading.Thread(target=relay, name="signal-relay", daemon=True).start()

    def end() -> None:
        nonlocal ended
        with lock:
            ended = True
        signal.set_wakeup_fd(previous)
        os.close(write_end)  # the relay reads the end of the pipe, and stops

    return end
