"""Thousands of malformed saves (issue 20): each is either taken back or refused as a save error, never a
crash, and `play --new` writes over exactly the saves that `resume` takes back. The real commands run on a
sample, whose exit codes are 0 or 2 only."""

from __future__ import annotations

import copy
import io
import json
import random
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent))
from hostile_cases import GAMES, document, file_state, run_companion, saved_content  # noqa: E402

from companion.commands.play import check_save_target  # noqa: E402
from companion.dialogue.games import GAMES as DIALOGUES  # noqa: E402
from companion.dialogue.savefile import SaveFileError, read_save  # noqa: E402
from companion.dialogue.session import Session  # noqa: E402
from companion.speech.base import TextListener, TextSpeaker  # noqa: E402

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


@st.composite
def malformed_saves(draw) -> tuple[str, bytes]:
    """(game, file bytes): a good save changed in its structure (its checksum recomputed or not), or in its bytes."""
    game = draw(st.sampled_from(GAMES))
    data = copy.deepcopy(GOOD[game])
    for _ in range(draw(st.integers(1, 3))):
        every = list(places(data))
        where = every[draw(st.integers(1, len(every) - 1))]
        parent = data
        for key in where[:-1]:
            parent = parent[key]
        change = draw(st.sampled_from(["replace", "delete", "add"]))
        value = copy.deepcopy(draw(JSON_VALUES))  # never the shared objects of ODD_VALUES themselves
        if change == "replace":
            parent[where[-1]] = value
        elif change == "delete":
            del parent[where[-1]]
        elif isinstance(parent, dict):
            parent[draw(st.sampled_from(["extra", "type", "player", "finished", "seed"]))] = value
        else:
            parent.insert(draw(st.integers(0, len(parent))), value)
    if draw(st.booleans()) and isinstance(data.get("content"), dict):  # a forger recomputes the checksum
        data = {**data, "checksum": document(game, data["content"])["checksum"]}
    text = json.dumps(data, ensure_ascii=draw(st.booleans()), indent=1).encode("utf-8", "surrogatepass")
    if draw(st.booleans()):  # damage to the bytes themselves
        position = draw(st.integers(0, len(text)))
        text = text[:position] + draw(st.binary(max_size=8)) + text[position + draw(st.integers(0, 8)):]
    return game, text


GOOD_TEXT = {game: json.dumps(data) for game, data in GOOD.items()}
GOOD_PLACES = {game: list(places(data))[1:] for game, data in GOOD.items()}


def damaged(game: str, chooser: random.Random) -> bytes:
    """The same kinds of damage as malformed_saves, chosen by `chooser`: thousands of saves in a few seconds."""
    data = json.loads(GOOD_TEXT[game])
    for _ in range(chooser.randint(1, 3)):
        where = chooser.choice(GOOD_PLACES[game])
        try:
            parent = data
            for key in where[:-1]:
                parent = parent[key]
            parent[where[-1]]
        except (KeyError, IndexError, TypeError):  # an earlier change took that place away
            continue
        if not isinstance(parent, (dict, list)):
            continue
        value = copy.deepcopy(chooser.choice(ODD)) if chooser.random() < 0.7 else \
            [chooser.choice(ODD)] * chooser.randint(0, 3) if chooser.random() < 0.5 else \
            {chooser.choice(["type", "player", "x"]): chooser.choice(ODD)}
        change = chooser.choice(["replace", "replace", "delete", "add"])
        if change == "replace":
            parent[where[-1]] = value
        elif change == "delete":
            del parent[where[-1]]
        elif isinstance(parent, dict):
            parent[chooser.choice(["extra", "type", "player", "finished", "seed"])] = value
        else:
            parent.insert(chooser.randint(0, len(parent)), value)
    if chooser.random() < 0.6 and isinstance(data.get("content"), dict):
        data = {**data, "checksum": document(game, data["content"])["checksum"]}
    text = json.dumps(data, ensure_ascii=chooser.random() < 0.5).encode("utf-8", "surrogatepass")
    if chooser.random() < 0.3:
        position = chooser.randint(0, len(text))
        text = text[:position] + chooser.randbytes(chooser.randint(0, 8)) + text[position + chooser.randint(0, 8):]
    return text


def resume_outcome(path: Path) -> int:
    """The exit code resume gives this save: 0 taken back, 2 refused (anything else raises)."""
    try:
        game, content = read_save(path)
        if game not in DIALOGUES:
            return 2
        quiet = Session(game=game, lang="fr", speaker=TextSpeaker(io.StringIO()), listener=TextListener(io.StringIO()))
        DIALOGUES[game].resume_table(quiet, content, path)
    except SaveFileError:
        return 2
    return 0


def replace_outcome(path: Path, game: str) -> int:
    try:
        check_save_target(path, replace=True, game=game)
    except SaveFileError:
        return 2
    return 0


SLOW = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture]


# Hypothesis draws a game and a seed; the damage is chosen from the seed (see damaged), which keeps the draws
# cheap: 3,000 saves take a few seconds, where drawing each change through Hypothesis took 25 s for 2,000.
@settings(max_examples=3000, deadline=None, suppress_health_check=SLOW)
@given(st.sampled_from(GAMES), st.integers(0, 2 ** 32 - 1))
def test_thousands_of_malformed_saves_are_taken_back_or_refused_never_a_crash(tmp_path, game, seed):
    text = damaged(game, random.Random(seed))
    path = tmp_path / "save.json"
    path.write_bytes(text)
    assert resume_outcome(path) in (0, 2)
    assert path.read_bytes() == text


@settings(max_examples=200, deadline=None, suppress_health_check=SLOW)
@given(malformed_saves())
def test_malformed_saves_are_taken_back_or_refused_never_a_crash(tmp_path, case):
    game, text = case
    path = tmp_path / "save.json"
    path.write_bytes(text)
    assert resume_outcome(path) in (0, 2)
    assert path.read_bytes() == text


@settings(max_examples=200, deadline=None, suppress_health_check=SLOW)
@given(malformed_saves())
def test_play_new_writes_over_exactly_what_resume_takes_back(tmp_path, case):
    game, text = case
    path = tmp_path / "save.json"
    path.write_bytes(text)
    assert replace_outcome(path, game) == resume_outcome(path)
    assert path.read_bytes() == text


@settings(max_examples=4, deadline=None, suppress_health_check=SLOW)
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
