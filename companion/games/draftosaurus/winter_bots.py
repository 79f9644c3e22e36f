"""Draftosaurus bots and advice on the winter board: random, greedy and strong choices of one seat, the
Quarantine's move, and the reason of a winter placement.

The winter rules (WinterRules: pens, die, pyramid places) and scoring (winter_scoring.score_zoo) are the
engine's own, on a light copy of the game (WinterPosition: zoos, hands, bag, die, round and turn):
- random: a uniformly random legal choice;
- greedy: the choice of best immediate gain (`gain`: the change of the seat's total, plus half the change of
  what the next fitting dinosaur would add: a wood that alternates, a bank waiting for its partner, the
  pyramid's next place; a dinosaur put in the Quarantine is worth most of what its best pen would give);
- strong: determinised Monte-Carlo as on summer: worlds consistent with the observation (the hands not seen
  drawn from the figures not seen), every choice played in each with the same random draws, the rest of the
  game played at random, the Quarantine's dinosaurs moved to their best place, the choice of best average
  result kept (a win counts 1, shared by the winners, plus a little for the margin).
At the end every bot but the random one moves its Quarantine dinosaur where it scores most.
"""

from __future__ import annotations

import random
from collections.abc import Collection
from dataclasses import dataclass

from companion.games.common import Reason
from companion.games.draftosaurus.actions import Discard, Place, QuarantineMove
from companion.games.draftosaurus.board import BAG_PER_SPECIES, HAND_SIZE, NO_FACE, TREX, RoundClock
from companion.games.draftosaurus.engine import DISCARD, Game
from companion.games.draftosaurus.ids import DIE_FACES, PYRAMID_POSITIONS, SPECIES, WINTER_PENS
from companion.games.draftosaurus.observation import DraftObservation
from companion.games.draftosaurus.playout import draw
from companion.games.draftosaurus.scoring import PlayerScore
from companion.games.draftosaurus.winter import (
    EMPTY,
    GRID,
    LEFT_BANK,
    LOOKOUT,
    PYRAMID,
    QUARANTINE,
    RIGHT_BANK,
    RIVER,
    WOOD,
    WinterRules,
    open_row,
)
from companion.games.draftosaurus.winter_scoring import (
    COUPLE_POINTS,
    IndexedZoo,
    Neighbour,
    move_out_of_quarantine,
    pen_counts,
    right_neighbours,
    score_zoo,
)

DISCARD_PEN = -1
Choice = tuple[int, int, int]  # (species, pen, pyramid place or -1); pen DISCARD_PEN for a discard
LOOK_AHEAD = 0.5  # weight of what a placement opens, against the points it scores now
QUARANTINE_SHARE = 0.8  # what a dinosaur in the Quarantine is worth, of the best it could score elsewhere now
MARGIN_WEIGHT = 0.02  # a point of margin over the best rival weighs this much against a win
# Worlds per decision, the choices of best greedy value searched, and what a point of greedy value weighs
# against a win (random playouts alone lost to the greedy bot). With 12, 6 and 0.02 the strong bot won 0.5 of
# 10 four-player games against three greedy bots (0.55 s a decision at the median) and 0.8 of 10 two-player
# games against one; a greedy weight of 0.05 won 0.2 of the four-player games.
WORLDS = 12
BREADTH = 6
GAIN_WEIGHT = 0.02


class WinterPosition(RoundClock):
    """A winter game at a decision or the start of a turn: zoos (the rules' lists), hands, bag, die."""

    __slots__ = ("bag", "face", "hands", "rules", "two_player", "zoos")

    def __init__(self, players: int, rules: WinterRules):
        self.start_clock(players)
        self.two_player = players == 2
        self.rules = rules
        self.face = NO_FACE
        self.zoos: list[IndexedZoo] = [rules.empty_zoo() for _ in range(players)]
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.bag = [BAG_PER_SPECIES[players]] * len(SPECIES)

    @classmethod
    def sampled(cls, observation: DraftObservation, chooser: random.Random) -> WinterPosition:
        """One world the seat cannot tell from the real game: the hands it has not seen drawn from the unseen
        figures (a zoo a table does not follow gets its unknown figures in its river), the bag the rest."""
        assert observation.winter_board is not None
        position = cls(observation.players, WinterRules(observation.winter_board))
        position.round, position.turn, position.roller = observation.round, observation.turn, observation.roller
        position.face = observation.face
        position.zoos = [[list(content) for content in zoo] for zoo in observation.zoos]
        pool = [species for species, count in enumerate(observation.unseen) for _ in range(count)]
        chooser.shuffle(pool)
        for player, hidden in enumerate(observation.hidden_zoo):
            position.zoos[player][RIVER].extend(pool.pop() for _ in range(hidden))
        for player in range(observation.players):
            hand = [species for species, count in enumerate(observation.known[player]) for _ in range(count)]
            hand.extend(pool.pop() for _ in range(observation.unknown[player]))
            position.hands[player] = hand
        position.bag = [0] * len(SPECIES)
        for species in pool:
            position.bag[species] += 1
        return position

    def copy(self) -> WinterPosition:
        twin = object.__new__(WinterPosition)
        for name in ("players", "rounds", "turns", "round", "turn", "roller", "two_player", "rules", "face"):
            setattr(twin, name, getattr(self, name))
        twin.zoos = [[list(content) for content in zoo] for zoo in self.zoos]
        twin.hands = [list(hand) for hand in self.hands]
        twin.bag = list(self.bag)
        return twin

    # ---- the rules -----------------------------------------------------------------------------------

    def destinations(self, player: int, species: int) -> list[tuple[int, int]]:
        """Where `player` may put `species` now: (pen, pyramid place or -1)."""
        return self.destinations_under(player, species, NO_FACE if player == self.roller else self.face)

    def destinations_under(self, player: int, species: int, face: int) -> list[tuple[int, int]]:
        """Where `player` could put `species` with the die showing `face` (NO_FACE: no die)."""
        zoo = self.zoos[player]
        found: list[tuple[int, int]] = []
        for pen in self.rules.legal_pens(zoo, species, face):
            if pen == PYRAMID:
                found.extend((PYRAMID, place) for place in self.rules.legal_positions(zoo, species))
            else:
                found.append((pen, -1))
        return found

    def put(self, player: int, species: int, pen: int, place: int) -> None:
        self.rules.put(self.zoos[player], pen, species, None if place < 0 else place)

    def place(self, player: int, choice: Choice) -> None:
        species, pen, place = choice
        self.hands[player].remove(species)
        if pen != DISCARD_PEN:
            self.put(player, species, pen, place)

    def random_choice(self, player: int, chooser: random.Random) -> Choice:
        hand = self.hands[player]
        species = hand[int(chooser.random() * len(hand))]
        options = self.destinations(player, species)
        pen, place = options[int(chooser.random() * len(options))]
        return species, pen, place

    def finish_turn(self, chooser: random.Random) -> None:
        """Hands and die pass to the left; a new round is dealt; after the last turn the Quarantines empty."""
        self.hands = [self.hands[-1], *self.hands[:-1]]
        self.face = NO_FACE
        if self.next_turn():
            drawn = draw(self.bag, HAND_SIZE * self.players, chooser)
            self.hands = [drawn[player * HAND_SIZE:(player + 1) * HAND_SIZE] for player in range(self.players)]
        if self.over:
            self.empty_quarantines()

    def play_out(self, chooser: random.Random) -> None:
        """Every remaining turn at random (die, cards, places), from the start of a turn, to the end."""
        while not self.over:
            self.face = int(chooser.random() * len(DIE_FACES))
            for player in range(self.players):
                self.place(player, self.random_choice(player, chooser))
            if self.two_player:
                for player in range(self.players):
                    hand = self.hands[player]
                    hand.pop(int(chooser.random() * len(hand)))
            self.finish_turn(chooser)

    def empty_quarantines(self) -> None:
        """Each Quarantine dinosaur goes where it gives its owner the most, players in seating order."""
        for player in range(self.players):
            if self.zoos[player][QUARANTINE]:
                pen, place = best_quarantine_move(self, player)
                self.zoos[player] = move_out_of_quarantine(self.rules, self.zoos[player], pen,
                                                           None if place < 0 else place)

    # ---- the score -----------------------------------------------------------------------------------

    def totals(self) -> list[int]:
        neighbours = right_neighbours(range(self.players), [pen_counts(zoo) for zoo in self.zoos])
        return [score_zoo(self.rules, zoo, str(player), None if neighbour is None else
                          _named(neighbour)).total
                for player, (zoo, neighbour) in enumerate(zip(self.zoos, neighbours, strict=True))]

    def total(self, player: int, zoo: IndexedZoo | None = None) -> int:
        """`player`'s total (with `zoo` in place of theirs), the others' zoos as they stand."""
        counts = [pen_counts(other) for other in self.zoos]
        neighbour = right_neighbours(range(self.players), counts)[player]
        return score_zoo(self.rules, self.zoos[player] if zoo is None else zoo, str(player),
                         None if neighbour is None else _named(neighbour)).total


def _named(neighbour: Neighbour[int]) -> Neighbour[str]:
    """A neighbour found by seat, named as score_zoo names players (its seat as text)."""
    return Neighbour(str(neighbour.name), neighbour.counts)


def best_quarantine_move(position: WinterPosition, player: int) -> tuple[int, int]:
    """The Quarantine dinosaur's destination that gives `player` the most (the first on a tie)."""
    zoo = position.zoos[player]
    best, found = None, (RIVER, -1)
    for pen, place in position.rules.destinations(zoo):
        total = position.total(player, move_out_of_quarantine(position.rules, zoo, pen, place))
        if best is None or total > best:
            best, found = total, (pen, -1 if place is None else place)
    return found


# ---- choices, the greedy value, the search ----------------------------------------------------------------

def choices(observation: DraftObservation, position: WinterPosition) -> list[Choice]:
    """Every legal choice of the seat: placements (species, pen, place) or discards (species, DISCARD_PEN, -1)."""
    hand = sorted(set(observation.hand))
    if observation.phase == DISCARD:
        return [(species, DISCARD_PEN, -1) for species in hand]
    return [(species, pen, place)
            for species in hand for pen, place in position.destinations(observation.seat, species)]


def prospects(rules: WinterRules, zoo: IndexedZoo) -> float:
    """The points the next fitting dinosaur would add: the wood's next place, a bank's dinosaurs waiting for a
    partner, the pyramid's next place."""
    found = 0.0
    wood = len(zoo[WOOD])
    if wood < len(rules.board.wood_points) - 1:
        found += rules.board.wood_points[wood + 1] - rules.board.wood_points[wood]
    left, right = zoo[LEFT_BANK], zoo[RIGHT_BANK]
    singles = sum(abs(left.count(species) - right.count(species)) for species in set(left) | set(right))
    found += COUPLE_POINTS * min(singles, 1)
    row = open_row(zoo)
    if row is not None:
        found += max(rules.board.pyramid_points[place] for place in range(len(zoo[GRID])) if zoo[GRID][place] == EMPTY)
    return found


def gain(position: WinterPosition, player: int, choice: Choice) -> float:
    """The greedy value of a placement: the change of the player's total plus LOOK_AHEAD times what it opens;
    a Quarantine dinosaur is worth QUARANTINE_SHARE of the best it could score in another pen now."""
    species, pen, place = choice
    rules, zoo = position.rules, position.zoos[player]
    if pen == QUARANTINE:
        elsewhere = [gain(position, player, (species, other, spot))
                     for other, spot in _free_destinations(position, player, species) if other != QUARANTINE]
        return QUARANTINE_SHARE * max(elsewhere, default=0.0)
    after = [list(content) for content in zoo]
    rules.put(after, pen, species, None if place < 0 else place)
    return (position.total(player, after) - position.total(player)
            + LOOK_AHEAD * (prospects(rules, after) - prospects(rules, zoo)))


def _free_destinations(position: WinterPosition, player: int, species: int) -> list[tuple[int, int]]:
    """Where `species` could go with no die."""
    return position.destinations_under(player, species, NO_FACE)


def best_gain(position: WinterPosition, player: int, species: int) -> float:
    """The best greedy value `player` could make of `species` with no die (what a discard denies)."""
    return max(gain(position, player, (species, pen, place))
               for pen, place in _free_destinations(position, player, species))


def greedy_choice(observation: DraftObservation, position: WinterPosition, chooser: random.Random) -> Choice:
    """The choice of best immediate gain (ties broken at random)."""
    seat = observation.seat
    receiver = (seat + 1) % observation.players
    best, found = None, []
    for choice in choices(observation, position):
        value = best_gain(position, receiver, choice[0]) if choice[1] == DISCARD_PEN else gain(position, seat, choice)
        if best is None or value > best + 1e-9:
            best, found = value, [choice]
        elif value > best - 1e-9:
            found.append(choice)
    return found[int(chooser.random() * len(found))]


@dataclass(frozen=True)
class Weighed:
    """A choice and what the playouts made of it (see bots.Weighed)."""

    choice: Choice
    value: float
    win: float


def weigh(observation: DraftObservation, seed_key: random.Random, worlds: int = WORLDS,
          breadth: int = BREADTH, among: Collection[int] | None = None) -> list[Weighed]:
    """The `breadth` choices (of a species of `among`, if given) of best greedy value, each with its average
    result over the sampled worlds (the rest of the turn, the others' choices at random, then the game played
    out at random) plus GAIN_WEIGHT times its greedy value."""
    seat = observation.seat
    base = WinterPosition.sampled(observation, random.Random(0))
    receiver = (seat + 1) % observation.players
    greedy = {choice: (best_gain(base, receiver, choice[0]) if choice[1] == DISCARD_PEN else gain(base, seat, choice))
              for choice in choices(observation, base) if among is None or choice[0] in among}
    legal = sorted(greedy, key=lambda choice: -greedy[choice])[:breadth]
    values = [0.0] * len(legal)
    wins = [0.0] * len(legal)
    for _ in range(worlds):
        world = WinterPosition.sampled(observation, seed_key)
        stream = seed_key.getrandbits(64)
        for index, choice in enumerate(legal):
            after = world.copy()
            draws = random.Random(stream)
            after.place(seat, choice)
            for player in range(after.players):
                if player != seat:
                    after.place(player, _other_choice(after, player, observation.phase == DISCARD, draws))
            if after.two_player and observation.phase != DISCARD:
                for player in range(after.players):
                    hand = after.hands[player]
                    hand.pop(int(draws.random() * len(hand)))
            after.finish_turn(draws)
            after.play_out(draws)
            totals = after.totals()
            best = max(totals)
            share = 1 / totals.count(best) if totals[seat] == best else 0.0
            rivals = max(total for player, total in enumerate(totals) if player != seat)
            values[index] += share + MARGIN_WEIGHT * (totals[seat] - rivals)
            wins[index] += share
    return [Weighed(choice, value / worlds + GAIN_WEIGHT * greedy[choice], win / worlds)
            for choice, value, win in zip(legal, values, wins, strict=True)]


def _other_choice(position: WinterPosition, player: int, discarding: bool, draws: random.Random) -> Choice:
    if discarding:
        hand = position.hands[player]
        return hand[int(draws.random() * len(hand))], DISCARD_PEN, -1
    return position.random_choice(player, draws)


def to_action(observation: DraftObservation, choice: Choice) -> Place | Discard:
    species, pen, place = choice
    if pen == DISCARD_PEN:
        return Discard(observation.seat, SPECIES[species])
    return Place(observation.seat, SPECIES[species], WINTER_PENS[pen], None if place < 0 else PYRAMID_POSITIONS[place])


def quarantine_action(game: Game, seat: int, level_random: random.Random | None) -> QuarantineMove:
    """The Quarantine move of a bot: at random (`level_random` given), else the one that scores most."""
    if level_random is not None:
        options = game.quarantine_destinations(seat)
        pen, position = options[int(level_random.random() * len(options))]
        return QuarantineMove(seat, pen, position)
    best = game.best_quarantine(seat)
    assert best is not None  # the river always takes it
    return QuarantineMove(seat, best.pen, best.position)


# ---- the reason of a winter placement -------------------------------------------------------------------

def placement_reason(position: WinterPosition, player: int, choice: Choice) -> Reason:
    """Why this winter placement, as data: what it does in its pen, its points now (`points`: the whole change
    of the score; `pen_points`: its pen's), and the T-Rex bonus it adds."""
    species, pen, place = choice
    rules, zoo = position.rules, position.zoos[player]
    after = [list(content) for content in zoo]
    rules.put(after, pen, species, None if place < 0 else place)
    before_score = _zoo_score(position, player, zoo)
    after_score = _zoo_score(position, player, after)
    pen_id = "lovers_bridge" if pen in (LEFT_BANK, RIGHT_BANK) else WINTER_PENS[pen]
    params: dict[str, object] = {"species": SPECIES[species], "pen": WINTER_PENS[pen],
                                 "points": after_score.total - before_score.total,
                                 "pen_points": after_score.pens.get(pen_id, 0) - before_score.pens.get(pen_id, 0)}
    if species == TREX and pen != RIVER and pen != QUARANTINE and TREX not in zoo[pen]:
        params["trex_bonus"] = 1
    if pen == WOOD:
        params["count"] = len(after[WOOD])
        return Reason("draft_advice_wood", params)
    if pen in (LEFT_BANK, RIGHT_BANK):
        other = after[RIGHT_BANK if pen == LEFT_BANK else LEFT_BANK]
        paired = other.count(species) >= after[pen].count(species)
        return Reason("draft_advice_bridge_couple" if paired else "draft_advice_bridge_waiting", params)
    if pen == PYRAMID:
        params["position"] = PYRAMID_POSITIONS[place]
        return Reason("draft_advice_pyramid", params)
    if pen == LOOKOUT:
        neighbour = right_neighbours(range(position.players), [pen_counts(z) for z in position.zoos])[player]
        params["count"] = 0 if neighbour is None else neighbour.counts[species]
        return Reason("draft_advice_lookout", params)
    if pen == QUARANTINE:
        return Reason("draft_advice_quarantine", params)
    return Reason("draft_advice_river", params)


def _zoo_score(position: WinterPosition, player: int, zoo: IndexedZoo) -> PlayerScore:
    counts = [pen_counts(other) for other in position.zoos]
    neighbour = right_neighbours(range(position.players), counts)[player]
    return score_zoo(position.rules, zoo, str(player), None if neighbour is None else _named(neighbour))


def discard_reason(position: WinterPosition, player: int, species: int) -> Reason:
    """Why put this species back: the most the player who gets the hand could score with it (no die)."""
    receiver = (player + 1) % position.players
    zoo = position.zoos[receiver]
    before = position.total(receiver)
    denied = 0
    for pen, place in _free_destinations(position, receiver, species):
        after = [list(content) for content in zoo]
        position.rules.put(after, pen, species, None if place < 0 else place)
        denied = max(denied, position.total(receiver, after) - before)
    return Reason("draft_advice_discard", {"species": SPECIES[species], "denied": denied})
