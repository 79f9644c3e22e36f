"""A conversation with the table: say things, hear answers, and handle what every question shares.

The Session speaks through a Speaker, hears through a Listener, turns what it heard into an intent with
the game's grammar, and answers the shared commands itself (repeat, review, voice speed and volume,
verbosity, pause, help). A sentence it cannot understand but can guess is offered back ("did you mean …?"),
and that yes/no question, like every yes/no question of the program (`confirm`), accepts yes, no, a new
command, help and repeat. Everything else goes back to whoever asked: the table or a set-up question.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from companion import registry
from companion.dialogue.history import MessageHistory
from companion.language.grammar import ANY_STATE, CONFIRM_STATE, MAX_LINE, ParseResult, confirming, parse
from companion.language.messages import Catalog, catalog
from companion.language.rules import RulesBook
from companion.speech.base import ACTION_CONFIDENCE, RIVAL_MARGIN, Heard, Listener, Speaker
from companion.terminal_text import sentences

VERBOSITY_LEVELS = ("short", "full")
SHARED_INTENTS = frozenset({"repeat", "review_previous", "review_next", "faster", "slower", "louder", "quieter",
                            "verbosity", "pause", "help"})


class EndOfInput(Exception):
    """The input is over for good (standard input closed, audio files used up)."""


class QuitRequested(Exception):
    """A player asked to stop; the game stays saved."""


def understand(heard: Heard, *, game: str, lang: str, state: str, player_names: Sequence[str] = ()) -> ParseResult:
    """What an utterance means: a typed line is parsed as it is; a recogniser's words mean what the path the
    recogniser took through the state's grammar says (Recognition.meaning), or, from a recogniser that gives
    words only, what they mean on the path they take through it (see path_meaning.parse_heard)."""
    if not heard.spoken:
        return parse(heard.text, game=game, lang=lang, state=state, player_names=player_names)
    if heard.meaning is not None and heard.grammar == (state, tuple(player_names)):
        return ParseResult(heard.meaning[0], dict(heard.meaning[1]), heard.text)
    from companion.speech.path_meaning import parse_heard  # imported where words are heard, not typed

    return parse_heard(heard.text, game=game, lang=lang, state=state, player_names=player_names)


def rival_margin(heard: Heard, result: ParseResult, *, game: str, lang: str, state: str,
                 player_names: Sequence[str] = ()) -> float | None:
    """How much better the words heard fit than the recogniser's best rival that means something else (another
    species, pen, face or player, or words that mean nothing: the word heard there is in doubt all the same);
    None when it offers no such rival, and for a no: it drops what was read back, and a "no" with a rival close
    behind ("whose go", "window") would be asked again and again, a question with no way out."""
    if result.intent == "no":
        return None
    meant = (result.intent, dict(result.slots))
    margins = [margin for text, margin in heard.rivals
               for rival in [understand(Heard(text, heard.confidence, heard.engine), game=game, lang=lang,
                                        state=state, player_names=player_names)]
               if (rival.intent, dict(rival.slots)) != meant]
    return min(margins, default=None)


def doubtful(heard: Heard, margin: float | None, floor: float | None = RIVAL_MARGIN,
             confidence_floor: float = ACTION_CONFIDENCE) -> bool:
    """Whether what was heard is too unsure to change the game (a move, a die face, an undo) without a
    read-back: a confidence below `confidence_floor`, or a rival of another meaning less than `floor` behind
    (`margin`; no floor: rivals are not looked at)."""
    if heard.confidence is None:  # typed
        return False
    return heard.confidence < confidence_floor or (floor is not None and margin is not None and margin < floor)


@dataclass(frozen=True)
class Answer:
    """One understood utterance: its intent, its slots and what was heard.

    `doubtful`: the recogniser was not sure enough for it to change the game without a read-back."""

    intent: str
    slots: dict[str, Any] = field(default_factory=dict)
    heard: Heard | None = None
    doubtful: bool = False

    @property
    def unsure(self) -> bool:
        """Too unsure even for a question: its words are read back before it is answered."""
        return self.heard is not None and self.heard.needs_confirmation

    def merged(self, slots: dict[str, Any], reply: Answer) -> Answer:
        """This half command completed by `slots` from `reply`: doubtful if either part was."""
        return replace(self, slots={**self.slots, **slots}, doubtful=self.doubtful or reply.doubtful)


class Session:
    """Talks with the players of one game in one language."""

    def __init__(self, *, game: str, lang: str, speaker: Speaker, listener: Listener,
                 earcons: Any = None, verbosity: str = "full", engine: str = "text"):
        self.game = game
        self.lang = lang
        self.engine = engine  # what the command line asked for, kept with the game for `resume`
        self.catalog: Catalog = catalog(lang)
        self.speaker = speaker
        self.listener = listener
        self.earcons = earcons
        self.history = MessageHistory()
        self.verbosity = verbosity
        self.player_names: list[str] = []
        self.help_key = f"{registry.game(game).namespace}.help"  # <namespace>.help.<state>
        self.last_prompt: str | None = None
        self.question_help: str | None = None  # what "help" says for the open question, when it has its own
        self.help_params: dict[str, Any] = {}  # what the help of the open question says of the game as it is
        self.reprompt: Callable[[], str] | None = None  # the open question, in the verbosity of the moment
        self.lost = False  # the last utterance was not understood, asked for help or another verbosity, or a
        #                    read-back of it was answered no: the open question is asked again
        self.said_instead: Answer | None = None  # a command said in answer to a read-back: the next one heard

    def settings(self) -> dict[str, str]:
        """What a resumed game must be played with again."""
        return {"lang": self.lang, "engine": self.engine, "verbosity": self.verbosity}

    # ----- speaking
    def text(self, key: str, /, **params: Any) -> str:
        """The sentence `key` in the session language; a `_full` variant is used in full verbosity."""
        if self.verbosity == "full" and f"{key}_full" in self.catalog.messages:
            key = f"{key}_full"
        return self.catalog.say(key, **params)

    def say(self, key: str, /, **params: Any) -> str:
        return self.say_text(self.text(key, **params))

    def say_text(self, text: str, *, remember: bool = True) -> str:
        """Say `text` as sentences (each starts with a capital); kept for "repeat" unless `remember` is False."""
        text = sentences(text.strip())
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

    def ask(self, prompt: str | None, state: str, speaker: str | None = None, help_key: str | None = None,
            help_params: dict[str, Any] | None = None, again: Callable[[], str] | None = None) -> Answer:
        """Say `prompt` (if any), then listen until an utterance that is not a shared command is understood.

        Shared commands are answered here and the question stays open. `speaker` names the player expected to
        answer, whose voice the recogniser may adapt to; `help_key`, what "help" says for this question, and
        `help_params` what it fills in (examples taken from the game as it stands); `again`, the question alone
        (a prompt may say first why it is asked again), as it is said again after an utterance not understood,
        help, a change of verbosity or a pause (by default `prompt`; without either, the question asked before)."""
        self.help_for(help_key, help_params)
        if again is not None or prompt:
            self.reprompt = again or (lambda: prompt or "")
        if prompt:
            said = self.say_text(prompt)
            self.last_prompt = sentences(again()) if again is not None else said  # the question, and no more
        while True:
            self.listener.expect_speaker(speaker)
            self.lost = False
            answer = self.hear(state)
            if answer is not None and not self.handle_shared(answer, state):
                self.earcon("understood")
                return answer
            if self.lost and self.reprompt is not None:  # the player must know what is asked now
                self.say_text(self.reprompt())

    def help_for(self, help_key: str | None, help_params: dict[str, Any] | None = None) -> None:
        """What "help" says while the question asked now is open (`help_key`, filled with `help_params`; none: the
        help of the state), not the help of the question before."""
        self.question_help, self.help_params = help_key, dict(help_params or {})

    def ask_sure(self, prompt: str | None, state: str, help_key: str | None = None,
                 again: Callable[[], str] | None = None, help_params: dict[str, Any] | None = None) -> Answer:
        """`ask`, with the words of an unsure answer read back first (set-up questions, which no game checks);
        `again`, `help_key` and `help_params` as for `ask`."""
        answer = self.ask(prompt, state, help_key=help_key, help_params=help_params, again=again)
        while answer.doubtful or answer.unsure:
            verdict = self.confirm(self.text("session.confirm", heard=heard_words(answer)), state)
            if verdict is True:
                return replace(answer, doubtful=False, heard=None)
            if isinstance(verdict, Answer):
                answer = verdict
                continue
            # a no: said so, then the question again (not silence: what is awaited now is not said otherwise)
            self.say("session.confirm_refused")
            answer = self.ask(again() if again is not None else prompt, state, help_key=help_key,
                              help_params=help_params, again=again)
        return answer

    def hear(self, state: str) -> Answer | None:
        """The next utterance as an Answer; None when it needed no more (not understood, refused, shared)."""
        instead = self.take_said_instead()
        if instead is not None:
            return instead
        heard = self._hear(state)
        if not heard.text.strip():
            return None
        return self.take(heard, self._parse(heard, state), state)

    def take(self, heard: Heard, result: ParseResult, state: str) -> Answer | None:
        """What an utterance gives the caller: its Answer, after an offered guess was accepted or a doubtful
        "quit" confirmed; None when nothing is left to hand over (a "stop" that cut the program's speech off
        too: it asked for silence, and the question stays open)."""
        if result.intent is None:
            return self._not_understood(heard, result, state)
        if result.intent == "stop" and heard.barge_in:
            return None  # said over the program's speech, which it cut off: silence was all that was asked
        answer = Answer(result.intent, dict(result.slots), heard, self.doubtful(heard, result, state))
        if answer.intent == "quit":
            self._quit(answer, state)
            return None
        return answer

    def confirm(self, question: str, state: str, again: str | None = None) -> bool | Answer:
        """Ask a yes/no question in the middle of `state`: True for a clear yes, False for no, or the Answer of
        a new command said instead. Help and repeat answer the question and keep it open; anything else
        asks again, shortly: `again` (what is to confirm), else the question. Once it is answered, "repeat" says
        the question that was open before it, never this one: a yes to it would no longer be heard."""
        before = self.last_prompt
        asked = self.last_prompt = self.say_text(question)
        try:
            return self._confirmed(question, state, again)
        finally:
            self.last_prompt = before
            self.history.close(asked)

    def _confirmed(self, question: str, state: str, again: str | None) -> bool | Answer:
        """The answer to the yes/no question `question`, already said (see `confirm`)."""
        listening = confirming(state)
        while True:
            heard = self._hear(listening)
            if not heard.text.strip():
                continue
            result = self._parse(heard, listening)
            if result.intent in ("yes", "no") and not self.doubtful(heard, result, listening):
                return result.intent != "no"
            if result.intent == "repeat":
                self.say_text(self.text("session.repeating", text=question), remember=False)
                continue
            if result.intent == "help":
                self.say_text(self.text("help.confirm"), remember=False)
                self.say_text(question, remember=False)
                continue
            if result.intent in ("yes", "no") or result.intent is None:
                # a doubtful yes is no yes
                self.say("session.confirm_again", heard=heard.text, question=again or question)
                continue
            answer = self.take(heard, result, state)
            if answer is not None and not self.handle_shared(answer, state):
                return answer
            if answer is not None and answer.intent in ("help", "verbosity"):
                self.say_text(question, remember=False)

    def doubtful(self, heard: Heard, result: ParseResult, state: str) -> bool:
        """Too unsure to change the game, or to answer a read-back, without asking (see `doubtful`)."""
        margin = rival_margin(heard, result, game=self.game, lang=self.lang, state=state,
                              player_names=self.player_names) if heard.rivals else None
        return doubtful(heard, margin)

    def _hear(self, state: str) -> Heard:
        """The next utterance; EndOfInput when the input is over for good. Each one starts a new response."""
        heard = self.listener.listen(state)
        if heard is None:
            raise EndOfInput()
        self.history.new_response()
        return heard

    def _parse(self, heard: Heard, state: str) -> ParseResult:
        return understand(heard, game=self.game, lang=self.lang, state=state, player_names=self.player_names)

    def _not_understood(self, heard: Heard, result: ParseResult, state: str) -> Answer | None:
        """Say so; when the grammar has a close sentence, offer it: yes takes it, no drops it, a new command
        replaces it."""
        self.earcon("not_understood")
        self.lost = True
        if len(heard.text) > MAX_LINE:
            self.say("session.too_long", heard=result.text)
            return None
        if result.stranger and self.player_names:  # a name that is nobody's: the player hears who plays
            self.say_text(bot_seat_words(self.catalog, result.stranger, self.player_names) or self.text(
                "session.unknown_name", name=result.stranger, players=self.player_names))
            return None
        if state != ANY_STATE and parse(heard.text, game=self.game, lang=self.lang, state=ANY_STATE,
                                        player_names=self.player_names).intent is not None:
            self.say("session.not_now", heard=result.text)  # a command of the game, not of this question
            return None
        if not result.suggestion:
            self.say("session.not_understood", heard=result.text)
            return None
        verdict = self.confirm(self.text("session.not_understood_suggestion", heard=result.text,
                                         suggestion=result.suggestion), state,
                               again=self.text("session.suggestion_again", suggestion=result.suggestion))
        if verdict is False:
            self.say("session.suggestion_refused")
            return None
        if verdict is True:
            said = parse(result.suggestion, game=self.game, lang=self.lang, state=state,
                         player_names=self.player_names)
            return None if said.intent is None else Answer(said.intent, dict(said.slots), Heard(result.suggestion))
        return verdict

    def _quit(self, answer: Answer, state: str) -> None:
        """Quit, after a yes when a recogniser heard it: a short word ("die", "huh") was heard as "bye" or
        "close" with confidence. Typed lines are taken as they are."""
        if answer.heard is not None and answer.heard.spoken:
            verdict = self.confirm(self.text("session.confirm_quit"), state)
            if verdict is not True:
                self._not_confirmed(verdict)
                return
        raise QuitRequested()

    def take_said_instead(self) -> Answer | None:
        """The command said in answer to a read-back, not yet handed on (then forgotten), or None."""
        instead, self.said_instead = self.said_instead, None
        return instead

    def _not_confirmed(self, verdict: bool | Answer) -> None:
        """A read-back of a shared command or a quit answered otherwise than yes: a no is said so, and the question
        open before asked again; a command said instead is the next one heard."""
        if isinstance(verdict, Answer):
            self.said_instead = verdict
            return
        self.say("session.confirm_refused")
        self.lost = True

    def say_rules(self, book: RulesBook, topic: Any) -> None:
        """The rules on `topic` from `book`, or the topics there are (no topic): at a turn or a set-up question."""
        section = book.find(str(topic)) if topic else None
        if topic is None:
            self.say("table.rules_topics", topics=self.catalog.join(s.short_name for s in book.sections))
        elif section is None:
            self.say("table.rules_unknown")
        else:
            self.say_text(book.spoken(section))  # its title first: the text may begin "It..."

    # ----- shared commands
    def handle_shared(self, answer: Answer, state: str, help_key: str | None = None,
                      help_params: dict[str, Any] | None = None) -> bool:
        """Answer a shared command (True), or leave the answer to the caller (False); `help_key` (else the open
        question's) is what "help" says, filled with `help_params` (else the open question's)."""
        intent = answer.intent
        if intent not in SHARED_INTENTS:
            return False
        if answer.unsure:
            verdict = self.confirm(self.text("session.confirm", heard=heard_words(answer)), state)
            if verdict is not True:
                self._not_confirmed(verdict)
                return True
        if intent == "repeat":
            self._repeat()
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
            self.lost = True
        elif intent == "pause":
            self._pause()
        else:
            self.say_text(self.help_text(state, help_key or self.question_help,
                                         self.help_params if help_params is None else help_params))
            self.lost = True
        return True

    def help_text(self, state: str, question_help: str | None = None, params: dict[str, Any] | None = None) -> str:
        """The help of this question, else of this state of the game (with the players' own names and `params`),
        else the general help."""
        names = self.player_names or [self.catalog.say("setup.player_label", number=1)]
        params = {"player": names[0], "other": names[1] if len(names) > 1 else names[0], **(params or {})}
        keys = (question_help or "", f"{self.help_key}.{state}", f"help.{state}", "help.general")
        return self.catalog.say(next(key for key in keys if key in self.catalog.messages), **params)

    def _repeat(self) -> None:
        """The whole last response ("les scores" said several sentences: all of them), else the question."""
        said = self.history.last_response() or ([self.last_prompt] if self.last_prompt else [])
        for index, text in enumerate(said):  # said as a repetition: "undone" again is no second undo
            self.say_text(self.text("session.repeating", text=text) if index == 0 else text, remember=False)

    def _pause(self) -> None:
        """Wait for "resume" (or quit); anything else is answered with how to go on."""
        self.say("session.paused")
        while True:
            heard = self._hear(CONFIRM_STATE)
            result = self._parse(heard, CONFIRM_STATE)
            if result.intent == "quit":
                raise QuitRequested()
            if result.intent in ("resume", "yes", "pause"):
                self.say("session.resumed")
                if self.last_prompt:
                    self.say_text(self.last_prompt, remember=False)
                return
            self.say("session.still_paused")


def heard_words(answer: Answer) -> str:
    return answer.heard.text if answer.heard is not None else answer.intent


def bot_seat_words(words: Catalog, name: str, players: Sequence[str]) -> str | None:
    """For a bot's name that no seat has ("Bot 7" where the bots are Bot 1 to Bot 3): which bots there are;
    None for any other name."""
    pattern = re.compile(re.escape(words.say("solo.bot_name", number=0)).replace("0", r"\d+") + r"\Z",
                         re.IGNORECASE)
    bots = [player for player in players if pattern.match(player)]
    if not bots or not pattern.match(name.strip()):
        return None
    return words.say("solo.no_such_bot", name=name.strip(), bots=bots)
