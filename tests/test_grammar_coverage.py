"""Every species, pen (of both board sides), pyramid place and die face can be said in every language: by the
name the program says, by its sticker, and by every other name the grammar lists; states keep only their
intents."""

import pytest
from hassil import sample_expression

from companion.games.draftosaurus.ids import DIE_FACES, PENS, PYRAMID_POSITIONS, SPECIES, WINTER_PENS
from companion.language.grammar import load_grammar, parse, state_intents, states
from companion.language.messages import LANGUAGES, Catalog

GAME = "draftosaurus"
# A sentence with one blank, in each language, that places a dinosaur or announces the die.
PLACE = {"fr": "{species} dans {pen}", "en": "{species} in {pen}", "es": "{species} en {pen}"}
DIE = {"fr": "le dé dit {face}", "en": "the die says {face}", "es": "el dado dice {face}"}
# A winter placement in the pyramid, with the place after the pen and before it.
PYRAMID = {"fr": ("{species} dans la pyramide, {position}", "{species} {position} de la pyramide"),
           "en": ("{species} in the pyramid, {position}", "{species} {position} of the pyramid"),
           "es": ("{species} en la pirámide, {position}", "{species} {position} de la pirámide")}
# The bridge said without its bank: the table asks which bank.
WINTER_PEN_IDS = set(WINTER_PENS) | {"lovers_bridge"}


def said(lang, text, state="turn"):
    return parse(text, game=GAME, lang=lang, state=state)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_names_the_program_says_are_understood(lang):
    names = Catalog(lang)
    river = names.name("pens", "river")
    for species in SPECIES:
        result = said(lang, PLACE[lang].format(species=names.name("species", species), pen=river))
        assert result.slots == {"species": species, "pen": "river"}, species
    for pen in PENS:
        for field in ("name", "sticker"):
            text = PLACE[lang].format(species=names.name("species", "triceratops"), pen=names.name("pens", pen, field))
            assert said(lang, text).slots == {"species": "triceratops", "pen": pen}, text
    for face in DIE_FACES:
        for field in ("name", "sticker"):
            spoken = names.name("faces", face, field)
            assert said(lang, spoken, "die").slots == {"face": face}, spoken
            assert said(lang, DIE[lang].format(face=spoken), "die").slots == {"face": face}, spoken


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_winter_names_the_program_says_are_understood(lang):
    names = Catalog(lang)
    triceratops = names.name("species", "triceratops")
    for pen in WINTER_PEN_IDS:
        text = PLACE[lang].format(species=triceratops, pen=names.name("pens", pen))
        assert said(lang, text, "winter_turn").slots == {"species": "triceratops", "pen": pen}, text
        assert said(lang, text, "turn").slots.get("pen") in (None, "river"), text  # summer: not its pens
    after, before = PYRAMID[lang]
    for position in PYRAMID_POSITIONS:
        spoken = names.name("positions", position)
        assert said(lang, after.format(species=triceratops, position=spoken), "winter_turn").slots == {
            "species": "triceratops", "pen": "pyramid", "position": position}, spoken
        assert said(lang, before.format(species=triceratops, position=spoken), "winter_turn").slots == {
            "species": "triceratops", "position": position}, spoken
        assert said(lang, spoken, "quarantine").slots == {"position": position}, spoken


def list_values(lang, list_name):
    """Every (alias, id) of a grammar list, each alternative of each value."""
    intents = load_grammar(GAME, lang).intents
    for value in intents.slot_lists[list_name].values:
        for text in sample_expression(value.text_in, intents.slot_lists, intents.expansion_rules):
            yield text.strip(), value.value_out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_alias_in_the_grammar_lists_is_understood(lang):
    names = Catalog(lang)
    for alias, species in list_values(lang, "species"):
        text = PLACE[lang].format(species=alias, pen=names.name("pens", "river"))
        assert said(lang, text).slots == {"species": species, "pen": "river"}, text
    for alias, pen in list_values(lang, "pen"):
        text = PLACE[lang].format(species=names.name("species", "stegosaurus"), pen=alias)
        assert said(lang, text).slots == {"species": "stegosaurus", "pen": pen}, text
    for alias, face in list_values(lang, "face"):
        assert said(lang, alias, "die").slots == {"face": face}, alias
    for alias, pen in list_values(lang, "winter_pen"):
        text = PLACE[lang].format(species=names.name("species", "stegosaurus"), pen=alias)
        assert said(lang, text, "winter_turn").slots == {"species": "stegosaurus", "pen": pen}, text
    for alias, position in list_values(lang, "position"):
        text = PYRAMID[lang][0].format(species=names.name("species", "stegosaurus"), position=alias)
        assert said(lang, text, "winter_turn").slots == {"species": "stegosaurus", "pen": "pyramid",
                                                        "position": position}, text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_list_outputs_are_canonical_ids(lang):
    assert {v for _, v in list_values(lang, "species")} == set(SPECIES)
    assert {v for _, v in list_values(lang, "pen")} == set(PENS)
    assert {v for _, v in list_values(lang, "face")} == set(DIE_FACES)
    assert {v for _, v in list_values(lang, "winter_pen")} == WINTER_PEN_IDS
    assert {v for _, v in list_values(lang, "position")} == set(PYRAMID_POSITIONS)


def test_states_are_the_contract():
    assert set(states(GAME)) == {"die", "turn", "confirm", "setup", "who", "any", "winter_die", "winter_turn",
                                 "quarantine", "board_value", "discard", "hand_named", "detail", "winter_detail"}
    die, turn, confirm, setup = (set(state_intents(GAME, s)) for s in ("die", "turn", "confirm", "setup"))
    winter_die, winter_turn, quarantine, board_value = (
        set(state_intents(GAME, s)) for s in ("winter_die", "winter_turn", "quarantine", "board_value"))
    queries = {"legal", "zoo", "score", "rules", "face_meaning", "advice", "hand", "played", "empty_pens", "turn_recap",
               "match_score", "score_detail"}
    winter_queries = queries - {"zoo"} | {"winter_zoo"}
    shared = {"repeat", "undo", "help", "pause", "quit", "next", "previous", "stop",
              "review_previous", "review_next", "verbosity", "whose_turn"}
    assert "die" in die and "place" not in die and queries | shared <= die
    assert "place" in turn and "die" not in turn and queries | shared <= turn
    assert {"yes", "no"} | shared <= confirm and not (queries | {"place", "die"}) & confirm
    assert {"yes", "no", "number", "player"} | shared <= setup and "place" not in setup
    # The winter board's states hear its pens only: no summer pen, nor the summer zoo questions.
    assert "die" in winter_die and not {"place", "die_pen", "zoo", "winter_place"} & winter_die
    assert winter_queries | shared <= winter_die and winter_queries | shared <= winter_turn
    assert "winter_place" in winter_turn and not {"place", "die", "zoo"} & winter_turn
    assert {"yes", "no", "winter_place"} | winter_queries | shared <= quarantine and "place" not in quarantine
    assert {"keep_value", "no_pen", "winter_place", "number"} | shared <= board_value
    assert not (queries | {"place", "die"}) & board_value
    # Solo, 2-player variant: the dinosaur put back in the box; at a table, the hand named for advice.
    discard, hand_named = (set(state_intents(GAME, s)) for s in ("discard", "hand_named"))
    assert "discard" in discard and queries | shared <= discard and not {"die", "hand_cards"} & discard
    assert {"hand_cards", "no"} | queries | shared <= hand_named and not {"die", "discard"} & hand_named
    assert not {"discard", "hand_cards"} & (die | turn | winter_turn)
    # The end's "the points in detail?": yes, no, everyone, a player's name, and every query.
    detail, winter_detail = (set(state_intents(GAME, s)) for s in ("detail", "winter_detail"))
    assert {"yes", "no", "everyone", "player"} | queries | shared <= detail and not {"place", "die"} & detail
    assert {"yes", "no", "everyone", "player"} | winter_queries | shared <= winter_detail
    every = die | turn | confirm | setup | winter_die | winter_turn | quarantine | board_value | discard | hand_named
    assert every | detail | winter_detail <= set(state_intents(GAME, "any"))


@pytest.mark.parametrize("lang, text, state", [
    ("fr", "tricératops dans la rivière", "die"),
    ("fr", "croix", "turn"),
    ("en", "the die says cross", "confirm"),
    ("es", "pon el triceratops en el río", "setup"),
])
def test_an_intent_outside_the_state_is_not_understood(lang, text, state):
    assert said(lang, text, state).intent is None
    assert said(lang, text, "any").intent is not None


@pytest.mark.parametrize("lang", LANGUAGES)
def test_player_names_are_dynamic(lang):
    text = {"fr": "Jean-Pierre : stégosaure dans la rivière", "en": "Jean-Pierre: stegosaurus in the river",
            "es": "Jean-Pierre: estegosaurio en el río"}[lang]
    assert parse(text, game=GAME, lang=lang, state="turn").intent is None
    result = parse(text, game=GAME, lang=lang, state="turn", player_names=["Alice", "Jean-Pierre"])
    assert result.slots == {"player": "Jean-Pierre", "species": "stegosaurus", "pen": "river"}
