"""The command line: every sub-command has --help, bad usage exits 2 with one line."""

import pytest

from companion.cli import main
from companion.commands import COMMANDS
from tests.conftest import run_companion, run_python


def test_help_lists_every_command():
    result = run_companion("--help")
    assert result.returncode == 0
    for name in COMMANDS:
        assert name in result.stdout


@pytest.mark.parametrize("name", list(COMMANDS))
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


LOADED = "import io, sys\nsys.stdin = io.StringIO()\nfrom companion.cli import main\n" \
         "try:\n    main({args!r})\nexcept SystemExit:\n    pass\n" \
         "print(' '.join(sorted(sys.modules)), file=sys.stderr)"


# What the registry reads of every game as soon as a catalog or a game is needed: its spec, a declaration that
# imports nothing of the game's rules (10 small modules; `companion tactile 17` measured against the same command
# before the specs moved into the games' packages, 15 paired runs: CPU time ratio median 1.06, wall 1.03, within
# the machine's noise, 0.88 to 1.25).
DECLARATIONS = {"companion.games", "companion.games.spec", "companion.games.levels",
                *(f"companion.games.{stem}{part}" for stem in ("draftosaurus", "jurassic_snack", "dino")
                  for part in ("", ".spec"))}


@pytest.mark.parametrize("args, wanted, unwanted", [
    (["--version"], [], ["companion.commands.", "companion.benchmarks.", "companion.games", "companion.registry",
                         "companion.speech", "companion.dialogue", "numpy"]),
    (["tactile", "17"], ["companion.commands.tactile"], ["companion.commands.play", "companion.games"]),
    (["bench", "--help"], ["companion.commands.bench"], ["companion.benchmarks.", "companion.games."]),
    (["play", "dino", "--players", "Ana,Ben", "--engine", "text"], ["companion.games.dino.engine"],
     ["companion.games.draftosaurus", "companion.games.jurassic_snack", "companion.benchmarks.", "numpy"]),
    (["play", "draftosaurus", "--players", "Ana,Ben", "--engine", "text"], ["companion.games.draftosaurus.engine"],
     ["companion.games.dino", "companion.games.jurassic_snack", "companion.speech.sphinx", "companion.benchmarks.",
      "numpy"]),
    (["play", "jurassic-snack", "--players", "Ana,Ben", "--tokens", "hidden", "--engine", "text"],
     ["companion.games.jurassic_snack.engine"], ["companion.games.dino", "companion.games.draftosaurus",
                                                 "companion.benchmarks."]),
])
def test_a_command_loads_only_what_it_needs(tmp_path, args, wanted, unwanted):
    """Sub-commands, benchmarks and games are imported only when chosen (start-up time is felt at every command)."""
    result = run_python(LOADED.format(args=args), env={"COMPANION_HOME": str(tmp_path),
                                                       "COMPANION_CONFIG": str(tmp_path / "config.json")})
    modules = result.stderr.split()
    assert "companion.cli" in modules, result.stderr
    for name in wanted:
        assert name in modules
    modules = [m for m in modules if m not in DECLARATIONS]
    for prefix in unwanted:
        assert not [m for m in modules if m == prefix or m.startswith(prefix if prefix.endswith(".") else prefix + ".")]


@pytest.mark.parametrize("args", [["play", "draftosaurus", "--engine", "text", "--lang", "fr"],
                                  ["play", "dino", "--engine", "text", "--lang", "es"],
                                  ["play", "jurassic-snack", "--engine", "text", "--lang", "en"]])
def test_a_game_asks_its_first_question_without_parsing_anything(tmp_path, args):
    """The first question needs no grammar (hassil), no number words (unicode_rbnf) and, once the data files are
    kept parsed in the cache folder, no YAML parser: these imports were half of the time to the first question."""
    env = {"COMPANION_HOME": str(tmp_path), "COMPANION_CONFIG": str(tmp_path / "config.json"),
           "XDG_CACHE_HOME": str(tmp_path / "cache")}
    script = LOADED.replace("from companion.cli", "sys.stdout = io.StringIO()\nfrom companion.cli").replace(
        "print(' '.join", "print(sys.stdout.getvalue().strip().splitlines()[:1], file=sys.__stdout__)\nprint(' '.join")
    first = run_python(script.format(args=args), env=env)  # parses the data files, and keeps them
    again = run_python(script.format(args=args), env=env)
    assert again.stdout == first.stdout and len(again.stdout) > 10, (first.stdout, again.stdout, again.stderr)
    modules = again.stderr.split()
    assert "companion.cli" in modules, again.stderr
    for name in ("hassil", "unicode_rbnf", "yaml", "importlib.resources", "companion.language.nodes",
                 "companion.language.recognition_grammar"):
        assert name not in modules, name
