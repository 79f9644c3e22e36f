"""Scripts of whole games for `companion play --engine text`: legal games played by the engine in full
mode, written down as the lines players would type at the table."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from companion.games.draftosaurus.engine import Discard, Game, Place, QuarantineMove, Roll
from companion.games.draftosaurus.simulate import play_random_game
from companion.language.messages import catalog


def random_game(players: list[str], seed: int, board: str = "summer") -> Game:
    """A complete legal game, played at random in full mode from a seeded stream."""
    return play_random_game(players, seed, board=board)


# How a player types a die face and a placement, with the spoken names of voices/<lang>/names.yaml; on the
# winter board a pyramid place, and where a Quarantine dinosaur goes.
TEMPLATES = {
    "fr": ("dé : {face}", "{player} : {species} dans {pen}"),
    "en": ("the die says {face}", "{player}: {species} in the {pen}"),
    "es": ("dado: {face}", "{player}: {species} en {pen}"),
}
PYRAMID = {"fr": "{player} : {species} {position} de la pyramide", "en": "{player}: {species} {position} of the pyramid",
           "es": "{player}: {species} {position} de la pirámide"}
QUARANTINE = {"fr": ("{player} : dans {pen}", "{player} : {position} de la pyramide"),
              "en": ("{player}: in the {pen}", "{player}: at the {position} of the pyramid"),
              "es": ("{player}: en {pen}", "{player}: {position} de la pirámide")}


def script_lines(game: Game, lang: str) -> list[str]:
    """What the table types for that game: each die face, each placement naming its player, each Quarantine
    dinosaur's destination.

    Discards of the 2-player variant are not typed: at the table they go back to the box unseen.
    """
    names = catalog(lang)
    die, place = TEMPLATES[lang]
    lines = []
    for action in game.actions:
        if isinstance(action, Roll):
            lines.append(die.format(face=names.name("faces", _value(action.face))))
        elif isinstance(action, Place):
            words = {"player": game.players[action.player], "species": names.name("species", _value(action.species)),
                     "pen": names.name("pens", _value(action.pen))}
            if action.position is None:
                lines.append(place.format(**words))
            else:
                lines.append(PYRAMID[lang].format(**words, position=names.name("positions", action.position)))
        elif isinstance(action, QuarantineMove):
            to_pen, to_place = QUARANTINE[lang]
            words = {"player": game.players[action.player], "pen": names.name("pens", action.pen)}
            lines.append(to_pen.format(**words) if action.position is None
                         else to_place.format(**words, position=names.name("positions", action.position)))
        else:
            assert isinstance(action, Discard)
    return lines


def _value(item) -> str:
    return getattr(item, "value", item)


def final_lines(output: str, names: list[str], lang: str) -> dict[str, str]:
    """Each player's final score line (the one that ends with the tactile code)."""
    marker = {"fr": "code tactile", "en": "tactile code", "es": "código táctil"}[lang]
    lines = {}
    for line in output.splitlines():
        for name in names:
            if line.startswith(name) and marker in line:
                lines[name] = line
    return lines


def run_play(args: list[str], lines: list[str], home: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    """`companion play ...` with the lines on standard input, saves kept under `home`."""
    env = dict(os.environ, COMPANION_HOME=str(home), COMPANION_CONFIG=str(home / "config.json"))
    return subprocess.run([sys.executable, "-m", "companion", *args], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=timeout, env=env)


def saved_state(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))["content"]
