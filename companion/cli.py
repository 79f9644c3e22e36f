"""The `companion` command line: one sub-command per module in companion/commands/.

Each command module defines NAME, HELP, configure(parser) and run(args) -> exit code.
Exit codes: 0 done, 2 bad input (one line on stderr), 1 internal error.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from types import ModuleType

from companion import __version__, commands
from companion.errors import EXIT_BAD_INPUT, EXIT_INTERNAL, BadInput


def command_modules() -> list[ModuleType]:
    """Every sub-command module, in alphabetical order of its name."""
    found = [importlib.import_module(f"{commands.__name__}.{info.name}")
             for info in pkgutil.iter_modules(commands.__path__) if not info.name.startswith("_")]
    return sorted((m for m in found if hasattr(m, "NAME")), key=lambda m: m.NAME)


class _Parser(argparse.ArgumentParser):
    """argparse that reports bad usage as one line and exit code 2."""

    def error(self, message: str):  # type: ignore[override]
        raise BadInput(f"{self.prog}: {message}")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="companion", description=(
        "An offline, voice-first companion for playing dinosaur board games eyes-free. "
        "Every sub-command has its own --help."))
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for module in command_modules():
        command_parser = sub.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.configure(command_parser)
        command_parser.set_defaults(_run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        if not getattr(args, "_run", None):
            parser.print_help()
            return EXIT_BAD_INPUT
        return int(args._run(args) or 0)
    except BadInput as error:
        print(f"companion: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("companion: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as error:  # noqa: BLE001 - the last line of defence: never a bare traceback for users
        print(f"companion: internal error: {type(error).__name__}: {error}", file=sys.stderr)
        return EXIT_INTERNAL
