"""`companion tactile`: a number said in the tactile code of the adapted board, or such a description read back."""

from __future__ import annotations

import argparse

from companion.errors import Said
from companion.language import tactile
from companion.language.messages import DEFAULT_LANGUAGE, LANGUAGES, check_language
from companion.language.numbers import from_words


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("number", nargs="?", metavar="N",
                        help="the number to describe, in digits or words (0 to 200)")
    parser.add_argument("--parse", metavar="TEXT",
                        help='a description such as "un carré pointé, un rond pointé et deux points": '
                             "prints just the number")
    parser.add_argument("--lang", default=DEFAULT_LANGUAGE, choices=LANGUAGES,
                        help=f"language (default {DEFAULT_LANGUAGE})")


def run(args: argparse.Namespace) -> int:
    lang = check_language(args.lang)
    if (args.number is None) == (args.parse is None):
        raise Said("commands.tactile.number_or_parse")
    if args.parse is not None:
        print(tactile.parse(args.parse, lang))
    else:
        print(tactile.describe(from_words(args.number, lang), lang))
    return 0

