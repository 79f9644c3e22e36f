"""A solo game of Dino: the player against bots, the program drawing the nests and the barriers.

The player sits first and plays the first colour. Each bot's turn is an automatic action of the table, said in
one sentence ("Bot 1 avance son pion jaune de 3 emplacements jusqu'en C3 et prend un œuf vert"), and taken back
with the player's turn before it. After the fall each pawn left on the board pays the least steps home without a
question: with no board on the table, the board data is the board. What a bot keeps face down is not said: its
eggs before the one on show (the rules keep them hidden), nor its score before the end.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.dialogue.turn import Act, Question
from companion.games.dino.actions import Action, Meteor, Move, Penalty
from companion.games.dino.engine import PENALTIES, PLAY
from companion.games.dino.ids import POINTS_PER_TURN

if TYPE_CHECKING:
    from companion.dialogue.dino.table import DinoTable


def question(table: DinoTable) -> Question | Act[Action] | None:
    """In solo: a bot's turn, or a pawn's penalty after the fall, played without asking; None otherwise."""
    game = table.game
    if not table.seats.solo:
        return None
    if game.phase == PENALTIES:
        view = game.penalties_due()[0]
        return Act(Penalty(view.player, view.pawn, game.penalty_least(view.player, view.pawn)))
    player = game.current_player
    if game.phase == PLAY and table.seats.is_bot(player):
        return Act(table.bot_choice(player))
    return None


def automatic(table: DinoTable, action: Action) -> bool:
    """In solo the penalties after the fall are the program's too."""
    return table.seats.solo and isinstance(action, Penalty)


def narrate_bot(table: DinoTable, action: Action, before: int) -> None:
    """A bot's turn in one sentence; the meteor's fall after it as at the table."""
    game = table.game
    stones = before - game.meteor_left
    params = {"player": game.players[action.player],
              "actions": turn_words(table, action, stones, _left(table, action), len(game.actions) - 1)}
    if stones and game.phase == PLAY:
        table.say("solo_turn_meteor", left=game.meteor_left, **params)
    else:
        table.say("solo_turn", **params)


def _left(table: DinoTable, action: Action) -> int | None:
    """The eggs left in the nest of the egg `action` (the last action logged) took."""
    if isinstance(action, Move) and action.egg is not None:
        return table.game.nests()[action.egg][1]
    return None


def turn_words(table: DinoTable, action: Action, stones: int, left: int | None, index: int) -> str:
    """What a player did in a turn, as clauses joined ("avance son pion jaune de 3 emplacements jusqu'en C3,
    prend un œuf vert et pousse la météorite d'une pierre"); `left`: the eggs left in the nest of the egg taken;
    `index`: where the turn is in the log. A pawn that stood on the board is said from where to where."""
    game = table.game
    colour = game.colours[action.player]
    if isinstance(action, Meteor):  # a player with no pawn left: every turn goes to the meteor
        return table.text("solo_clause_all_meteor" if game.in_play(action.player) else "solo_clause_no_pawn")
    assert isinstance(action, Move)
    stood = _stood(game.actions[:index], action)
    key = "solo_clause_home" if action.exit else "solo_clause_walk" if stood is None else "solo_clause_walk_from"
    clauses = [table.text(key, colour=colour, steps=action.steps, square=action.square, from_square=stood)]
    if action.egg is not None:
        clauses.append(table.text("solo_clause_last_egg" if left == 0 else "solo_clause_egg", colour=action.egg))
    if stones:
        clauses.append(table.text("solo_clause_meteor", stones=stones))
    return table.session.catalog.join(clauses)


def _stood(before: list[Action], move: Move) -> str | None:
    """The square the moved pawn stood on before `move`, from the log of the actions `before` it; None when it
    waited at its time machine."""
    last = next((action for action in reversed(before) if isinstance(action, Move)
                 and (action.player, action.pawn) == (move.player, move.pawn)), None)
    return None if last is None else last.square


def say_played(table: DinoTable, players: list[int]) -> None:
    """The last turn of each of `players`, as it was said then."""
    game = table.game
    for player in players:
        name = game.players[player]
        index = next((number for number in range(len(game.actions) - 1, -1, -1)
                      if isinstance(game.actions[number], (Move, Meteor)) and game.actions[number].player == player),
                     None)
        if index is None:
            table.say("played_nothing", player=name)
            continue
        action = game.actions[index]
        assert isinstance(action, (Move, Meteor))
        stones, left = _afterwards(table, index)
        table.say("played", player=name, actions=turn_words(table, action, stones, left, index))


def _afterwards(table: DinoTable, index: int) -> tuple[int, int | None]:
    """The stones the meteor moved with the turn logged at `index`, and the eggs then left in the nest of its
    egg (None: no egg)."""
    game = table.game
    travelled = 0
    for action in game.actions[:index]:
        travelled += POINTS_PER_TURN - action.steps if isinstance(action, Move) else (
            POINTS_PER_TURN if isinstance(action, Meteor) else 0)
    action = game.actions[index]
    points = POINTS_PER_TURN - action.steps if isinstance(action, Move) else POINTS_PER_TURN
    stones = max(0, min(points, game.meteor_total - travelled))
    if not isinstance(action, Move) or action.egg is None:
        return stones, None
    taken = sum(1 for other in game.actions[:index + 1] if isinstance(other, Move) and other.egg == action.egg)
    return stones, game.setup.eggs_per_nest - taken


def help_key(table: DinoTable, question: Question) -> str | None:
    """The help of the player's turn in solo speaks of advice and of the bots, with a move the player may make
    now as the example (None when no pawn can move: the table's help says the meteor)."""
    if not (table.seats.solo and question.state == "turn" and "move" in table.example_moves()):
        return None
    return table.key("help.solo_turn")
