"""Jurassic Snack at the table: its questions and narration (table), its queries, its set-up, its words."""

from companion.dialogue.jurassic_snack.table import JurassicSnackTable, direction_between

__all__ = ["JurassicSnackTable", "direction_between"]
