"""The two interfaces the dialogue talks to: a Speaker says text, a Listener hears one utterance.

Speakers: typed text (TextSpeaker, here), espeak-ng in a speech process, speech-dispatcher. Listeners: typed
lines (TextListener, here) and SpeechListener (companion.speech.listener), which hears through a recogniser
(Vosk, PocketSphinx or Whisper, companion.speech.recogniser). The dialogue never knows which.
"""

from __future__ import annotations

import sys
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import IO

from companion.errors import OutputLost
from companion.speech.recogniser import Meaning
from companion.terminal_text import clean


class Unavailable(Exception):
    """A speech part cannot work here (no engine, no device, no model...).

    `problem` names the catalog message speech.problem.<problem> that says why, filled with `params`;
    `detail` is the technical cause, for messages that show it. A `reason` param names a catalog message
    (files.write_reasons.*), said in the language of the explanation.
    """

    def __init__(self, problem: str, detail: str = "", **params: str):
        super().__init__(f"{problem}: {detail}" if detail else problem)
        self.problem = problem
        self.detail = detail
        self.params = params

    def explain(self, lang: str) -> str:
        """The catalog sentence, in `lang`, that says why."""
        from companion.language.messages import catalog

        messages = catalog(lang)
        language = messages.say(f"speech.languages.{self.params['lang']}") if "lang" in self.params else ""
        params = dict(self.params)
        if "reason" in params:
            params["reason"] = messages.say(params["reason"], detail=self.detail)
        return messages.say(f"speech.problem.{self.problem}", detail=self.detail, language=language, **params)


@dataclass
class Heard:
    """One utterance: what was heard, how sure the engine is (None = sure, as for typed text), and the
    recogniser's next best hypotheses that differ in a word of meaning, each as (text, margin): how much
    better the heard words fit the audio (see Recognition). `barge_in`: it was said or typed while the program
    was speaking, and cut it off."""

    text: str
    confidence: float | None = None
    engine: str = "text"
    decode_ms: float | None = None
    rivals: tuple[tuple[str, float], ...] = ()
    barge_in: bool = False
    meaning: Meaning | None = None  # from the recogniser's path (Recognition)
    grammar: tuple[str, tuple[str, ...]] | None = None  # the state and players' names that path went through

    @property
    def spoken(self) -> bool:
        """Heard by a recogniser, not typed."""
        return self.confidence is not None

    @property
    def needs_confirmation(self) -> bool:
        """Too unsure for anything, even a question: read it back."""
        return self.confidence is not None and self.confidence < LOW_CONFIDENCE


LOW_CONFIDENCE = 0.6
# What changes the game (a move, a die face, an undo, a yes or no to a read-back) is asked again below
# ACTION_CONFIDENCE, and, but for a no, also when the recogniser's best rival of another meaning
# (companion.speech.rivals) fits less than RIVAL_MARGIN worse per frame (pocketsphinx's log units). Chosen on the
# tuned voices of `companion bench listen --tradeoff` (espeak-ng, 200 utterances in five rooms; flite held out),
# two runs (--seed 1 and 2):
#   confidence 0.75 alone (as before): 48.5% and 52.2% of the moves heard right read back, 4.0% and 3.5% of all
#     utterances misheard and applied;
#   0.65 and a margin of 15 (chosen): 51.5% and 53.6% read back, 0.5% and 0.0% applied;
#   0.6 and 15: 45.5% and 50.7% read back, 1.0% and 1.5% applied; 0.75 and 15: 57.6% and 62.3%, 0.5% and 0.0%;
#   0.6 and 20: 54.5% read back, 0.5% applied; 0.5 and 15: 37.9%, 2.5% (--seed 1).
# The chosen pair is the cheapest in read-backs that keeps misheard-and-applied at the 0.5% target on both runs,
# for 1.4 to 3 more read-backs per 100 moves than before. On the held-out voices, looked at after the choice
# (--seed 1): 6.0% read back and 6.0% applied before, 17.9% and 3.5% now. What is still applied there is mostly
# a species heard in words where none was said ("its trike go on the spade" for "stego on the spade"), which no
# rival of a word can show.
ACTION_CONFIDENCE = 0.65
RIVAL_MARGIN = 15.0


class Speaker(ABC):
    """Says text aloud (or shows it). Never blocks the caller: lines are said whole, one after another, in the
    order given; `stop` (the player cutting in) silences the line being said and drops those queued."""

    name = "speaker"

    @abstractmethod
    def say(self, text: str) -> None: ...

    def stop(self) -> None:  # noqa: B027 - a hook: doing nothing is the default
        """Cut off what is being said, and everything queued after it."""

    def wait(self, timeout: float | None = None) -> bool:
        """Block until everything said has been heard (before listening, so the mic never hears us); False if
        `timeout` ran out first."""
        return True

    def is_speaking(self) -> bool:
        """Whether sound is still coming out."""
        return False

    def adjust(self, step: str) -> bool:
        """One step "faster", "slower", "louder" or "quieter"; False when this speaker has no such setting."""
        return False

    def close(self) -> None:
        self.stop()


class Listener(ABC):
    """Hears one utterance at a time. `state` names the dialogue state, so recognisers can narrow their grammar."""

    name = "listener"

    @abstractmethod
    def listen(self, state: str | None = None) -> Heard | None:
        """The next utterance, or None when the input has ended for good (end of file, closed stream)."""

    def set_player_names(self, names: Sequence[str]) -> None:
        """The players' names, which may now be heard (in turns, scores...)."""
        self.player_names = tuple(names)

    def expect_speaker(self, name: str | None) -> None:  # noqa: B027 - a hook: doing nothing is the default
        """Who should speak next (None: anyone), for recognisers that adapt to each voice."""

    def close(self) -> None:  # noqa: B027 - a hook: doing nothing is the default
        pass


def is_terminal(stream: IO[str] | None) -> bool:
    """Whether `stream` is an open terminal (a closed or missing stream is none)."""
    try:
        return stream is not None and not stream.closed and stream.isatty()
    except (OSError, ValueError, AttributeError):
        return False


class TextSpeaker(Speaker):
    """Prints each message as one plain line: no colours, no cursor tricks, good for screen readers.

    Control characters and escape sequences (a name may hold them) are never printed."""

    name = "text"

    def __init__(self, stream: IO[str] | None = None):
        self.stream = stream or sys.stdout

    def say(self, text: str) -> None:
        try:
            print(clean(text), file=self.stream, flush=True)
        except BrokenPipeError:  # the reader went away (companion ... | head): stop without a word
            raise
        except OSError as error:
            raise OutputLost(error) from None


def cut_in(speaker: Speaker | None, keys: IO[str] | None) -> bool:
    """A line just came from the keyboard `keys`: if it is a terminal and `speaker` is speaking, silence it.
    Whether speech was cut."""
    if speaker is None or not is_terminal(keys) or not speaker.is_speaking():
        return False
    speaker.stop()
    return True


# A typed line is a command of a few words (grammar.MAX_LINE); what lies past this is not read into memory,
# and a "line" with no end of line after this much is no typing: the input is taken as ended.
LINE_KEPT = 4096
LINE_GIVEN_UP = 1 << 20


class TextListener(Listener):
    """Reads typed lines; a typed line is taken as said (no confidence, no confirmation).

    A line typed on a terminal (Enter alone too) while `speaker` speaks cuts it off: the player has heard
    enough. Lines from a pipe or a file were written beforehand, so they cut nothing: every line is heard.
    A closed or missing input (the program started with stdin closed) is the end of the input."""

    name = "text"

    def __init__(self, stream: IO[str] | None = None, speaker: Speaker | None = None):
        self.stream = stream if stream is not None else sys.stdin
        self.speaker = speaker

    def listen(self, state: str | None = None) -> Heard | None:
        try:
            line = self._line()
        except (OSError, ValueError, AttributeError):  # closed, or missing (sys.stdin is None)
            return None
        if line is None:
            return None
        return Heard(text=line.strip(), engine="text", barge_in=cut_in(self.speaker, self.stream))

    def _line(self) -> str | None:
        """The next line, cut at LINE_KEPT characters; None at the end of the input."""
        line = self.stream.readline(LINE_KEPT)
        if not line:
            return None
        skipped = 0
        tail = line
        while not tail.endswith("\n"):
            tail = self.stream.readline(LINE_KEPT)
            skipped += len(tail)
            if not tail:
                break
            if skipped > LINE_GIVEN_UP:
                return None
        return line
