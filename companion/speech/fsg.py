"""What PocketSphinx searches: the words of a state's minimal automaton with meaning
(companion.language.automaton), its tags set aside (`spoken_words`), as an FSG file kept in the cache folder
(`compiled_fsg`); and the sentences that hold every pair of its words, for Vosk (`covering_sentences`).

PocketSphinx, given the state's JSGF grammar, would build a graph full of empty (null) transitions, and its search
spends most of its time following them. The same language as a minimal deterministic automaton (no null transitions
but those into the final state) decodes about four times faster. Even so, the search visits every state at every
10 ms frame (about a third of the decoding time of the largest grammar), so the grammars avoid needless states (see
grammars/README.md).
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import os
import tempfile
from collections import defaultdict
from collections.abc import Callable
from functools import cache
from pathlib import Path

from companion import paths
from companion.files import write_whole
from companion.language.automaton import WordAutomaton, label, minimise
from companion.language.kept_arrays import code_digest
from companion.language.recognition_grammar import Tag

FORMAT_VERSION = "6"
MOST_FILES = 96  # each state a game uses, and its rival searches


def fsg_text(automaton: WordAutomaton, name: str) -> str:
    """`automaton` in pocketsphinx's FSG text format, with one added final state.

    Every transition has probability 1: the grammar says what may be said, not how likely it is (on
    synthesised commands this understood 83% of them, against 72% with each state's probability
    shared among its transitions, which favours the shortest sentences)."""
    final = automaton.n_states
    lines = [f"FSG_BEGIN {name}", f"NUM_STATES {automaton.n_states + 1}", f"START_STATE {automaton.start}",
             f"FINAL_STATE {final}"]
    lines += [f"TRANSITION {a} {b} 1 {w}" for a, b, w in automaton.arcs]
    lines += [f"TRANSITION {a} {final} 1" for a in sorted(automaton.accepting)]
    return "\n".join([*lines, "FSG_END"]) + "\n"




def spoken_words(meant: WordAutomaton, without: frozenset[str] = frozenset()) -> WordAutomaton:
    """The minimal automaton of the words of an automaton with meaning (`minimal_meant`), its tags set aside and
    the sentences of the intents `without` left out: what pocketsphinx searches. Every sentence's intent is
    tagged on one of its arcs, so that leaving out those arcs leaves out exactly those sentences.

    It replaced the minimal automaton of the word graph built without meaning: the same automaton on 834 grammars
    (every state of the three games in three languages, with two players' names and without, whole and without
    the undo, the redo, the yes or one other intent), made in 0.5 to 0.9 times the time from a kept automaton."""
    intents: dict[str, bool] = {}  # whether a label says an intent left out (a state's arcs share labels)
    words: dict[int, list[tuple[str, int]]] = defaultdict(list)
    for source, target, arc_label in meant.arcs:
        if without and arc_label not in intents:
            intents[arc_label] = any(Tag.intent_name(tag) in without for tag in label(arc_label)[1])
        if not (without and intents[arc_label]):
            words[source].append((label(arc_label)[0], target))
    return minimise(meant.start, set(meant.accepting), words, {})


def covering_sentences(automaton: WordAutomaton) -> list[tuple[str, ...]]:
    """Sentences of a deterministic automaton in which every pair of words it lets follow one another appears, and
    every word that may begin or end a sentence begins or ends one: each the shortest sentence to a pair not yet
    met, on through pairs not met yet while there are, then the shortest way to its end. A bigram model learnt from
    them (Vosk's, from its phrase list) has every word pair of the grammar. Its counts are uneven (shortest ways
    are taken again and again): of the pairs of a state's grammar, 4.6% (median of 93 states; 8.9% at most) are
    then no likelier than backing off, as likely as a pair the grammar does not hold, against 77 to 88% with the
    phrases written from the word trees before; taking, of ways as short, the one whose pairs were said least,
    gave 4.4% (10.1% at most)."""
    outgoing: dict[int, list[tuple[str, int]]] = defaultdict(list)
    incoming: dict[int, list[tuple[str, int]]] = defaultdict(list)
    for source, target, word in sorted(automaton.arcs):
        outgoing[source].append((word, target))
        incoming[target].append((word, source))
    before = _shortest([automaton.start], outgoing)  # the words from the start to each state
    after = _shortest(sorted(automaton.accepting), incoming, backwards=True)  # from each state to an end
    found: dict[tuple[str, ...], None] = {}
    pairs: set[tuple[str, str]] = set()
    ends: set[tuple[str, int]] = set()  # (word, 0): it begins a sentence; (word, 1): it ends one

    def add(sentence: tuple[str, ...]) -> None:
        found[sentence] = None
        pairs.update(itertools.pairwise(sentence))
        ends.update({(sentence[0], 0), (sentence[-1], 1)})

    for word, target in outgoing[automaton.start]:
        if (word, 0) not in ends and target in after:
            add((word, *after[target]))
    for state in sorted(before):
        for word, source in incoming[state]:
            if state in automaton.accepting and (word, 1) not in ends and source in before:
                add((*before[source], word))
            for following, target in outgoing[state]:
                if (word, following) not in pairs and source in before and target in after:
                    said = [*before[source], word, following]
                    while (step := next(((w, t) for w, t in outgoing[target]
                                         if (said[-1], w) not in pairs and t in after), None)) is not None:
                        said.append(step[0])  # on through pairs not met yet, while there are
                        pairs.add((said[-2], said[-1]))
                        target = step[1]
                    add((*said, *after[target]))
    return list(found)


def _shortest(sources: list[int], arcs: dict[int, list[tuple[str, int]]],
              backwards: bool = False) -> dict[int, tuple[str, ...]]:
    """The fewest words from any of `sources` to each state they reach (breadth first, arcs in their order): `arcs`
    are the (word, state) arcs leaving each state, or when going `backwards`, those reaching it (from that state):
    the words are then those from each state to a source."""
    words: dict[int, tuple[str, ...]] = dict.fromkeys(sources, ())
    queue = list(sources)
    for state in queue:
        for word, reached in arcs[state]:
            if reached not in words:
                words[reached] = (word, *words[state]) if backwards else (*words[state], word)
                queue.append(reached)
    return words


def shortened(automaton: WordAutomaton, max_words: int) -> WordAutomaton:
    """The minimal automaton of the sentences of `automaton` that have at most `max_words` words."""
    outgoing: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for source, target, word in automaton.arcs:
        outgoing[source].append((target, word))
    index = {(automaton.start, 0): 0}
    pending = [(automaton.start, 0)]
    words: dict[int, list[tuple[str, int]]] = defaultdict(list)
    finals = set()
    while pending:
        state, depth = pending.pop()
        number = index[(state, depth)]
        if state in automaton.accepting:
            finals.add(number)
        if depth == max_words:
            continue
        for target, word in outgoing[state]:
            if (target, depth + 1) not in index:
                index[(target, depth + 1)] = len(index)
                pending.append((target, depth + 1))
            words[number].append((word, index[(target, depth + 1)]))
    return minimise(0, finals, words, {})


def cache_dir() -> Path:
    """Where compiled grammars are kept between runs (fsg/ in companion's cache folder)."""
    return paths.cache_home() / "fsg"


def compiled_fsg(key: str, name: str, automaton: Callable[[], WordAutomaton], max_words: int | None = None) -> Path:
    """An FSG file holding `automaton` (built when asked), kept to its sentences of at most `max_words` words when
    given: compiled once, then read from the cache, where it is found by `key` (what the automaton is made from)
    and the code; a file whose first line, a comment, is not the digest of the rest is compiled again, and the
    MOST_FILES used last are kept.
    Compiled from a word graph directly, the English states of Draftosaurus took 10 s where having pocketsphinx
    parse their JSGF first took 34 s (the same automata, state for state).

    Its words carry no meaning. Each word with the tags of meaning before it (minimal_meant) made one word of
    the decoder's dictionary: the same sounds on several arcs from a state, which the search follows side by side
    under the same cap on sound units. `bench listen --lang en --engine sphinx --quick --seed 1`, one run each:
    understood 48% tuned and 58% held out against 58% and 66%, decode p95 367 and 400 ms against 310 and 313 ms.
    The hypothesis's words are read on the automaton with meaning instead (path_meaning.parse_heard)."""
    digest = hashlib.sha256(_code() + f":{max_words}:{key}".encode()).hexdigest()[:32]
    path = cache_dir() / f"{digest}.fsg"
    if _intact(path):
        with contextlib.suppress(OSError):
            os.utime(path)  # among the newest again
        return path
    whole = automaton()
    kept = whole
    if max_words is not None:
        short = shortened(whole, max_words)
        # Shortening unrolls the automaton by sentence length: for a player's turn without its undo, at most 6
        # words took 145 MB in the decoder and all sentences 71 MB (at most 4: 47 MB). The smaller is kept:
        # the longer sentences it lets in are rivals all the same.
        kept = short if len(short.arcs) < len(whole.arcs) else whole
    text = fsg_text(kept, name)
    text = f"# {hashlib.sha256(text.encode()).hexdigest()}\n{text}"  # a comment to pocketsphinx
    try:
        write_whole(path, text.encode("utf-8"))
    except OSError:  # a read-only home: compile into a temporary file instead
        handle, fallback = tempfile.mkstemp(suffix=".fsg", prefix="companion-")
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        return Path(fallback)
    paths.forget_oldest(path.parent, "*.fsg", MOST_FILES)
    return path


@cache
def _code() -> bytes:
    """The digest of the code that writes FSG files (empty where its source is not installed)."""
    return code_digest(FORMAT_VERSION.encode(), ("speech/fsg.py", "language/automaton.py")) or b""


def _intact(path: Path) -> bool:
    """Whether a kept FSG file is whole: its first line, a comment, holds the digest of the rest."""
    try:
        data = path.read_bytes() if path.is_file() and path.stat().st_size <= paths.MOST_CACHE_FILE_BYTES else b""
    except OSError:
        return False
    first, _, rest = data.partition(b"\n")
    return first == b"# " + hashlib.sha256(rest).hexdigest().encode()
