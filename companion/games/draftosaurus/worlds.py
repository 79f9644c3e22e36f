"""Whole games consistent with what one seat knows: the observation's unknown cards dealt from what is unseen.

A sampled world keeps every known card where it is and draws each unknown card (in a hand, in a zoo the
table does not follow) at random from the unseen figures, so every world is one the seat cannot tell apart
from the real game; what stays unseen is the bag of the later rounds (and, in the 2-player variant, the
figures put back in the box unseen).
"""

from __future__ import annotations

import random

from companion.games.draftosaurus.observation import DraftObservation
from companion.games.draftosaurus.playout import PENS_OF, Position


def sample_world(observation: DraftObservation, chooser: random.Random) -> Position:
    """One Position the seat cannot tell from the real game (hands full, bag holding the rest of the unseen)."""
    position = observation.position()
    pool = [species for species, count in enumerate(observation.unseen) for _ in range(count)]
    chooser.shuffle(pool)
    for player, hidden in enumerate(observation.hidden_zoo):
        for _ in range(hidden):  # a zoo the table does not follow: random legal placements, no die
            species = pool.pop()
            pens = PENS_OF[position.open_pens(player, species)]
            position.put(player, species, pens[int(chooser.random() * len(pens))])
    for player in range(observation.players):
        hand = [species for species, count in enumerate(observation.known[player]) for _ in range(count)]
        hand.extend(pool.pop() for _ in range(observation.unknown[player]))
        position.hands[player] = hand
    position.bag = [0] * len(position.bag)
    for species in pool:
        position.bag[species] += 1
    return position

