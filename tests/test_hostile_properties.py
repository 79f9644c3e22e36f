"""Thousands of malformed saves: each is either taken back or refused as a save error, never a
crash, and `play --new` writes over exactly the saves that `resume` takes back. The real commands run on a
sample, whose exit codes are 0 or 2 only."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.commands.play import check_save_target
from companion.dialogue.savefile import SaveFileError
from tests.conftest import budget
from tests.hostile_cases import GAMES, document, file_state, resume_outcome, run_companion, saved_content

GOOD = {game: document(game, saved_content(game, actions=8)) for game in GAMES}  # small: quick to generate

ODD = [None, True, False, 0, -1, 1, 3, 10 ** 30, 2 ** 63, 1.5, -0.0, 1e308, "", "x", "A1", "river", "trex", "\x1b[2J",
       "\ud800", float("inf"), float("nan"), [], {}, [[[[[[]]]]]], {"type": "roll"}, "7" * 50]
ODD_VALUES = st.sampled_from(ODD)
JSON_VALUES = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=8),
                                     ODD_VALUES),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                                      max_size=4),
                           max_leaves=12)


def places(value, where=()):
    """Every place in a document, as the keys that lead to it."""
    yield where
    if isinstance(value, dict):
        for key, item in value.items():
            yield from places(item, (*where, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from places(item, (*where, index))


GOOD_TEXT = {game: json.dumps(data) for game, data in GOOD.items()}
GOOD_PLACES = {game: list(places(data))[1:] for game, data in GOOD.items()}
NEW_KEYS = ["extra", "type", "player", "finished", "seed"]


class Drawn:
    """Choices drawn through Hypothesis (shrinkable, and slow: about 10 ms a save)."""

    def __init__(self, draw):
        self.draw = draw

    def number(self, low: int, high: int) -> int:
        return self.draw(st.integers(low, high))

    def pick(self, items):
        return self.draw(st.sampled_from(items))

    def value(self):
        return copy.deepcopy(self.draw(JSON_VALUES))  # never the shared objects of ODD themselves

    def bytes(self, most: int) -> bytes:
        return self.draw(st.binary(max_size=most))


class Seeded(Drawn):
    """The same choices from a seeded generator: thousands of saves in a few seconds."""

    def __init__(self, chooser: random.Random):
        self.chooser = chooser

    def number(self, low: int, high: int) -> int:
        return self.chooser.randint(low, high)

    def pick(self, items):
        return self.chooser.choice(items)

    def value(self):
        shape = self.chooser.randrange(3)
        item = copy.deepcopy(self.chooser.choice(ODD))
        if shape == 0:
            return item
        return [item] * self.chooser.randint(0, 3) if shape == 1 else {self.pick(NEW_KEYS): item}

    def bytes(self, most: int) -> bytes:
        return self.chooser.randbytes(self.chooser.randint(0, most))


def malformed(game: str, choose: Drawn) -> bytes:
    """A good save of `game` changed in its structure (its checksum recomputed or not), or in its bytes."""
    data = json.loads(GOOD_TEXT[game])
    for _ in range(choose.number(1, 3)):
        where = choose.pick(GOOD_PLACES[game])
        try:
            parent = data
            for key in where[:-1]:
                parent = parent[key]
            parent[where[-1]]
        except (KeyError, IndexError, TypeError):  # an earlier change took that place away
            continue
        if not isinstance(parent, (dict, list)):
            continue
        change, value = choose.pick(["replace", "delete", "add"]), choose.value()
        if change == "replace":
            parent[where[-1]] = value
        elif change == "delete":
            del parent[where[-1]]
        elif isinstance(parent, dict):
            parent[choose.pick(NEW_KEYS)] = value
        else:
            parent.insert(choose.number(0, len(parent)), value)
    if choose.number(0, 1) and isinstance(data.get("content"), dict):  # a forger recomputes the checksum
        data = {**data, "checksum": document(game, data["content"])["checksum"]}
    text = json.dumps(data, ensure_ascii=bool(choose.number(0, 1))).encode("utf-8", "surrogatepass")
    if choose.number(0, 2) == 0:  # damage to the bytes themselves
        position = choose.number(0, len(text))
        text = text[:position] + choose.bytes(8) + text[position + choose.number(0, 8):]
    return text


@st.composite
def malformed_saves(draw) -> tuple[str, bytes]:
    game = draw(st.sampled_from(GAMES))
    return game, malformed(game, Drawn(draw))


def replace_outcome(path: Path, game: str) -> int:
    try:
        check_save_target(path, replace=True, game=game)
    except SaveFileError:
        return 2
    return 0


SLOW = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture]


# Hypothesis draws a game and a seed, the changes come from the seed (Seeded): 3,000 saves take a few seconds,
# where drawing each change through Hypothesis (Drawn) took 25 s for 2,000.
@settings(max_examples=budget(3000), suppress_health_check=SLOW)
@given(st.sampled_from(GAMES), st.integers(0, 2 ** 32 - 1))
def test_thousands_of_malformed_saves_are_taken_back_or_refused_never_a_crash(tmp_path, game, seed):
    text = malformed(game, Seeded(random.Random(seed)))
    path = tmp_path / "save.json"
    path.write_bytes(text)
    assert resume_outcome(path) in (0, 2)
    assert path.read_bytes() == text


@settings(max_examples=budget(300), suppress_health_check=SLOW)
@given(malformed_saves())
def test_play_new_writes_over_exactly_what_resume_takes_back(tmp_path, case):
    game, text = case
    path = tmp_path / "save.json"
    path.write_bytes(text)
    assert resume_outcome(path) in (0, 2)
    assert replace_outcome(path, game) == resume_outcome(path)
    assert path.read_bytes() == text


@settings(max_examples=budget(4), suppress_health_check=SLOW)
@given(malformed_saves())
def test_the_real_commands_exit_with_0_or_2_on_a_sample(tmp_path, case):
    game, text = case
    folder = tmp_path
    path = folder / "save.json"
    path.write_bytes(text)
    resumed = run_companion(["resume", str(path), "--engine", "text"], folder / "home", bound=60)
    assert resumed.returncode in (0, 2) and "Traceback" not in resumed.stderr, resumed.stderr
    assert resumed.returncode == resume_outcome(path)
    if resumed.returncode == 2:
        tokens = ["--tokens", "hidden"] if game == "jurassic-snack" else []
        replaced = run_companion(["play", game, "--engine", "text", "--players", "Ana,Ben", *tokens, "--new",
                                  "--save", str(path)], folder / "home", bound=60)
        assert replaced.returncode == 2 and file_state(path) == ("file", text), replaced.stderr
