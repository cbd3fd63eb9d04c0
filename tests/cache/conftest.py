"""Shared pieces of the cache tests: a clock the test moves by hand."""

from __future__ import annotations

import pytest


class Clock:
    """Stands in for ``time.time``: starts at a fixed instant and moves only when told."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def tick(self, seconds: float = 10.0) -> float:
        self.now += seconds
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()
