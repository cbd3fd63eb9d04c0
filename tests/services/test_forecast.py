"""The conflict forecast against the seeded sandbox: open change requests editing the same page list each other,
and the ones that merging makes outdated are said."""

from __future__ import annotations

from typing import Any

import pytest

from folio.api import GitBookClient
from folio.models.change_request import ChangeRequest
from folio.sandbox import SandboxState
from folio.sandbox.domain.change_requests import open_change_request
from folio.sandbox.seed.change_requests import Edit, commit, edit
from folio.services import Services
from folio.services.review.forecast import Forecast, ForecastService, Touch, overlaps_of


def space_id(state: SandboxState, title: str) -> str:
    return next(sid for sid, s in state.spaces.items() if s["title"] == title and s["organization"] == state.demo_org)


def cr_of(state: SandboxState, subject: str) -> dict[str, Any]:
    return next(c for c in state.change_requests.values() if c["subject"] == subject)


def open_cr(state: SandboxState, space: str, subject: str, edits: list[Edit]) -> dict[str, Any]:
    record = open_change_request(state, space, state.default_user, subject=subject, at=state.now())
    commit(state, record, edits, state.now())
    record["status"] = "open"
    return record


@pytest.fixture
def forecast(client: GitBookClient) -> ForecastService:
    return Services(client).forecast


async def test_two_change_requests_editing_a_page_list_each_other(
    forecast: ForecastService, state: SandboxState
) -> None:
    space = space_id(state, "Getting Started")
    linux = cr_of(state, "Clarify Linux install steps")  # open, edits "Linux" and creates "Windows"
    mine = open_cr(state, space, "Linux: arm64 too", [edit("Linux", "", "\nArm64 boards work too.\n")])
    apart = open_cr(state, space, "Welcome wording", [edit("Welcome", "", "\nWelcome aboard.\n")])

    report = await forecast.forecast(space, mine["id"])
    assert [(o.cr.id, o.titles) for o in report.overlaps] == [(linux["id"], ("Linux",))]
    assert report.overlaps[0].summary == "both edit “Linux”"
    others = [c for c in state.change_requests.values() if c["space"] == space and c["status"] == "open"]
    assert report.open_others == len(others) - 1
    assert apart["id"] not in {o.cr.id for o in report.overlaps}

    theirs = await forecast.forecast(space, linux["id"])
    assert [o.cr.id for o in theirs.overlaps] == [mine["id"]]
    assert theirs.overlaps[0].becomes_outdated  # up to date now: merging Linux moves main under it

    marks = await forecast.overlapping(space)
    assert marks == {linux["id"]: [mine["number"]], mine["id"]: [linux["number"]]}


async def test_an_outdated_one_is_not_said_to_become_outdated(forecast: ForecastService, state: SandboxState) -> None:
    space = space_id(state, "Getting Started")
    mine = open_cr(state, space, "Linux: arm64 too", [edit("Linux", "", "\nArm64 boards work too.\n")])
    linux = cr_of(state, "Clarify Linux install steps")
    main = state.spaces[space]
    main["revision"] = state.revisions[mine["revision"]]["id"]  # main moved on: both are outdated now
    report = await forecast.forecast(space, linux["id"])
    [overlap] = report.overlaps
    assert overlap.cr.id == mine["id"] and not overlap.becomes_outdated
    assert report.outdated_after_merge == 0


async def test_a_change_list_is_read_once_per_revision(
    forecast: ForecastService, state: SandboxState, monkeypatch: pytest.MonkeyPatch
) -> None:
    space = space_id(state, "Getting Started")
    mine = open_cr(state, space, "Linux: arm64 too", [edit("Linux", "", "\nArm64 boards work too.\n")])
    asked: list[str] = []
    real = forecast._client.change_requests.changes

    async def counted(space_id: str, cr: str | int, **kwargs: Any) -> Any:
        asked.append(str(cr))
        return await real(space_id, cr, **kwargs)

    monkeypatch.setattr(forecast._client.change_requests, "changes", counted)
    first = await forecast.forecast(space, mine["id"])
    assert len(asked) == first.open_others + 1
    asked.clear()
    await forecast.forecast(space, mine["id"])
    assert asked == []  # nothing moved: every change list is kept
    commit(state, mine, [edit("Welcome", "", "\nHello.\n")], state.now())  # a new revision: read again
    again = await forecast.forecast(space, mine["id"])
    assert asked == [mine["id"]]
    me = await forecast.touch(space, await forecast._client.change_requests.get(space, mine["id"]))
    assert set(me.titles.values()) == {"Linux", "Welcome"} and len(again.overlaps) == 1
    assert asked == [mine["id"]]  # the kept answer of this revision


def test_overlaps_are_ordered_by_shared_pages() -> None:
    def cr(number: int, *, outdated: bool = False) -> ChangeRequest:
        return ChangeRequest.model_validate({"id": f"cr{number}", "space": "s", "number": number, "outdated": outdated})

    me = Touch(cr(1), {"a": "A", "b": "B", "c": "C"})
    one = Touch(cr(2), {"a": "A"})
    two = Touch(cr(3, outdated=True), {"b": "B", "c": "C", "z": "Z"})
    none = Touch(cr(4), {"z": "Z"})
    found = overlaps_of(me, [me, one, two, none])
    assert [(o.cr.number, o.titles, o.becomes_outdated) for o in found] == [(3, ("B", "C"), False), (2, ("A",), True)]


def test_the_forecast_says_what_merging_does() -> None:
    def cr(number: int) -> ChangeRequest:
        return ChangeRequest.model_validate({"id": f"cr{number}", "space": "s", "number": number})

    overlap = overlaps_of(Touch(cr(1), {"a": "A"}), [Touch(cr(2), {"a": "A"})])
    assert Forecast("cr1", [], 0, 0).summary == "No other change request is open on this space."
    assert Forecast("cr1", [], 1, 1).summary == "The other open change request edits other pages."
    assert Forecast("cr1", [], 3, 2).summary == "None of the 3 other open change requests edits the same pages."
    assert Forecast("cr1", overlap, 1, 1).summary == (
        "The other open change request edits the same pages; merging this one makes 1 open change request outdated."
    )
    assert Forecast("cr1", overlap, 4, 3, cut=True).summary == (
        "1 of the 4 other open change requests edit the same pages; merging this one makes 3 open change requests "
        "outdated. Some change lists were cut: an overlap may be missing."
    )
