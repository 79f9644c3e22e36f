"""The Draftosaurus advisor: for one seat, the best placement (or discard) and, when close, the runner-up,
each with the reason the player can check at the table.

Actions are ranked by the strong bot's playouts; the reason says what the action does now (gains.
placement_reason: the pen's effect, the points it scores as the zoos stand, the T-Rex bonus, any other pen it
changes) and `win_chance`, the playouts' chance of winning after it, in percent.

In solo play the advisor knows the seat's hand (`advise_seat` on a full-mode game); at a table the player
names the cards they hold, or the one species they consider (`advise_seat` with `cards`). On the winter board
the strong bot's winter search ranks the actions, and winter_bots.placement_reason gives the reason.

`logged_reason` gives the same reason for a placement already played (what it brought when it was played).
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.errors import BadInput, RuleViolation
from companion.games.bots import Advice, Suggestion, decision_random, ranked_advice
from companion.games.common import Reason
from companion.games.draftosaurus import winter_bots
from companion.games.draftosaurus.actions import Place
from companion.games.draftosaurus.board import PEN_INDEX, SPECIES_INDEX, unknown_id
from companion.games.draftosaurus.bots import DISCARD_PEN, WORLDS, StrongBot, to_action
from companion.games.draftosaurus.engine import Game
from companion.games.draftosaurus.gains import discard_reason, placement_reason
from companion.games.draftosaurus.ids import PENS, SPECIES
from companion.games.draftosaurus.observation import DraftObservation, _check_waiting, observe, observe_table
from companion.games.draftosaurus.playout import Position

CLOSE = 0.03  # a runner-up within this much of the best value is given too (about 3 % of a win)
# Every code the advisor's Reasons carry (gains.placement_reason, gains.discard_reason, and the refusals of a
# hand named at a table that holds more cards than a hand can, and of a winter game). They are data for now:
# no voice speaks them until advice is said in the conversation.
REASONS = ("draft_advice_pair", "draft_advice_pair_started", "draft_advice_pair_last", "draft_advice_forest",
           "draft_advice_trio_full", "draft_advice_trio_part", "draft_advice_trio_last", "draft_advice_king_kept",
           "draft_advice_king_kept_one_rival", "draft_advice_king_behind", "draft_advice_meadow",
           "draft_advice_island_alone", "draft_advice_island_crowded", "draft_advice_river", "draft_advice_discard",
           "draft_advice_hand_too_big", "draft_advice_summer_only", "draft_advice_wood", "draft_advice_bridge_couple",
           "draft_advice_bridge_waiting", "draft_advice_pyramid", "draft_advice_lookout", "draft_advice_quarantine")


def advise(observation: DraftObservation, seed: int = 0, worlds: int = WORLDS,
           among: Sequence[str] | None = None) -> Advice:
    """The best action of the observed seat (with a species of `among`, if given) and, if close, the
    runner-up, each with its Reason."""
    wanted = None if among is None else {SPECIES_INDEX[species] for species in among}
    if not observation.hand or (wanted is not None and not wanted & set(observation.hand)):
        raise BadInput("name at least one card of the hand to get advice")
    if observation.winter:
        return _advise_winter(observation, seed, wanted)
    position = observation.position()
    seat = observation.seat
    suggestions = []
    for weighed in StrongBot(seed, worlds).weigh(observation, wanted):
        species, pen = weighed.choice
        if pen == DISCARD_PEN:
            reason = discard_reason(position, seat, (seat + 1) % observation.players, species)
        else:
            reason = placement_reason(position, seat, species, pen)
        reason = Reason(reason.code, {**reason.params, "win_chance": round(100 * weighed.win)})
        suggestions.append(Suggestion(to_action(observation, weighed.choice), weighed.value, reason))
    return ranked_advice(suggestions, CLOSE)


def _advise_winter(observation: DraftObservation, seed: int, wanted: set[int] | None) -> Advice:
    """Advice on the winter board: winter_bots' search, every action it weighed with its reason."""
    position = winter_bots.WinterPosition.sampled(observation, decision_random(seed, ("world", observation.key())))
    suggestions = []
    for weighed in winter_bots.weigh(observation, decision_random(seed, observation.key()), among=wanted):
        species, pen, _ = weighed.choice
        if pen == winter_bots.DISCARD_PEN:
            reason = winter_bots.discard_reason(position, observation.seat, species)
        else:
            reason = winter_bots.placement_reason(position, observation.seat, weighed.choice)
        reason = Reason(reason.code, {**reason.params, "win_chance": round(100 * weighed.win)})
        suggestions.append(Suggestion(winter_bots.to_action(observation, weighed.choice), weighed.value, reason))
    return ranked_advice(suggestions, CLOSE)


def advise_seat(game: Game, seat: int, cards: Sequence[str] | None = None, seed: int = 0) -> Advice:
    """Advice for `seat`. In full mode the hand is known, and `cards` (species ids), if given, are the ones
    the player asks about; at a table `cards` are what the player names of the hand they hold."""
    if game.mode == "full":
        observation = observe(game, seat)
        if cards is not None:
            for species in cards:
                if species not in SPECIES_INDEX:
                    raise RuleViolation(f"unknown species {species}",
                                        unknown_id("draft_unknown_species", species, SPECIES))
                if SPECIES_INDEX[species] not in observation.hand:
                    raise RuleViolation(f"no {species} in the hand", Reason("draft_not_in_hand", {
                        "player": game.players[seat], "species": species}))
        return advise(observation, seed, among=cards)
    if not cards:
        raise BadInput("at a table the program does not see the hands: name the cards to get advice")
    return advise(observe_table(game, seat, cards), seed)


def refusal(game: Game, seat: int) -> Reason | None:
    """Why `seat` cannot be advised now (it does not place now, the winter board...), or None."""
    try:
        _check_waiting(game, seat)
    except RuleViolation as refused:
        assert isinstance(refused.reason, Reason)
        return refused.reason
    return None


def logged_reason(game: Game, index: int) -> Reason:
    """Why the placement logged at `index` scored what it did, as data: placement_reason at the zoos as they
    stood just before it (summer board, every zoo followed: the King and the Island compare every zoo)."""
    action = game.actions[index]
    if not isinstance(action, Place) or game.board != "summer" or not game.tracks_everyone:
        raise BadInput("a reason is given for a summer placement in a game that follows every zoo")
    before = game.replay(game.setup_json(), game.actions[:index])
    zoos = [[[SPECIES_INDEX[species] for species in zoo[pen] if species is not None] for pen in PENS]
            for zoo in before.zoos]
    position = Position.from_zoos(zoos, game.options)
    position.round, position.turn = before.round - 1, before.turn - 1  # a last turn leaves no pair to complete
    return placement_reason(position, action.player, SPECIES_INDEX[action.species], PEN_INDEX[action.pen])
