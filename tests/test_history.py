from companion.dialogue.history import MessageHistory


def test_review_walks_back_and_forth():
    history = MessageHistory(size=3)
    for message in "abcd":
        history.add(message)
    assert history.last == "d"
    assert [history.previous(), history.previous(), history.previous()] == ["c", "b", None]
    assert [history.next(), history.next(), history.next()] == ["c", "d", None]


def test_new_message_resets_review():
    history = MessageHistory()
    history.add("a")
    history.add("b")
    assert history.previous() == "a"
    history.add("c")
    assert history.previous() == "b"


def test_empty_history():
    history = MessageHistory()
    assert history.last is None and history.previous() is None and history.next() is None
