"""What every speech recogniser offers the listener: a grammar per dialogue state, then frames in, text out."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

# What a sentence means: its intent and its slots (sorted by name).
Meaning = tuple[str, tuple[tuple[str, Any], ...]]


def meaning_of(intent: str, slots: dict[str, Any]) -> Meaning:
    return intent, tuple(sorted(slots.items()))


@dataclass(frozen=True)
class Recognition:
    """What one utterance was heard as ("" when nothing fits the grammar), how sure the engine is, in [0, 1]
    (each engine documents how it measures it), and its runners-up that differ in a word of meaning: (text,
    margin), the margin being how much better the heard words fit (engine units; below 0 the rival fits
    better). `meaning`: what the words mean, read off the path the engine took through the grammar (None when
    the engine gives words only, which are then read through the grammar)."""

    text: str
    confidence: float
    rivals: tuple[tuple[str, float], ...] = ()
    meaning: Meaning | None = None


class Recogniser(ABC):
    """A speech recogniser fed with 16 kHz 16-bit mono frames (see companion.speech.audio)."""

    name = "recogniser"
    decodes_after_speech = False  # most of its work is done once the player has stopped speaking (a wait)

    @abstractmethod
    def use_grammar(self, state: str, player_names: Sequence[str] = ()) -> None:
        """Listen only for what may be said in dialogue state `state`."""

    @abstractmethod
    def start(self) -> None:
        """A new utterance begins."""

    @abstractmethod
    def accept(self, frame: bytes) -> None:
        """More audio of the current utterance."""

    @abstractmethod
    def finish(self) -> Recognition:
        """The utterance is over: what was heard."""

    def expect_speaker(self, name: str | None) -> None:  # noqa: B027 - a hook: doing nothing is the default
        """Who should speak next (None: anyone); engines that adapt to each voice use it."""

    def describe(self) -> str:
        """The model in use, as the user would name it."""
        return self.name

    def unknown_words(self) -> set[str]:
        """Grammar words the model cannot hear (its vocabulary lacks them), for the grammars used so far."""
        return set()
