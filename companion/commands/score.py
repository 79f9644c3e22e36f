"""`companion score draftosaurus FILE [--json]`: score zoos from a JSON file, or a saved game.

The file is either a set of zoos ({"board": "summer", "options": {...}, "players": [{"name", "zoo"}]}) or a
save file of the game loop (it has a "kind" field; its content holds "state": Game.to_json()). A zoo that
cannot exist, or a save whose moves break the rules, is refused with one line naming the player, the pen
and the rule.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion.dialogue.savefile import SAVE_LIMIT, SaveFileError, check_document
from companion.dialogue.table import Table
from companion.errors import BadInput, RuleViolation
from companion.files import FileRefused, load_json, parse_json, read_stream
from companion.games.draftosaurus.engine import Game, ReplayRefused
from companion.games.draftosaurus.options import Options
from companion.games.draftosaurus.scoring import PlayerScore, ScoreSheet, ZooRefused, score_zoos
from companion.language.messages import DEFAULT_LANGUAGE, LANGUAGES, Catalog, catalog
from companion.text import clean, cleaned

NAME = "score"
HELP = "Score Draftosaurus zoos (or a saved game) from a JSON file: each pen, the totals, the winner and why."
GAMES = ("draftosaurus",)
_ZOOS_FIELDS = {"board", "options", "players"}
_PLAYER_FIELDS = {"name", "zoo"}
SCORE_LIMIT = SAVE_LIMIT  # a file of zoos is smaller than a save


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", choices=GAMES, help="the game (only draftosaurus can be scored)")
    parser.add_argument("file", help="JSON file of zoos, or a save file; - reads standard input")
    parser.add_argument("--json", action="store_true",
                        help='print {"players": [{"name", "total", "pens", "trex_bonus", "trex_count"}], '
                             '"winners": [names]}')
    parser.add_argument("--lang", default=DEFAULT_LANGUAGE, choices=LANGUAGES,
                        help="language of the report and of the messages (default fr)")


def run(args: argparse.Namespace) -> int:
    words = catalog(args.lang)
    data = _read_json(args.file, words)
    sheet, options = _score_document(data, args.file, words)
    if args.json:
        print(json.dumps(sheet.to_json(), ensure_ascii=False))
    else:
        print("\n".join(report_lines(sheet, options, words)))
    return 0


def report_lines(sheet: ScoreSheet, options: Options, words: Catalog) -> list[str]:
    """The readable report: the rules in force, each zoo pen by pen with its total, then the winner and why."""
    lines = [_options_line(options, words)]
    for player in sheet.players:
        lines.extend(_player_lines(player, words))
    lines.append(_sentence(_say_reason(sheet.reason.code, sheet.reason.params, words)))
    return lines


def _options_line(options: Options, words: Catalog) -> str:
    island = "score.island_counts_river" if options.river_counts_for_island else "score.island_ignores_river"
    king = "score.king_counts_river" if options.river_counts_for_king else "score.king_ignores_river"
    return _sentence(words.say("score.options", trio_points=options.trio_points,
                               island=words.say(island), king=words.say(king)))


def _player_lines(player: PlayerScore, words: Catalog) -> list[str]:
    lines = [_sentence(words.say("score.player", player=player.name))]
    lines.extend("  " + _sentence(_say_reason(detail.code, detail.params, words))
                 for detail in player.details.values())
    bonus = (words.say("score.trex_bonus", points=player.trex_bonus, pens=player.trex_pens) if player.trex_pens
             else words.say("score.trex_bonus_none"))
    lines.append("  " + _sentence(bonus))
    lines.append("  " + _sentence(words.say("score.total", player=player.name, points=player.total,
                                            trex_count=player.trex_count)))
    return lines


def _score_document(data: Any, path: str, words: Catalog) -> tuple[ScoreSheet, Options]:
    if not isinstance(data, dict):
        raise BadInput(words.say("score.not_an_object", path=path))
    if "kind" in data:
        return _score_save(data, path, words)
    unknown = sorted(set(data) - _ZOOS_FIELDS)
    if unknown:
        raise BadInput(words.say("score.unknown_field", path=path, value=unknown[0]))
    board = data.get("board", "summer")
    if board != "summer":
        raise BadInput(words.say("score.unknown_board", value=str(board)))
    try:
        options = Options.from_json(data.get("options"))
    except RuleViolation as violation:
        raise BadInput(words.say("score.bad_options", problem=_explain(violation, words))) from None
    names, zoos = _players(data.get("players"), path, words)
    try:
        return score_zoos(zoos, options, names=names), options
    except RuleViolation as violation:
        raise BadInput(_sentence(_explain(violation, words))) from None


def _players(players: Any, path: str, words: Catalog) -> tuple[list[str], list[Any]]:
    if not isinstance(players, list) or not players:
        raise BadInput(words.say("score.players_missing", path=path))
    names: list[str] = []
    zoos: list[Any] = []
    for number, player in enumerate(players, start=1):
        if not isinstance(player, dict):
            raise BadInput(words.say("score.player_not_an_object", number=number))
        unknown = sorted(set(player) - _PLAYER_FIELDS)
        if unknown:
            raise BadInput(words.say("score.player_unknown_field", number=number, value=unknown[0]))
        name = player.get("name")
        if not isinstance(name, str) or not name.strip():
            raise BadInput(words.say("score.player_name_missing", number=number))
        if name in names:
            raise BadInput(_sentence(words.say("reasons.draft_duplicate_player", player=name)))
        names.append(name)
        zoos.append(player.get("zoo", {}))
    return names, zoos


def _score_save(data: dict[str, Any], path: str, words: Catalog) -> tuple[ScoreSheet, Options]:
    """A save file: checked like the game loop checks it, rebuilt from its moves (each one checked again)
    and scored as it stands."""
    try:
        content = check_document(Path(path), data, game="draftosaurus")
    except SaveFileError as error:
        raise BadInput(error.explain(words.lang)) from None
    try:
        game = Game.from_json(content["state"])
    except ReplayRefused as refused:
        raise BadInput(words.say("score.save_refused", number=refused.number,
                                 problem=_explain(refused, words))) from None
    except RuleViolation as violation:
        raise BadInput(words.say("score.save_corrupt", path=path, detail=_explain(violation, words))) from None
    except Table.CORRUPT_SAVE_ERRORS as error:  # what the game loop takes for a damaged save
        raise BadInput(words.say("score.save_corrupt", path=path, detail=clean(str(error))[:200])) from None
    return game.score(), game.options


def _explain(violation: RuleViolation, words: Catalog) -> str:
    """The sentence for a refusal; a zoo's refusal names its player first."""
    reason = violation.reason
    if reason is None:
        return str(violation)
    sentence = _say_reason(reason.code, reason.params, words)
    if isinstance(violation, ZooRefused):
        return words.say("score.zoo_refused", player=violation.player, problem=sentence)
    return sentence


def _say_reason(code: str, params: dict[str, Any], words: Catalog) -> str:
    return words.say(f"reasons.{code}", **params)


def _sentence(text: str) -> str:
    """Printed lines start with a capital, as the pen names in the catalogs are lower case."""
    return text[:1].upper() + text[1:]


def _read_json(path: str, words: Catalog) -> Any:
    """The checked JSON document of the file (or standard input for "-"), read by companion.files; its texts
    are cleaned of control characters (names are printed)."""
    try:
        if path == "-":
            return cleaned(parse_json(read_stream(sys.stdin, path, SCORE_LIMIT), path))
        return cleaned(load_json(Path(path), SCORE_LIMIT))
    except FileRefused as refusal:
        raise BadInput(refusal.explain(words.lang)) from None
