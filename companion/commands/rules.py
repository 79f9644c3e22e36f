"""`companion rules GAME [TOPIC]`: the rules of a game read aloud, or printed, with spoken navigation."""

from __future__ import annotations

import argparse
import select
import sys
from typing import IO

from companion import registry
from companion.errors import BadInput
from companion.language.messages import DEFAULT_LANGUAGE, LANGUAGES, catalog, check_language
from companion.language.rules import RulesBook, RulesReader, Section
from companion.speech.base import Heard, Listener, Speaker, TextListener, TextSpeaker, is_terminal

ENGINES = ("auto", "text", "vosk", "sphinx", "whisper")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", metavar="GAME", help="one of: " + ", ".join(registry.ids()))
    parser.add_argument("topic", nargs="*", metavar="TOPIC",
                        help='a topic id or name, e.g. river, "la rivière", "étoile", "le roi de la jungle"')
    parser.add_argument("--lang", default=DEFAULT_LANGUAGE, choices=LANGUAGES,
                        help=f"language (default {DEFAULT_LANGUAGE})")
    parser.add_argument("--engine", default="auto", choices=ENGINES,
                        help="speech engine, as for play; 'text' prints and reads typed lines. With 'text' and "
                             "standard input closed, prints the whole text (or the topic) and exits")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a rule option in force, e.g. trio_points=6 or river_counts_for_island=true "
                             "(repeatable)")


def run(args: argparse.Namespace) -> int:
    lang = check_language(args.lang)
    book = RulesBook.load(args.game, lang, parse_options(args.option, lang))
    start = find_topic(book, " ".join(args.topic)) if args.topic else None
    if args.engine == "text":
        first_line = _first_line_if_ready(sys.stdin)
        if first_line == "":
            print_book(book, start)
            return 0
        speaker: Speaker = TextSpeaker()
        listener: Listener = _PrefilledListener(first_line, TextListener(speaker=speaker))
    else:
        speaker, listener = open_io(args.engine, lang, book.game)
    try:
        converse(RulesReader(book, start), speaker, listener, topic_only=start is not None)
        speaker.wait()  # what is still queued is heard to its end, unless the player cuts in (Ctrl-C)
    finally:
        listener.close()
        speaker.close()
    return 0


def parse_options(pairs: list[str], lang: str) -> dict[str, str]:
    """NAME=VALUE texts as a dict; the rules book checks names and values."""
    options: dict[str, str] = {}
    for pair in pairs:
        name, separator, value = pair.partition("=")
        if not separator or not name.strip() or not value.strip():
            raise BadInput(catalog(lang).say("rules.bad_option_syntax", option=pair))
        options[name.strip()] = value.strip()
    return options


def find_topic(book: RulesBook, topic: str) -> Section:
    section = book.find(topic)
    if section is None:
        raise book.unknown_topic(topic)
    return section


def print_book(book: RulesBook, topic: Section | None, out: IO[str] | None = None) -> None:
    """The whole rules (a heading, then one line per section), or just one topic."""
    out = out or sys.stdout
    if topic is not None:
        print(book.spoken(topic), file=out)
        return
    print(book.heading(), file=out)
    for section in book.sections:
        print(book.spoken(section), file=out)


def converse(reader: RulesReader, speaker: Speaker, listener: Listener, topic_only: bool = False) -> None:
    """Say the start (the topic, or the heading and the first section), then follow what the player says.

    A listener hears nothing while the program speaks (a recogniser waits until it is quiet; a line typed on
    the terminal cuts the speech off)."""
    if not topic_only:
        speaker.say(reader.intro())
    speaker.say(reader.repeat())
    while not reader.finished:
        heard = listener.listen("any")
        if heard is None:
            return
        if heard.text.strip():
            speaker.say(reader.respond(heard.text))


def open_io(engine: str, lang: str, game: str) -> tuple[Speaker, Listener]:
    """A speaker and a listener for `engine`, with the fallbacks the speech layer says aloud."""
    from companion.speech.engines import open_listener, open_speaker

    speaker = open_speaker("auto", lang)
    listener = open_listener(engine, lang, game.replace("_", "-"), speaker=speaker, say=speaker.say)
    return speaker, listener


def _first_line_if_ready(stream: IO[str]) -> str | None:
    """The first line of a non-interactive input if it is already there ("" when the input is closed).

    None when the input is a terminal or has nothing to read yet: the reading then starts at once.
    """
    if stream is None or stream.closed:
        return ""
    if is_terminal(stream):
        return None
    try:
        try:
            ready, _, _ = select.select([stream], [], [], 0)
        except (OSError, ValueError):
            return stream.readline()
        return stream.readline() if ready else None
    except (OSError, ValueError):  # open, but not for reading: no input either
        return ""


class _PrefilledListener(Listener):
    """A text listener that first hands back a line already read."""

    name = "text"

    def __init__(self, first_line: str | None, inner: Listener):
        self.pending, self.inner = first_line, inner

    def listen(self, state: str | None = None) -> Heard | None:
        if self.pending is not None:
            line, self.pending = self.pending, None
            return Heard(text=line.strip(), engine="text")
        return self.inner.listen(state)

    def close(self) -> None:
        self.inner.close()
