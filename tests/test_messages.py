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
    assert fr.say("js.solo_bot_secret", player="Alice") == "Ce qu'Alice a vu reste secret."
    assert fr.say("js.solo_bot_secret", player="Bot 2") == "Ce que Bot 2 a vu reste secret."
    assert "sans qu'Yves entende" in fr.say("js.secret_physical", player="Alice", other="Yves")
    assert fr.say("solo.no_such_bot", name="Emma", bots="Bot 1") == "Il n'y a pas d'Emma : les bots sont Bot 1."


def test_a_form_written_out_in_the_names_wins_over_the_rule():
    fr, en, es = Catalog("fr"), Catalog("en"), Catalog("es")
    assert fr.say("draft.accepted_full", player="Ana", species="trex", pen="lovers_bridge_left") == (
        "Ana met le T-Rex sur la rive gauche du pont des amoureux.")
    assert fr.say("draft.accepted_full", player="Ana", species="trex", pen="pyramid") == (
        "Ana met le T-Rex dans la pyramide.")
    assert en.say("draft.accepted_full", player="Ana", species="trex", pen="lookout") == (
        "Ana puts the T-Rex at the lookout.")
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


# ---------------------------------------------------------------- one way of addressing people

# Forms of "vous" (French) and of "vosotros" or "usted" (Spanish): the program says "tu" / "tú" to the person it
# answers, and speaks of the whole table in the third person ("chacun passe…", "cada uno pasa…").
_PLURAL_ADDRESS = {
    "fr": (re.compile(r"(?i)^(vous|votre|vos|vôtre|vôtres|dites|faites|êtes|[\w-]+-vous"
                      r"|\w+ez(-vous|-en|-les|-le|-la|-moi|-nous)?)$"),
           {"chez", "assez", "nez", "rez"}),
    "es": (re.compile(r"(?i)^(usted|ustedes|vosotros|vosotras|os|vuestro|vuestra|vuestros|vuestras"
                      r"|sois|dais|vais|veis|\w+(áis|éis|ís)"
                      r"|\w+[aei]d(lo|la|los|las|le|les)?)$"),
           {"red", "pared", "sed", "césped", "huésped", "país", "anís", "maís",
            "download", "confirmed", "pyramid"}),  # and English ids
}


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


@pytest.mark.parametrize("lang", ["fr", "es"])
def test_every_sentence_says_tu_to_one_person_and_never_vous_or_usted(lang):
    from companion.paths import read_data, voices_dir

    pattern, allowed = _PLURAL_ADDRESS[lang]
    found = []
    for path in sorted((voices_dir() / lang).rglob("*.yaml")):
        for text in _strings(read_data(path)):
            for word in re.findall(r"[\w'-]+", re.sub(r"{[^}]*}", " ", text)):
                word = word.split("'")[-1]
                if pattern.match(word) and word.casefold() not in allowed and not word.casefold().endswith(
                        ("dad", "tad")):
                    found.append(f"{path.relative_to(voices_dir())}: {word} in «{text[:80]}»")
    assert not found, "\n".join(found)


# ---------------------------------------------------------------- sentences as a native speaker says them

def test_french_island_is_sur_and_english_island_is_on():
    assert Catalog("fr").say("draft.accepted_full", player="Ana", species="trex", pen="solitary_island") == (
        "Ana met le T-Rex sur l'île du solitaire.")
    assert Catalog("fr").say("reasons.draft_die_forest", pen="solitary_island") == (
        "Pas sur l'île du solitaire : le dé impose un enclos de la forêt.")
    assert Catalog("en").say("draft.accepted_full", player="Eve", species="trex", pen="solitary_island") == (
        "Eve puts the T-Rex on the solitary island.")


def test_french_winter_faces_offer_a_choice_with_ou(tmp_path):
    from tests.conftest import run_play
    from tests.test_play_draftosaurus_winter import confirm_shipped_values

    confirm_shipped_values(tmp_path)
    out = run_play(["play", "draftosaurus", "--engine", "text", "--board", "winter", "--players", "Alice,Bruno",
                    "--save", str(tmp_path / "g.json")], ["que veut dire la croix"], tmp_path).stdout
    meaning = next(line for line in out.splitlines() if line.startswith("Forêt, autocollant croix."))
    pens = meaning.split("Dans la forêt : ")[1].split(", ou bien la rivière")[0]
    assert " ou " in pens and " et " not in pens, meaning


@pytest.mark.parametrize("lang, expected", [
    ("es", "El tricerátops de Ana solo puede ir al río."),
    ("en", "Eve's triceratops can only go in the river."),
    ("fr", "Le tricératops d'Ana ne peut aller que dans la rivière."),
])
def test_a_choice_of_one_is_said_as_the_only_one(lang, expected):
    player = "Eve" if lang == "en" else "Ana"
    said = Catalog(lang).say("draft.legal_one", player=player, species="triceratops", pen="river")
    assert said[:1].upper() + said[1:] == expected


def test_english_scores_and_advice_read_naturally():
    from companion.games.draftosaurus.scoring import score_zoos

    en = Catalog("en")
    forest = en.say("reasons.draft_score_forest", pen="forest_of_sameness", species="trex", count=1, points=2)
    assert forest == "forest of sameness: T-Rex, 1 dinosaur, 2 points." and "all" not in forest
    one_each = score_zoos([{"king_of_the_jungle": ["trex"]}, {"woody_trio": ["trex"]}])  # two players: "the other"
    kept = one_each.players[0].details["king_of_the_jungle"]
    assert en.say(f"reasons.{kept.code}", **kept.params) == (
        "king of the jungle: T-Rex, 1 in this zoo and 1 in the other, 7 points.")
    assert Catalog("fr").say(f"reasons.{kept.code}", **kept.params) == (
        "roi de la jungle : T-Rex, 1 dans ce zoo et 1 dans l'autre, 7 points.")
    many = score_zoos([{"king_of_the_jungle": ["trex"]}, {"woody_trio": ["trex"]}, {}])
    kept = many.players[0].details["king_of_the_jungle"]
    assert en.say(f"reasons.{kept.code}", **kept.params) == (
        "king of the jungle: T-Rex, 1 in this zoo, and no other zoo has more than 1, 7 points.")
    assert en.say("draft.advice_total_gain", points=8) == "In all, you gain 8 points."


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_question_said_aloud_never_speaks_of_commas(lang):
    words = Catalog(lang)
    for key in ("setup.ask_first_name", "setup.name_separator"):
        said = words.say(key, number=1, mark=";", name="Ana; Ben", examples="Ana, Ben").casefold()
        assert not any(comma in said for comma in ("virgule", "comma", "coma ", "comas")), said


def test_spanish_says_how_many_eggs_are_left_with_the_verb_first_and_agreeing():
    es = Catalog("es")
    said = [es.say("dino.egg_taken", player="Ana", colour="red", left=left) for left in (2, 1, 0)]
    assert [sentence.split(". ", 1)[1] for sentence in said] == [
        "quedan 2 huevos en ese nido.", "queda 1 huevo en ese nido.", "ya no queda ningún huevo en ese nido."]
    assert es.say("dino.solo_egg_taken", colour="red", left=2).endswith(" quedan 2 huevos en ese nido.")
    assert es.say("reasons.dino_advice_egg", points=1, left=1).endswith("; queda 1 huevo en ese nido")
    assert es.say("dino.solo_turn_meteor", player="Bot", actions="juega", left=1) == (
        "Bot juega: queda 1 piedra antes de que caiga el meteorito.")
    english = Catalog("en").say("dino.egg_taken", player="Ann", colour="red", left=2)
    assert english.endswith(" 2 eggs are left in that nest.")  # a form without "#": the number first, as before
