"""Following only some zoos: the others place unseen, and report their King species count at the end."""

import pytest

from companion.errors import BadInput
from companion.games.draftosaurus.engine import Game, Place, Roll


def test_only_tracked_players_are_waited_for_and_the_die_still_goes_round():
    game = Game.new(["Alice", "Bruno", "Chloé"], tracked=[1])
    rollers = []
    for _turn in range(6):
        rollers.append(game.roller)
        game.apply(Roll("forest"))
        assert game.waiting_for() == [1]
        pen = "river" if game.roller != 1 else "woody_trio"
        game.apply(Place(1, "triceratops", pen))
    assert rollers == [0, 1, 2, 0, 1, 2]
    assert game.round == 2
    assert sum(len(v) for v in game.zoos[0].values()) == 0


def test_untracked_player_cannot_place():
    game = Game.new(["Alice", "Bruno", "Chloé"], tracked=[1])
    game.apply(Roll("forest"))
    assert game.check(Place(0, "trex", "river")).code == "draft_already_placed"


def test_king_is_compared_with_reported_counts():
    game = Game.new(["Alice", "Bruno"], tracked=[0], first_roller=0)
    game.apply(Roll("forest"))
    game.apply(Place(0, "trex", "king_of_the_jungle"))  # Alice rolled: free choice
    kept = game.score({1: {"trex": 1}}).players[0]
    lost = game.score({1: {"trex": 2}}).players[0]
    assert [p.name for p in game.score().players] == ["Alice"]
    # Alice has 1 T-Rex outside the river: 7 for the King against 1 (tie keeps it), 0 against 2; +1 T-Rex bonus.
    assert (kept.pens["king_of_the_jungle"], kept.total) == (7, 8)
    assert (lost.pens["king_of_the_jungle"], lost.total) == (0, 1)
    assert lost.details["king_of_the_jungle"].params["rival"] == "Bruno"


def test_tracked_survives_a_save():
    game = Game.new(["Alice", "Bruno", "Chloé"], tracked=[2])
    game.apply(Roll("grassland"))
    again = Game.from_json(game.to_json())
    assert again.tracked == (2,) and again.waiting_for() == [2]


@pytest.mark.parametrize("tracked", [[], [3], ["Alice"]])
def test_bad_tracked_lists_are_refused(tracked):
    with pytest.raises(BadInput):
        Game.new(["Alice", "Bruno", "Chloé"], tracked=tracked)


def test_full_mode_follows_everyone():
    with pytest.raises(BadInput):
        Game.new(["Alice", "Bruno"], mode="full", tracked=[0])
