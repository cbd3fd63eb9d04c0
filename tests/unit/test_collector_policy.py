"""The collector's policy (``folio.tui.collector``): the start is frozen without being walked, a bulk load settling
makes a full pass over what came since the last freeze only, and a release owes one full pass. What the collector
is asked is recorded, not timed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from folio.tui import collector
from folio.tui.collector import BULK, Pass, plan


def test_plan() -> None:
    assert plan(frozen=False, owed=False) is Pass.YOUNG  # nothing frozen yet: the start's heap is not walked
    assert plan(frozen=True, owed=False) is Pass.FULL  # what came since the last freeze: small
    assert plan(frozen=False, owed=True) is Pass.FULL  # a release: what the widget held goes, once
    assert plan(frozen=True, owed=True) is Pass.FULL


class FakeApp:
    """Runs what is asked after the next refresh when :meth:`refresh` is called."""

    def __init__(self) -> None:
        self.after: list[tuple[Any, tuple[Any, ...]]] = []

    def call_after_refresh(self, callback: Any, *args: Any) -> None:
        self.after.append((callback, args))

    def refresh(self) -> None:
        waiting, self.after = self.after, []
        for callback, args in waiting:
            callback(*args)


class Node:
    def __init__(self, app: FakeApp | None) -> None:
        self._app = app

    @property
    def app(self) -> FakeApp:
        if self._app is None:
            raise RuntimeError("no app")
        return self._app


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """What the collector is asked, in order (the real one is not touched)."""
    asked: list[str] = []
    monkeypatch.setattr(collector.gc, "collect", lambda generation=2: asked.append(f"collect({generation})") or 0)
    monkeypatch.setattr(collector.gc, "freeze", lambda: asked.append("freeze"))
    monkeypatch.setattr(collector.gc, "unfreeze", lambda: asked.append("unfreeze"))
    monkeypatch.setattr(collector, "_frozen", False)
    monkeypatch.setattr(collector, "_owed_at", None)
    yield asked


def test_the_start_is_frozen_without_a_full_pass_then_each_load_makes_one(calls: list[str]) -> None:
    app = FakeApp()
    collector.started(app)
    assert calls == []  # after the frame, not now
    app.refresh()
    assert calls == ["collect(1)", "freeze"]

    collector.bulk_loaded(Node(app), BULK)
    collector.bulk_loaded(Node(app), BULK)  # two loads in one frame settle once
    app.refresh()
    assert calls[2:] == ["collect(2)", "freeze"]


def test_a_first_load_without_the_start_settled_does_not_walk_the_heap(calls: list[str]) -> None:
    app = FakeApp()
    collector.bulk_loaded(Node(app), BULK - 1)  # small: the collector's own pace
    app.refresh()
    assert calls == []
    collector.bulk_loaded(Node(app), BULK)
    app.refresh()
    assert calls == ["collect(1)", "freeze"]
    collector.bulk_loaded(Node(None), BULK)  # a widget out of any app: nothing to settle for
    assert calls == ["collect(1)", "freeze"]


def test_a_release_owes_one_full_pass(calls: list[str]) -> None:
    app = FakeApp()
    collector.bulk_loaded(Node(app), BULK)
    app.refresh()
    collector.bulk_released(Node(app))
    assert calls[-1] == "unfreeze"
    collector.bulk_loaded(Node(app), BULK)
    app.refresh()
    assert calls[-2:] == ["collect(2)", "freeze"]  # what the released widget held goes
    collector.started(app)
    app.refresh()
    assert calls[-2:] == ["collect(2)", "freeze"]  # frozen since: the part since the last freeze
