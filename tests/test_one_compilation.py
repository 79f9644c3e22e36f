"""A game's templates are compiled once, as written (grammar.written_templates), and read folded for typed text and
spelled as recognisers spell words for the recognisers (compiler.Respelled).

The differential test: each reading gives the same tree, once sequences are flattened and runs of words joined, as
compiling hassil's reading of the templates rewritten in that spelling, which is how each was made before: every
template of every intent, every rule and every list, in every game (the tests' own too) and language.
"""

from typing import Any

import pytest
import yaml
from hassil import Intents

from companion import registry
from companion.language.compiler import Compiler, Respelled
from companion.language.folding import fold
from companion.language.grammar import (
    PLAYER_LIST,
    fold_template,
    folded_templates,
    grammar_source,
    map_template_words,
    rewrite_templates,
    written_templates,
)
from companion.language.messages import LANGUAGES
from companion.language.nodes import (
    Alt,
    DynamicList,
    GrammarError,
    Node,
    Seq,
    TemplateValues,
    Trie,
    Wildcard,
    Words,
)
from companion.language.recognition_grammar import _spoken_compiler, spelling
from tests.games.race.spec import SPEC as RACE

GAMES = [spec.id for spec in (*registry.GAMES, RACE)]


@pytest.fixture(autouse=True)
def with_the_test_game(monkeypatch):
    monkeypatch.setattr(registry, "GAMES", registry.GAMES)
    registry.register(RACE)


class Shape:
    """Compiled nodes as comparable values: named nodes (rules, lists) by name, their bodies kept once in `named`;
    sequences flattened, with runs of words joined ("c est" one node or two: the same words matched)."""

    def __init__(self, compiler: Compiler | Respelled):
        self.compiler = compiler
        self.named: dict[str, Any] = {}

    def of(self, node: Node) -> Any:
        name = self.compiler.name_of(node)
        if name is None:
            return self._body(node)
        if name not in self.named:
            self.named[name] = None  # while its body is read
            self.named[name] = self._body(node)
        return "ref", name, getattr(node, "slot", None)

    def _parts(self, node: Node) -> list[Any]:
        if self.compiler.name_of(node) is None:
            if isinstance(node, Seq):
                return [part for item in node.items for part in self._parts(item)]
            if isinstance(node, Words):
                return list(node.words)
        return [self.of(node)]

    def _item(self, node: Node) -> Any:
        return ("seq", *self._parts(node)) if self.compiler.name_of(node) is None else self.of(node)

    def _body(self, node: Node) -> Any:
        if isinstance(node, Seq):
            return "seq", *(part for item in node.items for part in self._parts(item))
        if isinstance(node, Words):
            return "seq", *node.words
        if isinstance(node, Alt):
            return "alt", node.optional, tuple(self._item(item) for item in node.items)
        if isinstance(node, Trie):
            return "trie", node.slot, node.entries
        if isinstance(node, TemplateValues):
            return "values", node.slot, tuple((self._item(item), value) for item, value in node.values)
        if isinstance(node, Wildcard):
            return "wildcard", node.slot, node.most
        assert isinstance(node, DynamicList)
        return "dynamic", node.list_name, node.slot


def reference(game: str, lang: str, spell: Any) -> tuple[Intents, Compiler]:
    """hassil's reading of the templates rewritten by `spell`, compiled."""
    intents = Intents.from_dict(rewrite_templates(grammar_source(game, lang), spell))
    return intents, Compiler(intents.slot_lists, intents.expansion_rules, frozenset({PLAYER_LIST}))


def shapes(intents: Intents, compiler: Compiler | Respelled) -> tuple[list[Any], dict[str, Any]]:
    """Every template of every intent (in order), then every rule and list, as shapes."""
    shape = Shape(compiler)
    templates = [(name, shape.of(compiler.sentence(sentence))) for name, intent in sorted(intents.intents.items())
                 for block in intent.data for sentence in block.sentences]
    for name in intents.slot_lists:
        shape.of(compiler.list_node(name))
    return templates, shape.named


def spoken(lang: str) -> Any:
    return lambda template: map_template_words(template, spelling(lang).words)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_the_one_compilation_read_folded_and_spelled_for_recognisers_is_what_each_spelling_compiled_to(game, lang):
    written, _ = written_templates(game, lang)
    for view, spell in ((folded_templates(game, lang), fold_template), (_spoken_compiler(game, lang), spoken(lang))):
        expected = shapes(*reference(game, lang, spell))
        found = shapes(written, view)
        assert len(found[0]) == len(expected[0]) > 0
        for (intent, got), (_, wanted) in zip(found[0], expected[0], strict=True):
            assert got == wanted, intent
        assert found[1] == expected[1]


def test_the_comparison_tells_two_spellings_apart():
    """The folded reading is not the recognisers' spelling of French (accents, "l'"): the shapes differ."""
    written, _ = written_templates("draftosaurus", "fr")
    assert shapes(written, folded_templates("draftosaurus", "fr")) != shapes(
        *reference("draftosaurus", "fr", spoken("fr")))


TEMPLATES = """
language: fr
intents:
  Place:
    data:
      - sentences:
          - "{player}'s {dino}"
          - "l'{dino} ?"
          - "<next>"
          - "{dino:second} et {dino}"
lists:
  dino:
    values:
      - in: "T-Rex"
        out: trex
expansion_rules:
  next: "(suivant|suivante)"
"""


def compile_sentences(text: str) -> list[Node]:
    intents = Intents.from_dict(yaml.safe_load(text))
    compiler = Compiler(intents.slot_lists, intents.expansion_rules, frozenset({PLAYER_LIST}))
    return [compiler.sentence(s) for intent in intents.intents.values() for b in intent.data for s in b.sentences]


def test_pieces_join_at_a_space_or_a_mark_that_ends_a_word_never_between_two_letters():
    assert len(compile_sentences(TEMPLATES)) == 4
    with pytest.raises(GrammarError, match="glued"):
        compile_sentences(TEMPLATES.replace("(suivant|suivante)", "suivant[e]"))
    with pytest.raises(GrammarError, match="glued"):
        compile_sentences(TEMPLATES.replace("l'{dino} ?", "le{dino}"))


def test_a_respelled_word_may_become_several_words_or_none():
    intents = Intents.from_dict(yaml.safe_load(TEMPLATES))
    compiler = Compiler(intents.slot_lists, intents.expansion_rules, frozenset({PLAYER_LIST}))
    folded = Respelled(compiler, lambda word: fold(word).words)
    sentence = next(s for b in intents.intents["Place"].data for s in b.sentences if s.text.startswith("l'"))
    node = folded.sentence(sentence)
    assert isinstance(node, Seq) and isinstance(node.items[0], Words) and node.items[0].words == ("l",)
    trie = node.items[1]  # "?" said by no word: gone
    assert len(node.items) == 2 and isinstance(trie, Trie) and trie.entries == ((("t", "rex"), "trex"),)
    assert folded.name_of(trie) == "list_dino" and folded.list_node("dino") is trie


def test_a_list_filling_another_slot_shares_the_respelled_words_of_the_list():
    """As the compiler shares a list's words with its copies for other slots ("{dino:second}"), so do its readings:
    each reading holds the words of a list once."""
    intents = Intents.from_dict(yaml.safe_load(TEMPLATES))
    compiler = Compiler(intents.slot_lists, intents.expansion_rules, frozenset({PLAYER_LIST}))
    folded = Respelled(compiler, lambda word: fold(word).words)
    sentence = next(s for b in intents.intents["Place"].data for s in b.sentences if s.text.startswith("{dino:"))
    node = folded.sentence(sentence)
    assert isinstance(node, Seq)
    second, first = node.items[0], node.items[-1]
    assert isinstance(second, Trie) and isinstance(first, Trie)
    assert (second.slot, first.slot) == ("second", "dino") and second.entries is first.entries
    assert first is folded.list_node("dino") and folded.name_of(second) == folded.name_of(first) == "list_dino"
