"""`companion parse`: what a sentence means to the game (intent and slots), or the recogniser grammars.

Exit codes: 0 done, whether the sentence was understood or not (then "intent" is null and the closest sentence
the grammar accepts is suggested), 2 bad input, 1 internal error.
"""

from __future__ import annotations

import argparse
import json
import sys

from companion import registry
from companion.errors import Said
from companion.games.spec import FROM_ONE, GameSpec
from companion.language.grammar import ANY_STATE, ParseResult, check_game, games, parse, states
from companion.language.messages import DEFAULT_LANGUAGE, LANGUAGES, Catalog, catalog, check_language
from companion.terminal_text import clean, shown

EXPORTS = ("vosk", "jsgf", "sizes")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("text", nargs="*", metavar="TEXT", help="the sentence (several words are joined)")
    parser.add_argument("--game", default=games()[0], help=f"game: {', '.join(games())} (default %(default)s)")
    parser.add_argument("--lang", default=DEFAULT_LANGUAGE,
                        help=f"language: {', '.join(LANGUAGES)} (default %(default)s)")
    parser.add_argument("--state", default=ANY_STATE,
                        help="dialogue state: which intents are active (die, turn, confirm, setup, any; default any)")
    parser.add_argument("--players", default="", help='player names, comma separated: "Alice,Bruno"')
    parser.add_argument("--json", action="store_true", help="print JSON with canonical ids")
    parser.add_argument("--export", choices=EXPORTS,
                        help="instead of parsing: print the Vosk phrase list, the JSGF grammar of --state, "
                             "or the grammar sizes of every language and state")


def run(args: argparse.Namespace) -> int:
    if args.lang not in LANGUAGES:
        raise Said("commands.unknown_language", value=clean(args.lang), choices=list(LANGUAGES))
    if args.game not in games():
        raise Said("commands.unknown_game", value=clean(args.game), choices=list(games()))
    game = check_game(args.game)
    lang = check_language(args.lang)
    if args.state not in states(game):
        raise Said("commands.parse.unknown_state", game=game, value=clean(args.state), choices=list(states(game)))
    players = [name.strip() for name in args.players.split(",") if name.strip()]
    if args.export:
        return _export(args.export, game, lang, args.state, players, args.json)
    text = clean(shown(" ".join(args.text))).strip()  # printed back: never an escape sequence or a bell
    if not text:
        raise Said("commands.parse.no_sentence")
    result = parse(text, game=game, lang=lang, state=args.state, player_names=players)
    print(json.dumps(result.to_json(), ensure_ascii=False) if args.json
          else describe(result, catalog(lang), registry.game(game)))
    return 0


def describe(result: ParseResult, words: Catalog, spec: GameSpec) -> str:
    """The result in the catalog's language: the intent, its slots, or the suggestion."""
    if result.intent is None:
        lines = [words.say("parse.not_understood", text=result.text)]
        if result.suggestion:
            lines.append(words.say("parse.suggestion", suggestion=result.suggestion))
        return "\n".join(lines)
    intent = words.say(f"parse.intents.{result.intent}")
    if not result.slots:
        return words.say("parse.understood", intent=intent)
    details = words.say("list.separator").join(
        words.say("parse.slot", name=words.say(f"parse.slots.{name}"), value=spoken_value(name, value, words, spec))
        for name, value in result.slots.items())
    return words.say("parse.understood_with", intent=intent, details=details)


def spoken_value(slot: str, value: object, words: Catalog, spec: GameSpec) -> str:
    """A slot value as said in the catalog's language: canonical ids become names, as the game's spec says."""
    if slot in spec.ids:
        return words.name(spec.ids[slot], str(value))
    said = spec.slot_words.get(slot)
    if said == FROM_ONE and isinstance(value, int):
        return str(value + 1)
    if said is not None and f"{said}.{value}" in words.messages:
        return words.say(f"{said}.{value}")
    if slot == "topic":
        for section in spec.topic_names:
            if value in words.names.get(section, {}):
                return words.name(section, str(value))
        return words.say(f"parse.topics.{value}")
    if slot == "level":
        return words.say(f"parse.levels.{value}")
    return str(value)


def _export(kind: str, game: str, lang: str, state: str, players: list[str], as_json: bool) -> int:
    from companion.language import recognition_grammar as recognition
    from companion.speech.vosk_phrases import grammar_sizes, vosk_grammar_json

    if kind == "vosk":
        print(vosk_grammar_json(game, lang, state, players))
    elif kind == "jsgf":
        sys.stdout.write(recognition.jsgf(game, lang, state, players))
    else:
        sizes = grammar_sizes(game, LANGUAGES, player_names=players)
        if as_json:
            print(json.dumps([s.to_json() for s in sizes], ensure_ascii=False, indent=1))
        else:
            words = catalog(lang)
            for size in sizes:
                print(words.say("parse.size", lang=size.lang, state=size.state, words=size.words,
                                phrases=size.phrases, jsgf_bytes=size.jsgf_bytes))
    return 0
