"""The rules texts: every topic in every language, reachable by each of its names, options said as in force."""

import re

import pytest

from companion.errors import BadInput
from companion.games.draftosaurus.ids import DIE_FACES, PENS
from companion.language.messages import LANGUAGES
from companion.language.rules import RulesBook, game_id, understand

DRAFTOSAURUS_TOPICS = {"goal", "setup", "turn", "die", "river", "trex", "end", "tiebreak", "variant_two_players",
                       "winter", "summer_winter", *PENS, *DIE_FACES}
TOPICS = {
    "draftosaurus": DRAFTOSAURUS_TOPICS,
    "jurassic_snack": {"goal", "setup", "boards", "turn", "diplo_move", "eating", "trex_move", "tokens", "birth",
                       "scouting", "air_transport", "air_strike", "eruption", "surprise", "yum_yum", "no_effect",
                       "end", "scoring", "tiebreak"},
    "dino": {"goal", "setup", "board", "nests", "barriers", "meteor", "turn", "moves", "blocking", "eggs", "exits",
             "end", "scoring", "tiebreak", "variants", "app_limits"},
}
GAMES = tuple(TOPICS)
BOOKS = [(game, lang) for game in GAMES for lang in LANGUAGES]


@pytest.mark.parametrize("game", GAMES)
def test_same_topics_in_the_same_order_in_every_language(game):
    reference = RulesBook.load(game, "fr").ids
    assert TOPICS[game] <= set(reference)
    assert len(reference) == len(set(reference))
    for lang in LANGUAGES:
        assert RulesBook.load(game, lang).ids == reference, lang


@pytest.mark.parametrize("game, lang", BOOKS)
def test_every_topic_is_reachable_by_each_of_its_names(game, lang):
    book = RulesBook.load(game, lang)
    for section in book.sections:
        assert section.names, section.id
        assert book.find(section.id) is section
        for name in (section.title, *section.names):
            assert book.find(name) is section, (name, section.id)
            assert book.find(name.upper()) is section, name
            command = understand(name, book)
            assert command is not None and command.action == "jump" and command.section is section, name


@pytest.mark.parametrize("game, lang", BOOKS)
def test_texts_are_short_spoken_sentences_with_every_placeholder_filled(game, lang):
    for section in RulesBook.load(game, lang).sections:
        assert section.title.strip() and section.text.strip()
        assert not re.search(r"[{}]", section.text), (section.id, section.text)
        sentences = [s for s in re.split(r"(?<=[.!?])\s+", section.text) if s]
        assert all(len(s) < 400 for s in sentences), section.id
        assert len(section.text) < 1200, section.id


@pytest.mark.parametrize("lang, spoken, topic", [
    ("fr", "la rivière", "river"), ("fr", "le dé", "die"), ("fr", "étoile", "king_of_the_jungle"),
    ("fr", "le roi de la jungle", "king_of_the_jungle"), ("fr", "explique l'étoile", "king_of_the_jungle"),
    ("fr", "la règle du trio", "woody_trio"), ("fr", "que veut dire la croix", "forest"),
    ("fr", "la croix, ça veut dire quoi ?", "forest"), ("fr", "c'est quoi le dé", "die"),
    ("fr", "Euh, explique-moi l'île du solitaire s'il te plaît", "solitary_island"),
    ("fr", "parle-moi de la fenêtre", "toilets"), ("fr", "le T-Rex", "trex"), ("fr", "T. rex", "trex"),
    ("fr", "forêt", "forest_of_sameness"), ("fr", "à deux", "variant_two_players"), ("fr", "la fin", "end"),
    ("en", "the river", "river"), ("en", "explain the star", "king_of_the_jungle"),
    ("en", "what does the cross mean", "forest"), ("en", "the rule for the trio", "woody_trio"),
    ("en", "the die", "die"), ("en", "forest", "forest"),
    ("es", "el río", "river"), ("es", "explica la estrella", "king_of_the_jungle"),
    ("es", "qué significa la cruz", "forest"), ("es", "la regla del trío", "woody_trio"), ("es", "el dado", "die"),
])
def test_spoken_topic_names(lang, spoken, topic):
    assert RulesBook.load("draftosaurus", lang).find(spoken).id == topic


@pytest.mark.parametrize("text", ["", "la", "le chien", "explique", "rivière rivière", "dé forêt"])
def test_unknown_topics_are_not_guessed(text):
    assert RulesBook.load("draftosaurus", "fr").find(text) is None


@pytest.mark.parametrize("lang", LANGUAGES)
def test_options_in_force_are_said(lang):
    default = RulesBook.load("draftosaurus", lang)
    assert default.options == {"trio_points": 7, "river_counts_for_island": False, "river_counts_for_king": False}
    six = RulesBook.load("draftosaurus", lang, {"trio_points": 6, "river_counts_for_island": True,
                                                 "river_counts_for_king": "true"})
    assert " 7 " in default.section("woody_trio").text and " 6 " in six.section("woody_trio").text
    for topic in ("woody_trio", "solitary_island", "king_of_the_jungle"):
        assert default.section(topic).text != six.section(topic).text, topic
    for topic in ("goal", "river", "forest"):
        assert default.section(topic).text == six.section(topic).text, topic


@pytest.mark.parametrize("options", [{"trio_points": 8}, {"trio_points": "huit"}, {"no_such_option": 1},
                                     {"river_counts_for_king": "maybe"}])
def test_bad_options_are_bad_input(options):
    with pytest.raises(BadInput):
        RulesBook.load("draftosaurus", "fr", options)


def test_games_without_options_refuse_any():
    with pytest.raises(BadInput):
        RulesBook.load("dino", "fr", {"trio_points": 6})


@pytest.mark.parametrize("name, game", [("draftosaurus", "draftosaurus"), ("jurassic-snack", "jurassic_snack"),
                                        ("Jurassic Snack", "jurassic_snack"), ("DINO", "dino")])
def test_game_names(name, game):
    assert game_id(name) == game


def test_unknown_game_is_bad_input():
    with pytest.raises(BadInput, match="monopoly"):
        RulesBook.load("monopoly", "en")


def test_winter_tables_are_not_invented():
    for lang, missing in (("fr", "ne figurent dans aucun texte"), ("en", "appear in no text"),
                          ("es", "no aparecen en ningún texto")):
        assert missing in RulesBook.load("draftosaurus", lang).section("winter").text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_combination_of_options_has_its_sentences(lang):
    for trio in (7, 6):
        for island in (False, True):
            for king in (False, True):
                book = RulesBook.load("draftosaurus", lang, {"trio_points": trio, "river_counts_for_island": island,
                                                             "river_counts_for_king": king})
                assert book.options == {"trio_points": trio, "river_counts_for_island": island,
                                        "river_counts_for_king": king}
                assert f" {trio} " in book.section("woody_trio").text
                assert not any("{" in s.text for s in book.sections)


@pytest.mark.parametrize("game, lang, spoken, topic", [
    ("jurassic_snack", "fr", "le T.Rex", "trex_move"), ("jurassic_snack", "fr", "le jeton naissance", "birth"),
    ("jurassic_snack", "en", "what does the yum yum token do", "yum_yum"),
    ("jurassic_snack", "es", "explícame la ficha sorpresa", "surprise"),
    ("dino", "fr", "la météorite", "meteor"), ("dino", "en", "the nests", "nests"),
    ("dino", "es", "qué son los nidos", "nests"), ("dino", "fr", "ce que l'application ne vérifie pas", "app_limits"),
])
def test_spoken_topic_names_of_the_other_games(game, lang, spoken, topic):
    assert RulesBook.load(game, lang).find(spoken).id == topic
