"""What players may ask in the middle of any Draftosaurus question: zoos and pens (on the winter board the
pyramid row by row and the bridge bank by bank), where a species may go, the scores, whose turn it is, the die
and what a face means, where the game stands; advice, what a player played last, and the hand in solo."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from companion.dialogue.draftosaurus import advice, winter
from companion.dialogue.draftosaurus.words import counted_species
from companion.dialogue.session import Answer
from companion.dialogue.turn import SHARED_QUERIES, Queries
from companion.games.common import OVER
from companion.games.draftosaurus.actions import Place, Roll
from companion.games.draftosaurus.engine import PLACE, ROLL
from companion.games.draftosaurus.ids import PENS
from companion.games.draftosaurus.winter_game import QUARANTINE_MOVES

if TYPE_CHECKING:
    from companion.dialogue.draftosaurus.table import DraftosaurusTable

QUERIES = Queries(SHARED_QUERIES)
RIVER = "river"


def _player(table: DraftosaurusTable, slots: dict[str, Any]) -> int | None:
    """The player named (None and said so when nobody has that name), else the one being asked."""
    waiting = table.game.waiting_for()
    asked = table.asked if table.asked is not None else (waiting[0] if waiting else table.game.roller)
    return table.player_said(slots.get("player"), asked)


@QUERIES.answers("zoo", "winter_zoo")
def zoo(table: DraftosaurusTable, slots: dict[str, Any]) -> None:
    """A whole zoo, or one pen of it ("la rivière de David", "la pyramide de Bruno")."""
    player = _player(table, slots)
    if player is None:
        return
    if player not in table.game.tracked:
        table.say("not_followed", player=table.game.players[player],
                  followed=[table.game.players[p] for p in table.game.tracked])
        return
    name, content = table.game.players[player], table.game.zoos[player]
    pen = slots.get("pen")
    if pen is not None:
        held = any(content[bank] for bank in winter.BANKS) if pen == winter.BRIDGE else any(content.get(str(pen), []))
        if not held:
            table.say("pen_of_empty", player=name, pen=pen)
        elif table.winter:
            table.say("pen_of", player=name, pen=pen, content=winter.pen_words(table, content, str(pen)))
        else:
            table.say("pen_of", player=name, pen=pen, content=_species_words(table, content[str(pen)]))
        return
    if table.winter:
        parts, empty = winter.zoo_parts(table, content)
    else:
        parts = [table.text("pen_content", pen=pen_id, content=_species_words(table, content[pen_id]))
                 for pen_id in PENS if content.get(pen_id)]
        empty = [pen_id for pen_id in PENS if pen_id != RIVER and not content.get(pen_id)]
    if not parts:
        table.say("zoo_empty", player=name)
        return
    table.say("zoo", player=name, count=sum(1 for held in content.values() for species in held if species),
              content=" ".join(parts), empty=table.text("empty_pens", pens=empty) if empty else table.text(
                  "no_empty_pen"))


def _species_words(table: DraftosaurusTable, species: Sequence[str | None]) -> str:
    """A summer pen's dinosaurs in words, each species once with its count: "cinq stégosaures"."""
    return counted_species(table, species)


@QUERIES.answers("legal")
def legal(table: DraftosaurusTable, slots: dict[str, Any]) -> None:
    """Where a species may go for a player now."""
    player = _player(table, slots)
    if player is None:
        return
    if slots.get("species") is None:
        table.say("which_species_query")
        return
    if table.game.phase == QUARANTINE_MOVES and player in table.game.waiting_for():
        winter.say_quarantine_choices(table, player)
        return
    table.say_legal(player, str(slots["species"]))


@QUERIES.answers("score", "score_detail")
def score(table: DraftosaurusTable, slots: dict[str, Any]) -> None:
    over = table.game.phase == OVER  # then the final scores, with what the other players told of their zoos
    sheet = table.final_sheet() if over else table.game.score()
    named = table.player_said(slots.get("player"), None)
    if slots.get("player") is not None and named is None:
        return
    if table.match is not None and table.match.played:  # a match's later game: its own points, not the sum
        table.say(f"match_scores_of.{table.match.sides[len(table.match.played)]}")
    for entry in sheet.players:
        if named is None or entry.name == table.game.players[named]:
            table.session.say_text(table.score_line(entry, final=over))


@QUERIES.answers("whose_turn")
def whose_turn(table: DraftosaurusTable, slots: dict[str, Any]) -> None:
    game = table.game
    if game.phase == ROLL:
        table.say("where_roll", round=game.round, turn=game.turn, roller=game.players[game.roller])
    elif game.phase == QUARANTINE_MOVES:
        table.say("quarantine_start", names=[game.players[i] for i in game.waiting_for()])
    elif game.waiting_for():
        table.say("waiting", names=[game.players[i] for i in game.waiting_for()], face=table.face_id())
    else:
        table.say("game_over")


@QUERIES.answers("status")
def status(table: DraftosaurusTable, slots: dict[str, Any]) -> None:
    game = table.game
    table.say("status", round=game.round, rounds=game.rounds, turn=game.turn, turns=game.turns_per_round)
    whose_turn(table, slots)


@QUERIES.answers("current_die")
def current_die(table: DraftosaurusTable, slots: dict[str, Any]) -> None:
    if table.game.phase == QUARANTINE_MOVES:
        table.say("no_die_now")
    elif table.face_id() is None:
        table.say("no_face_yet", roller=table.game.players[table.game.roller])
    else:
        table.say_face()


@QUERIES.answers("face_meaning")
def face_meaning(table: DraftosaurusTable, slots: dict[str, Any]) -> None:
    face = slots.get("face") or table.face_id()
    if face is None:
        table.say("no_face_yet", roller=table.game.players[table.game.roller])
        return
    table.say("face_meaning", face=face, sticker=table.session.catalog.name("faces", str(face), "sticker"),
              meaning=table.face_meaning(str(face)))


@QUERIES.answers("advice")
def advice_query(table: DraftosaurusTable, slots: dict[str, Any]) -> Answer | None:
    """The best action for the player who asks (or the one named), with its reason."""
    player = _player(table, slots)
    return None if player is None else advice.advise(table, player, slots.get("species"))


@QUERIES.answers("played")
def played(table: DraftosaurusTable, slots: dict[str, Any]) -> None:
    """The last placement of the player named; without a name, the bots' (solo) or the other players'."""
    if slots.get("player") is not None:
        player = table.player_said(slots["player"], None)
        if player is not None:
            advice.say_played(table, [player])
        return
    asker = _player(table, {})
    others = [seat for seat in range(len(table.game.players)) if seat != asker]
    advice.say_played(table, [seat for seat in others if table.seats.is_bot(seat)] or others)


@QUERIES.answers("hand")
def hand(table: DraftosaurusTable, slots: dict[str, Any]) -> None:
    player = _player(table, {})
    if player is not None:
        advice.say_hand(table, player)


@QUERIES.answers("empty_pens")
def empty_pens(table: DraftosaurusTable, slots: dict[str, Any]) -> None:
    """The pens still empty in the zoo of the player who asks, or of the one named."""
    player = _player(table, slots)
    if player is None:
        return
    name = table.game.players[player]
    if player not in table.game.tracked:
        table.say("not_followed", player=name, followed=[table.game.players[p] for p in table.game.tracked])
        return
    content = table.game.zoos[player]
    empty = winter.zoo_parts(table, content)[1] if table.winter else [
        pen for pen in PENS if pen != RIVER and not content.get(pen)]
    if empty:
        table.say("empty_pens_of", player=name, pens=empty)
    else:
        table.say("no_empty_pen_of", player=name)


@QUERIES.answers("turn_recap")
def turn_recap(table: DraftosaurusTable, slots: dict[str, Any]) -> None:
    """What was placed at this turn, and whom the table still waits for; before anyone has placed, the turn
    before."""
    game = table.game
    rolls = [index for index, action in enumerate(game.actions) if isinstance(action, Roll)]
    current = rolls[-1] if rolls and game.phase != ROLL else None  # the roll of this turn, once rolled
    earlier = [index for index in rolls if index != current]
    placed = _placements(table, game.actions[current + 1:]) if current is not None else ""
    if placed:
        assert current is not None
        table.say("recap", face=_face(game.actions[current]), placed=placed)
    else:
        table.say("recap_nothing")
        if earlier:
            end = current if current is not None else len(game.actions)
            table.say("recap_previous", face=_face(game.actions[earlier[-1]]),
                      placed=_placements(table, game.actions[earlier[-1] + 1:end]))
    if game.phase == PLACE and game.waiting_for():
        table.say("recap_waiting", names=[game.players[player] for player in game.waiting_for()])


def _face(roll: Any) -> str:
    """The face a logged roll shows, as its id."""
    assert isinstance(roll, Roll)
    return str(getattr(roll.face, "value", roll.face))


def _placements(table: DraftosaurusTable, actions: Sequence[Any]) -> str:
    """Each placement of `actions` in words ("Alice : tricératops, trio des bois"), one after the other."""
    items = []
    for action in actions:
        if not isinstance(action, Place):
            continue
        params = {"player": table.game.players[action.player], "species": action.species, "pen": action.pen}
        items.append(table.text("recap_item", **params) if action.position is None
                     else table.text("recap_item_position", **params, position=action.position))
    return table.session.catalog.say("list.clauses").join(items)


@QUERIES.answers("match_score")
def match_score(table: DraftosaurusTable, slots: dict[str, Any]) -> None:
    """In a match: each player's totals game by game (the current one as it stands) and their sum; with a
    board side named, that game's totals."""
    match = table.match
    if match is None:
        table.say("no_match")
        return
    names = [table.game.players[player] for player in table.game.tracked]
    side = slots.get("board_side")
    if side is None:
        table.say_match_totals(names)
        return
    index = match.sides.index(str(side))
    if index > len(match.played):
        table.say(f"match_side_later.{side}")
        return
    totals = match.played[index].totals if index < len(match.played) else table.current_totals()
    current = index == len(match.played) and table.game.phase != OVER
    table.say(f"match_side{'_so_far' if current else ''}.{side}",
              totals=table.session.catalog.say("list.clauses").join(
                  table.text("total_item", player=name, total=totals.get(name, 0)) for name in names))
