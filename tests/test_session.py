"""The conversation layer: doubtful answers are read back by meaning and need a clear yes; shared
commands (pause, verbosity, voice) are answered without reaching the game."""

from __future__ import annotations

import contextlib
import io

import pytest

from companion.dialogue.draftosaurus import DraftosaurusTable, TableSettings
from companion.dialogue.session import EndOfInput, QuitRequested, Session
from companion.games.draftosaurus.engine import Game
from companion.speech.base import ACTION_CONFIDENCE, RIVAL_MARGIN, Heard, Listener, TextSpeaker


class Heard_(Listener):
    """A listener that hears a fixed list of (text, confidence) utterances."""

    name = "script"

    def __init__(self, utterances):
        self.utterances = list(utterances)

    def listen(self, state=None):
        if not self.utterances:
            return None
        text, confidence, *rivals = self.utterances.pop(0)
        return Heard(text, confidence, "sphinx", rivals=tuple(rivals))


def play(utterances, lang="fr", earcons=None, listener_class=Heard_):
    out = io.StringIO()
    session = Session(game="draftosaurus", lang=lang, speaker=TextSpeaker(out),
                      listener=listener_class(utterances), verbosity="short", earcons=earcons)
    table = DraftosaurusTable(session, Game.new(["Alice", "Bruno"], seed=1), None, TableSettings())
    table.save = lambda: None
    with contextlib.suppress(EndOfInput):
        table.run()
    return table.game, out.getvalue()


def test_a_doubtful_move_is_read_back_by_meaning_and_needs_a_yes():
    game, out = play([("dé croix", None), ("tricératops rivière", 0.3), ("oui", 0.95)])
    assert "J'ai compris : le tricératops d'Alice dans la rivière. C'est bien ça ? Oui ou non." in out
    assert game.zoos[0]["river"] == ["triceratops"]


def test_no_or_a_doubtful_yes_applies_nothing():
    game, out = play([("dé croix", None), ("tricératops rivière", 0.3), ("oui", 0.2), ("non", 0.9)])
    assert "Je n'ai pas compris « oui ». Le tricératops d'Alice dans la rivière : c'est bien ça ? Oui ou non." in out
    assert "D'accord, je n'en tiens pas compte." in out
    assert game.zoos[0]["river"] == []


def test_a_doubtful_die_is_read_back_by_its_face():
    game, out = play([("the die says cross", 0.1), ("yes", 0.9)], lang="en")
    assert "I understood: the die showing forest. Is that right? Yes or no." in out
    assert game.face.value == "forest"


def test_shared_commands_do_not_reach_the_game():
    game, out = play([("pause", None), ("reprendre", None), ("messages complets", None),
                      ("plus vite", None), ("dé fleur", None)])
    assert "Pause. Dis reprendre pour continuer, ou quitter." in out and "On reprend." in out
    assert "Messages complets." in out
    assert "La voix ne peut pas changer en mode texte." in out
    assert game.face.value == "grassland" and len(game.actions) == 1


def test_earcons_mark_each_turn_and_each_refusal():
    played = []

    class Earcons:
        def play(self, kind):
            played.append(kind)

    play([("dé croix", None), ("Bruno : tricératops dans la prairie", None), ("blabla", None)],
         earcons=Earcons())
    assert played[:6] == ["your_turn", "understood", "your_turn", "understood", "refused", "your_turn"]
    assert "not_understood" in played


def test_the_listener_is_told_which_player_should_answer():
    expected = []

    class Recording(Heard_):
        def expect_speaker(self, name):
            expected.append(name)

    play([("dé croix", None), ("tricératops rivière", None)], listener_class=Recording)
    assert expected[:3] == ["Alice", "Alice", "Bruno"]  # Alice rolls, Alice places, then Bruno's turn


def test_quitting_on_a_recogniser_s_word_is_asked_first_but_a_typed_quit_is_not():
    _, out = play([("dé croix", None), ("au revoir", 0.9), ("non", 0.9), ("dé croix", None)])
    assert "Tu veux quitter ?" in out and "D'accord, je n'en tiens pas compte." in out
    with pytest.raises(QuitRequested):
        play([("dé croix", None), ("au revoir", 0.9), ("oui", 0.9)])
    with pytest.raises(QuitRequested):
        play([("dé croix", None), ("au revoir", None)])


@pytest.mark.parametrize("said", [("au revoir", 0.9), ("aide", 0.3), ("répète", 0.3)])
def test_a_no_to_a_read_back_of_a_quit_or_a_shared_command_asks_the_open_question_again(said):
    """"Tu veux quitter ?" or "J'ai entendu : aide. C'est bien ça ?", answered no: the player hears the question
    still open (Alice's move), not silence."""
    _, out = play([("dé croix", None), said, ("non", 0.9), ("tricératops rivière", None)])
    refused = out.index("D'accord, je n'en tiens pas compte.")
    assert out[refused:].splitlines()[1] == "Alice ?"  # the question, shortly (verbosity short)


@pytest.mark.parametrize("said", [("aide", 0.3), ("au revoir", 0.9)])
def test_a_command_said_in_answer_to_a_read_back_of_a_shared_command_or_a_quit_is_taken(said):
    """"J'ai entendu : aide. C'est bien ça ?" or "Tu veux quitter ?", answered with a move: the move is played, where it
    was dropped and the question asked again."""
    game, out = play([("dé croix", None), said, ("tricératops rivière", None)])
    assert game.zoos[0]["river"] == ["triceratops"], out
    assert "D'accord, je n'en tiens pas compte." not in out


def test_a_no_to_the_read_back_of_a_set_up_answer_says_so_and_asks_the_question_again():
    """"deux joueur" heard unsure at the number of players, read back, answered no: the question is asked again (it
    was followed by silence, the player left to guess what was awaited)."""
    from companion.dialogue.setup_questions import SETUP_STATE, ask_intent

    out = io.StringIO()
    session = Session(game="draftosaurus", lang="fr", speaker=TextSpeaker(out),
                      listener=Heard_([("deux joueur", 0.3), ("non", 0.9), ("deux", 0.95)]), verbosity="short")
    answer = ask_intent(session, "draft.setup.ask_count", {"number"}, state=SETUP_STATE)
    lines = out.getvalue().splitlines()
    question = session.text("draft.setup.ask_count")
    assert lines == [question, "J'ai entendu : deux joueur. C'est bien ça ? Oui ou non.",
                     "D'accord, je n'en tiens pas compte.", question]
    assert answer.slots["number"] == 2


def test_a_number_heard_at_a_yes_no_question_of_the_set_up_is_told_what_is_awaited():
    """fr1's "aide" written "huit" by Whisper at "Règles habituelles : ... On les garde ?": the player hears that a yes
    or a no is awaited (it was "Je n'attendais pas cela ici." and the question); the yes said next answers it."""
    from companion.dialogue.setup_questions import ask_yes

    out = io.StringIO()
    session = Session(game="draftosaurus", lang="fr", speaker=TextSpeaker(out),
                      listener=Heard_([("huit", 0.97), ("oui", 0.95)]), verbosity="short")
    assert ask_yes(session, "draft.setup.ask_tracking") is True
    question = session.text("draft.setup.ask_tracking")
    assert out.getvalue().splitlines() == [question, f"Je n'attendais pas cela ici : réponds oui ou non. {question}"]


def test_a_move_needs_more_certainty_than_a_question():
    """A rival of another meaning close behind (another zoo, another species) reads back the move, not the
    question; far behind, or of the same meaning, it reads back nothing."""
    close = RIVAL_MARGIN / 2
    game, out = play([("dé croix", None), ("le zoo de bruno", 0.7, ("le zoo d'alice", close)),
                      ("tricératops rivière", 0.7, ("stégosaure rivière", close)), ("oui", 0.9)])
    assert out.count("C'est bien ça ?") == 1  # the question is answered at once, the move read back
    assert game.zoos[0]["river"] == ["triceratops"]
    game, out = play([("dé croix", None), ("tricératops rivière", 0.8, ("stégosaure rivière", 2 * RIVAL_MARGIN),
                                          ("le tricératops dans la rivière", close))])
    assert "C'est bien ça ?" not in out and game.zoos[0]["river"] == ["triceratops"]
    game, out = play([("dé croix", None), ("tricératops rivière", ACTION_CONFIDENCE - 0.05), ("oui", 0.9)])
    assert "C'est bien ça ?" in out


def test_undo_said_at_a_read_back_drops_what_was_read_back():
    game, out = play([("dé croix", None), ("tricératops rivière", 0.3), ("annule", 0.9)])
    assert "D'accord, j'oublie « le tricératops d'Alice dans la rivière »." in out
    assert len(game.actions) == 1  # the die only


def test_a_query_said_at_a_read_back_is_answered_and_the_read_back_asked_again():
    game, out = play([("dé croix", None), ("tricératops rivière", 0.3), ("les scores", 0.9), ("oui", 0.9)])
    assert out.count("J'ai compris : le tricératops d'Alice dans la rivière.") == 2
    assert "Alice : 0 point pour l'instant." in out and game.zoos[0]["river"] == ["triceratops"]


@pytest.mark.parametrize("lang, open_question, closed, yes, repeat, scores", [
    ("fr", "Alice, quel dinosaure ?", "On annule ? Oui ou non.", "oui", "répète", "les scores"),
    ("en", "Alice, which dinosaur?", "Undo it? Yes or no.", "yes", "repeat", "the scores"),
    ("es", "Alice, ¿qué dinosaurio?", "¿Deshacemos? Sí o no.", "sí", "repite", "las puntuaciones"),
])
def test_repeat_after_a_yes_no_question_is_answered_says_the_open_question_not_that_one(lang, open_question, closed,
                                                                                          yes, repeat, scores):
    """Every game's yes/no questions: once one is answered and nothing else is said (a secret is never kept
    for "repeat"), "repeat" says the question still open, where a yes would no longer be heard."""
    out = io.StringIO()
    session = Session(game="draftosaurus", lang=lang, speaker=TextSpeaker(out),
                      listener=Heard_([(repeat, None), (scores, None), (yes, None), (repeat, None), (scores, None)]),
                      verbosity="short")
    session.last_prompt = session.say_text(open_question)
    assert session.ask(None, "turn").intent == "score"  # the first "repeat" is answered on the way
    assert session.confirm(closed, "turn") is True
    assert session.ask(None, "turn").intent == "score"
    said = out.getvalue().splitlines()
    again = session.text("session.repeating", text=open_question)  # said as a repetition
    assert said == [open_question, again, closed, again]
