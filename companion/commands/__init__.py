"""Sub-commands of `companion`, registered in COMMANDS: each is a module of this package that defines
configure(parser) and run(args) -> exit code.

A command's module is imported only when that command is chosen, so that `companion --version` or
`companion tactile 17` never loads the games, the speech engines or the benchmarks.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from importlib import import_module
from typing import TYPE_CHECKING, Any

from companion.benchmarks import BENCHMARKS

# Each command's name (its module's name) and the one line that `companion --help` says of it.
COMMANDS: dict[str, str] = {
    "audio": ("Check the sound at the table: 'audio check' says a sentence, asks you to say yes, and tells in words "
              "how your voice came in, whether it was understood and what to change."),
    "bench": "Measure speed and memory: " + ", ".join(BENCHMARKS) + ".",
    "listen": "Recognise one utterance from the microphone or a WAV file and print its text, intent and slots.",
    "models": ("List speech engines, voices, models and sound devices; 'models download LANG' fetches a Vosk model; "
               "'models whisper' makes the Whisper model ready; 'models check [LANG]' lists the words a Vosk model "
               "lacks and what to say instead."),
    "parse": "Show the intent and slots of a sentence a player may say, or export the recogniser grammars.",
    "play": "Play a game at the table: the program hears the moves and any die rolled, checks them and keeps the "
            "score.",
    "resume": "Carry on a saved game where it stood (by default the game saved last, wherever it is).",
    "rules": ("Read the rules of a game, or one topic of them (draftosaurus, jurassic-snack, dino). "
              "Interactively: next, previous, repeat, a topic name, contents, stop."),
    "say": "Speak TEXT aloud (and print it), or write it as a WAV file with --out.",
    "score": "Score Draftosaurus zoos (or a saved game) from a JSON file: each pen, the totals, the winner and why.",
    "tactile": ("Say a number (0-200) as the relief stickers of the adapted board (one dot = 1, dotted circle = 5, "
                "dotted square = 10, square with N dots = 10 x N), or read such a description back with --parse."),
}


if TYPE_CHECKING:
    _SubParsers = argparse._SubParsersAction[argparse.ArgumentParser]
else:
    _SubParsers = argparse._SubParsersAction


class Chosen(_SubParsers):
    """Sub-commands whose modules are imported, and whose options are added, only when one is chosen.

    Each is listed with its help at once (so --help and a wrong name list them all); when the command line names
    one, its module's configure(parser) adds the options and its run(args) becomes `args.<dest>_run`."""

    def add_modules(self, package: str, entries: Mapping[str, str]) -> None:
        """Each entry listed with its help, as add_parser lists it; its parser is made only when it is chosen:
        making the parsers of all 11 commands took 12 ms of each start, where one is used (argparse looks up its
        translations for each)."""
        self._package = package
        self._help = dict(entries)
        for name, help_text in entries.items():
            self._choices_actions.append(self._ChoicesPseudoAction(name, (), help_text))
            self._name_parser_map[name] = None  # type: ignore[assignment]  # made by _parser when chosen

    def _parser(self, name: str) -> argparse.ArgumentParser | None:
        if name in self._help and self._name_parser_map.get(name) is None:
            del self._name_parser_map[name]
            self.add_parser(name, description=self._help[name])  # listed already: no help given again
        return self._name_parser_map.get(name)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: str | Sequence[Any] | None, option_string: str | None = None) -> None:
        assert isinstance(values, list)
        chosen = self._parser(values[0])
        if chosen is not None and not chosen.get_default(f"_{self.dest}_run"):
            module = import_module(f"{self._package}.{values[0]}")
            module.configure(chosen)
            chosen.set_defaults(**{f"_{self.dest}_run": module.run})
        super().__call__(parser, namespace, values, option_string)


def add_chosen(parser: argparse.ArgumentParser, package: str, entries: Mapping[str, str], *, dest: str,
               metavar: str, required: bool = False) -> None:
    """Sub-commands of `parser`, one module of `package` each (see Chosen); the chosen one's run(args) is
    `args._<dest>_run` after parsing."""
    sub = parser.add_subparsers(dest=dest, metavar=metavar, required=required, parser_class=type(parser),
                                action=Chosen)
    assert isinstance(sub, Chosen)
    sub.add_modules(package, entries)
