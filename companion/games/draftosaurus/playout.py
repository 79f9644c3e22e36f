"""Fast Draftosaurus positions for bots and the advisor: one game as a few flat lists of small ints.

A Position holds what the rules need and nothing more (no log, no names, no Reasons): per player the pens as
counts and bit masks, the hands as lists of species ints, the bag as counts per species. It plays the summer
board for 2 to 5 players (the 2-player variant included) and scores as the engine does; tests replay seeded
engine games through it and compare every legal set and every score.

Pens and species are the board's ints (PENS and SPECIES order); a set of pens is a bit mask, bit `pen`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from companion.games.draftosaurus.board import (
    BAG_PER_SPECIES,
    CAFETERIA_SIDE,
    EMPTY_PEN_FACE,
    FOREST_AREA,
    FOREST_OF_SAMENESS,
    GRASSLAND_AREA,
    HAND_SIZE,
    KING_OF_THE_JUNGLE,
    MEADOW_OF_DIFFERENCES,
    NO_FACE,
    NO_TREX_FACE,
    PRAIRIE_OF_LOVE,
    RIVER,
    SOLITARY_ISLAND,
    TOILETS_SIDE,
    TREX,
    WOODY_TRIO,
    RoundClock,
)
from companion.games.draftosaurus.ids import DIE_FACES, PENS, SPECIES
from companion.games.draftosaurus.options import Options
from companion.games.draftosaurus.scoring import (
    FOREST_POINTS,
    ISLAND_POINTS,
    KING_POINTS,
    MEADOW_POINTS,
    PAIR_POINTS,
    TREX_BONUS_PER_PEN,
)

SPECIES_COUNT = len(SPECIES)
PEN_COUNT = len(PENS)
FACE_COUNT = len(DIE_FACES)
ALL_PENS = (1 << PEN_COUNT) - 1
RIVER_BIT = 1 << RIVER
ENCLOSURE_BITS = ALL_PENS & ~RIVER_BIT


def _mask(pens: Iterable[int]) -> int:
    return sum(1 << pen for pen in pens) | RIVER_BIT


# The pens each face leaves open by area or side (the river always); the last entry is NO_FACE (no die).
_AREA_FACES = {"forest": FOREST_AREA, "grassland": GRASSLAND_AREA, "toilets": TOILETS_SIDE,
               "cafeteria": CAFETERIA_SIDE}
FACE_MASK: tuple[int, ...] = (*(_mask(_AREA_FACES[face]) if face in _AREA_FACES else ALL_PENS
                                 for face in DIE_FACES), ALL_PENS)
# The pens of each mask, lowest first, to pick one at random without a loop.
PENS_OF: tuple[tuple[int, ...], ...] = tuple(tuple(pen for pen in range(PEN_COUNT) if mask >> pen & 1)
                                             for mask in range(1 << PEN_COUNT))
CAPACITY_FOREST = len(FOREST_POINTS) - 1
CAPACITY_MEADOW = len(MEADOW_POINTS) - 1
CAPACITY_PRAIRIE = 6
CAPACITY_TRIO = 3


class Position(RoundClock):
    """A whole game at the start of a turn or within one: zoos, hands, bag, die, round and turn."""

    __slots__ = ("bag", "face", "filled", "forest", "forest_species", "hands", "in_pens", "in_river", "island", "king",
                 "meadow", "meadow_count", "options", "prairie", "prairie_count", "river", "trex_pens", "trio",
                 "two_player")

    def __init__(self, players: int, options: Options = Options()):
        """An empty game of `players` before the first deal: the full bag, no hands, round and turn 0."""
        self.start_clock(players)
        self.two_player = players == 2
        self.face = NO_FACE
        self.options = options
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.bag = [BAG_PER_SPECIES[players]] * SPECIES_COUNT
        self.forest_species = [-1] * players
        self.forest = [0] * players
        self.trio = [0] * players
        self.prairie = [[0] * SPECIES_COUNT for _ in range(players)]
        self.prairie_count = [0] * players
        self.king = [-1] * players
        self.meadow = [0] * players  # bit mask of the species in the meadow
        self.meadow_count = [0] * players
        self.island = [-1] * players
        self.river = [0] * players
        self.trex_pens = [0] * players  # bit mask of the enclosures holding a T-Rex
        self.filled = [0] * players  # bit mask of the enclosures holding anything
        self.in_pens = [[0] * SPECIES_COUNT for _ in range(players)]
        self.in_river = [[0] * SPECIES_COUNT for _ in range(players)]

    @classmethod
    def from_zoos(cls, zoos: Sequence[Sequence[Sequence[int]]], options: Options = Options()) -> Position:
        """A position whose zoos hold `zoos` (per player, per pen, the species ints left to right)."""
        position = cls(len(zoos), options)
        for player, zoo in enumerate(zoos):
            for pen, content in enumerate(zoo):
                for species in content:
                    position.put(player, species, pen)
        return position

    def copy(self) -> Position:
        twin = object.__new__(Position)
        for name in ("players", "two_player", "rounds", "turns", "round", "turn", "roller", "face", "options"):
            setattr(twin, name, getattr(self, name))
        for name in ("bag", "forest_species", "forest", "trio", "prairie_count", "king", "meadow", "meadow_count",
                     "island", "river", "trex_pens", "filled"):
            setattr(twin, name, list(getattr(self, name)))
        for name in ("hands", "prairie", "in_pens", "in_river"):
            setattr(twin, name, [list(row) for row in getattr(self, name)])
        return twin

    # ---- the rules -----------------------------------------------------------------------------------

    def open_pens(self, player: int, species: int) -> int:
        """The pens (mask) whose own rule lets `species` in, the die aside; the river always."""
        mask = RIVER_BIT
        count = self.forest[player]
        if count == 0 or (count < CAPACITY_FOREST and self.forest_species[player] == species):
            mask |= 1 << FOREST_OF_SAMENESS
        if self.trio[player] < CAPACITY_TRIO:
            mask |= 1 << WOODY_TRIO
        if self.prairie_count[player] < CAPACITY_PRAIRIE:
            mask |= 1 << PRAIRIE_OF_LOVE
        if self.king[player] < 0:
            mask |= 1 << KING_OF_THE_JUNGLE
        if self.meadow_count[player] < CAPACITY_MEADOW and not self.meadow[player] >> species & 1:
            mask |= 1 << MEADOW_OF_DIFFERENCES
        if self.island[player] < 0:
            mask |= 1 << SOLITARY_ISLAND
        return mask

    def die_mask(self, player: int) -> int:
        """The pens (mask) this turn's die leaves open to `player` (all for the roller or before the roll)."""
        face = self.face
        if face < 0 or player == self.roller:
            return ALL_PENS
        if face == EMPTY_PEN_FACE:
            return ~self.filled[player] & ALL_PENS
        if face == NO_TREX_FACE:
            return ~self.trex_pens[player] & ALL_PENS
        return FACE_MASK[face]

    def legal_mask(self, player: int, species: int) -> int:
        """Where `player` may put `species` now, as a mask of pens."""
        return self.open_pens(player, species) & self.die_mask(player)

    def put(self, player: int, species: int, pen: int) -> None:
        """Add `species` to `pen` of `player`'s zoo (the caller checked it is legal; the hand is not touched)."""
        if pen == RIVER:
            self.river[player] += 1
            self.in_river[player][species] += 1
            return
        if pen == FOREST_OF_SAMENESS:
            self.forest[player] += 1
            self.forest_species[player] = species
        elif pen == WOODY_TRIO:
            self.trio[player] += 1
        elif pen == PRAIRIE_OF_LOVE:
            self.prairie[player][species] += 1
            self.prairie_count[player] += 1
        elif pen == KING_OF_THE_JUNGLE:
            self.king[player] = species
        elif pen == MEADOW_OF_DIFFERENCES:
            self.meadow[player] |= 1 << species
            self.meadow_count[player] += 1
        else:
            self.island[player] = species
        self.filled[player] |= 1 << pen
        if species == TREX:
            self.trex_pens[player] |= 1 << pen
        self.in_pens[player][species] += 1

    def place(self, player: int, species: int, pen: int) -> None:
        """`player` puts `species` from the hand into `pen`."""
        self.hands[player].remove(species)
        self.put(player, species, pen)

    def discard(self, player: int, species: int) -> None:
        """2-player variant: `player` puts `species` from the hand back in the box."""
        self.hands[player].remove(species)

    def deal(self, hands: Sequence[Sequence[int]]) -> None:
        """Give each player the hand given (species ints), taken from the bag."""
        for player, hand in enumerate(hands):
            self.hands[player] = list(hand)
            for species in hand:
                self.bag[species] -= 1

    def deal_random(self, chooser: random.Random) -> None:
        """Each player draws a hand of six from the bag."""
        drawn = draw(self.bag, HAND_SIZE * self.players, chooser)
        self.hands = [drawn[player * HAND_SIZE:(player + 1) * HAND_SIZE] for player in range(self.players)]

    def end_turn(self) -> bool:
        """Hands and die pass to the left; a new round starts without a deal (the caller deals).

        Returns True when a new round begins, False within a round; `over` says when the game ended."""
        hands = self.hands
        self.hands = [hands[-1], *hands[:-1]]
        self.face = NO_FACE
        return self.next_turn()

    # ---- the score -----------------------------------------------------------------------------------

    def total(self, player: int) -> int:
        """One player's points as the zoos stand, scored as the engine scores them."""
        options = self.options
        points = FOREST_POINTS[self.forest[player]] + MEADOW_POINTS[self.meadow_count[player]]
        points += self.river[player] + TREX_BONUS_PER_PEN * self.trex_pens[player].bit_count()
        if self.trio[player] == CAPACITY_TRIO:
            points += options.trio_points
        points += PAIR_POINTS * sum(count >> 1 for count in self.prairie[player])
        return points + self.king_points(player) + self.island_points(player)

    def king_points(self, player: int) -> int:
        """The King of the Jungle's points: no other zoo holds more of its species."""
        king = self.king[player]
        if king < 0:
            return 0
        mine = self.count_for_king(player, king)
        if any(self.count_for_king(other, king) > mine for other in range(self.players) if other != player):
            return 0
        return KING_POINTS

    def island_points(self, player: int) -> int:
        """The Solitary Island's points: its dinosaur is the only one of its species in the zoo."""
        island = self.island[player]
        if island < 0:
            return 0
        count = self.in_pens[player][island]
        if self.options.river_counts_for_island:
            count += self.in_river[player][island]
        return ISLAND_POINTS if count == 1 else 0

    def count_for_king(self, player: int, species: int) -> int:
        """How many of `species` the zoo of `player` holds as the King of the Jungle counts them."""
        count = self.in_pens[player][species]
        return count + self.in_river[player][species] if self.options.river_counts_for_king else count

    def totals(self) -> list[int]:
        """Each player's points as the zoos stand."""
        return [self.total(player) for player in range(self.players)]

    def trex_counts(self) -> list[int]:
        """T-Rex in each zoo, the river included (the tie-break)."""
        return [self.in_pens[player][TREX] + self.in_river[player][TREX] for player in range(self.players)]

    def winners(self, totals: Sequence[int] | None = None) -> list[int]:
        """Most points; a tie goes to fewer T-Rex; still tied, every one of them wins."""
        totals = self.totals() if totals is None else totals
        best = max(totals)
        leaders = [player for player in range(self.players) if totals[player] == best]
        if len(leaders) == 1:
            return leaders
        trex = self.trex_counts()
        fewest = min(trex[player] for player in leaders)
        return [player for player in leaders if trex[player] == fewest]


def play_out_randomly(position: Position, chooser: random.Random) -> None:
    """Play every remaining turn at random to the end: the die, each player's card and pen, the deals.

    The position must be at the start of a turn (no placement of that turn made yet), or over."""
    random_ = chooser.random
    players = range(position.players)
    open_pens, die_mask, put = position.open_pens, position.die_mask, position.put
    while not position.over:
        position.face = int(random_() * FACE_COUNT)
        masks = [die_mask(player) for player in players]  # before any placement of the turn
        for player, hand in enumerate(position.hands):
            index = int(random_() * len(hand))
            species = hand[index]
            hand[index] = hand[-1]
            hand.pop()
            pens = PENS_OF[open_pens(player, species) & masks[player]]
            put(player, species, pens[int(random_() * len(pens))])
        if position.two_player:
            for player in players:
                hand = position.hands[player]
                hand.pop(int(random_() * len(hand)))
        if position.end_turn():
            position.deal_random(chooser)


def draw(bag: list[int], count: int, chooser: random.Random) -> list[int]:
    """`count` figures drawn at random from `bag` (counts per species, lowered in place)."""
    cards = [species for species, left in enumerate(bag) for _ in range(left)]
    random_ = chooser.random
    size = len(cards)
    for index in range(count):  # the first `count` steps of a Fisher-Yates shuffle
        other = index + int(random_() * (size - index))
        cards[index], cards[other] = cards[other], cards[index]
        bag[cards[index]] -= 1
    return cards[:count]


def random_game_totals(players: int, chooser: random.Random, options: Options = Options()) -> list[int]:
    """A whole random game from the first deal: each player's points (what bench engine counts)."""
    position = Position(players, options)
    position.deal_random(chooser)
    play_out_randomly(position, chooser)
    return position.totals()
