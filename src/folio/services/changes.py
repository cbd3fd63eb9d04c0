"""What was written, for the lists that show it: a write bumps the topics it changes (``("comments", space_id)``,
``("change-requests", space_id)``); a list remembers the version it showed and loads again when it moved.

    services.changes.bump(("comments", space_id))
    seen = services.changes.version(("comments", space_id))   # ... later: if it moved, reload
"""

from __future__ import annotations

from collections.abc import Hashable

__all__ = ["Changes"]


class Changes:
    """A counter per topic."""

    def __init__(self) -> None:
        self._versions: dict[Hashable, int] = {}

    def bump(self, *topics: Hashable) -> None:
        for topic in topics:
            self._versions[topic] = self._versions.get(topic, 0) + 1

    def version(self, topic: Hashable) -> int:
        return self._versions.get(topic, 0)
