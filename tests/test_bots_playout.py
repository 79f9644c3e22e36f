"""The fast Draftosaurus paths agree with the engine: seeded random engine games replayed through a Position,
and side by side through a Batch, give the same legal pens at every step and the same score for every player,
for 2 to 5 players and every option."""

from __future__ import annotations

import random

import numpy as np
import pytest

from companion.games.draftosaurus.actions import Discard, Place, Roll
from companion.games.draftosaurus.batch import Batch
from companion.games.draftosaurus.board import FACE_INDEX, PEN_INDEX, SPECIES_INDEX
from companion.games.draftosaurus.engine import Game
from companion.games.draftosaurus.ids import PENS, SPECIES
from companion.games.draftosaurus.options import Options
from companion.games.draftosaurus.playout import PENS_OF, Position, play_out_randomly
from companion.games.draftosaurus.simulate import play_random_game

OPTIONS = [Options(), Options(trio_points=6, river_counts_for_island=True),
           Options(river_counts_for_king=True), Options(trio_points=6, river_counts_for_king=True,
                                                        river_counts_for_island=True)]


def replay_through_position(finished: Game) -> tuple[Position, int]:
    """Replay an engine game's log through a Position, checking every legal set on the way; (position, checks)."""
    game = Game.new(list(finished.players), options=finished.options, mode="full", seed=finished.seed)
    position = Position(len(game.players), game.options)
    position.deal([[SPECIES_INDEX[s] for s in hand] for hand in game.hands])
    checks = 0
    for action in finished.actions:
        if isinstance(action, Roll):
            position.face = FACE_INDEX[action.face]
        elif isinstance(action, Place):
            for species in set(game.hand(action.player)):
                legal = PENS_OF[position.legal_mask(action.player, SPECIES_INDEX[species])]
                assert [PENS[pen] for pen in legal] == game.legal_pens(action.player, species)
                checks += 1
            position.place(action.player, SPECIES_INDEX[action.species], PEN_INDEX[action.pen])
        else:
            assert isinstance(action, Discard)
            position.discard(action.player, SPECIES_INDEX[action.species])
        before = (game.round, game.turn)
        game.apply(action)
        if (game.round, game.turn) != before or game.phase == "over":
            position.end_turn()
            if game.round != before[0]:
                position.deal([[SPECIES_INDEX[s] for s in hand] for hand in game.hands])
        assert sorted(map(SPECIES.__getitem__, position.hands[0])) == sorted(game.hand(0))
    return position, checks


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_many_seeded_random_games_score_the_same_through_positions_and_the_engine(players):
    checks = 0
    for seed in range(150):
        options = OPTIONS[seed % len(OPTIONS)]
        finished = play_random_game(players, seed, options)
        position, checked = replay_through_position(finished)
        checks += checked
        sheet = finished.score()
        assert position.over
        assert position.totals() == [player.total for player in sheet.players], seed
        assert position.winners() == sheet.winners, seed
    assert checks > 150 * players * 8


def test_random_playouts_from_a_dealt_position_end_with_full_zoos_and_an_empty_bag():
    for seed in range(50):
        chooser = random.Random(seed)
        position = Position(4)
        position.deal_random(chooser)
        play_out_randomly(position, chooser)
        assert position.over and all(not hand for hand in position.hands) and sum(position.bag) == 0
        assert all(sum(position.in_pens[p]) + position.river[p] == 12 for p in range(4))


def engine_turns(finished: Game) -> tuple[list[list[list[int]]], list[dict]]:
    """Replay a finished game: the hands dealt at each round's start, and per turn the face, each player's
    placement (with the engine's legal pens for that species then) and discard."""
    game = Game.new(list(finished.players), options=finished.options, mode="full", seed=finished.seed)
    deals = [[[SPECIES.index(s) for s in hand] for hand in game.hands]]
    turns: list[dict] = []
    for action in finished.actions:
        if isinstance(action, Roll):
            turns.append({"face": FACE_INDEX[action.face], "places": {}, "discards": {}})
        elif isinstance(action, Place):
            legal = sum(1 << PEN_INDEX[pen] for pen in game.legal_pens(action.player, action.species))
            turns[-1]["places"][action.player] = (SPECIES_INDEX[action.species], PEN_INDEX[action.pen], legal)
        else:
            turns[-1]["discards"][action.player] = SPECIES_INDEX[action.species]
        round_before = game.round
        game.apply(action)
        if game.round != round_before:
            deals.append([[SPECIES.index(s) for s in hand] for hand in game.hands])
    return deals, turns


def as_counts(hands: list[list[int]]) -> list[list[int]]:
    return [[hand.count(species) for species in range(len(SPECIES))] for hand in hands]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_seeded_random_games_replayed_side_by_side_in_a_batch_score_as_the_engine(players):
    for options in OPTIONS[:2]:
        finished = [play_random_game(players, seed, options) for seed in range(40)]
        replays = [engine_turns(game) for game in finished]
        batch = Batch(len(finished), players, options)
        batch.deal(np.array([as_counts(deals[0]) for deals, _ in replays]))
        for turn in range(len(replays[0][1])):
            batch.face = np.array([turns[turn]["face"] for _, turns in replays])
            species = np.array([[turns[turn]["places"][p][0] for p in range(players)] for _, turns in replays])
            pens = np.array([[turns[turn]["places"][p][1] for p in range(players)] for _, turns in replays])
            legal = np.array([[turns[turn]["places"][p][2] for p in range(players)] for _, turns in replays])
            assert (batch.legal_masks(species) == legal).all()
            batch.place(species, pens)
            if players == 2:
                batch.discard(np.array([[turns[turn]["discards"][p] for p in range(players)] for _, turns in replays]))
            if batch.end_turn():
                batch.deal(np.array([as_counts(deals[batch.round]) for deals, _ in replays]))
        assert batch.over and not batch.hands.any() and not batch.bag.any()
        sheets = [game.score() for game in finished]
        assert batch.totals().tolist() == [[player.total for player in sheet.players] for sheet in sheets]
        assert [list(np.flatnonzero(row)) for row in batch.winners()] == [sheet.winners for sheet in sheets]


def test_random_batches_play_whole_games_with_full_zoos():
    batch = Batch(100, 5, seed=3)
    batch.deal_random()
    batch.play_out()
    assert (batch.in_pens.sum(axis=2) + batch.river == 12).all() and not batch.bag.any()
    assert (batch.winners().sum(axis=1) >= 1).all()
