"""The turn mechanism every game plugs into.

A turn: ask the question the game's state calls for → understand the answer → complete half a command by
asking only for what is missing → read back a doubtful one → check it with the engine → apply → save →
narrate. Queries are answered in the middle of any question, undo and redo take back or play again the
last action whatever the question, and the next question always goes to the player who must now act.

A game's table (a Table subclass) supplies only what is its own: `question` (what to ask now),
`interpret` (what an answer means: an action, a missing part, a refusal or a reminder of what is expected),
`describe` (an action in words), `narrate` (what an applied action changed at the table), `allowed`
(what is allowed instead of a refused action), its queries (a Queries registry), its start and end; in solo
play, `bot_choice` (what the bot of a seat plays).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Generic, Self, TypeVar

from companion.dialogue.recent import remember
from companion.dialogue.savefile import SaveFileError, moved_notice, write_save
from companion.dialogue.session import Answer, QuitRequested, Session, bot_seat_words
from companion.dialogue.setup_questions import player_by_name, player_ending
from companion.dialogue.solo import Seats
from companion.errors import BadInput, RuleViolation
from companion.games.common import OVER, LoggedGame, Reason
from companion.games.spec import GameSpec
from companion.language.grammar import confirming
from companion.language.rules import RulesBook

GameT = TypeVar("GameT", bound=LoggedGame)
ActionT = TypeVar("ActionT")  # the game's own action type (a union of its action classes)
UNDO_INTENTS = ("undo", "redo")


# ---------------------------------------------------------------- what a game's table answers

@dataclass(frozen=True)
class Question:
    """What the table asks: the sentence `key` filled with `params`, heard in dialogue state `state`.
    `player` (an index) is the one expected to answer."""

    key: str
    state: str
    params: dict[str, Any] = field(default_factory=dict)
    player: int | None = None
    help: str | None = None  # what "help" says, when not the help the table gives for its state


@dataclass(frozen=True)
class Act(Generic[ActionT]):
    """Apply `action` once the engine has checked it."""

    action: ActionT


ASK_AGAIN = object()  # what a Missing's fill gives for a reply to its question that still lacks something


@dataclass(frozen=True)
class Missing:
    """Half a command: ask `question` for what is missing. `fill` gives the slots a reply adds to `answer`
    (None: the reply is a command of its own; ASK_AGAIN: an answer to the question that does not settle it,
    and `again`, else `question`, is asked); by default a reply of the same intent adds its slots."""

    question: Question
    answer: Answer
    fill: Callable[[Answer], Any] | None = None
    again: Question | None = None

    def complete(self, reply: Answer) -> Any:
        """The command `reply` makes of this half: completed, replaced by a whole new command, or ASK_AGAIN."""
        added = self.fill(reply) if self.fill is not None else (
            reply.slots if reply.intent == self.answer.intent else None)
        if added is ASK_AGAIN:
            return ASK_AGAIN
        return reply if added is None else self.answer.merged(added, reply)


@dataclass(frozen=True)
class Refused(Generic[ActionT]):
    """Refuse without asking the engine (the table knows why): say `reason`, then what `action` may do."""

    reason: Reason
    action: ActionT | None = None


@dataclass(frozen=True)
class Expected:
    """An answer of another kind than the question asks for: say `key` (what is expected)."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Done:
    """The table answered it itself; nothing to apply."""


Outcome = Act[ActionT] | Missing | Refused[ActionT] | Expected | Done  # Outcome[Action]: what an answer means


@dataclass(frozen=True)
class Secret:
    """What an action revealed that an undo cannot hide again: `others` must agree to take it back, and hear
    `key` (with `params`): what stays known."""

    others: tuple[int, ...]
    key: str
    params: dict[str, Any] = field(default_factory=dict)


# ---------------------------------------------------------------- queries, registered explicitly

Handler = Callable[[Any, dict[str, Any]], Any]


class Queries:
    """The queries a table answers whatever its question: intent → handler(table, slots). A handler that asks
    a question of its own may return the Answer of a new command said instead, which then goes on."""

    def __init__(self, *bases: Queries):
        self.handlers: dict[str, Handler] = {}
        for base in bases:
            self.handlers.update(base.handlers)

    def answers(self, *intents: str) -> Callable[[Handler], Handler]:
        """Register the decorated function as the answer to `intents`."""
        def register(handler: Handler) -> Handler:
            for intent in intents:
                self.handlers[intent] = handler
            return handler
        return register

    def get(self, intent: str) -> Handler | None:
        return self.handlers.get(intent)


SHARED_QUERIES = Queries()


@SHARED_QUERIES.answers("rules")
def rules_query(table: Table[Any, Any], slots: dict[str, Any]) -> None:
    """The rules on a topic, or the topics there are."""
    table.session.say_rules(table.rules, slots.get("topic"))


# ---------------------------------------------------------------- the table

_DROPPED = object()  # what route() gives when an undo or redo closed the question
_APPLY = object()  # what read_back() gives after a yes


class BackInPlay(Exception):
    """An undo said while the final scores were being made (a question of them) took the game back into play."""


class Table(Generic[GameT, ActionT]):
    """One game at the table, from its first question (or where a save left it) to the final scores."""

    SPEC: ClassVar[GameSpec]
    QUERIES: ClassVar[Queries] = SHARED_QUERIES
    # The dialogue state of the last question, once the game is over (undo, scores and quit are heard there).
    END_STATE: ClassVar[str] = "turn"
    END_HELP: ClassVar[str] = "session.help_after_end"  # what "help" says once the game is over
    # What rebuilding the game from a save may raise; each means a corrupt save.
    CORRUPT_SAVE_ERRORS: ClassVar[tuple[type[Exception], ...]] = (KeyError, TypeError, ValueError, AttributeError,
                                                                   BadInput)

    def __init__(self, session: Session, game: GameT, save_path: Path, *, asked: int | None = None,
                 seats: Seats | None = None):
        self.session = session
        self.game = game
        self.save_path = save_path
        self.asked = asked  # the player the last question went to; kept in the save
        self.seats = seats or Seats()  # the bots of a solo game, and whether advice is given
        self.state = "turn"  # the dialogue state of the open question
        self.redo_stack: list[list[ActionT]] = []  # what each undo took back, the latest last
        self.said_instead: Answer | None = None  # a new command said at an undo's or redo's yes/no question
        session.set_player_names(game.players)
        self.rules = RulesBook.load(self.SPEC.stem, session.lang, options=self.rule_options())

    # ----- what each game supplies
    def question(self) -> Question | Act[ActionT]:
        """What to ask now, or an action the table plays without asking (a virtual die, a forced move)."""
        raise NotImplementedError

    def interpret(self, question: Question, answer: Answer) -> Outcome[ActionT]:
        """What `answer` to `question` means."""
        raise NotImplementedError

    def describe(self, action: ActionT) -> str:
        """An action in words, for read-backs, "undone" and "redone"."""
        raise NotImplementedError

    def narrate(self, action: ActionT, before: Any, events: Any, redone: bool = False) -> None:
        """Say what `action` changed (`before`: what moment() gave before it; `events`: what apply returned);
        `redone`: a redo already named the action."""

    def moment(self) -> Any:
        """What narrate compares to tell what changed (the round, the turn...)."""
        return None

    def whose(self, name: str, player: int) -> str:
        """The sentence `name` about `player`'s own move: in solo, said to the person playing ("tu", "you",
        "tú": solo_<name>); about anyone else, in the third person."""
        return f"solo_{name}" if self.seats.spoken_to(player) else name

    def allowed(self, action: ActionT, reason: Reason) -> None:
        """After a refusal of `action`: say what is allowed instead."""

    def secret(self, actions: list[ActionT]) -> Secret | None:
        """What taking back `actions` cannot hide again (hidden information they revealed), if anything."""
        return None

    def automatic(self, action: ActionT) -> bool:
        """Whether the program played `action` without a player saying it: a bot's (and a game's own kinds)."""
        return self.seats.is_bot(getattr(action, "player", None))

    def actions_to_undo(self) -> int:
        """How many actions one undo takes back: the last one a player said, with the automatic ones after it
        (the bots' replies, a virtual die); 0 when no player has said one."""
        actions = self.game.actions
        count = 1
        while count <= len(actions) and self.automatic(actions[-count]):
            count += 1
        return count if count <= len(actions) else 0

    def bot_choice(self, seat: int) -> ActionT:
        """What the bot of `seat` plays now (solo play; it sees only what its seat knows)."""
        raise NotImplementedError

    def prompt_again(self, question: Question, query: Answer) -> str | None:
        """What is said again after the answer to `query`, asked in the middle of `question` (None: the question
        as it was asked), so that what the query has just said is not said twice."""
        return None

    def help_key(self, question: Question) -> str | None:
        """What "help" says for `question`, when not the help of its dialogue state."""
        return None

    def help_names(self, player: int | None) -> dict[str, str]:
        """The player a help names as another one (`other`: "Bruno, stegosaurus in the river", "Bruno's zoo"): the
        next one round the table after `player`, who is asked; none when nobody is asked."""
        players = self.game.players
        return {} if player is None or len(players) < 2 else {"other": players[(player + 1) % len(players)]}

    def help_params(self, question: Question) -> dict[str, Any]:
        """What the help of `question` fills in besides the players' names: examples from the game as it is."""
        return {}

    def rule_options(self) -> dict[str, Any] | None:
        """The rule options the rules texts are read with (None: the game's defaults)."""
        return None

    def state_of(self, state: str) -> str:
        """The dialogue state of a question of kind `state` in this game (a game may have variants of it)."""
        return state

    def announce_start(self, resumed: bool) -> None:
        raise NotImplementedError

    def announce_final_scores(self) -> None:
        raise NotImplementedError

    # ----- words
    def key(self, name: str, /) -> str:
        """The catalog key of this game's sentence `name`: its own (<namespace>.<name>), else the one every
        table says the same way (table.<name>, voices/<lang>/messages/table.yaml)."""
        own = f"{self.SPEC.namespace}.{name}"
        return own if own in self.session.catalog.messages else f"table.{name}"

    def text(self, name: str, /, **params: Any) -> str:
        return self.session.text(self.key(name), **params)

    def say(self, name: str, /, **params: Any) -> str:
        return self.session.say(self.key(name), **params)

    def reason_words(self, reason: Reason) -> str:
        return self.session.catalog.say(f"reasons.{reason.code}", **reason.params)

    def player_name(self, player: int | None) -> str | None:
        return None if player is None else self.game.players[player]

    # ----- the loop
    def run(self) -> None:
        """Play until the game is over (or the input ends: the caller says where the game is saved). Once it is
        over, a last question lets the table take back the move that ended it, or ask anything again."""
        while True:
            while self.game.phase != OVER:
                self.play_turn()
            try:
                self.announce_final_scores()
            except BackInPlay:
                self.back_in_play()
                continue
            if not self.ask_after_the_end():
                return
            self.back_in_play()

    def back_in_play(self) -> None:
        """An undo took the game back from its end: what was asked for the final scores is asked again."""

    def answer_after_the_end(self, answer: Answer) -> bool:
        """Whether `answer`, said once the game is over, was a game's own request, now answered."""
        return False

    def finished(self) -> bool:
        """Whether nothing is left to play in this save (a game's own kinds: a match with a game still to play)."""
        return self.game.phase == OVER

    def ask_after_the_end(self) -> bool:
        """True when an undo took the game back from its end; False to stop (quit, no, or the end of input).
        The question is heard as a yes/no one over its state: "no" is a natural way to say that nothing is
        to be taken back."""
        key = "session.after_end"
        while True:
            try:
                answer = self.ask(Question(key, confirming(self.state_of(self.END_STATE)), help=self.END_HELP))
            except QuitRequested:
                return False
            if answer is None:  # undo or redo: the game may have come back
                if self.game.phase != OVER:
                    return True
                continue
            if answer.intent in ("no", "stop", "quit"):
                return False
            if self.answer_after_the_end(answer):
                continue
            key = "session.after_end_expected"  # what may be said, without "the game is over" once more

    def play_turn(self) -> None:
        """One question and what its answer leads to."""
        step = self.question()
        if isinstance(step, Act):
            self.act(step.action)
            return
        if step.player is not None:
            self.asked = step.player
            self.session.earcon("your_turn")
        half: Missing | None = None
        reply = self.ask(step)
        while reply is not None:
            answer = reply if half is None else half.complete(reply)
            if answer is ASK_AGAIN:
                assert half is not None
                reply = self.ask(half.again or half.question, half)
                continue
            outcome = self.interpret(step, answer)
            if isinstance(outcome, Missing):
                half = outcome
                reply = self.ask(outcome.question, half)
                continue
            if isinstance(outcome, Act) and answer.doubtful:
                half, reply = None, self.read_back(outcome.action, step.state)
                if reply is not _APPLY:
                    continue
            self.conclude(outcome)
            return

    def read_back(self, action: ActionT, state: str) -> Any:
        """Read a doubtful action back by its meaning: _APPLY after a yes; None after a no or an undo (nothing
        is applied, and that is said); or a new command said instead, for the question to take."""
        meaning = self.describe(action)
        verdict = self.confirm(self.session.text("session.confirm_meaning", meaning=meaning), state,
                               again=self.session.text("session.meaning_again", meaning=meaning))
        if verdict is True:
            return _APPLY
        if verdict is False:
            self.session.say("session.confirm_refused")
            return None
        if verdict.intent == "undo":  # "annule" at the read-back: the action read back is what it takes back
            self.say("dropped", what=meaning)
            return None
        routed = self.route(verdict, state, None)
        return routed if isinstance(routed, Answer) else None

    def ask(self, question: Question, half: Missing | None = None, why: str | None = None) -> Answer | None:
        """The answer to `question` that the game must interpret; queries are answered on the way. None when
        an undo or redo closed the question (an undo said during half a command drops that half). `why`: the
        sentence that says why it is asked again, with the question in it (said again alone afterwards)."""
        speaker = self.player_name(question.player)
        self.state = question.state
        prompt = self.session.text(question.key, **question.params)
        if why is not None:
            prompt = self.session.text(why, question=prompt)
        help_key = question.help or self.help_key(question)
        help_params = {**self.help_names(question.player), **self.help_params(question)}

        def again() -> str:  # in the verbosity of the moment
            return self.session.text(question.key, **question.params)

        answer = self.session.ask(prompt, question.state, speaker=speaker, help_key=help_key, help_params=help_params,
                                  again=again)
        while True:
            routed = self.route(answer, question.state, half)
            if routed is _DROPPED:
                return None
            if isinstance(routed, Answer):
                return routed
            if self.session.verbosity == "full":
                self.session.say_text(self.prompt_again(question, answer) or again(), remember=False)
            answer = self.session.ask(None, question.state, speaker=speaker, help_key=help_key,
                                      help_params=help_params, again=again)

    def route(self, answer: Answer, state: str, half: Missing | None) -> Any:
        """An undo, a redo or a query is handled here (_DROPPED, or None for a query); any other answer is
        given back for the game to interpret, and so is a new command said instead of yes or no to an undo or
        a redo (which is then not done)."""
        if answer.intent in UNDO_INTENTS:
            if half is not None:
                self.say("dropped", what=self.half_words(half))
            elif answer.intent == "undo":
                self.undo(answer, state)
            else:
                self.redo(answer, state)
            instead, self.said_instead = self.said_instead, None
            return _DROPPED if instead is None else instead
        handler = self.QUERIES.get(answer.intent)
        if handler is None:
            return answer
        if answer.unsure and answer.heard is not None:
            verdict = self.confirm(self.session.text("session.confirm", heard=answer.heard.text), state)
            if verdict is not True:
                if verdict is False:
                    self.session.say("session.confirm_refused")
                    return None
                return self.route(verdict, state, half)
        said_instead = handler(self, answer.slots)
        return self.route(said_instead, state, half) if isinstance(said_instead, Answer) else None

    def confirm(self, question: str, state: str, again: str | None = None) -> bool | Answer:
        """A yes/no question: True, False, or the Answer of a new command for the game. Queries said instead
        are answered and the question asked again."""
        while True:
            verdict = self.session.confirm(question, state, again)
            if not isinstance(verdict, Answer) or self.QUERIES.get(verdict.intent) is None:
                return verdict
            self.route(verdict, state, None)

    def half_words(self, half: Missing) -> str:
        """What was said of a half command, for "dropped"."""
        return half.answer.heard.text if half.answer.heard is not None else half.answer.intent

    def conclude(self, outcome: Outcome[ActionT]) -> None:
        if isinstance(outcome, Act):
            self.act(outcome.action)
        elif isinstance(outcome, Refused):
            self.refuse(outcome.reason, outcome.action)
        elif isinstance(outcome, Expected):
            self.session.earcon("not_understood")
            self.say(outcome.key, **outcome.params)

    # ----- applying actions
    def act(self, action: ActionT) -> bool:
        """Apply a legal action, save at once, say what changed; or say why not (False). The rules are checked
        once, by the game's apply, which changes nothing when it refuses."""
        before = self.moment()
        try:
            events = self.game.apply(action)
        except RuleViolation as refusal:
            self.refuse(refusal.reason, action)
            return False
        self.redo_stack.clear()
        self.save()
        self.narrate(action, before, events)
        return True

    def refuse(self, reason: Reason, action: ActionT | None = None) -> None:
        """Say why, then what is allowed instead."""
        self.session.earcon("refused")
        self.say("refused", reason=self.reason_words(reason))
        if action is not None:
            self.allowed(action, reason)

    # ----- undo and redo: the log replayed without the last actions, or with them again
    def undo(self, answer: Answer, state: str) -> None:
        actions = self.game.actions
        count = self.actions_to_undo()
        if not count:
            self.say("nothing_to_undo")
            return
        undone = actions[-count:]
        what = self.describe(undone[0])
        if answer.doubtful and not self.agreed(self.text("confirm_undo", what=what), state):
            return
        secret = self.secret(undone)
        if secret is not None and not self.others_agree(secret, what, state):
            return
        self.game = self.game.replay(self.game.setup_json(), actions[:-len(undone)])
        self.redo_stack.append(undone)
        self.asked = getattr(undone[0], "player", self.asked)  # who must now act again
        self.save()
        self.say("undone", what=what)
        self.say_bots_too(undone, "solo.bots_undone")
        if secret is not None:
            self.say(secret.key, **secret.params)

    def redo(self, answer: Answer, state: str) -> None:
        if not self.redo_stack:
            self.say("nothing_to_redo")
            return
        what = self.describe(self.redo_stack[-1][0])
        if answer.doubtful and not self.agreed(self.text("confirm_redo", what=what), state):
            return
        redone = self.redo_stack.pop()
        before = self.moment()
        events = [self.game.apply(action) for action in redone]
        self.save()
        self.say("redone", what=what)
        self.say_bots_too(redone, "solo.bots_redone")
        self.narrate(redone[-1], before, events[-1], redone=True)

    def say_bots_too(self, actions: list[ActionT], key: str) -> None:
        """After an undo or redo of `actions`: which bots' replies went (or came back) with them."""
        seats = (getattr(action, "player", None) for action in actions)  # a die roll has no player
        bots = sorted({seat for seat in seats if seat is not None and self.seats.is_bot(seat)})
        if bots:
            self.session.say(key, bots=[self.game.players[bot] for bot in bots])

    def agreed(self, question: str, state: str) -> bool:
        """A clear yes to `question` (asked before an undo or a redo); anything else is said to change nothing. An
        undo or a redo said instead is not taken while the question is open: what may be said is, and the
        question asked again; a new command is kept in `said_instead`, for the open question to take."""
        verdict = self.confirm(question, state)
        while isinstance(verdict, Answer) and verdict.intent in UNDO_INTENTS:
            self.say("undo_question_open")
            verdict = self.confirm(question, state)
        if verdict is not True:
            self.session.say("session.nothing_changes")  # the move stays: "I will ignore it" could be heard of it
        if isinstance(verdict, Answer):
            self.said_instead = verdict
        return verdict is True

    def others_agree(self, secret: Secret, what: str, state: str) -> bool:
        """Each other player agrees to take back an action that revealed something."""
        for other in secret.others:
            if not self.agreed(self.text("undo_consent", other=self.game.players[other], what=what, **secret.params),
                               state):
                return False
        return True

    # ----- players
    def player_named(self, name: Any) -> int | None:
        """The index of the player called `name` (in any case); None when nobody is, or no name was said."""
        return None if name is None else player_by_name(self.game.players, name)

    def player_said(self, name: Any, default: int | None) -> int | None:
        """The player named (or whose name ends the words said: "le zoo de la bruno" is Bruno's), `default` when no
        name was said; None, and the players listed, for a name that is nobody's."""
        if name is None:
            return default
        found = self.player_named(name)
        if found is None:
            found = player_ending(self.game.players, name)
        if found is None:
            bots = bot_seat_words(self.session.catalog, str(name), self.game.players)
            if bots is not None:
                self.session.say_text(bots)
            else:
                self.say("unknown_player", name=name, players=list(self.game.players))
        return found

    def unknown_player(self, name: Any) -> Expected | Done:
        """The reminder for a name that is not a player's: the players there are (the bots, for a bot's seat
        that does not exist)."""
        bots = bot_seat_words(self.session.catalog, str(name), self.game.players)
        if bots is not None:
            self.session.earcon("not_understood")
            self.session.say_text(bots)
            return Done()
        return Expected("unknown_player", {"name": name, "players": list(self.game.players)})

    # ----- a new game, and a saved one
    @classmethod
    def new(cls, session: Session, args: Any, save_path: Path) -> Self:
        """A new table from the options of `companion play` (and set-up questions for what they leave out),
        saved at once."""
        table = cls(session, save_path=save_path, **cls.start(session, args))
        table.save()
        return table

    @classmethod
    def start(cls, session: Session, args: Any) -> dict[str, Any]:
        """The constructor's arguments, besides the session and the path, of a new game."""
        raise NotImplementedError

    def save(self) -> None:
        """Write the save at once; when the file was changed by someone else meanwhile, the game goes on in a
        new file (savefile.HeldSave), and when its name leads elsewhere now, under the file's own name: the
        table hears where."""
        saved_at = write_save(self.save_path, self.SPEC.id, self.save_content())
        if saved_at != self.save_path:
            self.session.say(moved_notice(saved_at), path=str(self.save_path), new=str(saved_at))
            self.save_path = saved_at
            remember(saved_at)

    def save_content(self) -> dict[str, Any]:
        """What the save file holds: the game, who was asked last, and how the session was set up."""
        content = {"finished": self.game.phase == OVER, "state": self.game.to_json(),
                   "dialogue": {"asked": self.asked}, "session": self.session.settings()}
        if self.seats != Seats():
            content["seats"] = self.seats.to_json()
        return content

    @classmethod
    def from_save(cls, session: Session, content: dict[str, Any], save_path: Path) -> Self:
        """The table a save holds; a game that cannot be rebuilt from it is a corrupt save (SaveFileError)."""
        try:
            parts = cls.saved_parts(content)
            asked = (content.get("dialogue") or {}).get("asked")
            table = cls(session, save_path=save_path, **parts)
            if asked is not None and not (type(asked) is int and 0 <= asked < len(table.game.players)):
                raise ValueError(f"asked player {asked!r}")
            if not table.seats_fit():
                raise ValueError("seats that do not fit the game")
        except cls.CORRUPT_SAVE_ERRORS as error:
            raise SaveFileError("corrupt", save_path, cls.damage(session, error)) from None
        table.asked = asked
        return table

    @staticmethod
    def damage(session: Session, error: Exception) -> str:
        """What is wrong with a save that cannot be rebuilt, in the session's words: the move that breaks a
        rule and why, else that its content is no game."""
        reason = getattr(error, "reason", None)
        if not isinstance(reason, Reason):
            return session.catalog.say("save.bad_content")
        words = session.catalog.say(f"reasons.{reason.code}", **reason.params).rstrip(".")  # inside a sentence
        number = getattr(error, "number", None)
        return words if number is None else session.catalog.say("save.bad_move", number=number, reason=words)

    @classmethod
    def saved_parts(cls, content: dict[str, Any]) -> dict[str, Any]:
        """The constructor's arguments, besides the session and the path, that a save holds."""
        game = cls.SPEC.engine_class().from_json(content["state"])
        return {"game": game, "seats": Seats.from_json(content.get("seats"), len(game.players))}

    def seats_fit(self) -> bool:
        """Whether the seats fit the game (a save whose seats do not is corrupt): by default, no bots."""
        return not self.seats.solo

    # ----- advice
    def advice_refused(self) -> bool:
        """True, after saying so and how to turn it on, when this table gives no advice."""
        if self.seats.advice:
            return False
        self.session.say("solo.advice_off")
        return True
