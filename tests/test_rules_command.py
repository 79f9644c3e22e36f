"""`companion rules`: printed with --engine text and stdin closed, or navigated by typed lines."""

import io

import pytest

from companion.language.messages import catalog
from companion.language.rules import RulesBook


@pytest.fixture
def cli(monkeypatch, capsys):
    """Runs `companion rules ...` through the real command line (which loads only this command)."""
    from companion import cli as cli_module

    def run(*args, stdin=None):
        with open("/dev/null", encoding="utf-8") as nothing:
            monkeypatch.setattr("sys.stdin", stdin if stdin is not None else nothing)
            code = cli_module.main(["rules", *args])
        captured = capsys.readouterr()
        return code, captured.out, captured.err
    return run


@pytest.mark.parametrize("game, lang", [("draftosaurus", "fr"), ("jurassic-snack", "en"), ("dino", "es")])
def test_closed_stdin_prints_the_whole_rules(cli, game, lang):
    code, out, err = cli(game, "--lang", lang, "--engine", "text")
    assert code == 0, err
    book = RulesBook.load(game, lang)
    lines = out.splitlines()
    assert lines == [book.heading()] + [book.spoken(section) for section in book.sections]


def test_closed_stdin_prints_one_topic(cli):
    code, out, err = cli("draftosaurus", "le", "roi", "de", "la", "jungle", "--engine", "text")
    assert code == 0, err
    book = RulesBook.load("draftosaurus", "fr")
    assert out.splitlines() == [book.spoken(book.section("king_of_the_jungle"))]


def test_topic_with_options_in_force(cli):
    code, out, _ = cli("draftosaurus", "trio", "--engine", "text", "--option", "trio_points=6")
    assert code == 0 and " 6 points" in out
    code, out, _ = cli("draftosaurus", "île", "--engine", "text", "--option", "river_counts_for_island=true")
    assert code == 0 and "comptent aussi" in out


@pytest.mark.parametrize("args, expected", [
    (("monopoly",), "monopoly"),
    (("draftosaurus", "la", "lune"), "lune"),
    (("draftosaurus", "--option", "trio_points=9"), "trio_points"),
    (("draftosaurus", "--option", "trio_points"), "trio_points"),
])
def test_bad_input_exits_2_with_one_line(cli, args, expected):
    code, out, err = cli(*args, "--engine", "text") if "--engine" not in args else cli(*args)
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and expected in lines[0]


def test_a_spoken_engine_without_microphone_exits_2_with_one_line(cli, monkeypatch, tmp_path):
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "config.json"))
    code, _, err = cli("draftosaurus", "--engine", "vosk")
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and "micro" in lines[0]


def test_unknown_topic_lists_the_topics(cli):
    code, _, err = cli("dino", "la", "lune", "--engine", "text")
    assert code == 2 and "météorite" in err and "nids" in err


def test_typed_navigation(cli):
    typed = io.StringIO("suivant\nrépète\nexplique l'étoile\nprécédent\nn'importe quoi\nstop\nsuivant\n")
    code, out, err = cli("draftosaurus", "--engine", "text", stdin=typed)
    assert code == 0, err
    book = RulesBook.load("draftosaurus", "fr")
    fr = catalog("fr")
    s = book.spoken
    assert out.splitlines() == [
        f"{book.heading()} {fr.say('rules.hint')}",
        s(book.sections[0]),
        s(book.sections[1]), s(book.sections[1]),
        s(book.section("king_of_the_jungle")), s(book.section("prairie_of_love")),
        fr.say("rules.not_understood", heard="n'importe quoi"),
        fr.say("rules.goodbye"),
    ]


def test_typed_navigation_from_a_topic_ends_at_end_of_input(cli):
    code, out, err = cli("jurassic-snack", "surprise", "--lang", "en", "--engine", "text",
                         stdin=io.StringIO("next\n"))
    assert code == 0, err
    book = RulesBook.load("jurassic_snack", "en")
    assert out.splitlines() == [book.spoken(book.section("surprise")), book.spoken(book.section("yum_yum"))]
