"""The reader of a state's automaton with meaning (companion/language/reading.py) keeps one path per place in the
words, state and intent, the least ranked so far. Checked here against every path: on sentences sampled from typed
text's automata, with players' names and with any words standing for a name, the kept path of each intent is the
least ranked of all the paths that spell the sentence, tags and all."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest

from companion.language.folding import fold
from companion.language.grammar import examples
from companion.language.reading import PathReader, typed_reader
from companion.language.recognition_grammar import Open, Tag
from tests.test_hassil_drift import sampled

MOST_PATHS = 20_000  # a sentence with more paths than this is left out (none of the samples below has so many)


def every_path(reader: PathReader, words: Sequence[str], fill) -> dict[str | None, tuple]:
    """The least ranked path of each intent among all the paths that spell `words`, found by trying them all."""
    ends: dict[str | None, tuple] = {}
    count = 0

    def walk(state: int, place: int, ranks: tuple, tags: tuple, intent: str | None) -> None:
        nonlocal count
        count += 1
        if count > MOST_PATHS:
            raise OverflowError
        if place == len(words):
            if state in reader.accepting and (intent not in ends or ranks < ends[intent][0]):
                ends[intent] = (ranks, tags)
            return
        by_word, opens = reader._leaving(state)
        moves = [(target, arc_label, place + 1, (), ()) for target, arc_label in by_word.get(words[place], ())]
        moves += [(target, arc_label, end, (order,), (Tag.slot(part.slot, value, 0),))
                  for target, arc_label, part in opens for order, (end, value) in enumerate(fill(part, words, place))]
        for target, arc_label, end, order, filled in moves:
            more_tags, more_ranks, named = reader._tags(arc_label)
            walk(target, end, ranks + more_ranks + order, tags + more_tags + filled,
                 named if intent is None else intent)

    walk(reader.start, 0, (), (), None)
    return ends


def filler(players: Sequence[str], strangers: int):
    def fill(part: Open, words: Sequence[str], place: int) -> Iterator[tuple[int, str]]:
        if part.names and not strangers:
            for name in sorted(players, key=lambda n: -len(fold(n).words)):
                said = fold(name).words
                if tuple(words[place:place + len(said)]) == said:
                    yield place + len(said), name
            return
        most = strangers if part.names else part.most
        last = len(words) if most is None else min(len(words), place + most)
        for end in range(last, place, -1):
            yield end, " ".join(words[place:end])
    return fill


@pytest.mark.parametrize("game, lang", [("draftosaurus", "fr"), ("dino", "en"), ("jurassic-snack", "es")])
def test_the_path_kept_for_each_intent_is_the_least_ranked_of_all(game, lang):
    players = examples(game, lang).players
    compared = 0
    for example in sampled(game, lang, players, seed=11):
        words = fold(example.text).words
        reader = typed_reader(game, lang, example.state)
        for strangers in (0, 2):
            fill = filler(players, strangers)
            try:
                every = every_path(reader, words, fill)
            except OverflowError:
                continue
            assert reader.paths(words, fill) == every, (example.state, example.text, strangers)
            compared += 1
    assert compared >= 0.9 * 2 * len(sampled(game, lang, players, seed=11))


@pytest.mark.parametrize("lang, text, order", [
    ("en", "Bruno: stegosaurus in the river", ["player", "species", "pen"]),
    ("en", "the stegosaurus for Bruno in the river", ["species", "player", "pen"]),
    ("fr", "le stégosaure dans la rivière pour Bruno", ["species", "pen", "player"]),
])
def test_slots_come_in_the_order_they_are_said(lang, text, order):
    """A player's name is read where the path meets it, not after the slots of the template's lists: what is
    understood is said back in the order it was said (`companion parse`)."""
    from companion.language.grammar import parse

    said = parse(text, game="draftosaurus", lang=lang, state="turn", player_names=("Alice", "Bruno"))
    assert list(said.slots) == order, said
