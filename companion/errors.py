"""Errors that the command line turns into exit codes: 2 for bad input, 1 for anything internal."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.games.common import Reason

EXIT_OK = 0
EXIT_INTERNAL = 1
EXIT_BAD_INPUT = 2
EXIT_CANNOT_WRITE = 3  # a save, a setting or the standard output could not be written: the last save stays good
EXIT_INTERRUPTED = 130  # Ctrl-C; SIGTERM and SIGHUP give 128 + their number (Stopped.exit_code)


class BadInput(Exception):
    """Input the user can fix: the message says what is wrong and where, in one line."""


class Said(BadInput):
    """Bad input told in the user's language: the sentence `key` of voices/<lang>/messages/, filled with
    `params` (str() gives it in English, for logs and tests)."""

    def __init__(self, key: str, **params: object):
        super().__init__(key)
        self.key = key
        self.params = params

    def explain(self, lang: str) -> str:
        from companion.language.messages import catalog

        return catalog(lang).say(self.key, **self.params)

    def __str__(self) -> str:
        return self.explain("en")


class OutputLost(Exception):
    """The standard output takes nothing more (a full disk, a device error): the program stops, saying so on
    standard error; exit code EXIT_CANNOT_WRITE."""

    def __init__(self, error: OSError):
        super().__init__(f"standard output: {error.strerror or error}")
        self.error = error

    def explain(self, lang: str) -> str:
        from companion.files import write_reason
        from companion.language.messages import catalog

        words = catalog(lang)
        key, detail = write_reason(self.error)
        return words.say("files.output_lost", reason=words.say(key, detail=detail))


class RuleViolation(BadInput):
    """A move or a zoo that breaks a rule of the game; `reason` is data the narration can speak."""

    def __init__(self, message: str, reason: Reason):
        super().__init__(message)
        self.reason = reason


class Stopped(KeyboardInterrupt):
    """A signal asked the program to stop (SIGTERM, SIGHUP): handled like Ctrl-C; exit code 128 + its number."""

    def __init__(self, signal_number: int):
        super().__init__(f"signal {signal_number}")
        self.exit_code = 128 + signal_number
