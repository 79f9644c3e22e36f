"""What one seat of a Draftosaurus game knows when it must place (or discard): its observation.

The observation is built from the game's setup and log, and the only hand it ever reads is the seat's own,
as the seat held it at the start of each turn. Other players' placements of the phase under way are not
revealed yet (everyone chooses at once), so the observation leaves them out, and a 2-player discard by the
other player is never shown. What the seat can deduce is kept: a hand it passed on is known, less what each
later holder placed; a hand it has not held yet is only a number of cards. Everything else of the bag is
`unseen`: figures in those unknown cards, in later deals, or put back in the box unseen.

At a table the program does not see hands: `observe_table` takes the cards the player names (one species,
or the whole hand) and counts the rest of that hand as unknown; players the table does not follow have
zoos of known size and unknown content.

On the winter board the zoos are the winter rules' (WinterRules: one list per pen, then the pyramid's places)
and `winter_board` holds the board's values; the summer bots' fast Position is for the summer board only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.errors import BadInput, RuleViolation
from companion.games.common import OVER, Reason
from companion.games.draftosaurus.actions import Discard, Place
from companion.games.draftosaurus.board import BAG_PER_SPECIES, HAND_SIZE, NO_FACE, SPECIES_INDEX, unknown_id
from companion.games.draftosaurus.engine import DISCARD, PLACE, Game
from companion.games.draftosaurus.ids import DIE_FACES, SPECIES
from companion.games.draftosaurus.options import Options
from companion.games.draftosaurus.playout import Position
from companion.games.draftosaurus.winter import POSITION_INDEX
from companion.games.draftosaurus.winter_board import WinterBoard

Zoo = tuple[tuple[int, ...], ...]  # per pen (the board side's order), the species ints from left to right


@dataclass(frozen=True)
class DraftObservation:
    """One seat's knowledge at a decision. Species, pens and faces are the board's ints.

    `known[p]` counts, per species, the cards known to be in the hand player p holds now (the seat's own:
    its hand); `unknown[p]` is how many more cards that hand holds; `hidden_zoo[p]` how many dinosaurs of
    p's zoo the seat does not know (players a table does not follow); `unseen` counts per species the
    figures of the bag that are in no known place."""

    seat: int
    players: int
    options: Options
    phase: str
    round: int
    turn: int
    roller: int
    face: int
    zoos: tuple[Zoo, ...]
    known: tuple[tuple[int, ...], ...]
    unknown: tuple[int, ...]
    unseen: tuple[int, ...]
    hidden_zoo: tuple[int, ...]
    winter_board: WinterBoard | None = None

    @property
    def winter(self) -> bool:
        return self.winter_board is not None

    @property
    def hand(self) -> tuple[int, ...]:
        """The seat's known cards, species ints in order."""
        return tuple(species for species, count in enumerate(self.known[self.seat]) for _ in range(count))

    def key(self) -> tuple[int, int, str, int]:
        """Where this decision stands in the game (seeds the bots' randomness)."""
        return (self.round, self.turn, self.phase, self.seat)

    def position(self) -> Position:
        """The zoos, die, round and turn as a Position (hands left empty; unknown zoo content left out)."""
        position = Position.from_zoos(self.zoos, self.options)
        position.round, position.turn, position.roller, position.face = self.round, self.turn, self.roller, self.face
        return position


def observe(game: Game, seat: int) -> DraftObservation:
    """What `seat` knows now in a full-mode game where it must place or discard."""
    if game.mode != "full":
        raise BadInput("a seat's hand is known only in full mode: name the cards (observe_table)")
    _check_waiting(game, seat)
    view = _walk(game, seat, full=True)
    return view.observation(game)


def observe_table(game: Game, seat: int, cards: Sequence[str]) -> DraftObservation:
    """What `seat` knows at a table game when the player names `cards` (species ids) of the hand they hold.

    Naming fewer cards than the hand holds leaves the others unknown. A species the bag cannot hold any
    more, or more cards than the hand holds, is refused with the Reason."""
    if seat not in game.tracked:
        raise BadInput(f"player {seat} is not followed by this table")
    _check_waiting(game, seat)
    view = _walk(game, seat, full=False)
    size = _hand_size(game)
    named = [0] * len(SPECIES)
    for species in cards:
        if species not in SPECIES_INDEX:
            raise RuleViolation(f"unknown species {species}", unknown_id("draft_unknown_species", species, SPECIES))
        named[SPECIES_INDEX[species]] += 1
    if sum(named) > size:
        raise RuleViolation(f"a hand holds {size} cards now", Reason("draft_advice_hand_too_big",
                                                                     {"count": sum(named), "limit": size}))
    view.known[seat] = named
    view.unknown = [size - sum(named) if player == seat else size for player in range(len(game.players))]
    observation = view.observation(game)
    for index, count in enumerate(observation.unseen):
        if count < 0:
            raise RuleViolation(f"no {SPECIES[index]} left", Reason("draft_bag_exhausted", {
                "species": SPECIES[index], "limit": BAG_PER_SPECIES[len(game.players)]}))
    return observation


def _check_waiting(game: Game, seat: int) -> None:
    """RuleViolation with the engine's Reason unless `seat` must place or discard now."""
    if type(seat) is not int or not 0 <= seat < len(game.players):
        raise RuleViolation(f"no player {seat}", Reason("draft_unknown_player", {"value": str(seat)}))
    name = game.players[seat]
    if game.phase == OVER:
        raise RuleViolation("the game is over", Reason("draft_game_over"))
    if game.phase not in (PLACE, DISCARD):
        raise RuleViolation("the die is not rolled yet", Reason("draft_die_not_rolled", {"player": name}))
    if seat not in game.waiting_for():
        code = "draft_already_placed" if game.phase == PLACE else "draft_already_discarded"
        raise RuleViolation(f"{name} has played this phase", Reason(code, {"player": name}))


class _View:
    """The seat's knowledge as the log unfolds (see the module's docstring)."""

    def __init__(self, players: int, seat: int, full: bool, game: Game):
        self.seat = seat
        self.full = full  # full mode: the seat sees its hands, and other players' discards stay hidden
        self.rules = game.rules
        self.zoos: list[list[list[int]]] = [self.rules.empty_zoo() for _ in range(players)]
        self.known = [[0] * len(SPECIES) for _ in range(players)]
        self.unknown = [0] * players
        self.gone = [0] * players  # cards put back unseen from a hand of known content
        self.discarded = [0] * len(SPECIES)  # put back in the box, species known to the seat

    def new_round(self, hand: Sequence[int] | None) -> None:
        for player in range(len(self.known)):
            for species, count in enumerate(self.known[player]):  # the hands are used up: known cards went back
                self.discarded[species] += count
            self.known[player] = [0] * len(SPECIES)
            self.unknown[player] = HAND_SIZE
            self.gone[player] = 0
        if hand is not None:
            self.see(hand)

    def see(self, hand: Sequence[int]) -> None:
        """The seat looks at the hand it now holds: what it knew of that hand and is missing was put back."""
        counts = [0] * len(SPECIES)
        for species in hand:
            counts[species] += 1
        if self.gone[self.seat]:
            for species, count in enumerate(self.known[self.seat]):
                self.discarded[species] += count - counts[species]
        self.known[self.seat] = counts
        self.unknown[self.seat] = 0
        self.gone[self.seat] = 0

    def play(self, action: Place | Discard) -> None:
        """A placement shown to the seat, or a discard whose species it knows (or, by another player, not)."""
        player = action.player
        if isinstance(action, Place):
            species = SPECIES_INDEX[action.species]
            self.rules.put(self.zoos[player], self.rules.pen_index[action.pen], species,
                           None if action.position is None else POSITION_INDEX[action.position])
            self._remove(player, species)
        elif player != self.seat and self.full:
            if self.unknown[player] > 0:
                self.unknown[player] -= 1
            else:
                self.gone[player] += 1
        elif action.species is not None:
            species = SPECIES_INDEX[action.species]
            self.discarded[species] += 1
            self._remove(player, species)

    def _remove(self, player: int, species: int) -> None:
        if self.known[player][species] > 0:
            self.known[player][species] -= 1
        elif self.unknown[player] > 0:
            self.unknown[player] -= 1

    def pass_hands(self) -> None:
        tables: tuple[list[Any], ...] = (self.known, self.unknown, self.gone)
        for table in tables:
            table.insert(0, table.pop())

    def observation(self, game: Game) -> DraftObservation:
        count = len(game.players)
        known = [list(cards) for cards in self.known]
        unknown = list(self.unknown)
        for player in range(count):
            if self.gone[player]:  # which card went is not known yet: the hand's content is unknown
                unknown[player] = sum(known[player]) - self.gone[player]
                known[player] = [0] * len(SPECIES)
        unseen = [BAG_PER_SPECIES[count] - self.discarded[species] for species in range(len(SPECIES))]
        pens = len(game.pens)  # a winter zoo's last list is the pyramid's places, already counted in its pen
        for player in range(count):
            for content in self.zoos[player][:pens]:
                for species in content:
                    unseen[species] -= 1
            for species, cards in enumerate(known[player]):
                unseen[species] -= cards
        placed = (game.round - 1) * game.turns_per_round + game.turn - 1 + (game.phase == DISCARD)
        face = game.face
        return DraftObservation(
            seat=self.seat, players=count, options=game.options, phase=game.phase, round=game.round - 1,
            turn=game.turn - 1, roller=game.roller, face=NO_FACE if face is None else DIE_FACES.index(face.value),
            zoos=tuple(tuple(tuple(content) for content in zoo) for zoo in self.zoos),
            known=tuple(tuple(cards) for cards in known), unknown=tuple(unknown), unseen=tuple(unseen),
            hidden_zoo=tuple(0 if player in game.tracked else placed for player in range(count)),
            winter_board=game.winter_board)


def _hand_size(game: Game) -> int:
    """Cards in each hand now: six at a round's start, one less per placement (and per discard)."""
    per_turn = 2 if game.two_player else 1
    size = HAND_SIZE - per_turn * (game.turn - 1)
    return size - 1 if game.phase == DISCARD else size


def _walk(game: Game, seat: int, full: bool) -> _View:
    """Replay the log from the setup, showing the seat what it sees when it sees it."""
    replay = Game.from_setup(game.setup_json())
    view = _View(len(game.players), seat, full, game)

    def own_hand() -> list[int]:
        return [SPECIES_INDEX[species] for species in replay.hand(seat)]

    view.new_round(own_hand() if full else None)
    hidden: list[Place | Discard] = []  # others' actions of the phase under way, shown when it ends
    for action in game.actions:
        before = (replay.round, replay.turn, replay.phase)
        replay.apply(action)
        if isinstance(action, (Place, Discard)):
            if action.player == seat:
                view.play(action)
            else:
                hidden.append(action)
        if replay.phase != before[2]:
            for other in hidden:
                view.play(other)
            hidden = []
        if (replay.round, replay.turn) != before[:2]:
            view.pass_hands()
            if replay.round != before[0]:
                view.new_round(own_hand() if full else None)
            elif full:
                view.see(own_hand())
    return view
