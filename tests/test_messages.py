"""Message catalogs: every language has the same keys and placeholders, and names for every piece."""

import re

import pytest

from companion.games.draftosaurus.ids import DIE_FACES, PENS, SPECIES
from companion.language.messages import LANGUAGES, Catalog

PLACEHOLDER = re.compile(r"{(\w+)")


def placeholders(text) -> set[str]:
    return set(PLACEHOLDER.findall(str(text)))


def test_every_language_has_the_same_keys_and_placeholders():
    reference = Catalog("en")
    for lang in LANGUAGES:
        other = Catalog(lang)
        assert set(other.keys()) == set(reference.keys()), lang
        for key in reference.messages:
            assert placeholders(other.messages[key]) == placeholders(reference.messages[key]), (lang, key)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_piece_has_a_spoken_name_and_sticker(lang):
    names = Catalog(lang)
    for species in SPECIES:
        assert names.name("species", species)
    for pen in PENS:
        assert names.name("pens", pen) and names.name("pens", pen, "sticker")
    for face in DIE_FACES:
        assert names.name("faces", face) and names.name("faces", face, "sticker")


def test_ids_in_parameters_are_translated():
    fr = Catalog("fr")
    assert fr.join(["a", "b", "c"]) == "a, b et c"
    assert fr._spoken_params({"species": "stegosaurus", "pens": ["river", "woody_trio"]}) == {
        "species": "stégosaure", "pens": "rivière et trio des bois"}


def test_missing_key_is_loud():
    with pytest.raises(KeyError):
        Catalog("fr").say("no.such.key")


def test_words_join_as_each_language_joins_them():
    es, fr = Catalog("es"), Catalog("fr")
    assert es.join(["Ana", "Isabel"]) == "Ana e Isabel" and es.join(["Ana", "Hilario"]) == "Ana e Hilario"
    assert es.join(["Beto", "Hielo"]) == "Beto y Hielo" and es.join(["Ana", "Beto", "Carla"]) == "Ana, Beto y Carla"
    assert fr.say("draft.zoo_empty", player="Alice") == "Le zoo d'Alice est vide."
    assert fr.say("draft.zoo_empty", player="Yann") == "Le zoo de Yann est vide."
    assert fr.say("draft.pen_of_empty", pen="solitary_island", player="Hugo") == "l'île du solitaire d'Hugo est vide."
    assert es.say("draft.pen_of", pen="river", player="Ana", content="x") == "el río de Ana: x."


def test_a_form_written_out_in_the_names_wins_over_the_rule():
    fr, en, es = Catalog("fr"), Catalog("en"), Catalog("es")
    assert fr.say("draft.accepted_full", player="Ana", species="trex", pen="lovers_bridge_left") == (
        "Ana met le T-Rex sur la rive gauche du pont des amoureux.")
    assert fr.say("draft.accepted_full", player="Ana", species="trex", pen="pyramid") == (
        "Ana met le T-Rex dans la pyramide.")
    assert en.say("draft.accepted_full", player="Ana", species="trex", pen="lookout") == "Ana puts the T-Rex at the lookout."
    assert es.say("draft.pen_of", pen="lovers_bridge_left", player="Ana", content="x") == (
        "la orilla izquierda del puente de los enamorados de Ana: x.")


def test_english_articles_go_by_the_sound_of_the_word_after_them():
    en = Catalog("en")
    assert en.say("dino.egg_taken", player="Ana", colour="orange", left=2).startswith("Ana takes an orange egg,")
    assert en.say("dino.egg_taken", player="Ana", colour="red", left=2).startswith("Ana takes a red egg,")
    assert en.say("dino.ask_egg", colour="orange", square="B2") == (
        "There is an orange egg to take on B2. Do you take it? Yes or no.")
    assert en.say("dino.help.egg_choice", colour="orange", choices="orange or red").endswith(
        "for example: I take an orange egg. Or say no.")
    assert en.say("reasons.js_chased", color="yellow", player="Ben").startswith("The T-Rex chases a yellow diplo away")


def test_english_says_a_piece_goes_north():
    en = Catalog("en")
    north = en.say("js.towards.north")
    assert en.say("reasons.js_moved", color_piece="The blue diplo", square="B5", towards=north, target="B6") == (
        "The blue diplo on B5 goes north and stops on B6.")
    assert en.say("js.action_move", piece="diplo", square="B5", towards=north) == "moving the diplo on B5 north"


@pytest.mark.parametrize("lang, average, said", [
    ("fr", 1.6, "il mange l'herbe de B6 ; son jeton, que tu n'as pas vu, rapporte en moyenne 1,6 point"),
    ("fr", 2.4, "il mange l'herbe de B6 ; son jeton, que tu n'as pas vu, rapporte en moyenne 2,4 points"),
    ("en", 1.6, "it eats the grass on B6; you have not seen its token, which scores 1.6 points on average"),
    ("es", 1.6, "se come la hierba de B6; no has visto su ficha, que da 1,6 puntos de media"),
])
def test_the_average_of_a_token_not_seen_is_said_with_its_unit(lang, average, said):
    assert Catalog(lang).say("reasons.js_advice_eat", square="B6", expected_points=average) == said
