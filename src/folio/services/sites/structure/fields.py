"""The fields a node may change, by kind, and the spec's limits on them, checked before anything is sent."""

from __future__ import annotations

from typing import Any

from folio.api import limits
from folio.api.errors import InvalidRequest
from folio.services.sites.structure.tree import GROUP, SECTION, SPACE

__all__ = ["EDITABLE", "NULLABLE", "field_problems"]

EDITABLE: dict[str, tuple[str, ...]] = {
    SECTION: ("title", "path", "icon", "description", "condition", "default"),
    GROUP: ("title", "icon"),
    SPACE: ("path", "condition", "hidden", "default"),
}
"""The fields the service lets change, by kind (a site space's title is its space's; links have no update)."""
_LENGTHS = {"path": (1, 100), "icon": (0, 50), "description": (0, 256), "condition": (0, 1024)}
NULLABLE = ("icon", "description", "condition")
"""Fields an empty value removes (sent as null)."""


def field_problems(kind: str, values: dict[str, Any]) -> dict[str, str]:
    """What breaks the spec's limits in ``values`` (field -> problem in words), before anything is sent; None
    (and so an empty icon, description or condition) removes the value."""
    out: dict[str, str] = {}
    for name, value in values.items():
        bounds = ((1, 100) if kind == GROUP else (2, 128)) if name == "title" else _LENGTHS.get(name)
        if bounds is None or (value is None and name in NULLABLE) or not isinstance(value, str | None):
            continue
        try:
            limits.check_length(name, value or "", min=bounds[0], max=bounds[1])
        except InvalidRequest as exc:
            out[name] = f"{exc.problem} ({exc.limit})"
    return out
