"""Save files: atomic writes, and every kind of bad file refused without being touched."""

import json

import pytest

from companion.dialogue.savefile import SaveFileError, read_save, write_save
from companion.games.draftosaurus.engine import Game, Roll


def content(seed: int = 1) -> dict:
    """What a table saves: its game's state (here after one die face) and its settings."""
    game = Game.new(["Alice", "Bruno"], seed=seed, mode="table")
    game.apply(Roll("forest"))
    return {"finished": False, "state": game.to_json(), "settings": {"die": "physical", "seed": seed}}


def test_round_trip(tmp_path):
    path = tmp_path / "game.json"
    write_save(path, "draftosaurus", content())
    assert read_save(path, "draftosaurus") == ("draftosaurus", content())
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"], "no temporary file left behind"


def test_rewrite_replaces_whole_file(tmp_path):
    path = tmp_path / "game.json"
    write_save(path, "draftosaurus", content(100))
    write_save(path, "draftosaurus", content(2))
    assert read_save(path)[1] == content(2)


@pytest.mark.parametrize("text, code", [
    ('{"kind": "companion-save", "version": 1, "game": "draftosaurus", "content": {"a": 1', "corrupt"),
    ("", "corrupt"),
    ('{"players": []}', "foreign"),
    ("[1, 2, 3]", "foreign"),
    ('{"kind": "companion-save", "version": 99, "game": "draftosaurus", "content": {}}', "version"),
])
def test_bad_files_are_refused_and_left_alone(tmp_path, text, code):
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(SaveFileError) as caught:
        read_save(path, "draftosaurus")
    assert caught.value.code == code
    assert path.read_text() == text


def test_tampered_content_fails_the_checksum(tmp_path):
    path = tmp_path / "game.json"
    write_save(path, "draftosaurus", content())
    document = json.loads(path.read_text())
    document["content"]["state"]["actions"].append({"type": "roll", "face": "forest"})
    path.write_text(json.dumps(document))
    with pytest.raises(SaveFileError) as caught:
        read_save(path)
    assert caught.value.code == "corrupt"


def test_save_of_another_game_is_refused(tmp_path):
    path = tmp_path / "game.json"
    write_save(path, "dino", content())
    with pytest.raises(SaveFileError) as caught:
        read_save(path, "draftosaurus")
    assert caught.value.code == "other_game"


def test_missing_file(tmp_path):
    with pytest.raises(SaveFileError) as caught:
        read_save(tmp_path / "nope.json")
    assert caught.value.code == "missing"
