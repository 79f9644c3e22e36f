"""The games that can be played at the table, by the name the command line uses."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from companion.dialogue.runner import GameDialogue
from companion.dialogue.session import Session


def _new_draftosaurus(session: Session, args: argparse.Namespace, save_path: Path):
    from companion.dialogue.draftosaurus import new_table

    return new_table(session, args, save_path)


def _resume_draftosaurus(session: Session, content: dict[str, Any], save_path: Path):
    from companion.dialogue.draftosaurus import DraftosaurusTable

    return DraftosaurusTable.from_save(session, content, save_path)


def _new_jurassic_snack(session: Session, args: argparse.Namespace, save_path: Path):
    from companion.dialogue.jurassic_snack import new_table

    return new_table(session, args, save_path)


def _resume_jurassic_snack(session: Session, content: dict[str, Any], save_path: Path):
    from companion.dialogue.jurassic_snack import JurassicSnackTable

    return JurassicSnackTable.from_save(session, content, save_path)


def _new_dino(session: Session, args: argparse.Namespace, save_path: Path):
    from companion.dialogue.dino import new_table

    return new_table(session, args, save_path)


def _resume_dino(session: Session, content: dict[str, Any], save_path: Path):
    from companion.dialogue.dino import DinoTable

    return DinoTable.from_save(session, content, save_path)


GAMES: dict[str, GameDialogue] = {
    "draftosaurus": GameDialogue("draftosaurus", _new_draftosaurus, _resume_draftosaurus),
    "jurassic-snack": GameDialogue("jurassic-snack", _new_jurassic_snack, _resume_jurassic_snack),
    "dino": GameDialogue("dino", _new_dino, _resume_dino),
}
