"""Dino boards far bigger than a table's: refused at once, from a board file or from a
forged save, and the biggest board taken is played without a wait."""

from __future__ import annotations

import json

import pytest

from companion.files import parse_yaml
from companion.games.dino.board import BOARD_SCHEMA, MAX_COLUMNS, MAX_ROWS, UNREACHABLE, Board, load_board
from tests.hostile_cases import (
    REFUSAL_BOUND_S,
    document,
    file_state,
    run_companion,
    saved_content,
    wide_board,
    write_document,
)

PLAY = ["play", "dino", "--engine", "text", "--players", "Ana,Ben"]
SET_UP = "oui\noui\noui\n"  # the colours proposed, a layout drawn, the usual rules: the game starts


@pytest.mark.parametrize("columns, rows", [(306, 6), (2000, 1), (MAX_COLUMNS + 1, 1)])
def test_a_board_file_with_too_many_columns_is_refused_at_once(columns, rows, tmp_path):
    board = write_document(tmp_path / "wide.yaml", None, wide_board(columns, rows))
    save = tmp_path / "dino.json"
    run = run_companion([*PLAY, "--board", str(board), "--save", str(save)], tmp_path / "home", SET_UP)
    assert run.refused_cleanly and run.prompt, (run.returncode, round(run.cpu_seconds, 2), run.stderr)
    assert f"Un plateau de Dino a au plus {MAX_COLUMNS} colonnes et {MAX_ROWS} rangées" in run.stderr
    assert f"celui-ci a {columns} colonnes" in run.stderr
    assert not save.exists()


def forged_wide_save(tmp_path, columns: int):
    content = saved_content("dino")
    content["state"]["setup"]["board"] = json.loads(wide_board(columns, 6))
    content["state"].pop("snapshot")
    return write_document(tmp_path / "forged.json", document("dino", content))


@pytest.mark.parametrize("command", ["resume", "play --save"])
def test_a_forged_save_with_a_huge_board_is_refused_at_once(command, tmp_path):
    path = forged_wide_save(tmp_path, 306)
    before = file_state(path)
    args = ["resume", str(path), "--engine", "text"] if command == "resume" else [*PLAY, "--new", "--save", str(path)]
    run = run_companion(args, tmp_path / "home", "")
    assert run.refused_cleanly and run.prompt, (run.returncode, round(run.cpu_seconds, 2), run.stderr)
    assert "est abîmé" in run.stderr and "colonnes" in run.stderr
    assert file_state(path) == before


def test_the_biggest_board_taken_is_played_within_the_bound(tmp_path):
    board = write_document(tmp_path / "big.yaml", None, wide_board(MAX_COLUMNS, MAX_ROWS))
    save = tmp_path / "dino.json"
    run = run_companion([*PLAY, "--board", str(board), "--save", str(save)], tmp_path / "home", SET_UP)
    assert run.returncode == 0 and run.cpu_seconds < REFUSAL_BOUND_S, (run.returncode, run.cpu_seconds, run.stderr)
    resumed = run_companion(["resume", str(save), "--engine", "text"], tmp_path / "home", "")
    assert resumed.returncode == 0 and resumed.cpu_seconds < REFUSAL_BOUND_S, resumed.stderr


def _searched(board: Board, start: str, closed: set) -> dict[str, int]:
    """Distances by widening rings of squares, the plain way, to check the board's own search."""
    found, ring, steps = {start: 0}, [start], 0
    while ring:
        steps, following = steps + 1, []
        for square in ring:
            for neighbour in board.neighbours(square):
                if neighbour not in found and board.border(square, neighbour) not in closed:
                    found[neighbour] = steps
                    following.append(neighbour)
        ring = following
    return {square: found.get(square, UNREACHABLE) for square in board.squares}


@pytest.mark.parametrize("name", ["default", "big"])
def test_distances_are_the_fewest_sides_to_cross(name):
    board = load_board() if name == "default" else Board.from_json(
        parse_yaml(wide_board(MAX_COLUMNS, MAX_ROWS), "big", BOARD_SCHEMA))
    closed = set(board.borders[::3])
    distances = board.distances(closed)
    assert len(distances) == len(board.squares)
    for start in board.squares[::7]:
        assert distances[start] == _searched(board, start, closed)
