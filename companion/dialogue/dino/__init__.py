"""Dino at the table: its questions and narration (table), its queries, its set-up."""

from companion.dialogue.dino.table import DinoTable

__all__ = ["DinoTable"]
