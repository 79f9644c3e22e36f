"""The games that can be played at the table, by the name the command line uses."""

from __future__ import annotations

import argparse
from importlib import import_module
from pathlib import Path
from typing import Any

from companion.dialogue.runner import GameDialogue
from companion.dialogue.table import Table
from companion.dialogue.session import Session


def _dialogue(name: str, module: str, table_class: str) -> GameDialogue:
    """How to run the game whose dialogue is `module`, imported only when that game is played."""

    def new_table(session: Session, args: argparse.Namespace, save_path: Path) -> Table:
        return import_module(module).new_table(session, args, save_path)

    def resume_table(session: Session, content: dict[str, Any], save_path: Path) -> Table:
        return getattr(import_module(module), table_class).from_save(session, content, save_path)

    return GameDialogue(name, new_table, resume_table)


GAMES: dict[str, GameDialogue] = {
    "draftosaurus": _dialogue("draftosaurus", "companion.dialogue.draftosaurus", "DraftosaurusTable"),
    "jurassic-snack": _dialogue("jurassic-snack", "companion.dialogue.jurassic_snack", "JurassicSnackTable"),
    "dino": _dialogue("dino", "companion.dialogue.dino", "DinoTable"),
}
