"""The command line: every sub-command has --help, bad usage exits 2 with one line."""

import pytest

from companion.cli import command_modules, main
from tests.conftest import run_companion


def test_help_lists_every_command():
    result = run_companion("--help")
    assert result.returncode == 0
    for module in command_modules():
        assert module.NAME in result.stdout


@pytest.mark.parametrize("name", [m.NAME for m in command_modules()])
def test_each_command_has_help(name):
    result = run_companion(name, "--help")
    assert result.returncode == 0, result.stderr
    assert "usage:" in result.stdout


def test_unknown_command_is_bad_input(capsys):
    assert main(["no-such-command"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no-such-command" in err[0]


def test_no_command_prints_help_and_exits_2(capsys):
    assert main([]) == 2
    assert "usage:" in capsys.readouterr().out
