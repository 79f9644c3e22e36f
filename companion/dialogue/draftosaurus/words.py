"""Dinosaurs in words, each species once with its count: "cinq stégosaures", "deux tricératops, un T-Rex et un
stégosaure" (a hand, a pen, a bank of the bridge); the species held most first."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING

from companion.games.draftosaurus.ids import SPECIES
from companion.games.draftosaurus.options import Options
from companion.language.messages import Catalog
from companion.language.numbers import to_words
from companion.terminal_text import sentences

if TYPE_CHECKING:
    from companion.dialogue.draftosaurus.table import DraftosaurusTable


def counted_species(table: DraftosaurusTable, species: Iterable[str | None]) -> str:
    """The dinosaurs of `species` (empty places left out), grouped by species with their count."""
    catalog = table.session.catalog
    counts = Counter(str(kind) for kind in species if kind is not None)
    items = []
    for kind in sorted(counts, key=lambda kind: (-counts[kind], SPECIES.index(kind))):
        count = counts[kind]
        if count == 1:
            items.append(catalog.name("species", kind, "one"))
        else:
            items.append(table.text("hand_many", number=to_words(count, table.session.lang, before_noun=True),
                                    plural=catalog.name("species", kind, "plural")))
    return catalog.join(items)


# Whether the river counts for the solitary island and for the king of the jungle, in one clause.
_RIVER = {(True, True): "both", (False, False): "neither", (True, False): "island", (False, True): "king"}


def options_line(options: Options, words: Catalog) -> str:
    """The rule options of a summer game in one sentence (at the start of a game and in the score report)."""
    river = _RIVER[options.river_counts_for_island, options.river_counts_for_king]
    return sentences(words.say("score.options", trio_points=options.trio_points,
                               river=words.say(f"score.river_counts_for_{river}")))
