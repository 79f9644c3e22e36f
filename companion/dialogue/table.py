"""What every game's table dialogue shares: a save after each accepted move, a table rebuilt from a save,
queries said in the middle of any question, undo and redo by replaying the log, refusals, players by name.

Each game's table says its sentences from its own part of the catalog (MESSAGES: "table.", "dino."...), so
the keys below (refused, undone, redone, nothing_to_undo, nothing_to_redo, rules_topics, rules_unknown) exist
in each part.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Self

from companion.dialogue.savefile import SaveFileError, write_save
from companion.dialogue.session import Answer, Session, StateChanged
from companion.dialogue.setup import player_by_name
from companion.errors import BadInput
from companion.games.common import OVER, LoggedGame, Reason

if TYPE_CHECKING:
    from companion.language.rules import RulesBook

UNDO_INTENTS = ("undo", "redo")


class Table:
    """The turn loop of one game at the table; each game provides announce_start, play_step,
    announce_final_scores and describe_action."""

    GAME: ClassVar[str]  # the game's name in its save files
    ENGINE: ClassVar[type[LoggedGame]]
    MESSAGES: ClassVar[str]  # the prefix of the table's keys in the catalog
    # What rebuilding the game from a save may raise; each means a corrupt save.
    CORRUPT_SAVE_ERRORS: ClassVar[tuple[type[Exception], ...]] = (KeyError, TypeError, ValueError, AttributeError,
                                                                   BadInput)

    rules: RulesBook

    def __init__(self, session: Session, game: Any, save_path: Path):
        self.session = session
        self.game = game
        self.save_path = save_path
        self.redo_stack: list[list[Any]] = []  # what each undo took back, the latest last
        session.set_player_names(game.players)
        session.read_back = self.read_back

    # ----- what each game provides
    def announce_start(self, resumed: bool) -> None:
        raise NotImplementedError

    def play_step(self) -> None:
        """Ask the question the game's phase calls for and act on the answer."""
        raise NotImplementedError

    def announce_final_scores(self) -> None:
        raise NotImplementedError

    def describe_action(self, action: Any) -> str:
        """An action in words, for "undone" and "redone"."""
        raise NotImplementedError

    def read_back(self, answer: Answer) -> str | None:
        """What a doubtful answer means, in words, to confirm it before it is applied (None: the words heard)."""
        return None

    # ----- the loop
    def run(self) -> None:
        """Play until the game is over (or the input ends: the caller says where the game is saved)."""
        while self.game.phase != OVER:
            try:
                self.play_step()
            except StateChanged:  # an undo or redo answered the question: ask afresh
                continue
        self.announce_final_scores()

    # ----- persistence
    def save(self) -> None:
        write_save(self.save_path, self.GAME, self.save_content())

    def save_content(self) -> dict[str, Any]:
        """What the save file holds."""
        return {"finished": self.game.phase == OVER, "state": self.game.to_json()}

    @classmethod
    def from_save(cls, session: Session, content: dict[str, Any], save_path: Path) -> Self:
        """The table a save holds; a game that cannot be rebuilt from it is a corrupt save (SaveFileError)."""
        try:
            parts = cls.saved_parts(content)
        except cls.CORRUPT_SAVE_ERRORS as error:
            raise SaveFileError("corrupt", save_path, type(error).__name__) from None
        return cls(session, save_path=save_path, **parts)

    @classmethod
    def saved_parts(cls, content: dict[str, Any]) -> dict[str, Any]:
        """The constructor's arguments, besides the session and the path, that a save holds."""
        return {"game": cls.ENGINE.from_json(content["state"])}

    # ----- undo and redo
    def undo_at_any_question(self) -> bool:
        """Whether "undo" and "redo" act at once whatever the question, or go to the question that heard them."""
        return True

    def actions_to_undo(self) -> int:
        """How many actions, at the end of a log that is not empty, one undo takes back."""
        return 1

    def undo(self) -> list[Any]:
        """Take back the last action(s) by replaying the log without them; what was taken back ([]: nothing)."""
        actions = self.game.actions
        if not actions:
            self.session.say(f"{self.MESSAGES}nothing_to_undo")
            return []
        count = self.actions_to_undo()
        undone = actions[-count:]
        self.game = self.game.replay(self.game.setup_json(), actions[:-count])
        self.redo_stack.append(undone)
        self.save()
        self.session.say(f"{self.MESSAGES}undone", what=self.describe_action(undone[0]))
        return undone

    def redo(self) -> list[Any]:
        """Play again what the last undo took back; what was played ([]: nothing)."""
        if not self.redo_stack:
            self.session.say(f"{self.MESSAGES}nothing_to_redo")
            return []
        redone = self.redo_stack.pop()
        for action in redone:
            self.game.apply(action)
        self.save()
        self.session.say(f"{self.MESSAGES}redone", what=self.describe_action(redone[0]))
        return redone

    # ----- queries, answered whatever the question was
    def handle_query(self, answer: Answer) -> bool:
        """Answer `answer` if it is a query (a method query_<intent>); False leaves it to the question."""
        if answer.intent in UNDO_INTENTS and not self.undo_at_any_question():
            return False
        handler: Callable[[dict[str, Any]], None] | None = getattr(self, f"query_{answer.intent}", None)
        if handler is None:
            return False
        handler(answer.slots)
        return True

    def query_undo(self, slots: dict[str, Any]) -> None:
        self.undo()

    def query_redo(self, slots: dict[str, Any]) -> None:
        self.redo()

    def query_rules(self, slots: dict[str, Any]) -> None:
        """The rules on a topic, or the topics there are."""
        topic = slots.get("topic")
        section = self.rules.find(topic) if topic else None
        if topic is None:
            self.session.say(f"{self.MESSAGES}rules_topics",
                             topics=self.session.catalog.join(s.title for s in self.rules.sections))
        elif section is None:
            self.session.say(f"{self.MESSAGES}rules_unknown")
        else:
            self.session.say_text(section.text)

    # ----- refusals
    def refuse(self, reason: Reason) -> None:
        self.session.earcon("refused")
        self.session.say(f"{self.MESSAGES}refused", reason=self.reason_words(reason))

    def reason_words(self, reason: Reason) -> str:
        return self.session.catalog.say(f"reasons.{reason.code}", **reason.params)

    def refuse_unexpected(self, key: str) -> None:
        """An answer of another kind than the question asked for: `key` says what was expected."""
        self.session.earcon("not_understood")
        self.session.say(key)

    # ----- players
    def player_named(self, name: Any) -> int | None:
        """The index of the player called `name` (in any case); None when nobody is, or no name was said."""
        return None if name is None else player_by_name(self.game.players, name)
