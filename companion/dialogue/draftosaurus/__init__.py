"""Draftosaurus at the table: its questions and narration (table), its queries, its set-up."""

from companion.dialogue.draftosaurus.table import DraftosaurusTable, TableSettings

__all__ = ["DraftosaurusTable", "TableSettings"]
