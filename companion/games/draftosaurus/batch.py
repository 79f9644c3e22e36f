"""Many Draftosaurus games at once as numpy arrays: random playouts in batches, scored as the engine scores.

The same rules as playout.Position, one array axis per game and per player, so one numpy operation moves a
thousand games at a time. `bench engine` measures it against the engine and against Position; tests replay
seeded engine games through it and compare every legal set and every score.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from companion.games.draftosaurus.board import (
    BAG_PER_SPECIES,
    EMPTY_PEN_FACE,
    FOREST_OF_SAMENESS,
    HAND_SIZE,
    KING_OF_THE_JUNGLE,
    MEADOW_OF_DIFFERENCES,
    NO_TREX_FACE,
    PRAIRIE_OF_LOVE,
    RIVER,
    SOLITARY_ISLAND,
    TREX,
    WOODY_TRIO,
    RoundClock,
)
from companion.games.draftosaurus.options import Options
from companion.games.draftosaurus.playout import (
    ALL_PENS,
    CAPACITY_FOREST,
    CAPACITY_MEADOW,
    CAPACITY_PRAIRIE,
    CAPACITY_TRIO,
    ENCLOSURE_BITS,
    FACE_COUNT,
    FACE_MASK,
    PEN_COUNT,
    PENS_OF,
    RIVER_BIT,
    SPECIES_COUNT,
    Position,
)
from companion.games.draftosaurus.scoring import (
    FOREST_POINTS,
    ISLAND_POINTS,
    KING_POINTS,
    MEADOW_POINTS,
    PAIR_POINTS,
    TREX_BONUS_PER_PEN,
)

_MASKS = 1 << PEN_COUNT
_POPCOUNT = np.array([len(PENS_OF[mask]) for mask in range(_MASKS)])
_NTH_PEN = np.array([[PENS_OF[mask][index] if index < len(PENS_OF[mask]) else 0 for index in range(PEN_COUNT)]
                     for mask in range(_MASKS)])
_FACE_MASK = np.array(FACE_MASK)
_FOREST_POINTS = np.array(FOREST_POINTS)
_MEADOW_POINTS = np.array(MEADOW_POINTS)
_SPECIES = np.arange(SPECIES_COUNT)


class Batch(RoundClock):
    """`games` games of `players` each, all at the same round and turn, each with its own hands, die and zoos."""

    # Per game and player, set by name below (and per species for prairie, in_pens and in_river).
    forest: np.ndarray
    trio: np.ndarray
    prairie_count: np.ndarray
    meadow: np.ndarray
    meadow_count: np.ndarray
    river: np.ndarray
    trex_pens: np.ndarray
    filled: np.ndarray
    prairie: np.ndarray
    in_pens: np.ndarray
    in_river: np.ndarray

    def __init__(self, games: int, players: int, options: Options = Options(), seed: int = 0, copies: int = 1):
        """`copies` > 1: the games are that many copies of games // copies different ones, and every random
        draw is the same for all copies of a game (the first games // copies are the first copy)."""
        shape = (games, players)
        self.games, self.options, self.copies = games, options, copies
        self.start_clock(players)
        self.two_player = players == 2
        self.random = np.random.default_rng(seed)
        self.rows = np.arange(games)[:, None]
        self.columns = np.arange(players)[None, :]
        self.hands = np.zeros((*shape, SPECIES_COUNT), dtype=np.int64)
        self.bag = np.full((games, SPECIES_COUNT), BAG_PER_SPECIES[players], dtype=np.int64)
        self.face = np.full(games, -1)
        self.forest_species = np.full(shape, -1)
        self.king = np.full(shape, -1)
        self.island = np.full(shape, -1)
        for name in ("forest", "trio", "prairie_count", "meadow", "meadow_count", "river", "trex_pens", "filled"):
            setattr(self, name, np.zeros(shape, dtype=np.int64))
        for name in ("prairie", "in_pens", "in_river"):
            setattr(self, name, np.zeros((*shape, SPECIES_COUNT), dtype=np.int64))

    @classmethod
    def from_positions(cls, positions: Sequence[Position], copies: int = 1, seed: int = 0) -> Batch:
        """The games of `positions` (all at the same round, turn and roller), each repeated `copies` times:
        game index copy * len(positions) + position."""
        first = positions[0]
        batch = cls(len(positions) * copies, first.players, first.options, seed, copies)
        batch.round, batch.turn, batch.roller = first.round, first.turn, first.roller
        batch.face[:] = first.face
        hands = np.zeros((len(positions), first.players, SPECIES_COUNT), dtype=np.int64)
        for index, position in enumerate(positions):
            for player, hand in enumerate(position.hands):
                for species in hand:
                    hands[index, player, species] += 1
        batch.hands = np.tile(hands, (copies, 1, 1))
        for name in ("bag", "forest_species", "forest", "trio", "prairie_count", "king", "meadow", "meadow_count",
                     "island", "river", "trex_pens", "filled", "prairie", "in_pens", "in_river"):
            values = np.array([getattr(position, name) for position in positions], dtype=np.int64)
            setattr(batch, name, np.tile(values, (copies,) + (1,) * (values.ndim - 1)))
        return batch

    def uniform(self, *shape: int) -> np.ndarray:
        """Uniform draws in [0, 1) of shape (games, *shape), the same for every copy of a game."""
        draws = self.random.random((self.games // self.copies, *shape))
        return np.tile(draws, (self.copies,) + (1,) * len(shape)) if self.copies > 1 else draws

    # ---- the rules -----------------------------------------------------------------------------------

    def legal_masks(self, species: np.ndarray) -> np.ndarray:
        """Per game and player, the pens (mask) where `species` (games x players) may go now."""
        forest = self.forest
        masks = RIVER_BIT | (((forest == 0) | ((forest < CAPACITY_FOREST) & (self.forest_species == species)))
                             << FOREST_OF_SAMENESS)
        masks |= (self.trio < CAPACITY_TRIO) << WOODY_TRIO
        masks |= (self.prairie_count < CAPACITY_PRAIRIE) << PRAIRIE_OF_LOVE
        masks |= (self.king < 0) << KING_OF_THE_JUNGLE
        masks |= (((self.meadow_count < CAPACITY_MEADOW) & ((self.meadow >> species) & 1 == 0))
                  << MEADOW_OF_DIFFERENCES)
        masks |= (self.island < 0) << SOLITARY_ISLAND
        legal: np.ndarray = masks & self._die_masks()
        return legal

    def _die_masks(self) -> np.ndarray:
        face = self.face[:, None]
        by_area = _FACE_MASK[np.maximum(face, 0)]
        masks = np.where(face == EMPTY_PEN_FACE, ~self.filled & ALL_PENS,
                         np.where(face == NO_TREX_FACE, ~self.trex_pens & ALL_PENS, by_area))
        masks = np.where(face < 0, ALL_PENS, masks)
        masks[:, self.roller] = ALL_PENS
        return masks

    def place(self, species: np.ndarray, pens: np.ndarray) -> None:
        """Each player of each game puts `species` from the hand into `pens` (games x players, legal)."""
        rows, columns = self.rows, self.columns
        self.hands[rows, columns, species] -= 1
        in_river = pens == RIVER
        self.river += in_river
        self.in_river[rows, columns, species] += in_river
        self.in_pens[rows, columns, species] += ~in_river
        in_forest = pens == FOREST_OF_SAMENESS
        self.forest += in_forest
        self.forest_species = np.where(in_forest, species, self.forest_species)
        self.trio += pens == WOODY_TRIO
        in_prairie = pens == PRAIRIE_OF_LOVE
        self.prairie_count += in_prairie
        self.prairie[rows, columns, species] += in_prairie
        self.king = np.where(pens == KING_OF_THE_JUNGLE, species, self.king)
        in_meadow = pens == MEADOW_OF_DIFFERENCES
        self.meadow |= in_meadow << species
        self.meadow_count += in_meadow
        self.island = np.where(pens == SOLITARY_ISLAND, species, self.island)
        bits = (1 << pens) & ENCLOSURE_BITS
        self.filled |= bits
        self.trex_pens |= np.where(species == TREX, bits, 0)

    def discard(self, species: np.ndarray) -> None:
        """2-player variant: each player puts `species` from the hand back in the box."""
        self.hands[self.rows, self.columns, species] -= 1

    def deal(self, hands: np.ndarray) -> None:
        """Give each player of each game the hand (games x players x species counts), taken from the bag."""
        self.hands = hands.astype(np.int64)
        self.bag -= self.hands.sum(axis=1)

    def deal_random(self) -> None:
        """Each player of each game draws six from that game's bag."""
        size = int(self.bag[0].sum())
        cards = (np.arange(size)[None, :, None] >= np.cumsum(self.bag, axis=1)[:, None, :]).sum(axis=2)
        order = np.argsort(self.uniform(size), axis=1)[:, :HAND_SIZE * self.players]
        drawn = np.take_along_axis(cards, order, axis=1).reshape(self.games, self.players, HAND_SIZE)
        self.deal((drawn[..., None] == _SPECIES).sum(axis=2))

    def end_turn(self) -> bool:
        """Hands and die pass to the left; True when a new round begins (the caller deals)."""
        self.hands = np.roll(self.hands, 1, axis=1)
        self.face[:] = -1
        return self.next_turn()

    # ---- random play ---------------------------------------------------------------------------------

    def random_cards(self) -> np.ndarray:
        """A random card of each hand (games x players species), every card as likely."""
        size = self.hands[0, 0].sum()
        picks = (self.uniform(self.players) * size).astype(np.int64)
        cards: np.ndarray = (np.cumsum(self.hands, axis=2) <= picks[..., None]).sum(axis=2)
        return cards

    def random_pens(self, species: np.ndarray) -> np.ndarray:
        """A random legal pen for each player's `species` (games x players), every legal pen as likely."""
        masks = self.legal_masks(species)
        picks = (self.uniform(self.players) * _POPCOUNT[masks]).astype(np.int64)
        pens: np.ndarray = _NTH_PEN[masks, picks]
        return pens

    def random_turn(self) -> None:
        """A random die, a random card and legal pen for everyone, the discards, the hands passed on."""
        self.face = (self.uniform() * FACE_COUNT).astype(np.int64)
        species = self.random_cards()
        self.place(species, self.random_pens(species))
        self.finish_turn()

    def finish_turn(self, discards: np.ndarray | None = None) -> None:
        """The end of a turn whose placements are made: the discards (random where `discards` is -1 or not
        given), the hands passed on, a new deal at a new round."""
        if self.two_player:
            random_discards = self.random_cards()
            self.discard(random_discards if discards is None else np.where(discards < 0, random_discards, discards))
        if self.end_turn():
            self.deal_random()

    def play_out(self) -> None:
        while not self.over:
            self.random_turn()

    # ---- the score -----------------------------------------------------------------------------------

    def totals(self) -> np.ndarray:
        """Points per game and player as the zoos stand."""
        options = self.options
        points: np.ndarray = _FOREST_POINTS[self.forest] + _MEADOW_POINTS[self.meadow_count] + self.river
        points += TREX_BONUS_PER_PEN * _POPCOUNT[self.trex_pens]
        points += options.trio_points * (self.trio == CAPACITY_TRIO)
        points += PAIR_POINTS * (self.prairie >> 1).sum(axis=2)
        for_king = self.in_pens + self.in_river if options.river_counts_for_king else self.in_pens
        king = np.maximum(self.king, 0)
        # counts[g, other, player]: how many of player's king species the zoo of `other` holds
        counts = for_king[self.rows[:, :, None], self.columns[:, :, None], king[:, None, :]]
        mine = np.diagonal(counts, axis1=1, axis2=2)
        rivals = np.where(np.eye(self.players, dtype=bool)[None], -1, counts).max(axis=1)
        points += KING_POINTS * ((self.king >= 0) & (mine >= rivals))
        for_island = self.in_pens + self.in_river if options.river_counts_for_island else self.in_pens
        alone = for_island[self.rows, self.columns, np.maximum(self.island, 0)] == 1
        points += ISLAND_POINTS * ((self.island >= 0) & alone)
        return points

    def winners(self, totals: np.ndarray | None = None) -> np.ndarray:
        """Per game and player, whether that player wins (most points, then fewer T-Rex; ties shared)."""
        totals = self.totals() if totals is None else totals
        leaders = totals == totals.max(axis=1, keepdims=True)
        trex = np.where(leaders, self.in_pens[..., TREX] + self.in_river[..., TREX], np.iinfo(np.int64).max)
        winners: np.ndarray = leaders & (trex == trex.min(axis=1, keepdims=True))
        return winners


def random_games_totals(games: int, players: int, seed: int, options: Options = Options()) -> np.ndarray:
    """`games` whole random games played side by side: points per game and player."""
    batch = Batch(games, players, options, seed)
    batch.deal_random()
    batch.play_out()
    return batch.totals()
