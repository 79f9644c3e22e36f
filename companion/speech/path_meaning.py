"""What a recogniser's words mean, read on the path they take through the state's compiled grammar
(companion.language.reading): the minimal automaton with meaning (kept_automata.meant_arcs) whose sounds Whisper's
match also walks (companion.speech.phonetic), and whose words are those PocketSphinx's FSG and Vosk's phrases are
built from, made as typed text's is, with the players' names in it and spelled as recognisers spell words.

Only words a template produces whole have a path: free text (a new player's name) and pieces of phrases that Vosk
joins are read as typed (grammar.parse)."""

from __future__ import annotations

from collections.abc import Sequence

from companion.language.grammar import ParseResult, parse
from companion.language.reading import path_reader
from companion.language.recognition_grammar import Tag, spelling
from companion.speech.recogniser import Meaning, meaning_of


def path_meaning(text: str, *, game: str, lang: str, state: str,
                 player_names: Sequence[str] = ()) -> Meaning | None:
    """What a recogniser's words mean on the cheapest path that spells them; None when no path does."""
    return words_meaning(spelling(lang).words(text), game=game, lang=lang, state=state, player_names=player_names)


def words_meaning(words: Sequence[str], *, game: str, lang: str, state: str,
                  player_names: Sequence[str] = ()) -> Meaning | None:
    """What words of the automaton (as a recogniser spells them, one by one) mean on the cheapest path that spells
    them; None when no path does."""
    ends = path_reader(game, lang, state, tuple(player_names)).paths(words) if words else {}
    if not ends:
        return None
    found = Tag.meaning(min(ends.values(), key=lambda end: end[0])[1])
    return None if found is None else meaning_of(*found)


def intents_saying(words: Sequence[str], *, game: str, lang: str, state: str,
                   player_names: Sequence[str] = ()) -> frozenset[str]:
    """The intents of the state with a sentence of exactly these recogniser words (a filler before or after them
    allowed, as recognisers hear them)."""
    ends = path_reader(game, lang, state, tuple(player_names)).paths(words) if words else {}
    return frozenset(intent for intent in ends if intent is not None)


def parse_heard(text: str, *, game: str, lang: str, state: str,
                player_names: Sequence[str] = ()) -> ParseResult:
    """What a recogniser's words mean: read on the path they take (`path_meaning`), so that a phrase kept from
    recognisers is not understood from another intent's words: in a yes/no question, "go" and "ahead" (to go on
    reading) must not count as the yes "go ahead", which only typing can give. Words that no sentence spells whole
    are parsed as typed."""
    found = path_meaning(text, game=game, lang=lang, state=state, player_names=player_names)
    if found is None:
        return parse(text, game=game, lang=lang, state=state, player_names=player_names)
    return ParseResult(found[0], dict(found[1]), text)
