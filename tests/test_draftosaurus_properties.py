"""Property tests: thousands of random legal games in full mode for 2 to 5 players, checked against an
oracle of the placement rules written here independently of the engine, plus the game's invariants."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.draftosaurus.engine import Discard, Game, Options, Place
from companion.games.draftosaurus.ids import DIE_FACES, PENS, SPECIES
from companion.games.draftosaurus.simulate import play_random_game, play_random_step
from companion.language.messages import LANGUAGES, catalog
from tests.conftest import budget

BAG = {2: 8, 3: 6, 4: 8, 5: 10}
CAPACITY = {"forest_of_sameness": 6, "woody_trio": 3, "prairie_of_love": 6, "king_of_the_jungle": 1,
            "meadow_of_differences": 6, "solitary_island": 1}
FACE_PENS = {"forest": {"forest_of_sameness", "woody_trio", "king_of_the_jungle"},
             "grassland": {"prairie_of_love", "meadow_of_differences", "solitary_island"},
             "cafeteria": {"forest_of_sameness", "woody_trio", "prairie_of_love"},
             "toilets": {"king_of_the_jungle", "meadow_of_differences", "solitary_island"}}

players_counts = st.integers(min_value=2, max_value=5)
seeds = st.integers(min_value=0, max_value=2 ** 31 - 1)
options = st.builds(Options, trio_points=st.sampled_from([7, 6]), river_counts_for_island=st.booleans(),
                    river_counts_for_king=st.booleans())


def oracle_allows(zoo: dict[str, list[str]], species: str, pen: str, face: str | None) -> bool:
    """The placement rules, read straight from the rule book (face None: the die does not bind)."""
    if pen == "river":
        return True
    content = zoo[pen]
    if face in FACE_PENS and pen not in FACE_PENS[face]:
        return False
    if face == "empty_pen" and content:
        return False
    if face == "no_trex" and "trex" in content:
        return False
    if len(content) >= CAPACITY[pen]:
        return False
    if pen == "forest_of_sameness" and any(other != species for other in content):
        return False
    return not (pen == "meadow_of_differences" and species in content)


def check_against_oracle(game: Game) -> None:
    """Every placement the engine allows now is allowed by the rule book, and every one it refuses is not."""
    face = game.face.value if game.face is not None else None
    for player in game.waiting_for():
        zoo = game.zoos[player]
        bound_face = face if game.bound_by_die(player) else None
        for species in SPECIES:
            in_hand = species in game.hand(player)
            legal, excluded = game.pen_choices(player, species)
            assert set(legal) | set(excluded) == set(PENS) and not set(legal) & set(excluded)
            for pen in PENS:
                allowed = oracle_allows(zoo, species, pen, bound_face)
                assert (pen in legal) == allowed, (zoo, species, pen, bound_face)
                assert (game.check(Place(player, species, pen)) is None) == (allowed and in_hand)
                if not allowed:
                    assert excluded[pen].params["pen"] == pen


def check_invariants(game: Game) -> None:
    count = len(game.players)
    placed = {s: sum(content.count(s) for zoo in game.zoos for content in zoo.values()) for s in SPECIES}
    discarded = {s: sum(1 for a in game.actions if isinstance(a, Discard) and a.species == s) for s in SPECIES}
    in_hands = {s: sum(hand.count(s) for hand in game.hands) for s in SPECIES}
    for species in SPECIES:
        assert placed[species] + discarded[species] + game.bag_remaining()[species] == BAG[count]
        assert in_hands[species] <= game.bag_remaining()[species]
    sizes = [len(hand) for hand in game.hands]
    assert len(set(sizes)) == 1 or game.phase in ("place", "discard")


@settings(max_examples=budget(1500))
@given(count=players_counts, seed=seeds, rules=options)
def test_thousands_of_random_full_games_end_well(count, seed, rules):
    game = play_random_game(count, seed, rules)
    assert game.phase == "over" and game.waiting_for() == []
    assert all(sum(len(content) for content in zoo.values()) == 12 for zoo in game.zoos)
    assert game.bag_remaining() == {species: 0 for species in SPECIES}  # the whole bag was dealt
    assert all(hand == [] for hand in game.hands)
    rolls = [action.face for action in game.actions if not isinstance(action, (Place, Discard))]
    assert len(rolls) == game.rounds * game.turns_per_round and set(rolls) <= set(DIE_FACES)
    sheet = game.score()
    for player, zoo in zip(sheet.players, game.zoos, strict=True):
        assert player.total == sum(player.pens.values()) + player.trex_bonus
        assert player.trex_bonus == len(player.trex_pens) <= 6
        assert player.trex_count == sum(content.count("trex") for content in zoo.values())
    best = max(player.total for player in sheet.players)
    assert all(sheet.players[index].total == best for index in sheet.winners)


@settings(max_examples=budget(150))
@given(count=players_counts, seed=seeds)
def test_every_step_agrees_with_the_rule_book_and_keeps_the_bag_whole(count, seed):
    game = Game.new([f"P{index}" for index in range(count)], mode="full", seed=seed)
    choices = random.Random(seed)
    while game.phase != "over":
        check_invariants(game)
        if game.phase == "place":
            check_against_oracle(game)
        play_random_step(game, choices)
    check_invariants(game)


@settings(max_examples=budget(150))
@given(count=players_counts, seed=seeds)
def test_random_choice_among_all_legal_actions_and_json_round_trip_of_any_state(count, seed):
    game = Game.new([f"P{index}" for index in range(count)], mode="full", seed=seed, first_roller=seed % count)
    choices = random.Random(seed)
    saves = []
    while game.phase != "over":
        actions = game.legal_actions()
        assert actions, "a player can always put a dinosaur in the river"
        game.apply(actions[choices.randrange(len(actions))])
        if choices.random() < 0.1:
            saves.append((json.dumps(game.to_json()), game.to_json()))
    saves.append((json.dumps(game.to_json()), game.to_json()))
    for text, state in saves:
        assert Game.from_json(json.loads(text)).to_json() == state


@settings(max_examples=budget(200))
@given(count=players_counts, seed=seeds, rules=options)
def test_same_seed_same_game(count, seed, rules):
    first = play_random_game(count, seed, rules)
    second = play_random_game(count, seed, rules)
    assert first.to_json() == second.to_json()
    assert first.score() == second.score()


@settings(max_examples=budget(150))
@given(count=players_counts, seed=seeds)
def test_table_mode_accepts_every_real_game_and_ends_the_same(count, seed):
    """The table does not tell the engine its hands: every move of a legal game must still be accepted."""
    full = play_random_game(count, seed)
    table = Game.new(list(full.players), seed=seed)
    for action in full.actions:
        assert table.check(action) is None, action
        table.apply(action)
    assert table.phase == "over" and table.zoos == full.zoos
    assert table.score() == full.score()


@settings(max_examples=budget(60))
@given(count=players_counts, seed=seeds)
def test_every_refusal_and_score_line_can_be_said_in_every_language(count, seed):
    game = play_random_game(count, seed)
    replay = Game.new(list(game.players), mode="full", seed=seed)
    reasons = []
    for action in game.actions:
        if replay.phase == "place":
            for player in replay.waiting_for():
                reasons.extend(replay.pen_choices(player, SPECIES[seed % 6])[1].values())
        replay.apply(action)
    sheet = game.score()
    reasons.append(sheet.reason)
    reasons.extend(detail for player in sheet.players for detail in player.details.values())
    for lang in LANGUAGES:
        words = catalog(lang)
        for reason in reasons:
            sentence = words.say(f"reasons.{reason.code}", **reason.params)
            assert sentence and "{" not in sentence and "[" not in sentence
