"""The winter board's data file: the values no text gives are shipped unconfirmed with their source, the
engine says which ones are unconfirmed, a table's answers and a table's own file replace them, and a bad
file is refused with a reason every language can say. What the texts fix is not in the file."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from companion.errors import RuleViolation
from companion.games.draftosaurus.engine import Game
from companion.games.draftosaurus.ids import WINTER_PENS
from companion.games.draftosaurus.winter import WinterRules
from companion.games.draftosaurus.winter_board import DEFAULT_WINTER_BOARD, VALUE_KEYS, WinterBoard, load_winter_board
from companion.language.messages import LANGUAGES, catalog

SHIPPED = yaml.safe_load(DEFAULT_WINTER_BOARD.read_text(encoding="utf-8"))


def test_every_shipped_value_is_unconfirmed_and_says_where_it_comes_from():
    board = load_winter_board()
    assert board.unconfirmed() == VALUE_KEYS
    assert set(SHIPPED["values"]) == set(VALUE_KEYS)
    for key in VALUE_KEYS:
        entry = SHIPPED["values"][key]
        assert entry["confirmed"] is False and len(entry["source"]) > 20, key
        assert board.values[key].source == entry["source"].strip()


def test_a_new_winter_game_tells_which_values_are_unconfirmed_and_summer_has_none():
    assert Game.new(["Ana", "Ben"], board="winter").unconfirmed_values() == VALUE_KEYS
    assert Game.new(["Ana", "Ben"]).unconfirmed_values() == ()


def test_values_a_table_gives_are_checked_confirmed_and_kept_in_the_save():
    told = {"well_ordered_wood_points": [1, 2, 4, 7, 11, 16], "lovers_bridge_right_capacity": 5}
    board = load_winter_board().with_values(told)
    assert board.unconfirmed() == ("pyramid_points", "lovers_bridge_left_capacity", "areas", "sides")
    assert board.wood_points == (0, 1, 2, 4, 7, 11, 16) and board.capacity("lovers_bridge_right") == 5
    game = Game.new(["Ana", "Ben"], board="winter", winter_board=board, seed=3)
    again = Game.from_json(game.to_json())
    assert again.winter_board == board and again.unconfirmed_values() == board.unconfirmed()
    assert again.to_json() == game.to_json()


def test_the_texts_fix_what_the_file_cannot_change():
    """Only the six printed values are data: the wood's six places, the pyramid's six, the one place of the
    lookout and of the quarantine are the engine's, whatever a file says."""
    rules = WinterRules(load_winter_board())
    assert dict(zip(WINTER_PENS, rules.capacity, strict=True))["well_ordered_wood"] == 6
    assert dict(zip(WINTER_PENS, rules.capacity, strict=True))["pyramid"] == 6
    assert dict(zip(WINTER_PENS, rules.capacity, strict=True))["lookout"] == 1
    assert dict(zip(WINTER_PENS, rules.capacity, strict=True))["quarantine"] == 1
    with pytest.raises(RuleViolation) as refused:
        WinterBoard.from_json({**SHIPPED, "values": {**SHIPPED["values"], "lookout_capacity": {"value": 2}}})
    assert refused.value.reason.code == "draft_board_unknown_value"


def test_a_table_file_is_read_and_a_confirmed_file_leaves_nothing_to_ask(tmp_path):
    values = {key: {**entry, "confirmed": True, "source": "read on our board"}
              for key, entry in SHIPPED["values"].items()}
    values["pyramid_points"]["value"] = [3, 3, 3, 6, 6, 10]
    path = tmp_path / "our_board.yaml"
    path.write_text(yaml.safe_dump({"id": "ours", "values": values}), encoding="utf-8")
    board = load_winter_board(path)
    assert board.id == "ours" and board.unconfirmed() == () and board.pyramid_points == (3, 3, 3, 6, 6, 10)


def _with(key, value):
    return {**SHIPPED, "values": {**SHIPPED["values"], key: {**SHIPPED["values"][key], "value": value}}}


@pytest.mark.parametrize("data, code", [
    (_with("well_ordered_wood_points", [1, 2, 3]), "draft_board_bad_points"),
    (_with("pyramid_points", [1, 1, 1, 3, 3, -7]), "draft_board_bad_points"),
    (_with("pyramid_points", "1 1 1 3 3 7"), "draft_board_bad_points"),
    (_with("lovers_bridge_left_capacity", 0), "draft_board_bad_capacity"),
    (_with("lovers_bridge_right_capacity", True), "draft_board_bad_capacity"),
    (_with("areas", {pen: "forest" for pen in WINTER_PENS[:5]}), "draft_board_bad_areas"),
    (_with("areas", {pen: "toilets" for pen in WINTER_PENS[:6]}), "draft_board_bad_areas"),
    (_with("sides", {pen: "jungle" for pen in WINTER_PENS[:6]}), "draft_board_bad_sides"),
    (_with("sides", {**SHIPPED["values"]["sides"]["value"], "lovers_bridge_right": "cafeteria"}),
     "draft_board_banks_same_side"),  # the two banks lie on either side of the river
    ({**SHIPPED, "values": {**SHIPPED["values"], "areas": {"value": {}, "confirmed": "yes"}}},
     "draft_board_bad_confirmed"),
    ({**SHIPPED, "values": {key: SHIPPED["values"][key] for key in VALUE_KEYS[1:]}}, "draft_board_missing_value"),
    ({"id": "x"}, "draft_board_not_a_mapping"),
    ([1, 2], "draft_board_not_a_mapping"),
    ({**SHIPPED, "colour": "blue"}, "draft_board_unknown_value"),
])
def test_a_bad_board_is_refused_with_a_reason_said_in_every_language(data, code):
    if code == "draft_board_bad_confirmed":
        data["values"]["areas"]["value"] = SHIPPED["values"]["areas"]["value"]
    with pytest.raises(RuleViolation) as refused:
        WinterBoard.from_json(data)
    reason = refused.value.reason
    assert reason.code == code
    for lang in LANGUAGES:
        sentence = catalog(lang).say(f"reasons.{reason.code}", **reason.params)
        assert sentence and "{" not in sentence and "_" not in sentence.replace("draft_", ""), sentence


def test_a_table_answer_is_checked_like_a_file():
    with pytest.raises(RuleViolation) as refused:
        load_winter_board().with_values({"lovers_bridge_left_capacity": 40})
    assert refused.value.reason.code == "draft_board_bad_capacity"
    with pytest.raises(RuleViolation) as refused:
        load_winter_board().with_values({"trio_points": 6})
    assert refused.value.reason.code == "draft_board_unknown_value"


@pytest.mark.parametrize("content, code", [(None, "draft_board_file_missing"),
                                           ("values: [unclosed", "draft_board_file_unreadable"),
                                           (b"\xff\xfe\x00bad", "draft_board_file_unreadable")])
def test_missing_or_unreadable_files_are_refused_and_left_untouched(tmp_path, content, code):
    path = tmp_path / "board.yaml"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content, encoding="utf-8")
    before = path.read_bytes() if path.exists() else None
    with pytest.raises(RuleViolation) as refused:
        load_winter_board(path)
    assert refused.value.reason.code == code and refused.value.reason.params["path"] == str(path)
    assert (path.read_bytes() if path.exists() else None) == before


def test_the_file_comments_say_which_text_fixes_what():
    text = Path(DEFAULT_WINTER_BOARD).read_text(encoding="utf-8")
    for fact in ("Well-Ordered Wood", "Lovers' Bridge", "Pyramid", "Lookout", "Quarantine", "docs/rules-decisions.md"):
        assert fact in text
