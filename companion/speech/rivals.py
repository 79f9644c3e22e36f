"""The next best hypothesis of another meaning, from pocketsphinx's own acoustic evidence.

A grammar search gives one sentence and no runner-up: its lattice (and so its n-best list) took 200 to 650 ms
an utterance on these grammars, three to five times the decoding itself, and was left out. What decides a
meaning is few words: the species, the pen, the face, the player. So each such word of the heard sentence
(a span that says a value of one of the state's slot lists) is heard again alone, on its own frames: once
with a grammar of the forms of the value heard, once with a grammar of the forms of every other value of that
list. The difference of the two acoustic scores, per frame, is the margin by which the value heard beats
its best rival (negative: the rival fits better); the rival sentence is the heard one with the rival's words
in that span. Each second pass covers a word or three, with a grammar of a few dozen words: a few
milliseconds.

An undo, a redo or a yes has no such word: its rival is the best sentence of the state's grammar without
that intent, heard on the whole utterance, and the margin is per frame of speech. Both passes start from the
same cepstral mean, so that the scores compare. When no sentence of the other grammar survives the search,
there is no rival.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

PAD_FRAMES = 3  # frames of context kept on each side of a span (10 ms each)
SAMPLES_PER_FRAME = 160  # pocketsphinx's frames are 10 ms at 16 kHz
SILENCE = "<sil>"

Forms = tuple[tuple[str, ...], ...]
_FILLER = re.compile(r"^(\[.*\]|\(NULL\))$|\(\d+\)$")  # noises, empty steps, and variant marks


def acoustic_score(decoder: Any, segments: Sequence[Any]) -> float:
    """The acoustic log score of a segmentation (pocketsphinx's units)."""
    log = decoder.logmath.log
    return sum(log(s.ascore) if s.ascore > 0 else -1e9 for s in segments)


def spans(words: Sequence[str], lists: Sequence[Sequence[Forms]]) -> list[tuple[int, int, Forms, list[Forms]]]:
    """Where the words say a value of a slot list: (first word, end, the value's forms, the other values'),
    longest first, spans not overlapping."""
    found = []
    for meanings in lists:
        for index, forms in enumerate(meanings):
            others = [f for k, f in enumerate(meanings) if k != index]
            for form in forms:
                for start in range(len(words) - len(form) + 1):
                    if tuple(words[start:start + len(form)]) == form:
                        found.append((start, start + len(form), forms, others))
    kept: list[tuple[int, int, Forms, list[Forms]]] = []
    for span in sorted(found, key=lambda s: (s[0] - s[1], s[0])):
        if all(span[1] <= k[0] or span[0] >= k[1] for k in kept):
            kept.append(span)
    return sorted(kept, key=lambda s: s[0])


class RivalSearch:
    """Second passes on one pocketsphinx decoder (its main search is switched back by the caller)."""

    def __init__(self, decoder: Any) -> None:  # a pocketsphinx Decoder
        self.decoder = decoder
        self.searches: dict[Forms, str] = {}

    def _search(self, forms: Forms) -> str:
        """A search whose grammar says exactly one of `forms` (made once per set of forms)."""
        if forms not in self.searches:
            name = f"rival{len(self.searches)}"
            # 0 -> 1: optional silence; 1 -> 2: one of the forms; 2 -> 3: optional silence.
            transitions = [(0, 1, 1.0), (0, 1, 1.0, SILENCE), (2, 3, 1.0), (2, 3, 1.0, SILENCE)]
            state = 4
            for form in forms:
                previous = 1
                for position, word in enumerate(form):
                    target = 2 if position == len(form) - 1 else state
                    state += target == state
                    transitions.append((previous, target, 1.0, word))
                    previous = target
            config = self.decoder.config
            fillers = config["fsgusefiller"]
            config["fsgusefiller"] = False  # else "[SPEECH]" takes the frames a short word leaves: silence only
            try:
                self.decoder.add_fsg(name, self.decoder.create_fsg(name, 0, 3, transitions))
            finally:
                config["fsgusefiller"] = fillers
            self.searches[forms] = name
        return self.searches[forms]

    def score(self, audio: bytes, forms: Forms, cmn: str) -> tuple[float, tuple[str, ...]] | None:
        """The acoustic score of the best of `forms` on `audio`, and its words; None when none fits."""
        return self.decode(audio, self._search(forms), cmn)

    def decode(self, audio: bytes, search: str, cmn: str) -> tuple[float, tuple[str, ...]] | None:
        """The acoustic score of the best path of search `search` on `audio` (every frame, silences
        included), and its words; None when no sentence fits."""
        decoder = self.decoder
        decoder.activate_search(search)
        decoder.set_cmn(cmn)
        decoder.start_utt()
        decoder.process_raw(audio, False, False)
        decoder.end_utt()
        segments = list(decoder.seg() or ())
        words = tuple(w for w in (_FILLER.sub("", s.word) for s in segments) if w and not w.startswith("<"))
        if not words:
            return None
        return acoustic_score(decoder, segments), words

    def sentence_rival(self, audio: bytes, search: str, without: str,
                       speech_frames: int) -> tuple[tuple[str, float], ...]:
        """The best sentence of search `without` (a grammar without the intent heard) on the whole utterance,
        and the margin per frame of speech by which the best sentence of `search` beats it, both heard again
        from the same start."""
        cmn = self.decoder.get_cmn()
        own, rival = self.decode(audio, search, cmn), self.decode(audio, without, cmn)
        self.decoder.set_cmn(cmn)
        if own is None or rival is None:
            return ()
        return ((" ".join(rival[1]), (own[0] - rival[0]) / max(1, speech_frames)),)

    def rivals(self, audio: bytes, words: Sequence[str], frames: Sequence[tuple[int, int]],
               lists: Sequence[Sequence[Forms]]) -> tuple[tuple[str, float], ...]:
        """For each span of `words` (whose frames are `frames`) that says a slot value: the sentence with its
        best rival value instead, and the margin per frame by which the value heard fits better."""
        found = []
        cmn = self.decoder.get_cmn()
        total = len(audio) // (2 * SAMPLES_PER_FRAME)
        for start, end, forms, others in spans(words, lists):
            first = max(0, frames[start][0] - PAD_FRAMES)
            last = min(total, frames[end - 1][1] + 1 + PAD_FRAMES)
            piece = audio[first * SAMPLES_PER_FRAME * 2:last * SAMPLES_PER_FRAME * 2]
            own = self.score(piece, forms, cmn)
            rival = self.score(piece, tuple(f for group in others for f in group), cmn)
            if own is None or rival is None:
                continue
            text = " ".join([*words[:start], *rival[1], *words[end:]])
            found.append((text, (own[0] - rival[0]) / (last - first)))
        self.decoder.set_cmn(cmn)
        return tuple(sorted(found, key=lambda r: r[1]))
