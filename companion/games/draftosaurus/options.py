"""The rule options of Draftosaurus: where the sources disagree, the players choose (docs/rules-decisions.md,
"Where the texts disagree: the rule options")."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from companion.games.common import Reason, refuse

TRIO_POINTS_CHOICES = (7, 6)


@dataclass(frozen=True)
class Options:
    """trio_points: 7 (official rules) or 6 (the French accessible rules);
    river_counts_for_island / river_counts_for_king: whether river dinosaurs count in the zoo for them."""

    trio_points: int = 7
    river_counts_for_island: bool = False
    river_counts_for_king: bool = False

    def __post_init__(self) -> None:
        if type(self.trio_points) is not int or self.trio_points not in TRIO_POINTS_CHOICES:
            refuse(Reason("draft_bad_trio_points", {"value": str(self.trio_points)}))
        for name in ("river_counts_for_island", "river_counts_for_king"):
            if not isinstance(getattr(self, name), bool):
                refuse(Reason("draft_bad_option_flag", {"option": name, "value": str(getattr(self, name))}))

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> Options:
        """Options from JSON; keys left out keep their default, an unknown key is refused."""
        if data is None:
            return cls()
        known = [field.name for field in fields(cls)]
        if not isinstance(data, dict):
            refuse(Reason("draft_options_not_an_object", {"known": known}))
        unknown = sorted(set(data) - set(known))
        if unknown:
            refuse(Reason("draft_unknown_option", {"value": str(unknown[0]), "known": known}))
        return cls(**data)

