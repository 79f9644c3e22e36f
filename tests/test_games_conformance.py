"""Every game of the registry keeps the promises the table relies on, checked the same way for each (random
simulation, as OpenSpiel checks its games): random legal games replay to the same state, a save round-trips,
copies are independent, a refused action changes nothing and its reason has a sentence in every language,
every dialogue state's grammar compiles in every language (for the parser and the recognisers), every example
sentence is understood as written, and what each means is said in every other language.

The games are those of `registry.GAMES` and the tests' own game (tests/games/race), registered for each test.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from importlib import import_module
from pathlib import Path
from typing import Any

import pytest

from companion import registry
from companion.errors import RuleViolation
from companion.games.common import OVER, LoggedGame, Reason, ReplayRefused
from companion.games.spec import GameSpec
from companion.language.automaton import minimal_meant
from companion.language.grammar import examples, parse, states
from companion.language.kept_automata import typed_arcs
from companion.language.messages import LANGUAGES, catalog
from companion.language.recognition_grammar import jsgf, word_graph
from companion.language.saying import saying
from tests.conftest import budget
from tests.games.race.spec import SPEC as RACE

GAMES: tuple[GameSpec, ...] = (*registry.GAMES, RACE)
MAX_ACTIONS = 5000  # far above any game's length: a guard against a game that never ends
_REASON_LITERAL = re.compile(r"""Reason\(\s*["']([a-z][a-z0-9_]*)["']""")


@pytest.fixture(autouse=True)
def with_the_test_game(monkeypatch):
    """The registry with the tests' own game added, for one test."""
    monkeypatch.setattr(registry, "GAMES", registry.GAMES)
    registry.register(RACE)


def games(seeds: int = 0) -> list[Any]:
    if not seeds:
        return [pytest.param(spec, id=spec.id) for spec in GAMES]
    return [pytest.param(spec, seed, id=f"{spec.id}-{seed}") for spec in GAMES for seed in range(seeds)]


def random_game(spec: GameSpec, seed: int, on_step: Any = None) -> LoggedGame:
    """A game from `spec.new_random(seed)` played to its end by random legal actions; `on_step(game, legal,
    choices)` is called before each one. Every action listed as legal must pass check()."""
    game: LoggedGame = spec.new_random(seed)
    choices = random.Random(seed)
    while game.phase != OVER:
        assert len(game.actions) < MAX_ACTIONS, f"{spec.id} seed {seed}: no end after {MAX_ACTIONS} actions"
        legal = game.legal_actions()
        assert legal, f"{spec.id} seed {seed}: no legal action in phase {game.phase}"
        if on_step is not None:
            on_step(game, legal, choices)
        action = legal[choices.randrange(len(legal))]
        assert game.check(action) is None, (spec.id, seed, action)
        game.apply(action)
    return game


@pytest.mark.parametrize("spec, seed", games(seeds=budget(6)))
def test_random_games_replay_save_and_copy(spec, seed):
    engine = spec.engine_class()
    halfway: dict[str, Any] = {}

    def copy_once(game: LoggedGame, legal: list[Any], choices: random.Random) -> None:
        if halfway or len(game.actions) < 3:
            return
        before, twin = game.snapshot(), game.copy()
        twin.apply(legal[0])
        assert game.snapshot() == before and len(game.actions) == len(twin.actions) - 1
        assert engine.replay(game.setup_json(), game.actions).snapshot() == before  # the copy shares nothing
        halfway["twin"], halfway["at"] = twin, len(game.actions)

    game = random_game(spec, seed, copy_once)
    assert engine.replay(game.setup_json(), game.actions).snapshot() == game.snapshot()
    saved = json.loads(json.dumps(game.to_json()))
    assert saved["game"] == spec.stem
    loaded = engine.from_json(saved)
    assert loaded.snapshot() == game.snapshot() and loaded.to_json() == game.to_json()
    if halfway:  # the copy went its own way and still replays to itself
        twin = halfway["twin"]
        assert engine.from_json(json.loads(json.dumps(twin.to_json()))).snapshot() == twin.snapshot()


@pytest.mark.parametrize("spec, seed", games(seeds=budget(3)))
def test_an_action_found_legal_is_not_checked_again_on_the_same_state_only(spec, seed):
    """check() then apply() runs the rules' check once; an action found legal before the state changed is
    checked again when applied (a stale one is refused and changes nothing)."""
    game: LoggedGame = spec.new_random(seed)
    choices = random.Random(seed)
    checked: list[Any] = []
    rules = game.refusal

    def counted(action: Any) -> Reason | None:
        checked.append(action)
        return rules(action)

    game.refusal = counted
    rechecked = 0
    while game.phase != OVER and len(game.actions) < MAX_ACTIONS:
        legal = game.legal_actions()
        action = legal[choices.randrange(len(legal))]
        checked.clear()
        assert game.check(action) is None and checked == [action]
        game.apply(action)
        assert checked == [action], (spec.id, seed, checked)
        if game.phase == OVER:
            break
        legal = game.legal_actions()
        seen, other = (legal[choices.randrange(len(legal))] for _ in range(2))
        assert game.check(seen) is None
        if other == seen:
            continue
        checked.clear()
        game.apply(other)  # another action than the one found legal is checked, and the state changes
        assert checked == [other], (spec.id, seed, checked)
        if game.phase == OVER:
            break
        before, count = game.snapshot(), len(game.actions)
        checked.clear()
        try:
            game.apply(seen)
        except RuleViolation:
            assert game.snapshot() == before and len(game.actions) == count
        assert checked[:1] == [seen], (spec.id, seed, checked)
        rechecked += 1
    assert game.phase == OVER and rechecked, (spec.id, seed, rechecked)


@pytest.mark.parametrize("spec", games())
def test_an_action_equal_to_the_one_found_legal_or_applied_to_a_copy_is_checked_again(spec):
    """Only the very action found legal, on the game that found it, skips the check: an equal one may hold True
    where 1 is asked."""
    game: LoggedGame = spec.new_random(0)
    checked: list[Any] = []
    rules = game.refusal
    game.refusal = lambda action: checked.append(action) or rules(action)
    action = game.legal_actions()[0]
    assert game.check(action) is None
    game.apply(dataclasses.replace(action))
    assert len(checked) == 2 and checked[0] is action and checked[1] == action and checked[1] is not action
    later = game.legal_actions()[0]
    assert game.check(later) is None
    twin = game.copy()  # a copy starts with nothing found legal: it may be changed otherwise than by apply
    twin.apply(later)
    assert len(checked) == 4 and checked[3] is later


@pytest.mark.parametrize("spec", games())
def test_no_action_is_refused_before_and_after_one_was_found_legal(spec):
    """None (a save's null action) is refused and changes nothing, and is never taken for the action found
    legal when none was."""
    game: LoggedGame = spec.new_random(0)
    before = game.snapshot()
    for _ in range(2):
        with pytest.raises(RuleViolation):
            game.apply(None)
        assert game.snapshot() == before and not game.actions
        assert game.check(game.legal_actions()[0]) is None
    with pytest.raises(ReplayRefused):
        spec.engine_class().replay(game.setup_json(), [None])


@pytest.mark.parametrize("spec, seed", games(seeds=budget(3)))
def test_a_refused_action_changes_nothing_and_its_reason_is_said_in_every_language(spec, seed):
    refused: dict[str, Reason] = {}
    seen: list[Any] = []

    def try_stale(game: LoggedGame, legal: list[Any], choices: random.Random) -> None:
        seen.extend(legal[:4])
        for action in choices.sample(seen, min(3, len(seen))):
            reason = game.check(action)
            if reason is None:
                continue
            before, count = game.snapshot(), len(game.actions)
            with pytest.raises(RuleViolation) as raised:
                game.apply(action)
            assert raised.value.reason == reason
            assert game.snapshot() == before and len(game.actions) == count
            refused.setdefault(reason.code, reason)

    random_game(spec, seed, try_stale)
    assert refused, f"{spec.id}: no stale action was ever refused"
    for lang in LANGUAGES:
        words = catalog(lang)
        for code, reason in refused.items():
            assert code.startswith(f"{spec.namespace}_"), code
            assert words.say(f"reasons.{code}", **reason.params).strip(), (lang, code)


def _package_sources(spec: GameSpec) -> list[Path]:
    """The source files of the packages of the game's engine and table."""
    folders = {Path(import_module(path.partition(":")[0]).__file__).parent  # type: ignore[arg-type]
               for path in (spec.engine, spec.table)}
    return sorted(path for folder in folders for path in folder.rglob("*.py"))


@pytest.mark.parametrize("spec", games())
def test_every_refusal_reason_of_a_game_has_a_sentence_in_every_language(spec):
    codes = {code for path in _package_sources(spec) for code in _REASON_LITERAL.findall(path.read_text())}
    assert any(code.startswith(f"{spec.namespace}_") for code in codes), spec.id
    for lang in LANGUAGES:
        missing = sorted(code for code in codes if f"reasons.{code}" not in catalog(lang).messages)
        assert not missing, (lang, missing)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("spec", games())
def test_every_dialogue_state_compiles_and_every_example_is_understood(spec, lang):
    for state in states(spec.id):
        assert typed_arcs(spec.id, lang, state).names, (state, lang)  # what typed text is read on
        assert "public <utterance>" in jsgf(spec.id, lang, state, ("Alice", "Bruno")), (state, lang)
        # the automaton every recogniser listens with or is read on
        assert minimal_meant(word_graph(spec.id, lang, state, ("Alice", "Bruno"))).arcs, (state, lang)
    corpus = examples(spec.id, lang)
    assert corpus.understood, (spec.id, lang)
    wrong = []
    for example in corpus.understood:
        result = parse(example.text, game=spec.id, lang=lang, state=example.state, player_names=corpus.players)
        if (result.intent, result.slots) != (example.intent, example.slots):
            wrong.append((example.text, example.state, result.intent, result.slots))
    assert not wrong, wrong


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("spec", games())
def test_what_an_example_means_is_said_in_each_other_language_and_understood_there_as_meant(spec, lang):
    """What the program offers to a player speaking another language than the game's (companion.language.saying):
    for the first example of each intent and state, a sentence in each other language, understood there as meant."""
    corpus, tried = examples(spec.id, lang), set()
    for example in corpus.understood:
        if (example.intent, example.state) in tried:
            continue
        tried.add((example.intent, example.state))
        for target in (other for other in LANGUAGES if other != lang):
            said = saying(spec.id, target, example.state, example.intent, example.slots, corpus.players)
            assert said is not None, (example, target)
            found = parse(said, game=spec.id, lang=target, state=example.state, player_names=corpus.players)
            assert (found.intent, found.slots) == (example.intent, example.slots), (example, target, said)
    assert len(tried) >= 3, spec.id
