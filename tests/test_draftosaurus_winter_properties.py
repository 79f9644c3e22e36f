"""Property tests on the winter board: random full-mode games for 2 to 5 players on random board values,
checked at every step against an oracle of the winter placement rules written here from the rule texts,
independently of the engine, plus the game's invariants, saves, replays and spoken sentences."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.draftosaurus.engine import Discard, Game, Place, QuarantineMove, Roll
from companion.games.draftosaurus.ids import DIE_FACES, PYRAMID_POSITIONS, SPECIES, WINTER_PENS
from companion.games.draftosaurus.simulate import play_random_game, play_random_step
from companion.games.draftosaurus.winter_board import load_winter_board
from companion.language.messages import LANGUAGES, catalog
from tests.conftest import budget

BAG = {2: 8, 3: 6, 4: 8, 5: 10}
PENS = WINTER_PENS[:-1]
# The pyramid drawn as the texts describe it: three places at the bottom, two above, one on top.
ROW = {"bottom_left": 0, "bottom_centre": 0, "bottom_right": 0, "middle_left": 1, "middle_right": 1, "top": 2}
ROW_SIZE = (3, 2, 1)
SIDE_BY_SIDE = {("bottom_left", "bottom_centre"), ("bottom_centre", "bottom_right"), ("middle_left", "middle_right")}
ABOVE = {("middle_left", "bottom_left"), ("middle_left", "bottom_centre"), ("middle_right", "bottom_centre"),
         ("middle_right", "bottom_right"), ("top", "middle_left"), ("top", "middle_right")}
TOUCH = {frozenset(pair) for pair in SIDE_BY_SIDE | ABOVE}

players_counts = st.integers(min_value=2, max_value=5)
seeds = st.integers(min_value=0, max_value=2 ** 31 - 1)
boards = st.builds(
    lambda wood, pyramid, left, right, areas, sides_left: load_winter_board().with_values({
        "well_ordered_wood_points": wood, "pyramid_points": pyramid, "lovers_bridge_left_capacity": left,
        "lovers_bridge_right_capacity": right, "areas": dict(zip(PENS, areas, strict=True)),
        "sides": {**dict(zip(PENS, sides_left, strict=True)), "lovers_bridge_left": "cafeteria",
                  "lovers_bridge_right": "toilets"}}),
    st.lists(st.integers(0, 30), min_size=6, max_size=6), st.lists(st.integers(0, 12), min_size=6, max_size=6),
    st.integers(1, 6), st.integers(1, 6), st.lists(st.sampled_from(["forest", "grassland"]), min_size=6, max_size=6),
    st.lists(st.sampled_from(["cafeteria", "toilets"]), min_size=6, max_size=6))


def pyramid_of(zoo: dict) -> dict[str, str]:
    """The pyramid of an API zoo (places listed in order, None for an empty one) as place -> species."""
    return {place: species for place, species in zip(PYRAMID_POSITIONS, zoo["pyramid"], strict=False)
            if species is not None}


def oracle_position(zoo: dict, species: str, place: str) -> bool:
    """May `species` take pyramid `place`: free, its row open (the rows below full), touching none of its kind."""
    pyramid = pyramid_of(zoo)
    if place in pyramid:
        return False
    for row in range(ROW[place]):
        if sum(1 for taken in pyramid if ROW[taken] == row) < ROW_SIZE[row]:
            return False
    return all(pyramid.get(other) != species for other in PYRAMID_POSITIONS if frozenset((place, other)) in TOUCH)


def oracle_pen(zoo: dict, species: str, pen: str, face: str | None, board) -> bool:
    """May `species` go into `pen` under die `face` (None: no die)? The pyramid: if any place takes it."""
    if pen == "river":
        return True
    content = [s for s in zoo[pen] if s is not None]
    if face in ("forest", "grassland") and board.area(pen) != face:
        return False
    if face in ("cafeteria", "toilets") and board.side(pen) != face:
        return False
    if face == "empty_pen" and content:
        return False
    if face == "no_trex" and "trex" in content:
        return False
    capacity = {"well_ordered_wood": 6, "pyramid": 6, "lookout": 1, "quarantine": 1,
                "lovers_bridge_left": board.capacity("lovers_bridge_left"),
                "lovers_bridge_right": board.capacity("lovers_bridge_right")}[pen]
    if len(content) >= capacity:
        return False
    if pen == "well_ordered_wood":
        if len(content) == 1:
            return species != content[0]
        return len(content) == 0 or species == content[-2]
    if pen == "pyramid":
        return any(oracle_position(zoo, species, place) for place in PYRAMID_POSITIONS)
    return True


def check_against_oracle(game: Game) -> None:
    board = game.winter_board
    face = game.face.value if game.face is not None else None
    for player in game.waiting_for():
        zoo = game.zoos[player]
        if game.phase == "quarantine":
            moving = zoo["quarantine"][0]
            expected = [(pen, place) for pen in WINTER_PENS if pen != "quarantine"
                        for place in (PYRAMID_POSITIONS if pen == "pyramid" else (None,))
                        if (oracle_position(zoo, moving, place) if pen == "pyramid"
                            else oracle_pen(zoo, moving, pen, None, board))]
            assert game.quarantine_destinations(player) == expected
            for pen, place in expected:
                assert game.check(QuarantineMove(player, pen, place)) is None
            continue
        bound = face if game.bound_by_die(player) else None
        for species in SPECIES:
            legal, excluded = game.pen_choices(player, species)
            assert set(legal) | set(excluded) == set(WINTER_PENS) and not set(legal) & set(excluded)
            for pen in WINTER_PENS:
                allowed = oracle_pen(zoo, species, pen, bound, board)
                assert (pen in legal) == allowed, (zoo, species, pen, bound)
                if not allowed:
                    assert excluded[pen].params["pen"] == pen
            places = [place for place in PYRAMID_POSITIONS if oracle_position(zoo, species, place)]
            assert game.pyramid_positions(player, species) == places
            in_hand = species in game.hand(player)
            for place in PYRAMID_POSITIONS:
                verdict = game.check(Place(player, species, "pyramid", place))
                assert (verdict is None) == (in_hand and "pyramid" in legal and place in places), (zoo, place)


def check_invariants(game: Game) -> None:
    count = len(game.players)
    placed = {s: sum(content.count(s) for zoo in game.zoos for content in zoo.values()) for s in SPECIES}
    discarded = {s: sum(1 for a in game.actions if isinstance(a, Discard) and a.species == s) for s in SPECIES}
    for species in SPECIES:
        assert placed[species] + discarded[species] + game.bag_remaining()[species] == BAG[count]
    for zoo in game.zoos:
        rows = [ROW[place] for place in pyramid_of(zoo)]
        filled = [sum(1 for row in rows if row == r) for r in range(3)]
        assert all(filled[r] == ROW_SIZE[r] for r in range(3) if any(filled[r + 1:]))
        wood = zoo["well_ordered_wood"]
        assert len(set(wood)) <= 2 and all(wood[i] == wood[i - 2] for i in range(2, len(wood)))
        assert len(wood) < 2 or wood[0] != wood[1]


def right_neighbour_counts(game: Game, index: int) -> dict[str, int]:
    zoo = game.zoos[index - 1]
    return {s: sum(content.count(s) for pen, content in zoo.items() if pen != "river") for s in SPECIES}


@settings(max_examples=budget(300))
@given(count=players_counts, seed=seeds, board=boards)
def test_random_full_winter_games_end_well_and_score_consistently(count, seed, board):
    game = play_random_game(count, seed, board="winter", winter_board=board)
    assert game.phase == "over" and game.waiting_for() == []
    # the pyramid is listed place by place, None for an empty place
    assert all(sum(1 for content in zoo.values() for s in content if s is not None) == 12 for zoo in game.zoos)
    assert all(zoo["quarantine"] == [] for zoo in game.zoos)
    assert game.bag_remaining() == {species: 0 for species in SPECIES}
    rolls = [action.face for action in game.actions if isinstance(action, Roll)]
    assert len(rolls) == game.rounds * game.turns_per_round and set(rolls) <= set(DIE_FACES)
    sheet = game.score()
    for index, (player, zoo) in enumerate(zip(sheet.players, game.zoos, strict=True)):
        assert player.total == sum(player.pens.values()) + player.trex_bonus
        assert player.trex_pens == [pen for pen in PENS if "trex" in zoo[pen]]
        assert player.pens["river"] == len(zoo["river"])
        assert player.pens["well_ordered_wood"] == board.wood_points[len(zoo["well_ordered_wood"])]
        assert player.pens["pyramid"] == sum(board.pyramid_points[PYRAMID_POSITIONS.index(p)] for p in pyramid_of(zoo))
        left, right = zoo["lovers_bridge_left"], zoo["lovers_bridge_right"]
        assert player.pens["lovers_bridge"] == 6 * sum(min(left.count(s), right.count(s)) for s in SPECIES)
        lookout = zoo["lookout"]
        assert player.pens["lookout"] == (2 * right_neighbour_counts(game, index)[lookout[0]] if lookout else 0)
    best = max(player.total for player in sheet.players)
    assert all(sheet.players[index].total == best for index in sheet.winners)


@settings(max_examples=budget(80))
@given(count=players_counts, seed=seeds, board=boards)
def test_every_winter_step_agrees_with_the_rule_texts(count, seed, board):
    game = Game.new([f"P{index}" for index in range(count)], mode="full", seed=seed, board="winter",
                    winter_board=board)
    choices = random.Random(seed)
    while game.phase != "over":
        check_invariants(game)
        if game.phase in ("place", "quarantine"):
            check_against_oracle(game)
        play_random_step(game, choices)
    check_invariants(game)


@settings(max_examples=budget(80))
@given(count=players_counts, seed=seeds)
def test_random_legal_winter_actions_and_json_round_trip_of_any_state(count, seed):
    game = Game.new([f"P{index}" for index in range(count)], mode="full", seed=seed, first_roller=seed % count,
                    board="winter")
    choices = random.Random(seed)
    saves = []
    while game.phase != "over":
        actions = game.legal_actions()
        assert actions, "a dinosaur can always go to the river"
        game.apply(actions[choices.randrange(len(actions))])
        if choices.random() < 0.1 or game.phase == "quarantine":
            saves.append((json.dumps(game.to_json()), game.to_json()))
    saves.append((json.dumps(game.to_json()), game.to_json()))
    for text, state in saves:
        assert Game.from_json(json.loads(text)).to_json() == state


@settings(max_examples=budget(60))
@given(count=players_counts, seed=seeds)
def test_same_seed_same_winter_game_and_table_mode_accepts_it(count, seed):
    first = play_random_game(count, seed, board="winter")
    assert first.to_json() == play_random_game(count, seed, board="winter").to_json()
    table = Game.new(list(first.players), seed=seed, board="winter")
    for action in first.actions:
        assert table.check(action) is None, action
        table.apply(action)
    assert table.phase == "over" and table.zoos == first.zoos and table.score() == first.score()


@settings(max_examples=budget(40))
@given(count=players_counts, seed=seeds)
def test_every_winter_refusal_and_score_line_can_be_said_in_every_language(count, seed):
    game = play_random_game(count, seed, board="winter")
    replay = Game.new(list(game.players), mode="full", seed=seed, board="winter")
    reasons = []
    for action in game.actions:
        if replay.phase == "place":
            for player in replay.waiting_for():
                species = SPECIES[seed % 6]
                reasons.extend(replay.pen_choices(player, species)[1].values())
                reasons.extend(replay.pyramid_choices(player, species)[1].values())
                reasons.extend(filter(None, (replay.check(Place(player, species, "pyramid", place))
                                             for place in PYRAMID_POSITIONS)))
        replay.apply(action)
    sheet = game.score()
    reasons.append(sheet.reason)
    reasons.extend(detail for player in sheet.players for detail in player.details.values())
    for lang in LANGUAGES:
        words = catalog(lang)
        for reason in reasons:
            sentence = words.say(f"reasons.{reason.code}", **reason.params)
            assert sentence and "{" not in sentence and "[" not in sentence and "_" not in sentence, sentence
