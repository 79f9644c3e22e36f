"""Every prompt accepts the answer it invites, and every refusal says why and what is allowed, through the text
engine in French, English and Spanish: a species whose figures are all played, the question between the games of a
match, the lovers' bridge refused on both banks, the end of the game and of a match, places said as one."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from companion.language.messages import catalog
from companion.language.tactile import describe as tactile
from tests.conftest import run_play


def play(tmp_path: Path, lang: str, players: str, lines: list[str], *options: str) -> subprocess.CompletedProcess:
    return run_play(["play", "draftosaurus", "--lang", lang, "--engine", "text", "--quiet", "--players", players,
                     "--die", "virtual", "--new", "--save", str(tmp_path / "g.json"), *options], lines, tmp_path)


def said(lang: str, key: str, **params) -> str:
    return catalog(lang).say(key, **params)


# ---------------------------------------------------------------- a species whose figures are all played

TREX_IN_THE_RIVER = {"en": "T-Rex in the river", "fr": "T-Rex dans la rivière", "es": "T-Rex en el río"}


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
def test_a_species_all_played_is_refused_without_a_question_and_with_the_species_left(tmp_path, lang):
    out = play(tmp_path, lang, "Ann,Ben,Cy", [TREX_IN_THE_RIVER[lang]] * 7, "--seed", "1").stdout
    words = catalog(lang)
    refusal = next(line for line in out.splitlines() if words.say("reasons.draft_bag_exhausted", species="trex",
                                                                  limit=6) in line)
    assert "?" not in refusal  # no yes/no question that the turn's prompt would not take
    left = words.join(words.name("species", species) for species in
                      ("triceratops", "stegosaurus", "diplodocus", "parasaurolophus", "spinosaurus"))
    assert said(lang, "draft.bag_left", species=left) in out  # what is allowed, and undo for a misheard move


# ---------------------------------------------------------------- between the games of a match

IN_THE_RIVER = {"en": "{species} in the river", "fr": "{species} dans la rivière", "es": "{species} en el río"}
NO = {"en": "no", "fr": "non", "es": "no"}
HELP = {"en": "help", "fr": "aide", "es": "ayuda"}


def three_river_rounds(lang: str) -> list[str]:
    """24 placements of a 2-player summer game (seed 5, virtual die), every dinosaur in the river."""
    words = catalog(lang)
    return [IN_THE_RIVER[lang].format(species=words.name("species", species))
            for species in ("stegosaurus", "spinosaurus", "parasaurolophus") for _ in range(8)]


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
def test_no_to_the_winter_game_keeps_the_match_to_resume_and_help_says_yes(tmp_path, lang):
    from companion.dialogue.runner import resume_command

    lines = [*three_river_rounds(lang), NO[lang], HELP[lang], NO[lang]]
    out = play(tmp_path, lang, "Ann,Ben", lines, "--seed", "5", "--match", "summer-winter").stdout
    save = tmp_path / "g.json"
    assert said(lang, "draft.help.after_game") in out  # the help of "on to the winter game?" says yes starts it
    assert said(lang, "session.finished_saved", path=str(save)) not in out  # the winter game is still to play
    assert out.rstrip().endswith(said(lang, "session.saved_and_stopped", path=str(save),
                                      command=resume_command("draftosaurus", save)))


# ---------------------------------------------------------------- the lovers' bridge refused on both banks

BRIDGE_MOVES = {"en": ("triceratops bottom left of the pyramid", "Ben, triceratops on the bridge"),
                "fr": ("tricératops en bas à gauche de la pyramide", "Ben, tricératops sur le pont"),
                "es": ("tricerátops abajo a la izquierda de la pirámide", "Ben, tricerátops en el puente")}


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
def test_the_bridge_refused_by_the_die_on_both_banks_says_it_once_and_what_is_allowed(tmp_path, lang):
    from tests.test_play_draftosaurus_winter import confirm_shipped_values

    confirm_shipped_values(tmp_path)
    out = play(tmp_path, lang, "Ann,Ben", list(BRIDGE_MOVES[lang]), "--seed", "5", "--board", "winter").stdout
    lines = out.splitlines()
    once = said(lang, "reasons.draft_die_forest", pen="lovers_bridge")  # the die (forest) rules out both banks
    refusal = next(index for index, line in enumerate(lines) if once in line)
    words = catalog(lang)
    assert lines[refusal].count(once.split(words.name("pens", "lovers_bridge"))[-1]) == 1  # its rule said once
    for bank in ("lovers_bridge_left", "lovers_bridge_right"):
        assert words.name("pens", bank) not in lines[refusal]
    pens = words.join((words.name("pens", pen) for pen in ("well_ordered_wood", "pyramid", "lookout", "river")),
                      "or")
    assert lines[refusal + 1] == said(lang, "draft.legal", player="Ben", species="triceratops", pens=pens)


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
def test_the_bridge_refused_on_both_banks_keeps_two_different_reasons_and_says_both_full_once(tmp_path, lang):
    """Banks of one place each: both full under a grassland die (one reason, the bridge's places), then the left
    bank full and the right one on the side a cafeteria die rules out (two reasons)."""
    from companion.games.draftosaurus.winter_board import VALUE_KEYS
    from tests.conftest import TEMPLATES
    from tests.test_play_draftosaurus_winter import SHIPPED

    data = SHIPPED.to_json()
    for key in VALUE_KEYS:
        data["values"][key]["confirmed"] = True
    data["values"]["lovers_bridge_left_capacity"]["value"] = data["values"]["lovers_bridge_right_capacity"][
        "value"] = 1
    board = tmp_path / "board.yaml"
    board.write_text(json.dumps(data), encoding="utf-8")
    words, (die, place) = catalog(lang), TEMPLATES[lang]

    def placed(player: str, species: str, pen: str) -> str:
        return place.format(player=player, species=words.name("species", species), pen=words.name("pens", pen))

    def rolled(face: str) -> str:
        return die.format(face=words.name("faces", face))

    others = [placed("Ben", "trex", "river"), placed("Cy", "spinosaurus", "river"),
              placed("Dan", "parasaurolophus", "river")]
    lines = [rolled("grassland"), placed("Ann", "triceratops", "lovers_bridge_left"), *others,
             rolled("grassland"), placed("Ann", "triceratops", "lovers_bridge_right"), *others,
             rolled("grassland"), placed("Ann", "diplodocus", "lovers_bridge"), placed("Ann", "diplodocus", "river"),
             *others, rolled("cafeteria"), placed("Ann", "diplodocus", "lovers_bridge")]
    out = run_play(["play", "draftosaurus", "--lang", lang, "--engine", "text", "--quiet", "--players",
                    "Ann,Ben,Cy,Dan", "--new", "--save", str(tmp_path / "g.json"), "--board", str(board)],
                   lines, tmp_path).stdout
    refusals = [line for line in out.splitlines() if line.startswith(said(lang, "table.refused", reason="").strip())]
    assert len(refusals) == 2, out
    both_full = said(lang, "reasons.draft_pen_full", pen="lovers_bridge", capacity=2)
    assert both_full in refusals[0] and words.name("pens", "lovers_bridge_left") not in refusals[0]
    for why in (said(lang, "reasons.draft_pen_full", pen="lovers_bridge_left", capacity=1),
                said(lang, "reasons.draft_die_cafeteria", pen="lovers_bridge_right")):
        assert why in refusals[1]


# ---------------------------------------------------------------- the detail after the end

EVERYONE = {"en": "all", "fr": "tous", "es": "todos"}


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
def test_all_after_the_end_gives_every_players_detail_and_help_says_what_may_be_asked(tmp_path, lang):
    lines = [*three_river_rounds(lang), "Ann", EVERYONE[lang], HELP[lang]]
    out = play(tmp_path, lang, "Ann,Ben", lines, "--seed", "5").stdout
    assert said(lang, "draft.help.after_end") in out
    end = out.index(said(lang, "session.after_end"))  # once the detail question is answered (Ann's detail)
    after = out[end:]
    assert said(lang, "session.not_understood", heard=EVERYONE[lang]) not in after
    detail = [line for line in after.splitlines() if tactile(12, lang) in line]  # a player's detail ends so
    assert [line.split(":")[0].strip() for line in detail] == ["Ann", "Ben"]  # every player's, in order


# ---------------------------------------------------------------- the end of a match

YES = {"en": "yes", "fr": "oui", "es": "sí"}
SCORES = {"en": "the scores", "fr": "les scores", "es": "los puntos"}


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
def test_the_match_end_says_who_wins_by_how_much_and_the_winter_games_own_ranking(tmp_path, lang):
    from tests.conftest import TEMPLATES
    from tests.test_play_draftosaurus_winter import confirm_shipped_values

    confirm_shipped_values(tmp_path)
    words, place = catalog(lang), TEMPLATES[lang][1]
    winter = [place.format(player=player, species=words.name("species", "triceratops"), pen=words.name("pens", pen))
              for player, pen in (("Ann", "well_ordered_wood"), ("Ben", "river"))]
    lines = [*three_river_rounds(lang), NO[lang], YES[lang], *winter, *three_river_rounds(lang)[:22], NO[lang],
             SCORES[lang]]
    out = play(tmp_path, lang, "Ann,Ben", lines, "--seed", "5", "--match", "summer-winter").stdout
    # summer 12 each; winter: Ann 2 in the wood and 11 in the river, Ben 12 in the river
    assert said(lang, "draft.match_win", winners=["Ann"], points=25, margin=1) in out
    assert said(lang, "draft.match_game_ranking.winter", ranking="@").split("@")[0] + "1. Ann" in out
    end = out.index(said(lang, "session.after_end"))
    assert said(lang, "draft.match_scores_of.winter") in out[end:]  # the scores then are the winter game's


# ---------------------------------------------------------------- places said as one

@pytest.mark.parametrize("lang", ["en", "fr", "es"])
def test_a_single_pyramid_place_left_is_said_as_one(tmp_path, lang):
    from tests.conftest import PYRAMID, TEMPLATES
    from tests.test_play_draftosaurus_winter import confirm_shipped_values

    confirm_shipped_values(tmp_path)
    words, place = catalog(lang), TEMPLATES[lang][1]

    def pyramid(player: str, species: str, position: str) -> str:
        return PYRAMID[lang].format(player=player, species=words.name("species", species),
                                    position=words.name("positions", position))

    river = place.format(player="Ben", species=words.name("species", "triceratops"), pen=words.name("pens", "river"))
    lines = [pyramid("Ann", "triceratops", "bottom_left"), river, pyramid("Ann", "stegosaurus", "bottom_centre"),
             river, pyramid("Ann", "diplodocus", "middle_left")]
    out = play(tmp_path, lang, "Ann,Ben", lines, "--seed", "5", "--board", "winter").stdout
    one = said(lang, "reasons.draft_pyramid_row_first_one", pen="pyramid", position="middle_left",
               positions=["bottom_right"])
    assert one[1:] in out  # said capitalised after "Refused."
    assert said(lang, "reasons.draft_pyramid_row_first", pen="pyramid", position="middle_left",
                positions=["bottom_right"])[1:] not in out


# ---------------------------------------------------------------- the program speaks of itself as "I"

THE_APP = {"en": "the app", "fr": "l'application", "es": "la aplicación"}


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
@pytest.mark.parametrize("game", ["draftosaurus", "dino"])
def test_the_rules_read_aloud_say_i_not_the_app(tmp_path, game, lang):
    from tests.conftest import run_here

    result = run_here("rules", game, "--lang", lang, "--engine", "text")
    assert result.returncode == 0, result.stderr
    assert THE_APP[lang] not in result.stdout.casefold()  # "I ask where it goes", "Ce que je ne vérifie pas"
