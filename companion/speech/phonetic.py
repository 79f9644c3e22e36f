"""The sentence of a dialogue state's grammar that sounds closest to free text (a large-vocabulary
recogniser's words), for recognisers that are not constrained by the grammar.

Such a recogniser writes what it heard in its own words, and garbles names it does not know ("tricer chops"
for "triceratops"), so words are compared by sound, not by spelling: the text and every grammar word are
turned into phones with espeak-ng (companion.speech.pronounce), and the closest sentence is the path of the
grammar's word automaton (the one pocketsphinx searches, companion.speech.fsg) whose phones are the fewest
edits away from the text's phones. Templates with free text (a new player's name) are left out, as for
pocketsphinx.

`distance` is the cost of those edits per phone of the text (0: the same sounds), which the recogniser turns
into its confidence.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from companion.language.automaton import WordAutomaton, label
from companion.language.kept_automata import meant_arcs
from companion.language.recognition_grammar import Tag
from companion.speech.path_meaning import words_meaning
from companion.speech.pronounce import guess_pronunciations
from companion.speech.recogniser import Meaning

# espeak-ng voice that pronounces each language.
ESPEAK_VOICES = {"en": "en-us", "fr": "fr", "es": "es"}
VOWELS = frozenset({"AA", "AE", "AH", "AO", "AW", "AY", "EH", "ER", "EY", "IH", "IY", "OW", "OY", "UH", "UW"})
# Edit costs between phones: a vowel for another vowel is the cheapest mistake a recogniser makes.
SAME, VOWEL_FOR_VOWEL, OTHER = 0.0, 0.5, 1.0
INSERTION = 0.8  # a phone of the text that the sentence lacks
DELETION = 0.8   # a phone of the sentence that the text lacks
# Phones of the sentence skipped in a row, at most. Following every run of them (level by level along the turn
# grammar's 103 levels) took 97 ms of processor time per transcript, 4 at most 50 ms and 3 at most 39 ms; on the
# 398 transcripts of a French `bench listen` run (five per utterance), 3 found the same sentence at the same
# distance every time: a longer run costs more than sounds changed.
DELETIONS = 4
_UNSAID = "?"    # stands for a grammar word espeak-ng could not say
# Of two sentences whose sounds cost the same (homophones: "quel enclos", "quels enclos"), the one the parser
# would try first is taken: each word's arc costs as much more as the ranks of the tags before it
# (recognition_grammar.Tag.rank), a template's rank by TEMPLATE_RANK, a list value's by VALUE_RANK. Edit costs are
# tenths, and a state has at most a few thousand templates, so that this never makes one sentence cheaper than
# another that sounds closer; costs along a path are then told apart to within CLOSE (the sums of a hundred tenths
# err by about 1e-14). A sum of ranks is not always the parser's order, which settles each part before the next
# ("x y z" with a: "x" or "x y", b: "z" or, listed far later, "y z": the parser reads a = "x"), so that the words
# found are then read as every recogniser's are (path_meaning: the ranks compared in the order met).
TEMPLATE_RANK, VALUE_RANK, CLOSE = 1e-6, 1e-9, 1e-11


@dataclass(frozen=True)
class Closest:
    """The closest sentence (recogniser words, "" when none), its distance per phone of the text, and what it
    means, read on the automaton as every recogniser's words are (None when no sentence is close)."""

    text: str
    distance: float
    meaning: Meaning | None = None


class PhoneGraph:
    """A word automaton spelled out phone by phone: nodes in an order where every arc goes forward. The arc that
    carries a word's last phone carries the word's label (the word, and the tags of meaning before it)."""

    def __init__(self, automaton: WordAutomaton, phones: dict[str, tuple[str, ...]]):
        order = _topological(automaton)
        self.symbols = sorted({p for word in phones.values() for p in word} | {_UNSAID})
        symbol = {p: k for k, p in enumerate(self.symbols)}
        node_of = {state: k for k, state in enumerate(order)}
        # Inner nodes of a word's chain get a rank between that of the state it leaves and the next state in
        # `order`, so that sorting arcs by the rank of their source keeps every path in order.
        rank: list[float] = [float(k) for k in range(len(order))]
        sources: list[int] = []
        targets: list[int] = []
        labels: list[int] = []
        ends_word: dict[int, str] = {}  # arc -> the word whose last phone it carries
        outgoing = defaultdict(list)
        for source, target, word in automaton.arcs:
            outgoing[source].append((target, word))
        count = len(order)
        for state in order:
            for target, word in outgoing[state]:
                sounds = phones.get(label(word)[0]) or (_UNSAID,)
                previous = node_of[state]
                for index, phone in enumerate(sounds):
                    if index == len(sounds) - 1:
                        node = node_of[target]
                        ends_word[len(sources)] = word
                    else:
                        node = count
                        count += 1
                        rank.append(node_of[state] + (index + 1) / (len(sounds) + 1))
                    sources.append(previous)
                    targets.append(node)
                    labels.append(symbol[phone])
                    previous = node
        self.size = count
        self.start = node_of[automaton.start]
        self.accepting = np.array(sorted(node_of[s] for s in automaton.accepting), dtype=np.int64)
        by_rank = sorted(range(len(sources)), key=lambda arc: rank[sources[arc]])
        self.sources = np.array([sources[a] for a in by_rank], dtype=np.int64)
        self.targets = np.array([targets[a] for a in by_rank], dtype=np.int64)
        self.labels = np.array([labels[a] for a in by_rank], dtype=np.int64)
        self.word_at = {new: ends_word[old] for new, old in enumerate(by_rank) if old in ends_word}
        self.incoming = _incoming(self.targets)
        self.bias = _bias(len(self.sources), self.word_at)

    @classmethod
    def kept(cls, symbols: list[str], size: int, start: int, arrays: dict[str, np.ndarray],
             word_at: dict[int, str]) -> PhoneGraph:
        """A graph read back from the cache folder (companion.speech.kept_phones), as `arrays()` gave it."""
        graph = cls.__new__(cls)
        graph.symbols, graph.size, graph.start, graph.word_at = symbols, size, start, word_at
        graph.accepting, graph.sources, graph.targets, graph.labels = (
            arrays[name].astype(np.int64) for name in ("accepting", "sources", "targets", "labels"))
        graph.incoming = _incoming(graph.targets)
        graph.bias = _bias(len(graph.sources), word_at)
        return graph

    def arrays(self) -> dict[str, np.ndarray]:
        """The graph's arcs and accepting nodes, as `kept` takes them back."""
        return {"accepting": self.accepting, "sources": self.sources, "targets": self.targets, "labels": self.labels}

    def costs(self, phone: str) -> np.ndarray:
        """The cost of `phone` (of the text) on each arc (with the arc's rank: `_bias`)."""
        costs: np.ndarray = np.array([_substitution(phone, other) for other in self.symbols])[self.labels]
        costs += self.bias
        return costs

    def closest(self, text_phones: tuple[str, ...]) -> tuple[float, list[str]]:
        """The lowest total edit cost between `text_phones` and a sentence, and the labels of that sentence's
        words (automaton.label: each word with the tags of meaning before it)."""
        if not len(self.accepting):
            return float("inf"), []
        rows = np.full((len(text_phones) + 1, self.size), np.inf)
        rows[0, self.start] = 0.0
        self._delete(rows[0])
        by_phone = {phone: self.costs(phone) for phone in set(text_phones)}  # one array per phone, not per place
        arc_costs = [by_phone[phone] for phone in text_phones]
        for i, costs in enumerate(arc_costs, start=1):
            row = rows[i]
            np.minimum(row, rows[i - 1] + INSERTION, out=row)
            np.minimum.at(row, self.targets, rows[i - 1][self.sources] + costs)
            self._delete(row)
        final = rows[-1][self.accepting]
        best = int(self.accepting[int(np.argmin(final))])
        labels, ranks = self._words(rows, arc_costs, best)
        return max(0.0, round(float(rows[-1][best]) - ranks, 6)), labels  # edit costs are tenths: rounding only

    def _delete(self, row: np.ndarray) -> None:
        """Phones of the sentence that the text lacks: up to DELETIONS in a row, each pass over every arc."""
        for _ in range(DELETIONS):
            np.minimum.at(row, self.targets, row[self.sources] + DELETION + self.bias)

    def _words(self, rows: np.ndarray, arc_costs: list[np.ndarray], node: int) -> tuple[list[str], float]:
        """The words' labels along the best path to `node` at the last row, read back from the costs, and what
        their ranks added to its cost."""
        words: list[str] = []
        ranks = 0.0
        i = len(rows) - 1
        while not (i == 0 and node == self.start):
            i, node, arc = self._step_back(rows, arc_costs, i, node)
            if arc in self.word_at:
                words.append(self.word_at[arc])
                ranks += float(self.bias[arc])
        return words[::-1], ranks

    def _step_back(self, rows: np.ndarray, arc_costs: list[np.ndarray], i: int, node: int) -> tuple[int, int, int]:
        """The row, node and arc (-1: none) one step before (i, node) on a cheapest path."""
        here = float(rows[i][node])
        for arc in self.incoming.get(node, ()):
            source = int(self.sources[arc])
            if i > 0 and _close(float(rows[i - 1][source] + arc_costs[i - 1][arc]), here):
                return i - 1, source, arc
            # A deletion's source may have got cheaper in the last pass over the row, after its target was set
            # (DELETIONS passes, each from the row before it): a way at most as dear is a way in.
            if float(rows[i][source]) + DELETION + float(self.bias[arc]) <= here + CLOSE:
                return i, source, arc
        if i > 0 and _close(float(rows[i - 1][node]) + INSERTION, here):
            return i - 1, node, -1
        raise RuntimeError("phone alignment could not be read back")  # every finite cost has a way in


def _incoming(targets: np.ndarray) -> dict[int, list[int]]:
    """The arcs into each node, in the order of the arcs."""
    incoming: dict[int, list[int]] = defaultdict(list)
    for arc, target in enumerate(targets.tolist()):
        incoming[target].append(arc)
    return incoming


def _close(a: float, b: float) -> bool:
    """The same cost but for rounding (numpy's isclose on two floats was most of the time of a read-back)."""
    return abs(a - b) <= CLOSE


def _bias(arcs: int, word_at: dict[int, str]) -> np.ndarray:
    """What each arc costs more for the ranks of the tags before its word (TEMPLATE_RANK); each label read once
    (French Draftosaurus's `any`: 24,397 tags on 30,197 arcs)."""
    cost: dict[str, float] = {}
    for word in set(word_at.values()):
        ranks = [Tag.rank(tag) for tag in label(word)[1]]
        cost[word] = sum(template * TEMPLATE_RANK + value * VALUE_RANK for template, value in ranks)
    bias = np.zeros(arcs)
    for arc, word in word_at.items():
        bias[arc] = cost[word]
    return bias


def _substitution(heard: str, expected: str) -> float:
    if heard == expected:
        return SAME
    return VOWEL_FOR_VOWEL if heard in VOWELS and expected in VOWELS else OTHER


def _topological(automaton: WordAutomaton) -> list[int]:
    """The automaton's states, every arc going forward (the grammar's automata have no cycles)."""
    incoming = [0] * automaton.n_states
    outgoing = defaultdict(list)
    for source, target, _ in automaton.arcs:
        incoming[target] += 1
        outgoing[source].append(target)
    ready = [s for s in range(automaton.n_states) if incoming[s] == 0]
    order: list[int] = []
    while ready:
        state = ready.pop()
        order.append(state)
        for target in outgoing[state]:
            incoming[target] -= 1
            if incoming[target] == 0:
                ready.append(target)
    if len(order) != automaton.n_states:
        raise ValueError("the grammar's word automaton has a cycle")
    return order


# (language, word) -> its phones (none: espeak-ng could not say it)
_PHONES: dict[tuple[str, str], tuple[str, ...]] = {}
_PHONES_KEPT = 20_000  # words kept; the whole list is dropped beyond


def phones_of(words: list[str] | tuple[str, ...], lang: str) -> dict[str, tuple[str, ...]]:
    """Each word's phones as espeak-ng says it in `lang` (words it cannot say are left out). Words not asked
    before are asked in one espeak-ng run (a process started: tens of milliseconds), then kept."""
    missing = [word for word in dict.fromkeys(words) if (lang, word) not in _PHONES]
    if missing:
        said = {word: _said_as(word, lang) for word in missing}
        guessed = guess_pronunciations(list(dict.fromkeys(said.values())), ESPEAK_VOICES[lang])
        if not guessed:  # espeak-ng is missing or failed: nothing is kept, it is asked again next time
            return {word: _PHONES[lang, word] for word in words if _PHONES.get((lang, word))}
        _remember(lang, {word: _elided(word, tuple(guessed.get(said[word], "").split()), lang) for word in missing})
    return {word: phones for word in words for phones in [_PHONES[lang, word]] if phones}


def _remember(lang: str, phones: dict[str, tuple[str, ...]]) -> None:
    """Keep each word's phones in `lang` (none: espeak-ng cannot say it), within _PHONES_KEPT words."""
    if len(_PHONES) + len(phones) > _PHONES_KEPT:
        _PHONES.clear()
    _PHONES.update(((lang, word), sounds) for word, sounds in phones.items())


def _is_elided(word: str, lang: str) -> bool:
    return lang == "fr" and len(word) > 1 and word.endswith("'")


def _said_as(word: str, lang: str) -> str:
    """The word espeak-ng is asked to say for `word`. Alone, a French elided word is spelled out as letter names
    ("l'" as "èl", "d'" as "dé", "j'" as "ji"), sounds that are never said in "l'île d'Alice": it is asked
    with its mute e back ("le", "de", "je"), which `_elided` then drops."""
    return word[:-1] + "e" if _is_elided(word, lang) else word


def _elided(word: str, phones: tuple[str, ...], lang: str) -> tuple[str, ...]:
    """The phones of an elided word without the vowel of its mute e ("le" L AH: "l'" L; "jusque" has none)."""
    return phones[:-1] if _is_elided(word, lang) and len(phones) > 1 and phones[-1] in VOWELS else phones


@lru_cache(maxsize=64)
def phone_graph(game: str, lang: str, state: str, player_names: tuple[str, ...] = ()) -> PhoneGraph:
    """The phone graph of a state: read from the cache folder when it was built before from the same templates
    with the same espeak-ng, else built (its words said by espeak-ng) and kept there. It spells out the minimal
    automaton of what recognisers may say in `state` (free-text templates left out, a filler phrase allowed
    before and after: recognition_grammar.fillers), the sentences pocketsphinx searches, with what each means on
    its arcs (automaton.minimal_meant), from the same word trees. A kept graph is found by what the recognisers' view of
    the state depends on (kept_templates.key), so that reading it builds nothing else."""
    from companion.language import kept_templates
    from companion.speech import kept_phones

    key = kept_phones.key(kept_templates.key(game, lang, state, player_names).hex(), lang)
    found = kept_phones.read(key) if key is not None else None
    if found is not None:
        built, phones = found
        _remember(lang, phones)
        return built
    automaton = meant_arcs(game, lang, state, player_names).automaton()
    words = tuple(sorted({label(w)[0] for _, _, w in automaton.arcs}))
    phones = phones_of(words, lang)
    built = PhoneGraph(automaton, phones)
    if key is not None and len(phones) == len(words):  # every word said (a word espeak-ng failed on is built again)
        kept_phones.keep(key, built, phones)
    return built



def closest_sentence(text: str, game: str, lang: str, state: str, player_names: tuple[str, ...] = ()) -> Closest:
    """The sentence of `state` that sounds closest to `text`, and what its words mean (path_meaning)."""
    said = [w for w in text.split() if w]
    heard = phones_of(said, lang)
    text_phones = tuple(p for w in said for p in heard.get(w, ()))
    if not text_phones:
        return Closest("", float("inf"))
    cost, labels = phone_graph(game, lang, state, player_names).closest(text_phones)
    words = [label(x)[0] for x in labels]
    return Closest(" ".join(words), cost / len(text_phones),
                   words_meaning(words, game=game, lang=lang, state=state, player_names=player_names))
