"""A conversation with the table: say things, hear answers, and handle what every game shares.

The Session speaks through a Speaker, hears through a Listener, turns what it heard into an intent
with the game's grammar, and answers the shared commands itself (repeat, review, voice speed and
volume, verbosity, pause, help). Everything else goes back to the game dialogue that asked.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from companion.dialogue.history import MessageHistory
from companion.language.grammar import ParseResult, parse
from companion.language.recognition_grammar import parse_heard
from companion.language.messages import Catalog, catalog
from companion.speech.base import Heard, Listener, Speaker

VERBOSITY_LEVELS = ("short", "full")


class EndOfInput(Exception):
    """The input is over for good (standard input closed, audio files used up)."""


class QuitRequested(Exception):
    """A player asked to stop; the game stays saved."""


class StateChanged(Exception):
    """The game changed under the open question (undo, redo): the loop must ask afresh."""


def understand(heard: Heard, *, game: str, lang: str, state: str, player_names: Sequence[str] = ()) -> ParseResult:
    """What an utterance means: a typed line is parsed as it is, a recogniser's words only as the intents
    whose recogniser grammar produces them (see recognition_grammar.parse_heard)."""
    read = parse_heard if heard.spoken else parse
    return read(heard.text, game=game, lang=lang, state=state, player_names=player_names)


@dataclass
class Answer:
    """One understood utterance that the game must handle: its intent, slots and what was heard."""

    intent: str
    slots: dict[str, Any] = field(default_factory=dict)
    heard: Heard | None = None


class Session:
    """Talks with the players of one game in one language."""

    def __init__(self, *, game: str, lang: str, speaker: Speaker, listener: Listener,
                 earcons: Any = None, verbosity: str = "full"):
        self.game = game
        self.lang = lang
        self.catalog: Catalog = catalog(lang)
        self.speaker = speaker
        self.listener = listener
        self.earcons = earcons
        self.history = MessageHistory()
        self.verbosity = verbosity
        self.player_names: list[str] = []
        # The game's words for what an answer means, read back before a doubtful one is applied.
        self.read_back: Callable[[Answer], str | None] | None = None
        self.last_prompt: str | None = None

    # ----- speaking
    def text(self, key: str, **params: Any) -> str:
        """The sentence `key` in the session language; a `_full` variant is used in full verbosity."""
        if self.verbosity == "full" and f"{key}_full" in self.catalog.messages:
            key = f"{key}_full"
        return self.catalog.say(key, **params)

    def say(self, key: str, **params: Any) -> str:
        return self.say_text(self.text(key, **params))

    def say_text(self, text: str, *, remember: bool = True) -> str:
        if remember:
            self.history.add(text)
        self.speaker.say(text)
        return text

    def earcon(self, kind: str) -> None:
        if self.earcons is not None:
            self.earcons.play(kind)

    # ----- listening
    def set_player_names(self, names: Sequence[str]) -> None:
        self.player_names = list(names)
        if hasattr(self.listener, "set_player_names"):
            self.listener.set_player_names(self.player_names)

    def ask(self, prompt: str | None, state: str,
            handle_shared: Callable[[Answer], bool] | None = None, speaker: str | None = None) -> Answer:
        """Say `prompt` (if any), then listen until an utterance the game must handle is understood.

        Shared commands (repeat, review, voice, verbosity, pause, help) are answered here and the
        question is asked again; `handle_shared` lets the game answer its own queries the same way.
        `speaker` names the player expected to answer, whose voice the recogniser may adapt to.
        """
        if prompt:
            self.last_prompt = self.say_text(prompt)
        self.listener.expect_speaker(speaker)
        while True:
            heard = self._hear(state)
            if not heard.text.strip():
                continue
            result = self._parse(heard, state)
            if result.intent is None:
                self._not_understood(result)
                continue
            doubtful = self._doubtful(heard, result)
            if doubtful and not self._confirm(heard, result):
                continue
            answer = Answer(result.intent, dict(result.slots), heard)
            if answer.intent == "quit":
                raise QuitRequested()
            if self._handle_common(answer, state):
                continue
            if handle_shared is not None and handle_shared(answer):
                if prompt and self.verbosity == "full":
                    self.say_text(prompt, remember=False)
                continue
            if not doubtful and heard.needs_confirmation_to_act and not self._confirm(heard, result):
                continue  # what reaches the game changes it: it needs more certainty than a question
            self.earcon("understood")
            return answer

    def _hear(self, state: str) -> Heard:
        """The next utterance; EndOfInput when the input is over for good."""
        heard = self.listener.listen(state)
        if heard is None:
            raise EndOfInput()
        return heard

    def _parse(self, heard: Heard, state: str) -> ParseResult:
        return understand(heard, game=self.game, lang=self.lang, state=state, player_names=self.player_names)

    def _not_understood(self, result: ParseResult) -> None:
        self.earcon("not_understood")
        if result.suggestion:
            self.say("session.not_understood_suggestion", heard=result.text, suggestion=result.suggestion)
        else:
            self.say("session.not_understood", heard=result.text)

    @staticmethod
    def _doubtful(heard: Heard, result: ParseResult) -> bool:
        """Read back when the recogniser is unsure, and always before quitting on a recogniser's word: a short
        word ("die", "huh") was heard as "bye" or "close" with confidence. Typed lines are taken as they are."""
        return heard.needs_confirmation or (heard.spoken and result.intent == "quit")

    def _confirm(self, heard: Heard, result: ParseResult) -> bool:
        """Ask a yes/no question about a doubtful utterance; only a clear yes lets it through.

        What is read back is what the game understood ("Alice: triceratops, river") when the game can say
        it, else the words heard."""
        meaning = self.read_back(Answer(result.intent, dict(result.slots), heard)) if self.read_back else None
        if meaning:
            self.say("session.confirm_meaning", meaning=meaning)
        else:
            self.say("session.confirm", heard=heard.text)
        while True:
            reply = self._hear("confirm")
            answer = self._parse(reply, "confirm")
            intent = None if reply.needs_confirmation else answer.intent  # a doubtful yes is no yes
            if intent == "yes":
                return True
            if intent == "no":
                self.say("session.confirm_refused")
                return False
            self.say("session.confirm_again", heard=heard.text)

    def _handle_common(self, answer: Answer, state: str) -> bool:
        intent = answer.intent
        if intent == "repeat":
            self.say_text(self.history.last or self.last_prompt or "", remember=False)
        elif intent in ("review_previous", "review_next"):
            message = self.history.previous() if intent == "review_previous" else self.history.next()
            key = "session.review_start" if intent == "review_previous" else "session.review_end"
            self.say_text(message if message is not None else self.text(key), remember=False)
        elif intent in ("faster", "slower", "louder", "quieter"):
            self.say(f"session.voice_{intent}" if self.speaker.adjust(intent) else "session.voice_unchanged")
        elif intent == "verbosity":
            level = answer.slots.get("level")
            self.verbosity = level if level in VERBOSITY_LEVELS else (
                "short" if self.verbosity == "full" else "full")
            self.say(f"session.verbosity_{self.verbosity}")
        elif intent == "pause":
            self._pause(state)
        elif intent == "help":
            self.say(f"help.{self.game}.{state}" if f"help.{self.game}.{state}" in self.catalog.messages
                     else "help.general")
        else:
            return False
        return True

    def _pause(self, state: str) -> None:
        self.say("session.paused")
        while True:
            result = self._parse(self._hear("confirm"), "confirm")
            if result.intent == "quit":
                raise QuitRequested()
            if result.intent in ("resume", "yes", "pause"):
                self.say("session.resumed")
                if self.last_prompt:
                    self.say_text(self.last_prompt, remember=False)
                return
