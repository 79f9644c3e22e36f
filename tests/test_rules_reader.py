"""Moving through the rules: next, previous, repeat, jump to a topic, contents, help, stop."""

import pytest

from companion.language.messages import LANGUAGES, catalog
from companion.language.rules import RulesBook, RulesReader, understand

NAVIGATION_WORDS = {
    "fr": {"next": "suivant", "previous": "précédent", "repeat": "répète", "stop": "stop", "contents": "sommaire",
           "first": "au début", "help": "aide"},
    "en": {"next": "next", "previous": "previous", "repeat": "repeat", "stop": "stop", "contents": "contents",
           "first": "from the beginning", "help": "help"},
    "es": {"next": "siguiente", "previous": "anterior", "repeat": "repite", "stop": "para", "contents": "índice",
           "first": "al principio", "help": "ayuda"},
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_navigation_words(lang):
    book = RulesBook.load("draftosaurus", lang)
    for action, said in NAVIGATION_WORDS[lang].items():
        assert understand(said, book).action == action, said
        assert understand(f"  {said.upper()} ! ", book).action == action, said
    assert understand("blah blah", book) is None


@pytest.mark.parametrize("lang", LANGUAGES)
def test_walk_forward_and_back(lang):
    book = RulesBook.load("jurassic_snack", lang)
    reader = RulesReader(book)
    words = NAVIGATION_WORDS[lang]
    assert reader.repeat() == book.spoken(book.sections[0])
    assert reader.respond(words["previous"]) == catalog(lang).say("rules.at_start")
    for section in book.sections[1:]:
        assert reader.respond(words["next"]) == book.spoken(section)
    last = reader.current
    assert reader.respond(words["next"]) == catalog(lang).say("rules.at_end", game=book.title)
    assert reader.current is last
    assert reader.respond(words["repeat"]) == book.spoken(last)
    assert reader.respond(words["previous"]) == book.spoken(book.sections[-2])
    assert reader.respond(words["first"]) == book.spoken(book.sections[0])
    assert not reader.finished


def test_jump_then_continue_from_there():
    book = RulesBook.load("draftosaurus", "fr")
    reader = RulesReader(book)
    assert reader.respond("explique l'étoile") == book.spoken(book.section("king_of_the_jungle"))
    following = book.sections[book.index(book.section("king_of_the_jungle")) + 1]
    assert reader.respond("suivant") == book.spoken(following)
    assert reader.jump("river") == book.spoken(book.section("river"))
    assert reader.jump("no such topic") is None
    assert reader.current.id == "river"


def test_start_at_a_topic():
    book = RulesBook.load("dino", "en")
    reader = RulesReader(book, book.find("the meteor"))
    assert reader.current.id == "meteor"
    assert reader.respond("previous") == book.spoken(book.section("barriers"))


def test_contents_help_not_understood_and_stop():
    book = RulesBook.load("draftosaurus", "fr")
    reader = RulesReader(book)
    contents = reader.respond("sommaire")
    assert "rivière" in contents and "roi de la jungle" in contents and "trio des bois" in contents
    assert reader.respond("aide") == catalog("fr").say("rules.hint")
    assert reader.respond("la lune") == catalog("fr").say("rules.not_understood", heard="la lune")
    assert reader.current.id == "goal"
    assert reader.respond("quitter") == catalog("fr").say("rules.goodbye")
    assert reader.finished


def test_intro_says_the_game_and_how_to_move():
    reader = RulesReader(RulesBook.load("draftosaurus", "es"))
    intro = reader.intro()
    assert "Draftosaurus" in intro and "siguiente" in intro and "30" in intro
