"""`companion score draftosaurus FILE [--json] [--board WINTER_BOARD_FILE]`: score zoos from a JSON file, or a
saved game.

The file is either a set of zoos ({"board": "summer" or "winter", "options": {...}, "players": [{"name",
"zoo"}]}, players in passing order) or a save file of the game loop (it has a "kind" field; its content holds
"state": Game.to_json()). On the winter board, the pyramid is listed place by place (bottom row left to
right, then middle, then top; null for an empty place) and the wood left to right; each Quarantine dinosaur
goes to its owner's best-scoring legal destination, and the report says which. A zoo that cannot exist, or a
save whose moves break the rules, is refused with one line naming the player, the pen and the rule.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion import registry
from companion.dialogue.draftosaurus.words import options_line
from companion.dialogue.savefile import SAVE_LIMIT, SaveFileError, check_document
from companion.dialogue.turn import Table
from companion.errors import BadInput, RuleViolation
from companion.files import FileRefused, load_json, parse_json, read_stream
from companion.games.common import OVER, ReplayRefused
from companion.games.draftosaurus.engine import Game
from companion.games.draftosaurus.ids import BOARDS
from companion.games.draftosaurus.options import Options
from companion.games.draftosaurus.scoring import PlayerScore, ScoreSheet, ZooRefused, score_zoos
from companion.games.draftosaurus.winter import WinterRules
from companion.games.draftosaurus.winter_board import WinterBoard
from companion.games.draftosaurus.winter_scoring import QuarantineMoveMade, score_winter_zoos
from companion.language.messages import DEFAULT_LANGUAGE, LANGUAGES, Catalog, catalog
from companion.terminal_text import clean, cleaned, sentences

GAMES = tuple(spec.id for spec in registry.GAMES if spec.scorer)
_ZOOS_FIELDS = {"board", "options", "players"}
_PLAYER_FIELDS = {"name", "zoo"}
SCORE_LIMIT = SAVE_LIMIT  # a file of zoos is smaller than a save


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", choices=GAMES, help=f"the game ({', '.join(GAMES)})")
    parser.add_argument("file", help="JSON file of zoos, or a save file; - reads standard input")
    parser.add_argument("--json", action="store_true",
                        help='print {"players": [{"name", "total", "pens", "trex_bonus", "trex_count"}], '
                             '"winners": [names]}')
    parser.add_argument("--lang", default=DEFAULT_LANGUAGE, choices=LANGUAGES,
                        help="language of the report and of the messages (default fr)")
    parser.add_argument("--board", metavar="WINTER_BOARD_FILE", default=None,
                        help="winter board: a YAML file of the values printed on your board (default: the shipped "
                             "file, whose values are not confirmed); see companion/games/draftosaurus/boards/")


@dataclass
class Scored:
    """What the report says: the sheet, the rules in force, and on the winter board the board's values not
    confirmed yet and the Quarantine moves made before scoring."""

    sheet: ScoreSheet
    options: Options
    winter: WinterBoard | None = None
    moves: list[QuarantineMoveMade] = field(default_factory=list)
    finished: bool = True  # False for a save of a game not over yet, scored as it stands

    def to_json(self) -> dict[str, Any]:
        data = self.sheet.to_json()
        if not self.finished:
            data["finished"] = False
        if self.winter is not None:
            data["board"] = "winter"
            data["unconfirmed"] = list(self.winter.unconfirmed())
            data["quarantine"] = {move.player: {"species": move.species, **move.choice.to_json()}
                                  for move in self.moves}
        return data


def run(args: argparse.Namespace) -> int:
    words = catalog(args.lang)
    data = _read_json(args.file, words)
    print(registry.game(args.game).score_file()(data, args, words))
    return 0


def score_draftosaurus(data: Any, args: argparse.Namespace, words: Catalog) -> str:
    """The report (or its JSON) of a file of Draftosaurus zoos or of a save; a save of a game not yet over is
    scored as it stands, and says so."""
    scored = _score_document(data, args.file, words, args.board)
    if args.json:
        return json.dumps(scored.to_json(), ensure_ascii=False)
    lines = report_lines(scored, words)
    return "\n".join(lines if scored.finished else [sentences(words.say("score.unfinished")), *lines])


def report_lines(scored: Scored, words: Catalog) -> list[str]:
    """The readable report: the rules in force, each zoo pen by pen with its total, then the winner and why.
    On the winter board: the values not confirmed yet, and before each zoo where its Quarantine dinosaur went."""
    sheet = scored.sheet
    if scored.winter is None:
        lines = [options_line(scored.options, words)]
    else:
        lines = [sentences(words.say("score.options_winter"))]
        if scored.winter.unconfirmed():
            lines.append(sentences(words.say("score.unconfirmed", board_values=list(scored.winter.unconfirmed()))))
    moves = {move.player: move for move in scored.moves}
    for player in sheet.players:
        lines.extend(_player_lines(player, words, moves.get(player.name)))
    lines.append(sentences(_say_reason(sheet.reason.code, sheet.reason.params, words)))
    return lines


def _player_lines(player: PlayerScore, words: Catalog, move: QuarantineMoveMade | None = None) -> list[str]:
    lines = [sentences(words.say("score.player", player=player.name))]
    if move is not None:
        lines.append("  " + sentences(_quarantine_line(move, words)))
    lines.extend("  " + sentences(_say_reason(detail.code, detail.params, words))
                 for detail in player.details.values())
    bonus = (words.say("score.trex_bonus", points=player.trex_bonus, pens=player.trex_pens) if player.trex_pens
             else words.say("score.trex_bonus_none"))
    lines.append("  " + sentences(bonus))
    lines.append("  " + sentences(words.say("score.total", player=player.name, points=player.total,
                                            trex_count=player.trex_count)))
    return lines


def _quarantine_line(move: QuarantineMoveMade, words: Catalog) -> str:
    choice = move.choice
    if choice.position is not None:
        return words.say("score.quarantine_to_pyramid", player=move.player, species=move.species,
                         position=choice.position, points=choice.total)
    return words.say("score.quarantine_to_pen", player=move.player, species=move.species, pen=choice.pen,
                     points=choice.total)


def _score_document(data: Any, path: str, words: Catalog, board_file: str | None = None) -> Scored:
    if not isinstance(data, dict):
        raise BadInput(words.say("score.not_an_object", path=path))
    if "kind" in data:
        sheet, options, finished = _score_save(data, path, words)
        return Scored(sheet, options, _saved_winter_board(data), finished=finished)
    unknown = sorted(set(data) - _ZOOS_FIELDS)
    if unknown:
        raise BadInput(words.say("score.unknown_field", path=path, value=unknown[0]))
    board = data.get("board", "summer")
    if board not in BOARDS:
        raise BadInput(words.say("score.unknown_board", value=str(board)))
    if board == "summer" and board_file is not None:
        raise BadInput(words.say("score.board_file_summer"))
    try:
        options = Options.from_json(data.get("options"))
    except RuleViolation as violation:
        raise BadInput(words.say("score.bad_options", problem=_explain(violation, words))) from None
    names, zoos = _players(data.get("players"), path, words)
    winter = None
    if board == "winter":
        # Imported here: loading the table's package doubles the start-up of `companion score` (0.24 s against
        # 0.11 s, medians of 10 runs), which summer files do not need.
        from companion.dialogue.draftosaurus.board_values import board_from_file

        winter = board_from_file(board_file, words)
    try:
        if winter is None:
            return Scored(score_zoos(zoos, options, names=names), options)
        sheet, moves = score_winter_zoos(WinterRules(winter), zoos, names)
        return Scored(sheet, options, winter, moves)
    except RuleViolation as violation:
        raise BadInput(sentences(_explain(violation, words))) from None


def _saved_winter_board(save: dict[str, Any]) -> WinterBoard | None:
    """The winter board values a save file (already read and replayed) was played with; None for summer."""
    setup = save["content"]["state"]["setup"]
    return WinterBoard.from_json(setup["winter_board"]) if setup.get("board") == "winter" else None


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
            raise BadInput(sentences(words.say("reasons.draft_duplicate_player", player=name)))
        names.append(name)
        zoos.append(player.get("zoo", {}))
    return names, zoos


def _score_save(data: dict[str, Any], path: str, words: Catalog) -> tuple[ScoreSheet, Options, bool]:
    """A save file: checked like the game loop checks it, rebuilt from its moves (each one checked again)
    and scored as it stands; whether the game is over."""
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
    return game.score(), game.options, game.phase == OVER


def _explain(violation: RuleViolation, words: Catalog) -> str:
    """The sentence for a refusal; a zoo's refusal names its player first."""
    reason = violation.reason
    if reason is None:
        return str(violation)
    sentence = _say_reason(reason.code, reason.params, words)
    if isinstance(violation, ZooRefused):
        return words.say("score.zoo_refused", player=violation.player, problem=sentences(sentence))
    return sentence


def _say_reason(code: str, params: dict[str, Any], words: Catalog) -> str:
    return words.say(f"reasons.{code}", **params)


def _read_json(path: str, words: Catalog) -> Any:
    """The checked JSON document of the file (or standard input for "-"), read by companion.files; its texts
    are cleaned of control characters (names are printed)."""
    try:
        if path == "-":
            return cleaned(parse_json(read_stream(sys.stdin, path, SCORE_LIMIT), path))
        return cleaned(load_json(Path(path), SCORE_LIMIT))
    except FileRefused as refusal:
        raise BadInput(refusal.explain(words.lang)) from None
