"""Draftosaurus bots: random, greedy and strong, each turning a seat's observation into a placement or discard.

- random: a uniformly random legal action;
- greedy: the action of best immediate gain (gains.placement_gain; a discard denies the next player the most);
- strong: determinised Monte-Carlo: many worlds consistent with the observation (worlds.sample_world), each
  action played in every one of them and the game played out to the end, the action of best average result
  kept (a win counts 1, shared by the winners, plus a little for the margin).
On the winter board each level plays winter_bots' choice of the same kind, and every bot moves its Quarantine
dinosaur at the end (the random one at random, the others where it scores most).
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass

import numpy as np

from companion.games.bots import Bot, decision_random, decision_seed
from companion.games.common import OVER
from companion.games.draftosaurus import winter_bots
from companion.games.draftosaurus.actions import Discard, Place, QuarantineMove
from companion.games.draftosaurus.batch import Batch
from companion.games.draftosaurus.engine import DISCARD, ROLL, Game
from companion.games.draftosaurus.gains import best_placement_gain, placement_gain
from companion.games.draftosaurus.ids import PENS, SPECIES
from companion.games.draftosaurus.observation import DraftObservation, observe
from companion.games.draftosaurus.playout import PENS_OF, Position
from companion.games.draftosaurus.winter_game import QUARANTINE_MOVES
from companion.games.draftosaurus.worlds import sample_world
from companion.games.levels import GREEDY, RANDOM, STRONG

DISCARD_PEN = -1  # the pen of a choice that is a discard
Choice = tuple[int, int]  # (species, pen); pen DISCARD_PEN for a discard


def choices(observation: DraftObservation) -> list[Choice]:
    """Every legal choice of the seat: (species, pen) placements, or (species, DISCARD_PEN) discards."""
    species_in_hand = sorted(set(observation.hand))
    if observation.phase == DISCARD:
        return [(species, DISCARD_PEN) for species in species_in_hand]
    position = observation.position()
    return [(species, pen) for species in species_in_hand
            for pen in PENS_OF[position.legal_mask(observation.seat, species)]]


def to_action(observation: DraftObservation, choice: Choice) -> Place | Discard:
    species, pen = choice
    if pen == DISCARD_PEN:
        return Discard(observation.seat, SPECIES[species])
    return Place(observation.seat, SPECIES[species], PENS[pen])


class RandomBot(Bot[DraftObservation, Place | Discard]):
    level = RANDOM

    def choose(self, observation: DraftObservation) -> Place | Discard:
        chooser = decision_random(self.seed, observation.key())
        if observation.winter:
            position = winter_bots.WinterPosition.sampled(observation, chooser)
            legal_winter = winter_bots.choices(observation, position)
            return winter_bots.to_action(observation, legal_winter[int(chooser.random() * len(legal_winter))])
        legal = choices(observation)
        return to_action(observation, legal[int(chooser.random() * len(legal))])


def greedy_choice(position: Position, player: int, legal: list[Choice], chooser: random.Random,
                  discarding: bool) -> Choice:
    """The choice of best immediate gain (ties broken at random)."""
    receiver = (player + 1) % position.players
    best, found = None, []
    for choice in legal:
        species, pen = choice
        value = best_placement_gain(position, receiver, species) if discarding else placement_gain(
            position, player, species, pen)
        if best is None or value > best + 1e-9:
            best, found = value, [choice]
        elif value > best - 1e-9:
            found.append(choice)
    return found[int(chooser.random() * len(found))]


class GreedyBot(Bot[DraftObservation, Place | Discard]):
    level = GREEDY

    def choose(self, observation: DraftObservation) -> Place | Discard:
        chooser = decision_random(self.seed, observation.key())
        if observation.winter:
            position = winter_bots.WinterPosition.sampled(observation, chooser)
            return winter_bots.to_action(observation, winter_bots.greedy_choice(observation, position, chooser))
        choice = greedy_choice(observation.position(), observation.seat, choices(observation), chooser,
                               observation.phase == DISCARD)
        return to_action(observation, choice)


MARGIN_WEIGHT = 0.02  # a point of margin over the best rival weighs this much against a win
# Worlds per decision. Against three greedy bots, 48 and 200 worlds won alike (0.72 and 0.70 of 100 games
# each); 100 keeps the time to advise near 30 ms at the median.
WORLDS = 100


class StrongBot(Bot[DraftObservation, Place | Discard]):
    level = STRONG

    def __init__(self, seed: int = 0, worlds: int = WORLDS):
        super().__init__(seed)
        self.worlds = worlds

    def choose(self, observation: DraftObservation) -> Place | Discard:
        if observation.winter:
            found = winter_bots.weigh(observation, decision_random(self.seed, observation.key()))
            return winter_bots.to_action(observation, max(found, key=lambda entry: entry.value).choice)
        weighed = self.weigh(observation)
        best = max(range(len(weighed)), key=lambda index: weighed[index].value)
        return to_action(observation, weighed[best].choice)

    def weigh(self, observation: DraftObservation, among: Collection[int] | None = None) -> list[Weighed]:
        """Every legal choice (of the species `among`, if given) with its average result over the sampled
        worlds (see MARGIN_WEIGHT).

        Every choice is played in the same worlds with the same random draws, so that the differences
        between choices come from the choices."""
        legal = [choice for choice in choices(observation) if among is None or choice[0] in among]
        key = observation.key()
        chooser = decision_random(self.seed, key)
        worlds = [sample_world(observation, chooser) for _ in range(self.worlds)]
        batch = Batch.from_positions(worlds, copies=len(legal), seed=decision_seed(self.seed, key))
        seat = observation.seat
        chosen = np.repeat(np.array([species for species, _ in legal]), self.worlds)
        if observation.phase == DISCARD:
            discards = np.full((batch.games, batch.players), -1)
            discards[:, seat] = chosen
            batch.finish_turn(discards)
        else:
            species = batch.random_cards()
            species[:, seat] = chosen
            pens = batch.random_pens(species)
            pens[:, seat] = np.repeat(np.array([pen for _, pen in legal]), self.worlds)
            batch.place(species, pens)
            batch.finish_turn()
        batch.play_out()
        shares, margins = _results(batch, seat)
        values = (shares + MARGIN_WEIGHT * margins).reshape(len(legal), self.worlds).mean(axis=1)
        wins = shares.reshape(len(legal), self.worlds).mean(axis=1)
        return [Weighed(choice, value, win)
                for choice, value, win in zip(legal, values.tolist(), wins.tolist(), strict=True)]


@dataclass(frozen=True)
class Weighed:
    """A choice and what the playouts made of it: `value` (win share plus MARGIN_WEIGHT times the margin over
    the best rival, averaged) and `win` (the average win share alone, from 0 to 1)."""

    choice: Choice
    value: float
    win: float


def _results(batch: Batch, seat: int) -> tuple[np.ndarray, np.ndarray]:
    """Per game: the seat's share of the win, and its margin in points over the best rival."""
    totals = batch.totals()
    winners = batch.winners(totals)
    rivals = np.delete(totals, seat, axis=1).max(axis=1)
    return winners[:, seat] / winners.sum(axis=1), totals[:, seat] - rivals


def bot_action(game: Game, seat: int, bot: Bot[DraftObservation, Place | Discard]) -> Place | Discard | QuarantineMove:
    """What `bot` plays for `seat` in a full-mode game that waits for that seat (it sees only `observe`); after
    the last winter turn, where its Quarantine dinosaur goes (every zoo is in sight then)."""
    if game.phase == QUARANTINE_MOVES:
        chooser = decision_random(bot.seed, ("quarantine", seat)) if bot.level == RANDOM else None
        return winter_bots.quarantine_action(game, seat, chooser)
    return bot.choose(observe(game, seat))


def play_game(game: Game, bots: Sequence[Bot[DraftObservation, Place | Discard]]) -> Game:
    """Play a full-mode game to its end: the game's seeded die at every roll, each seat's bot for its choices."""
    while game.phase != OVER:
        if game.phase == ROLL:
            game.apply(game.roll_die())
            continue
        for seat in game.waiting_for():
            game.apply(bot_action(game, seat, bots[seat]))
    return game


BOTS: dict[str, type[Bot[DraftObservation, Place | Discard]]] = {RANDOM: RandomBot, GREEDY: GreedyBot,
                                                                  STRONG: StrongBot}
