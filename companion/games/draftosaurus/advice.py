"""The Draftosaurus advisor: for one seat, the best placement (or discard) and, when close, the runner-up,
each with the reason the player can check at the table.

Actions are ranked by the strong bot's playouts; the reason says what the action does now (gains.
placement_reason: the pen's effect, the points it scores as the zoos stand, the T-Rex bonus, any other pen it
changes) and `win_chance`, the playouts' chance of winning after it, in percent.

In solo play the advisor knows the seat's hand (`advise_seat` on a full-mode game); at a table the player
names the cards they hold, or the one species they consider (`advise_seat` with `cards`).
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.errors import BadInput, RuleViolation
from companion.games.bots import Advice, Suggestion, ranked_advice
from companion.games.common import Reason
from companion.games.draftosaurus.board import SPECIES_INDEX, unknown_id
from companion.games.draftosaurus.bots import DISCARD_PEN, WORLDS, StrongBot, to_action
from companion.games.draftosaurus.engine import Game
from companion.games.draftosaurus.gains import discard_reason, placement_reason
from companion.games.draftosaurus.ids import SPECIES
from companion.games.draftosaurus.observation import DraftObservation, observe, observe_table

CLOSE = 0.03  # a runner-up within this much of the best value is given too (about 3 % of a win)
# Every code the advisor's Reasons carry (gains.placement_reason, gains.discard_reason, and the refusals of a
# hand named at a table that holds more cards than a hand can, and of a winter game). They are data for now:
# no voice speaks them until advice is said in the conversation.
REASONS = ("draft_advice_pair", "draft_advice_pair_started", "draft_advice_forest", "draft_advice_trio_full",
           "draft_advice_trio_part", "draft_advice_king_kept", "draft_advice_king_behind", "draft_advice_meadow",
           "draft_advice_island_alone", "draft_advice_island_crowded", "draft_advice_river", "draft_advice_discard",
           "draft_advice_hand_too_big", "draft_advice_summer_only")


def advise(observation: DraftObservation, seed: int = 0, worlds: int = WORLDS,
           among: Sequence[str] | None = None) -> Advice:
    """The best action of the observed seat (with a species of `among`, if given) and, if close, the
    runner-up, each with its Reason."""
    wanted = None if among is None else {SPECIES_INDEX[species] for species in among}
    if not observation.hand or (wanted is not None and not wanted & set(observation.hand)):
        raise BadInput("name at least one card of the hand to get advice")
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
