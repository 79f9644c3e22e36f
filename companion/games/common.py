"""Pieces every game engine shares: reasons the narration can speak."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Reason:
    """Why something is refused (or what happened), as data.

    `code` names a message under `reasons.` in voices/<lang>/messages.yaml; `params` fills it.
    Parameters named species, pen, face (or lists species_list, pens, faces) hold canonical ids
    that the narration translates.
    """

    code: str
    params: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "params": dict(self.params)}
